import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/load.js";
import { StateFile } from "../../../src/state/file.js";
import { FieldStats } from "../../../src/stats/stats.js";
import { writeTree } from "../../helpers/files.js";
import { eventConfigYaml } from "../../helpers/monitor.js";

const T0 = Date.parse("2026-12-01T08:00:00Z");
const lifecycle = {
  format: 1,
  savedAt: T0,
  startedAt: T0,
  partitions: [],
  versions: { event: {} },
  candidates: { event: {} },
} as never;

describe("field statistics in the state file", () => {
  const config = parseConfig(eventConfigYaml(), "/tmp/config.yaml");

  it("are saved as the stats section and restored as they were, beside the lifecycle's section", async () => {
    const stats = new FieldStats(config.stats, []);
    const series = stats.store.series("event", "/amount", "number", "billing", "1.1.0");
    for (const v of [5, 50, 500]) stats.store.addNumber(series, T0, v);
    stats.store.addValue(stats.store.series("event", "/event", "values", "web", "none"), T0, "buy");
    const file = new StateFile(`${await writeTree({})}/state.json`);
    await file.write({ lifecycle, stats: stats.toJSON() });
    const read = await file.read();
    expect(read.sections?.lifecycle).toEqual(lifecycle);
    const restored = FieldStats.restore(config.stats, [], read.sections?.stats);
    expect(restored.problem).toBeUndefined();
    expect(restored.stats.toJSON()).toEqual(JSON.parse(JSON.stringify(stats.toJSON())));
  });

  it("are made again at most once a minute, and at the last save before a stop whatever the minute", () => {
    const stats = new FieldStats(config.stats, []);
    const series = stats.store.series("event", "/amount", "number", "billing", "1.1.0");
    const count = (json: ReturnType<FieldStats["saved"]>) =>
      json.series.reduce((n, s) => n + s.buckets.length, 0);
    expect(count(stats.saved(T0))).toBe(0);
    stats.store.addNumber(series, T0, 5);
    expect(count(stats.saved(T0 + 59_999))).toBe(0);
    expect(count(stats.saved(T0 + 59_999, true))).toBe(1);
  });

  it("leave out a field redacted since they were saved", () => {
    const stats = new FieldStats(config.stats, []);
    stats.store.addNumber(stats.store.series("event", "/amount", "number", "billing", "1.1.0"), T0, 5);
    stats.store.addNumber(stats.store.series("event", "/customer/age", "number", "billing", "1.1.0"), T0, 5);
    const saved = JSON.parse(JSON.stringify(stats.toJSON())) as unknown;
    const restored = FieldStats.restore(config.stats, ["/customer"], saved).stats;
    expect([...restored.store.all()].map((s) => s.field)).toEqual(["/amount"]);
  });

  it("start afresh, saying why, when the saved section cannot be read", () => {
    const restored = FieldStats.restore(config.stats, [], { bucketMs: 60_000, dropped: 0, series: [] });
    expect(restored.problem).toBe("the saved statistics use 60000 ms buckets, not 3600000");
    expect([...restored.stats.store.all()]).toEqual([]);
    expect(FieldStats.restore(config.stats, [], { bucketMs: 3_600_000, series: "x" }).problem).toBe(
      "the saved statistics have no series list",
    );
  });
});
