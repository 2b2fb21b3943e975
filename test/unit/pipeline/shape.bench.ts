// What a shape key costs next to what the pipeline already spends on a sampled record: JSON.parse and
// ajv against every version of the event catalog (3 schemas). A plain script, not a test, because a
// timed assertion fails on a busy machine; read the ratios, which hold on any machine.
//
//   . scripts/node24.sh && node test/unit/pipeline/shape.bench.ts
//
// Node strips the types itself; the hook below maps the sources' `.js` import suffixes to `.ts`.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { registerHooks } from "node:module";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

registerHooks({
  resolve(specifier, context, next) {
    if (specifier.startsWith(".") && specifier.endsWith(".js") && context.parentURL?.startsWith("file:")) {
      const candidate = new URL(specifier.replace(/\.js$/, ".ts"), context.parentURL);
      if (existsSync(fileURLToPath(candidate))) return next(candidate.href, context);
    }
    return next(specifier, context);
  },
});

const { Corpus } = await import("../../../src/corpus/corpus.js");
const { ShapeKeys, shapeOf } = await import("../../../src/pipeline/shape.js");
const { loadCatalog } = await import("../../../src/catalog/load.js");
const { parseConfig } = await import("../../../src/config/load.js");

const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 200_000);

/** The bundled documents: every parseable payload of the example capture, and the article's docs. */
function bundledTexts(): string[] {
  const texts: string[] = [];
  for (const line of readFileSync("examples/traffic/events.ndjson", "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const value = (JSON.parse(line) as { value: unknown }).value;
    if (typeof value === "object" && value !== null && !("base64" in value))
      texts.push(JSON.stringify(value));
  }
  const docs = "examples/article/docs";
  for (const folder of readdirSync(docs)) {
    for (const name of readdirSync(join(docs, folder)))
      texts.push(readFileSync(join(docs, folder, name), "utf8"));
  }
  return texts;
}

function best(runs: number, work: () => void): number {
  let fastest = Infinity;
  for (let r = 0; r < runs; r++) {
    const start = performance.now();
    work();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

const texts = bundledTexts();
const documents = texts.map((t) => JSON.parse(t) as unknown);
const distinct = new Set(documents.map((d) => shapeOf(d).key)).size;
const config = parseConfig(
  `subjects:\n  - name: event\n    topics: [events]\n    schemas: ${resolve("examples/catalog/event")}\n`,
  resolve("bench.yaml"),
);
const subject = (await loadCatalog(config)).subjects.get("event")!;
const readers = subject.readers.map((r) => r.validate);
const keys = new ShapeKeys();
const corpus = new Corpus({ maxShapes: 200, redact: [] });
const detail = { conforms: true, at: 0 };
const n = documents.length;
let sink = 0;

const figures: Array<[string, number]> = [
  [
    "JSON.parse",
    best(5, () => {
      for (let i = 0; i < ROUNDS; i++) sink += (JSON.parse(texts[i % n]!) as object) ? 1 : 0;
    }),
  ],
  [
    `ajv, ${readers.length} schemas`,
    best(5, () => {
      for (let i = 0; i < ROUNDS; i++)
        for (const validate of readers) sink += validate(documents[i % n]) ? 1 : 0;
    }),
  ],
  [
    "ShapeKeys.key",
    best(5, () => {
      for (let i = 0; i < ROUNDS; i++) sink += keys.key(documents[i % n]).length;
    }),
  ],
  [
    "Corpus.observe",
    best(5, () => {
      for (let i = 0; i < ROUNDS; i++)
        corpus.observe("event", "1.1.0", "web", documents[i % n], undefined, detail);
    }),
  ],
  [
    "shapeOf (a new shape)",
    best(3, () => {
      for (let i = 0; i < ROUNDS / 20; i++) sink += shapeOf(documents[i % n]).key.length;
    }) * 20,
  ],
];

console.log(
  `${n} bundled documents, ${distinct} shapes, ${ROUNDS.toLocaleString("en-US")} per figure (best run)`,
);
const ajv = figures[1]![1];
for (const [name, ms] of figures) {
  const us = (ms * 1000) / ROUNDS;
  console.log(`  ${name.padEnd(22)} ${us.toFixed(3).padStart(7)} µs/document  ${(ms / ajv).toFixed(2)}× ajv`);
}
if (sink === -1) console.log("unreachable");
