#!/usr/bin/env node
// Runs `diff` for Protobuf (src/diff/protobuf/) on Confluent's own test pairs and lists where it agrees
// with the registry's checker and where not (docs/diff.md, "Protobuf"). The pairs are Confluent's
// protobuf-provider/src/test/resources/diff-schema-examples.json (confluentinc/schema-registry): each
// has an original and an update schema and whether Confluent calls the update (backward) compatible.
// The same pairs, restated, are in test/fixtures/checker-pairs/ and checked by test/unit/diff/checkers/.
//
//   npm run build && node scripts/protobuf-diff-corpus.js path/to/diff-schema-examples.json
import { readFileSync } from "node:fs";
import { parseProtoVersion } from "../dist/formats/protobuf/parse.js";
import { diffProto } from "../dist/diff/protobuf/index.js";

const pairs = JSON.parse(readFileSync(process.argv[2], "utf8"));
let agree = 0;
const disagreements = [];
const skipped = [];
for (const pair of pairs) {
  // Confluent's reserved-name metadata (`confluent:reserved`) is a registry rule about names; the
  // pair is judged by its records like the others (test/unit/diff/checkers/ holds the result).
  let result;
  try {
    // A side is read as `diff` reads a version (the format's parse); a reference's text comes in
    // `*_dependencies`, named by its import path.
    const refs = (deps) => (deps ?? []).map((d) => ({ name: d.name, text: d.dependency, references: [] }));
    const old = parseProtoVersion({
      name: "original.proto",
      text: pair.original_schema,
      references: refs(pair.original_dependencies),
    });
    const next = parseProtoVersion({
      name: "update.proto",
      text: pair.update_schema,
      references: refs(pair.update_dependencies),
    });
    result = diffProto(old, next);
  } catch (error) {
    skipped.push(`${pair.description} (does not parse: ${error.message})`);
    continue;
  }
  const ours = result.backward === "ok";
  if (ours === pair.compatible) agree++;
  else
    disagreements.push({
      description: pair.description,
      confluent: pair.compatible ? "compatible" : `incompatible (${pair.changes.join(", ")})`,
      ours: `${result.backward}: ${result.changes
        .filter((c) => c.backward !== "ok" || c.forward !== "ok" || /loses|misreads/.test(c.reason))
        .map(
          (c) =>
            `${c.kind} ${c.path}: ${c.reason}${c.witness?.backward ? ` [backward witness ${c.witness.backward.bytes}]` : ""}${c.witness?.forward ? ` [forward witness ${c.witness.forward.bytes}]` : ""}`,
        )
        .join("; ")}`,
    });
}
console.log(
  `${pairs.length} pairs: ${agree} agree, ${disagreements.length} disagree, ${skipped.length} not run`,
);
for (const d of disagreements)
  console.log(`- ${d.description}\n    Confluent: ${d.confluent}\n    schemawatch: ${d.ours}`);
for (const s of skipped) console.log(`- not run: ${s}`);
