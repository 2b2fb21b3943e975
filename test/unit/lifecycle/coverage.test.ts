import { describe, expect, it } from "vitest";
import { Coverage } from "../../../src/lifecycle/coverage.js";
import { liveLifecycle } from "../../helpers/lifecycle.js";

const T0 = Date.parse("2026-12-01T08:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;

/** A partition observed through offset 9 until T0, as a state file left it, then assigned at 60 s. */
function restarted(): Coverage {
  const coverage = new Coverage();
  coverage.restore([
    { topic: "events", partition: 0, coveredSince: s(-3600), lastOffset: "9", observedUntil: T0 },
  ]);
  coverage.assigned(new Map([["events", [0]]]), s(60));
  return coverage;
}

const through = (coverage: Coverage, now: number) =>
  coverage.observedThrough(coverage.get("events", 0)!, now);

describe("coverage of an assigned partition with a backlog", () => {
  it("is observed only up to its last observation until a batch reaches the high watermark it was fetched at", () => {
    const coverage = restarted();
    expect(coverage.isCatchingUp("events", 0)).toBe(true);
    expect(through(coverage, s(61))).toBe(T0);
    coverage.tick(s(62));
    coverage.processed("events", 0, "10", "14", s(63), "20");
    expect(through(coverage, s(64))).toBe(T0);
    coverage.processed("events", 0, "15", "19", s(65), "20");
    expect(coverage.isCatchingUp("events", 0)).toBe(false);
    expect(through(coverage, s(66))).toBe(s(66));
    // contiguous offsets: no gap, the window goes on
    expect(coverage.gaps).toEqual([]);
    expect(coverage.get("events", 0)!.coveredSince).toBe(s(-3600));
  });

  it("a quiet partition catches up when the group's lag is measured at 0 after the assignment", () => {
    const coverage = restarted();
    // measured before the assignment: it says nothing of what was produced since
    coverage.lagMeasured("events", 0, 0, s(59), s(61));
    expect(through(coverage, s(61))).toBe(T0);
    coverage.lagMeasured("events", 0, 3, s(62), s(62));
    expect(through(coverage, s(62))).toBe(T0);
    coverage.lagMeasured("events", 0, 0, s(70), s(70));
    expect(through(coverage, s(71))).toBe(s(71));
  });

  it("a revocation while catching up leaves the last observation where it was", () => {
    const coverage = restarted();
    coverage.processed("events", 0, "10", "12", s(63), "20");
    coverage.revoked(s(64));
    expect(coverage.get("events", 0)!.observedUntil).toBe(T0);
    expect(coverage.get("events", 0)!.lastOffset).toBe("12");
  });

  it("a capture read whole has no backlog", () => {
    const coverage = new Coverage();
    coverage.assigned(new Map([["events", [0]]]), s(0), false);
    coverage.processed("events", 0, "0", "0", s(1));
    expect(through(coverage, s(2))).toBe(s(2));
  });

  it("a capture's partitions join the assignment one at a time, the earlier ones still assigned", () => {
    const coverage = new Coverage();
    coverage.alsoAssigned("events", 0, s(0), false);
    coverage.processed("events", 0, "0", "0", s(0));
    coverage.alsoAssigned("events", 1, s(1), false);
    coverage.alsoAssigned("other", 0, s(2), false);
    coverage.alsoAssigned("events", 0, s(3), false);
    expect([coverage.isAssigned("events", 0), coverage.isAssigned("events", 1)]).toEqual([true, true]);
    expect(coverage.isCatchingUp("events", 1)).toBe(false);
    expect(through(coverage, s(4))).toBe(s(4));
    expect(coverage.owned().map((e) => `${e.topic}/${e.partition}`)).toEqual([
      "events/0",
      "events/1",
      "other/0",
    ]);
    expect(coverage.gaps.map((g) => `${g.topic}/${g.partition} ${g.reason} ${g.at}`)).toEqual([
      `events/0 first-observation ${s(0)}`,
      `events/1 first-observation ${s(1)}`,
      `other/0 first-observation ${s(2)}`,
    ]);
  });
});

describe("coverage of a topic that goes missing", () => {
  it("restarts each partition read before, once, and forgets its offsets for a topic created again", () => {
    const coverage = restarted();
    coverage.processed("events", 0, "10", "19", s(61), "20");
    coverage.topicMissing("events", s(70));
    coverage.topicMissing("events", s(85));
    expect(coverage.gaps).toEqual([
      {
        topic: "events",
        partition: 0,
        reason: "topic-missing",
        at: s(70),
        detail: "topic events is missing",
      },
    ]);
    expect(coverage.get("events", 0)).toMatchObject({ coveredSince: s(70), lastOffset: null });
    // the topic created again starts at offset 0: no jump to compare with the old offsets
    coverage.processed("events", 0, "0", "4", s(90), "5");
    expect(coverage.gaps).toHaveLength(1);
    expect(coverage.get("events", 0)!.lastOffset).toBe("4");
  });
});

describe("the partitions a live verdict rests on", () => {
  it("withholds drained until the brokers have listed the topic's partitions", async () => {
    const { runtime } = await liveLifecycle();
    const now = Date.now();
    const week = 7 * 24 * 3600 * 1000;
    // partition 0 as a state file left it, observed for more than the 7-day window until just now
    runtime.lifecycle.coverage.restore([
      {
        topic: "events",
        partition: 0,
        coveredSince: now - week - 60_000,
        lastOffset: "9",
        observedUntil: now,
      },
    ]);
    const drained = () => runtime.verdicts().get("event\u00001.0.0")!;
    expect(drained().reasons).toEqual([
      "the partitions of events are not listed yet (the next lag measurement lists them)",
    ]);
    // the lag measurement lists partition 1 too, which nobody here has observed
    runtime.lifecycle.knownPartitions.set("events", new Set([0, 1]));
    expect(drained().reasons).toEqual([
      "partition events/1 never observed (no member that shares this state reads it)",
    ]);
    expect(drained().yes).toBe(false);
  });
});
