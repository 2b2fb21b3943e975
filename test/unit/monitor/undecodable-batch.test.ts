import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeCounts, eventPipeline, recordCounts } from "../../helpers/monitor.js";
import { ObservationClock } from "../../../src/pipeline/clock.js";

// An undecodable batch reaches the pipeline as a count of records: tallied as undecodable_batch of an
// unknown version, and reported as unreadable at the monitor's clock (the wall clock when it has none).

const T0 = Date.parse("2026-12-01T08:00:00Z");

afterEach(() => {
  vi.useRealTimers();
});

async function watched() {
  const unreadable: string[] = [];
  const clock = new ObservationClock();
  const { pipeline } = await eventPipeline("", "", {
    clock,
    unreadable: [
      (subject, topic, partition, reason, records, at) =>
        unreadable.push(`${subject.subject.name} ${topic}/${partition} ${reason} ${records} at ${at - T0}`),
    ],
  });
  return { pipeline, unreadable, clock };
}

describe("an undecodable batch", () => {
  it("is stamped with the monitor's clock, and its series keeps the latest time", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0 + 99_000);
    const { pipeline, unreadable, clock } = await watched();
    clock.advance(T0 + 5_000);
    pipeline.undecodableBatch("events", 2, 7);
    clock.advance(T0 + 1_000);
    pipeline.undecodableBatch("events", 2, 3);
    expect(unreadable).toEqual([
      "event events/2 undecodable_batch 7 at 5000",
      "event events/2 undecodable_batch 3 at 1000",
    ]);
    expect(decodeCounts(pipeline)).toEqual(["events undecodable_batch=10"]);
    expect(recordCounts(pipeline)).toEqual(["unknown unknown=10"]);
    const series = pipeline.tallies.allSeries.find((s) => s.count.value === 10)!;
    expect(series.lastObservedMs).toBe(T0 + 5_000);
  });

  it("without a monitor clock (a replay) takes the wall clock", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(T0 + 42_000);
    const { pipeline, unreadable } = await watched();
    pipeline.undecodableBatch("events", 0, 1);
    expect(unreadable).toEqual(["event events/0 undecodable_batch 1 at 42000"]);
  });

  it("on a topic no subject watches, is only counted, under the unknown topic", async () => {
    const { pipeline, unreadable } = await watched();
    pipeline.undecodableBatch("elsewhere", 0, 4);
    expect(unreadable).toEqual([]);
    expect(recordCounts(pipeline)).toEqual([]);
    expect(decodeCounts(pipeline)).toEqual(["unknown undecodable_batch=4"]);
  });
});
