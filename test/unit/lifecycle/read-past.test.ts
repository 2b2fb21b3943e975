import { describe, expect, it } from "vitest";
import { Coverage, type PartitionCoverage } from "../../../src/lifecycle/coverage.js";

// Coverage.readPast: the consumer moved past offsets that hold nothing a committed reader sees (an
// aborted transaction's records, transaction markers). No gap, no version; the offset moves on, a
// transaction that ended there is over, and a partition read to its high watermark has caught up.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;

function entry(fields: Partial<PartitionCoverage> = {}): PartitionCoverage {
  return {
    topic: "events",
    partition: 0,
    coveredSince: s(0),
    lastOffset: "9",
    observedUntil: s(0),
    ...fields,
  };
}

describe("reading past offsets that hold no record", () => {
  it("of a partition never observed: nothing, not even an entry", () => {
    const coverage = new Coverage();
    coverage.readPast("events", 0, "20", s(1), "21");
    expect(coverage.get("events", 0)).toBeUndefined();
    expect(coverage.gaps).toEqual([]);
  });

  it("moves the last offset forward, never back, and is never a gap", () => {
    const coverage = new Coverage();
    coverage.restore([entry({ lastOffset: null })]);
    coverage.readPast("events", 0, "4", s(1));
    expect(coverage.get("events", 0)).toEqual(entry({ lastOffset: "4", observedUntil: s(1) }));
    // past offsets 5..19 in one go: they held nothing, so no offsets were skipped
    coverage.readPast("events", 0, "19", s(2));
    expect(coverage.get("events", 0)!.lastOffset).toBe("19");
    coverage.readPast("events", 0, "12", s(3));
    expect(coverage.get("events", 0)).toEqual(entry({ lastOffset: "19", observedUntil: s(3) }));
    // the next batch continues after the offsets read past
    coverage.processed("events", 0, "20", "22", s(4));
    expect(coverage.gaps).toEqual([]);
  });

  it("ends a transaction found open once it reaches the log end the transaction was seen at, not before", () => {
    const coverage = new Coverage();
    coverage.restore([entry()]);
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 15n }, 0, s(1));
    expect(coverage.openTransaction("events", 0)).toMatchObject({ records: 5, until: 15n });
    coverage.readPast("events", 0, "13", s(2));
    expect(coverage.openTransaction("events", 0)).toMatchObject({ records: 5, until: 15n });
    coverage.readPast("events", 0, "14", s(3));
    expect(coverage.openTransaction("events", 0)).toBeUndefined();
  });

  it("a partition still catching up stays so, its observation where it was, until the high watermark is reached", () => {
    const coverage = new Coverage();
    coverage.restore([entry({ observedUntil: s(5) })]);
    coverage.assigned(new Map([["events", [0]]]), s(10));
    expect(coverage.isCatchingUp("events", 0)).toBe(true);
    // short of the high watermark, and with none known
    coverage.readPast("events", 0, "18", s(11), "20");
    coverage.readPast("events", 0, "19", s(12));
    expect(coverage.isCatchingUp("events", 0)).toBe(true);
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(5));
    expect(coverage.observedThrough(coverage.get("events", 0)!, s(12))).toBe(s(5));
    // offset 19 is the last one below the high watermark 20: caught up, observed up to now
    coverage.readPast("events", 0, "19", s(13), "20");
    expect(coverage.isCatchingUp("events", 0)).toBe(false);
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(13));
    expect(coverage.observedThrough(coverage.get("events", 0)!, s(14))).toBe(s(14));
  });
});
