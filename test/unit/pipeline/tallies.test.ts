import { describe, expect, it } from "vitest";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { Health } from "../../../src/health/health.js";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import { ObservationClock } from "../../../src/pipeline/clock.js";
import { Tallies, UNREADABLE, seenAt } from "../../../src/pipeline/tallies.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

const NOW = Date.parse("2026-12-01T08:00:00Z");
const V10 = { producer: "web", "schema-version": "1.0" };

/** The last-seen gauge of event 1.0.0 after the given records, read from /metrics as Prometheus would. */
async function lastSeenAfter(timestamps: number[], observedAt: number | undefined): Promise<number> {
  const clock = new ObservationClock();
  if (observedAt !== undefined) clock.advance(observedAt);
  const { pipeline, catalog } = await eventPipeline("", "", { clock });
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

describe("series", () => {
  const subject = (name: string) => ({ name, readers: [] }) as unknown as CatalogSubject;

  it("are found again by topic, producer and writer, and lastSeen reads one subject's alone", () => {
    const tallies = new Tallies();
    const [a, b] = [subject("a"), subject("b")];
    const first = tallies.series("ta", a, "web", undefined);
    first.lastSeenMs = 5_000;
    tallies.series("tb", b, "web", undefined).lastSeenMs = 9_000;
    tallies.series("tb", b, "app", UNREADABLE).lastSeenMs = 7_000;
    // Interleaved topics and producers each find their own series, through the topic's table too.
    expect(tallies.series("tb", b, "web", undefined)).not.toBe(first);
    expect(tallies.topic("ta").series(a, "web", undefined)).toBe(first);
    expect(tallies.series("ta", a, "web", undefined)).toBe(first);
    expect(tallies.records.map((c) => Object.values(c.labels).join(" "))).toEqual([
      "ta a web none",
      "tb b web none",
      "tb b app unknown",
    ]);
    expect([...tallies.lastSeen("a")]).toEqual([["none", 5]]);
    expect([...tallies.lastSeen("b")]).toEqual([
      ["none", 9],
      ["unknown", 7],
    ]);
    expect([...tallies.lastSeen("c")]).toEqual([]);
  });
});
