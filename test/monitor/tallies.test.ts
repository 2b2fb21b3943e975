import { describe, expect, it } from "vitest";
import { createRegistry } from "../../src/metrics/registry.js";
import { Health } from "../../src/monitor/health.js";
import { seenAt } from "../../src/monitor/tallies.js";
import { eventPipeline, record } from "../helpers/monitor.js";

const NOW = Date.parse("2026-12-01T08:00:00Z");
const V10 = { producer: "web", "schema-version": "1.0" };

/** The last-seen gauge of event 1.0.0 after the given records, read from /metrics as Prometheus would. */
async function lastSeenAfter(timestamps: number[], observedAt: number | undefined): Promise<number> {
  const { pipeline, catalog } = await eventPipeline();
  pipeline.observedAt = observedAt;
  for (const timestamp of timestamps) pipeline.process(record({ id: 1, event: "view" }, V10, { timestamp }));
  const text = await createRegistry({
    pipeline,
    health: new Health(),
    catalog: () => catalog,
    version: "0",
  }).metrics();
  const line = text
    .split("\n")
    .find((l) =>
      l.startsWith('schemawatch_version_last_seen_timestamp_seconds{subject="event",version="1.0.0"} '),
    );
  return Number(line!.split(" ")[1]);
}

describe("the last-seen timestamp", () => {
  it("believes a record's timestamp between 2000 and 5 minutes ahead of the monitor's clock", () => {
    expect(seenAt(NOW - 3_600_000, NOW)).toBe(NOW - 3_600_000);
    expect(seenAt(NOW + 299_000, NOW)).toBe(NOW + 299_000);
    expect(seenAt(Date.UTC(2000, 0, 1), NOW)).toBe(Date.UTC(2000, 0, 1));
  });

  it("takes the time the monitor read a record whose timestamp is before 2000 or in the future", () => {
    for (const timestamp of [1000, 0, -1, Date.UTC(1999, 11, 31), NOW + 301_000, NOW + 86_400_000 * 365, NaN])
      expect([timestamp, seenAt(timestamp, NOW)]).toEqual([timestamp, NOW]);
  });

  it("moves nothing for a replayed record stamped before 2000 (the records are the only clock there)", () => {
    expect(seenAt(1000, undefined)).toBe(0);
    expect(seenAt(NOW + 86_400_000, undefined)).toBe(NOW + 86_400_000);
  });

  it("never makes the gauge 1 (1970) or a time in the future, so time() - last_seen alerts hold", async () => {
    expect(await lastSeenAfter([NOW - 5000, 1000], NOW)).toBe(NOW / 1000);
    expect(await lastSeenAfter([NOW - 5000, NOW + 86_400_000], NOW)).toBe(NOW / 1000);
    expect(await lastSeenAfter([NOW - 5000, NOW - 9000], NOW)).toBe((NOW - 5000) / 1000);
    expect(await lastSeenAfter([1000], undefined)).toBe(0);
    expect(await lastSeenAfter([1000, NOW - 5000], undefined)).toBe((NOW - 5000) / 1000);
  });
});
