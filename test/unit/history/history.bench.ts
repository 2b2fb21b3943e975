// What the traffic history costs a record, side by side: the pipeline with the field tallies as its
// only `counted` listener, then with the history before them (as monitor/core.ts composes them), at
// sample ratio 0.01 with 3 fields of interest (or none), records of 4 producers and 2 versions in turn. A plain
// script, not a test, because a timed assertion fails on a busy machine; read the ratios.
//
//   . scripts/node24.sh && node test/unit/history/history.bench.ts
//
// Node strips the types itself; the hook below maps the sources' `.js` import suffixes to `.ts`.
import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

const { loadCatalog } = await import("../../../src/catalog/load.js");
const { parseConfig } = await import("../../../src/config/load.js");
const { ValidationBudget } = await import("../../../src/engine/budget.js");
const { FieldTallies } = await import("../../../src/fields/tallies.js");
const { TrafficHistory } = await import("../../../src/history/history.js");
const { Pipeline } = await import("../../../src/pipeline/pipeline.js");
const { InThreadValidation } = await import("../../../src/pipeline/workers/in-thread.js");

const RECORDS = Number(process.env["BENCH_RECORDS"] ?? 300_000);
const RUNS = Number(process.env["BENCH_RUNS"] ?? 7);

// BENCH_FIELDS=0: a subject without fields of interest, whose records the history counts one by one.
const tracked = process.env["BENCH_FIELDS"] !== "0";
const schema = tracked
  ? {
      properties: {
        id: { type: "integer" },
        amount: { type: "number", deprecated: true },
        total: { type: "number" },
        note: { type: "string", deprecated: true },
      },
      required: ["id"],
    }
  : { properties: { id: { type: "integer" } }, required: ["id"] };
const dir = mkdtempSync(join(tmpdir(), "schemawatch-history-bench-"));
mkdirSync(join(dir, "pay"));
writeFileSync(join(dir, "pay/1.0.json"), JSON.stringify(schema));
writeFileSync(join(dir, "pay/1.1.json"), JSON.stringify(schema));
const config = parseConfig(
  [
    "subjects:",
    "  - name: pay",
    "    topics: [payments]",
    "    schemas: pay",
    "    sampling: { ratio: 0.01 }",
    "    versions:",
    '      "1.0.0": { status: deprecated }',
    '      "1.1.0": { status: active }',
  ].join("\n"),
  join(dir, "config.yaml"),
);
const catalog = await loadCatalog(config);
const producers = ["billing", "web", "mobile", "batch"];
const records = Array.from({ length: RECORDS }, (_, i) => ({
  topic: "payments",
  partition: 0,
  offset: String(i),
  timestamp: Date.UTC(2026, 11, 1) + i * 10,
  key: null,
  headers: { producer: producers[i % 4]!, "schema-version": i % 3 ? "1.1" : "1.0" },
  value: Buffer.from(JSON.stringify({ id: i, amount: i, total: i, items: [1, 2, 3], name: "x".repeat(100) })),
}));

/** CPU µs a record, the records processed in batches of 1000 as a source hands them. */
async function run(withHistory: boolean): Promise<number> {
  const fields = new FieldTallies(catalog);
  const history = new TrafficHistory({ fields: (s) => fields.subject(s) });
  const pipeline = new Pipeline(catalog, config, {
    counted: withHistory ? [history.listener, fields.listener] : [fields.listener],
    runner: new InThreadValidation(false, new ValidationBudget(config.validationTimeout), false),
  });
  const started = process.cpuUsage();
  for (let batch = 0; batch < RECORDS; batch += 1000) {
    for (let i = batch; i < Math.min(RECORDS, batch + 1000); i++) pipeline.process(records[i]!);
    await pipeline.flush();
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / RECORDS;
}

for (let r = 0; r < RUNS; r++) {
  const without = await run(false);
  const withHistory = await run(true);
  console.log(
    `fields only ${without.toFixed(3)} µs, with the history ${withHistory.toFixed(3)} µs a record: ${(withHistory / without).toFixed(3)}×`,
  );
}
