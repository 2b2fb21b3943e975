import { describe, expect, it } from "vitest";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { Health } from "../../../src/health/health.js";
import type { CatalogSubject } from "../../../src/catalog/types.js";
import { ObservationClock } from "../../../src/pipeline/clock.js";
import { Tallies, UNREADABLE } from "../../../src/pipeline/tallies.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

const NOW = Date.parse("2026-12-01T08:00:00Z");
const V10 = { producer: "web", "schema-version": "1.0" };

/**
 * The last-seen gauge of event 1.0.0 after records with the given timestamps, each read when the
 * monitor's clock said `observedAt` (undefined: a pipeline without a clock), as Prometheus reads it.
 */
async function lastSeenAfter(
  records: ReadonlyArray<{ timestamp: number; observedAt: number | undefined }>,
): Promise<number> {
  const clock = new ObservationClock();
  const { pipeline, catalog } = await eventPipeline("", "", { clock });
  for (const { timestamp, observedAt } of records) {
    if (observedAt !== undefined) clock.advance(observedAt);
    pipeline.process(record({ id: 1, event: "view" }, V10, { timestamp }));
  }
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

describe("the last-seen gauge", () => {
  it("is when the monitor read the newest record, whatever the producer stamped on it", async () => {
    const DAY = 86_400_000;
    // A producer's timestamp 400 days old (MirrorMaker, a backfill), in 2100, at 1970, or a second ago.
    for (const timestamp of [NOW - 400 * DAY, Date.UTC(2100, 0, 1), 1000, -1, NOW - 1000])
      expect([timestamp, await lastSeenAfter([{ timestamp, observedAt: NOW }])]).toEqual([
        timestamp,
        NOW / 1000,
      ]);
  });

  it("moves with the monitor's clock only, never back", async () => {
    expect(
      await lastSeenAfter([
        { timestamp: NOW, observedAt: NOW - 5000 },
        { timestamp: NOW - 400 * 86_400_000, observedAt: NOW },
      ]),
    ).toBe(NOW / 1000);
    expect(await lastSeenAfter([])).toBe(0);
  });
});

describe("series", () => {
  const subject = (name: string) => ({ name, readers: [] }) as unknown as CatalogSubject;

  it("are found again by topic, producer and writer, and lastSeen reads one subject's alone", () => {
    const tallies = new Tallies();
    const [a, b] = [subject("a"), subject("b")];
    const first = tallies.series("ta", a, "web", undefined);
    first.lastObservedMs = 5_000;
    tallies.series("tb", b, "web", undefined).lastObservedMs = 9_000;
    tallies.series("tb", b, "app", UNREADABLE).lastObservedMs = 7_000;
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
