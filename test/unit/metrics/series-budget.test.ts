import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { Health } from "../../../src/health/health.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";

// The series budget of docs/metrics.md, counted on what a registry really exports: a 200-subject
// catalog stays under 10,000 series with `metrics.producerDetail: false`, and each metric's count is
// exactly what the formula says, in both modes.

const SUBJECTS = 200;
/** Per subject: three producers send 1.1.0 with `amount` (which the closed 1.0.0 rejects), two send 1.0.0. */
const PRODUCERS = [
  { name: "web", version: "1.1", document: { id: 1, amount: 5 } },
  { name: "mobile", version: "1.1", document: { id: 2, amount: 6 } },
  { name: "partner", version: "1.1", document: { id: 3, amount: 7 } },
  { name: "legacy", version: "1.0", document: { id: 4 } },
  { name: "batch", version: "1.0", document: { id: 5 } },
];
const FAILING = PRODUCERS.filter((p) => p.version === "1.1").length;

/** `schemawatch_*` series per metric name in an exposition. */
function seriesPerMetric(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const name = /^[a-zA-Z_:][\w:]*/.exec(line)![0];
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

async function exposition(producerDetail: boolean): Promise<string> {
  const subjects = Array.from({ length: SUBJECTS }, (_, i) => `s${String(i).padStart(3, "0")}`);
  const files: Record<string, unknown> = {};
  const config = ["subjects:"];
  for (const name of subjects) {
    files[`catalog/${name}/1.0.json`] = {
      type: "object",
      properties: { id: { type: "integer" } },
      additionalProperties: false,
    };
    files[`catalog/${name}/1.1.json`] = {
      type: "object",
      properties: { id: { type: "integer" }, amount: { type: "number" } },
    };
    config.push(
      `  - name: ${name}`,
      `    topics: [t-${name}]`,
      `    schemas: catalog/${name}`,
      "    versions:",
      '      "1.0.0": { status: deprecated }',
      '      "1.1.0": { status: active }',
    );
  }
  config.push("metrics:", `  producerDetail: ${producerDetail}`);
  const dir = await writeTree(files);
  const parsed = parseConfig(config.join("\n"), join(dir, "config.yaml"));
  const catalog = await loadCatalog(parsed);
  const pipeline = new Pipeline(catalog, parsed);
  const registry = createRegistry({
    pipeline,
    health: new Health(),
    catalog: () => catalog,
    version: "0",
    producerDetail: parsed.metrics.producerDetail,
  });
  for (const name of subjects) {
    for (const producer of PRODUCERS) {
      pipeline.process(
        record(
          producer.document,
          { producer: producer.name, "schema-version": producer.version },
          { topic: `t-${name}` },
        ),
      );
    }
  }
  return registry.metrics();
}

/**
 * docs/metrics.md's formula for this catalog: per subject T = 1 topic, V = R = 2 versions (both
 * readers), D = 1 deprecated, C = 0 candidates, Q = 1 producer known before traffic (`unknown`), and
 * W = 5 (topic, producer, writer) label sets that traffic creates.
 */
function formula(producerDetail: boolean): Record<string, number> {
  const [T, V, R, D, C, Q, W] = [1, 2, 2, 1, 0, 1, PRODUCERS.length];
  const S = SUBJECTS;
  return {
    schemawatch_records_total: S * (T * Q * (V + 2) + W),
    schemawatch_validations_total: S * (producerDetail ? 2 * R * (T * Q * (V + 1) + W) : 2 * R * T * (V + 1)),
    // one per (record series, reader, keyword) that failed: each 1.1.0 producer fails 1.0.0 on
    // additionalProperties; summed over producers, one per subject
    schemawatch_validation_failures_total: S * (producerDetail ? FAILING : 1),
    schemawatch_decode_errors_total: S * T * 13,
    schemawatch_tombstones_total: S * T,
    schemawatch_schema_version_info: S * V,
    schemawatch_version_last_seen_timestamp_seconds: S * (V + 1),
    schemawatch_sample_ratio: S,
    schemawatch_drain_window_seconds: S,
    schemawatch_version_removable: S * D,
    // S * C = 0: no candidate, so no series (the metric is absent from the exposition)
    ...(C > 0 ? { schemawatch_candidate_ready: S * C } : {}),
    schemawatch_assigned_partitions: S * T,
    schemawatch_coverage_gap_total: S * T,
    schemawatch_label_overflow_total: 1,
    schemawatch_broker_up: 1,
    schemawatch_ready: 1,
    schemawatch_build_info: 1,
    // the series budget's report: folded series of the validations and their failures, and of the
    // seven metrics it folds when that is not enough (records, decode errors, tombstones, last seen,
    // candidate ready, field quartiles and findings): none here
    schemawatch_series_folded: 10,
  };
}

const own = (counts: Map<string, number>) =>
  Object.fromEntries([...counts].filter(([name]) => name.startsWith("schemawatch_")).sort());
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

describe("the series budget of a 200-subject catalog", () => {
  it("is exactly the formula with the per-producer detail of validations, 13,614 schemawatch series", async () => {
    const counts = own(seriesPerMetric(await exposition(true)));
    expect(counts).toEqual(Object.fromEntries(Object.entries(formula(true)).sort()));
    expect(total(counts)).toBe(13_614);
  });

  it("is exactly the formula without it: 9,214 schemawatch series, under 10,000 with the process metrics", async () => {
    const all = seriesPerMetric(await exposition(false));
    const counts = own(all);
    expect(counts).toEqual(Object.fromEntries(Object.entries(formula(false)).sort()));
    expect(total(counts)).toBe(9_214);
    // prom-client's process and Node.js metrics: about 96, whatever the catalog
    const process = [...all].filter(([name]) => !name.startsWith("schemawatch_"));
    expect(total(Object.fromEntries(process))).toBeLessThan(10_000 - 9_214);
  });
});
