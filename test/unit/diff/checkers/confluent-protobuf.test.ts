import { describe, expect, it } from "vitest";
import { diffProto, type ProtoDiffResult } from "../../../../src/diff/protobuf/index.js";
import { parseProto } from "../../../../src/formats/protobuf/parse.js";
import {
  CONFLUENT_PROTOBUF,
  type ConfluentPair,
} from "../../../fixtures/checker-pairs/confluent-protobuf.js";

// docs/diff.md, "Against Confluent's checker, on its own test pairs": every pair of Confluent's
// Protobuf diff test, run by `diff`, with the exact list of agreements and disagreements. Confluent
// answers one question per pair (is NEW backward compatible?), compared with this diff's `backward`.

const files = (imports?: Readonly<Record<string, string>>) =>
  Object.entries(imports ?? {}).map(([name, text]) => ({ name, text, references: [] }));
const run = (pair: ConfluentPair): ProtoDiffResult =>
  diffProto(
    parseProto({ name: "original.proto", text: pair.old, references: files(pair.oldImports) }),
    parseProto({ name: "update.proto", text: pair.new, references: files(pair.newImports) }),
  );

/** Each disagreement as docs/diff.md lists it: both directions, and the witness bytes of each. */
const DISAGREEMENTS = {
  "Detect package change": { backward: "ok", forward: "ok", witnesses: [] },
  "Detect removed required field": {
    backward: "ok",
    forward: "breaks",
    // backward: NEW drops OLD's field (lossy); forward: the empty body lacks OLD's required field.
    witnesses: ["required-field-removed backward 1202c3a9", "required-field-removed forward "],
  },
  "Detect incompatible remove field from oneof": {
    backward: "ok",
    forward: "ok",
    witnesses: ["field-removed backward 18ffffffffffffffffff01"],
  },
  "Detect incompatible field label change for number": {
    backward: "ok",
    forward: "breaks",
    witnesses: ["field-label-changed forward 0a14ffffffffffffffffff01ffffffffffffffffff01"],
  },
  "Detect moving to import": { backward: "ok", forward: "ok", witnesses: [] },
  "Detect incompatible drop of a oneof member while renaming the oneof": {
    backward: "ok",
    forward: "ok",
    witnesses: ["field-removed backward 10ffffffffffffffffff01"],
  },
} as const;

describe("diff of a Protobuf pair, against Confluent's own test pairs (diff-schema-examples.json)", () => {
  const outcomes = CONFLUENT_PROTOBUF.map((pair) => ({ pair, result: run(pair) }));

  it("decides all 54 pairs: 48 agree, 6 disagree (the reserved-name pair judged by its records)", () => {
    expect(outcomes).toHaveLength(54);
    const agree = outcomes.filter(({ pair, result }) => (result.backward === "ok") === pair.compatible);
    expect(agree).toHaveLength(48);
    expect(outcomes.length - agree.length).toBe(6);
    // The pair about Confluent's `confluent:reserved` metadata adds a field the metadata does not
    // reserve: the record rule says ok (NEW reads OLD's records, lacking only the new field), as
    // Confluent does.
    const reserved = outcomes.filter(({ pair }) => pair.reserved !== undefined);
    expect(
      reserved.map(({ pair, result }) => [pair.name, pair.compatible, result.backward, result.forward]),
    ).toEqual([["Allow addition of un-reserved property", true, "ok", "ok"]]);
  });

  it("disagrees exactly where docs/diff.md says, with its verdicts and witnesses", () => {
    const found = Object.fromEntries(
      outcomes
        .filter(({ pair, result }) => (result.backward === "ok") !== pair.compatible)
        .map(({ pair, result }) => [
          pair.name,
          {
            backward: result.backward,
            forward: result.forward,
            witnesses: result.changes.flatMap((c) =>
              (["backward", "forward"] as const).flatMap((way) => {
                const w = c.witness?.[way];
                return w ? [`${c.kind} ${way} ${w.bytes}`] : [];
              }),
            ),
          },
        ]),
    );
    expect(found).toEqual(DISAGREEMENTS);
    // Every disagreement is Confluent saying "incompatible" where no record OLD writes fails NEW.
    for (const name of Object.keys(DISAGREEMENTS))
      expect(CONFLUENT_PROTOBUF.find((p) => p.name === name)?.compatible).toBe(false);
  });

  it("names the 48 agreements", () => {
    const agree = outcomes
      .filter(({ pair, result }) => (result.backward === "ok") === pair.compatible)
      .map(({ pair }) => pair.name);
    expect(agree).toEqual(CONFLUENT_PROTOBUF.map((p) => p.name).filter((n) => !(n in DISAGREEMENTS)));
    expect(new Set(agree).size).toBe(48);
  });
});
