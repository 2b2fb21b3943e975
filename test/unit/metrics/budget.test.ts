import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { SeriesBudget, foldProducers } from "../../../src/metrics/budget.js";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { Health } from "../../../src/health/health.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";

// The series budget (metrics.seriesBudget): over it, per-producer series that need no attention are
// summed over producers; a deprecated writer version and a (writer, reader) pair that would fail keep
// every producer. Counted on what a real registry exports.

type Json = { name: string; values: { labels: Record<string, string | number>; value: number }[] };

/** Subject pay: 1.0.0 deprecated and closed, 1.1.0 and 1.2.0 active with `amount`. */
async function monitor(seriesBudget?: number) {
  const closed = { type: "object", properties: { id: { type: "integer" } }, additionalProperties: false };
  const open = { type: "object", properties: { id: { type: "integer" }, amount: { type: "number" } } };
  const dir = await writeTree({
    "catalog/pay/1.0.json": closed,
    "catalog/pay/1.1.json": open,
    "catalog/pay/1.2.json": open,
  });
  const config = parseConfig(
    [
      "subjects:",
      "  - name: pay",
      "    topics: [t-pay]",
      "    schemas: catalog/pay",
      "    versions:",
      '      "1.0.0": { status: deprecated }',
      '      "1.1.0": { status: active }',
      '      "1.2.0": { status: active }',
    ].join("\n"),
    join(dir, "config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const pipeline = new Pipeline(catalog, config);
  const registry = createRegistry({
    pipeline,
    health: new Health(),
    catalog: () => catalog,
    version: "0",
    ...(seriesBudget === undefined ? {} : { seriesBudget: new SeriesBudget(seriesBudget) }),
  });
  const send = (producer: string, version: string, document: object) =>
    pipeline.process(record(document, { producer, "schema-version": version }, { topic: "t-pay" }));
  // web twice and mobile once send 1.1.0 with `amount`, which the closed 1.0.0 rejects; legacy sends 1.0.0.
  send("web", "1.1", { id: 1, amount: 5 });
  send("web", "1.1", { id: 2, amount: 6 });
  send("mobile", "1.1", { id: 3, amount: 7 });
  send("legacy", "1.0", { id: 4 });
  return registry;
}

async function scrape(seriesBudget?: number): Promise<Map<string, Json["values"]>> {
  const json = (await (await monitor(seriesBudget)).getMetricsAsJSON()) as unknown as Json[];
  return new Map(json.map((m) => [m.name, m.values]));
}

/** The metrics the budget sums over producers, then the ones it folds only at depth `writers`. */
const FOLDABLE = [
  "schemawatch_validations_total",
  "schemawatch_validation_failures_total",
  "schemawatch_validation_losses_total",
];
const LATE = [
  "schemawatch_records_total",
  "schemawatch_decode_errors_total",
  "schemawatch_tombstones_total",
  "schemawatch_version_last_seen_timestamp_seconds",
  "schemawatch_candidate_ready",
  "schemawatch_field_quantile",
  "schemawatch_field_findings",
];

/** Every schemawatch series of an unfolded scrape but the budget's own report. */
async function ownSeries(): Promise<number> {
  return [...(await scrape())]
    .filter(([name]) => name.startsWith("schemawatch_") && name !== "schemawatch_series_folded")
    .reduce((n, [, values]) => n + values.length, 0);
}

const line = (v: Json["values"][number]) =>
  `${v.labels["producer"] ?? "-"} ${v.labels["writer_version"]}>${v.labels["reader_version"]} ${v.labels["result"]} ${v.value}`;
const lines = (values: Json["values"] | undefined) => (values ?? []).map(line).sort();

describe("the series budget", () => {
  it("folds nothing under the budget: every producer's series, and 0 folded", async () => {
    const metrics = await scrape(10_000);
    // unknown (at zero) for 1.0.0, 1.1.0, 1.2.0 and none, + web, mobile and legacy: 7 × 3 readers × 2
    expect(metrics.get("schemawatch_validations_total")).toHaveLength(42);
    expect(metrics.get("schemawatch_series_folded")).toEqual(
      [...FOLDABLE, ...LATE].map((metric) => ({ labels: { metric }, value: 0 })),
    );
  });

  it("over it, keeps the producers of the deprecated version and of the failing pair, and sums the rest", async () => {
    // One under the unfolded count: summing over producers is enough, so it goes no deeper.
    const metrics = await scrape((await ownSeries()) - 1);
    expect(lines(metrics.get("schemawatch_validations_total"))).toEqual(
      [
        // 1.0.0 is deprecated: every producer, every reader
        ...["unknown", "legacy"].flatMap((p) =>
          ["1.0.0", "1.1.0", "1.2.0"].flatMap((r) => [
            `${p} 1.0.0>${r} fail 0`,
            `${p} 1.0.0>${r} pass ${p === "legacy" ? 1 : 0}`,
          ]),
        ),
        // 1.1.0 read as 1.0.0 fails: who sends it stays named
        "unknown 1.1.0>1.0.0 fail 0",
        "unknown 1.1.0>1.0.0 pass 0",
        "web 1.1.0>1.0.0 fail 2",
        "web 1.1.0>1.0.0 pass 0",
        "mobile 1.1.0>1.0.0 fail 1",
        "mobile 1.1.0>1.0.0 pass 0",
        // the rest, summed over producers (unknown's zeros, web's and mobile's counts)
        "- 1.1.0>1.1.0 fail 0",
        "- 1.1.0>1.1.0 pass 3",
        "- 1.1.0>1.2.0 fail 0",
        "- 1.1.0>1.2.0 pass 3",
        ...["1.2.0", "none"].flatMap((w) =>
          ["1.0.0", "1.1.0", "1.2.0"].flatMap((r) => [`- ${w}>${r} fail 0`, `- ${w}>${r} pass 0`]),
        ),
      ].sort(),
    );
    // the failures of the failing pair keep their producers
    expect(lines(metrics.get("schemawatch_validation_failures_total"))).toEqual([
      "mobile 1.1.0>1.0.0 undefined 1",
      "web 1.1.0>1.0.0 undefined 2",
    ]);
    // 42 series before, 12 + 6 kept and 16 sums after
    expect(metrics.get("schemawatch_series_folded")).toEqual([
      { labels: { metric: "schemawatch_validations_total" }, value: 42 - 34 },
      ...[...FOLDABLE.slice(1), ...LATE].map((metric) => ({ labels: { metric }, value: 0 })),
    ]);
  });

  it("far over it, sums over writers and topics too, the passes of readers no one fails over readers, and leaves out zeros", async () => {
    const metrics = await scrape(1);
    // 1.1.0 read as 1.0.0 fails (web 2, mobile 1): that reader keeps its series; every other
    // validation passed (1.1.0 as 1.1.0 and 1.2.0 three times each, 1.0.0 as all three readers once)
    // strictly: a label left out is absent, never `undefined`
    expect(metrics.get("schemawatch_validations_total")).toStrictEqual([
      { labels: { subject: "pay", result: "pass" }, value: 9 },
      { labels: { subject: "pay", reader_version: "1.0.0", direction: "forward", result: "fail" }, value: 3 },
    ]);
    expect(metrics.get("schemawatch_validation_failures_total")).toEqual([
      {
        labels: {
          subject: "pay",
          reader_version: "1.0.0",
          direction: "forward",
          keyword: "additionalProperties",
        },
        value: 3,
      },
    ]);
    // records keep their producers (who sends the deprecated 1.0.0); the zeros of `unknown` go
    expect(lines(metrics.get("schemawatch_records_total"))).toEqual([
      "legacy 1.0.0>undefined undefined 1",
      "mobile 1.1.0>undefined undefined 1",
      "web 1.1.0>undefined undefined 2",
    ]);
    expect(metrics.get("schemawatch_decode_errors_total")).toEqual([]);
    // the deprecated version's verdict stays, at 0: it needs attention
    expect(metrics.get("schemawatch_version_removable")).toEqual([
      { labels: { subject: "pay", version: "1.0.0" }, value: 0 },
    ]);
    expect(metrics.get("schemawatch_series_folded")).toEqual(
      [
        ["schemawatch_validations_total", 42 - 2],
        ["schemawatch_validation_failures_total", 2 - 1],
        // JSON Schema readers drop nothing: no loss series to fold
        ["schemawatch_validation_losses_total", 0],
        ["schemawatch_records_total", 8 - 3],
        ["schemawatch_decode_errors_total", 13],
        ["schemawatch_tombstones_total", 1],
        // 1.2.0 and none never seen
        ["schemawatch_version_last_seen_timestamp_seconds", 2],
        ["schemawatch_candidate_ready", 0],
        ["schemawatch_field_quantile", 0],
        ["schemawatch_field_findings", 0],
      ].map(([metric, value]) => ({ labels: { metric }, value })),
    );
  });

  it("counts every schemawatch series of the scrape: at the unfolded count it folds nothing, one below it folds", async () => {
    const own = await ownSeries();
    const folded = async (budget: number) =>
      (await scrape(budget)).get("schemawatch_series_folded")!.reduce((n, v) => n + v.value, 0);
    expect(await folded(own)).toBe(0);
    expect(await folded(own - 1)).toBe(8);
  });
});

describe("foldProducers", () => {
  it("sums what it does not keep over producer, by the other labels, in first-seen order", () => {
    const samples = [
      { labels: { producer: "a", v: "1", r: "x" }, value: 1 },
      { labels: { producer: "b", v: "1", r: "x" }, value: 2 },
      { labels: { producer: "a", v: "2", r: "x" }, value: 4 },
      { labels: { producer: "c", v: "1", r: "x" }, value: 8 },
      { labels: { producer: "b", v: "2", r: "x" }, value: 16 },
    ];
    expect(foldProducers(samples, (l) => l["v"] === "2")).toEqual([
      { labels: { v: "1", r: "x" }, value: 11 },
      { labels: { producer: "a", v: "2", r: "x" }, value: 4 },
      { labels: { producer: "b", v: "2", r: "x" }, value: 16 },
    ]);
  });
});
