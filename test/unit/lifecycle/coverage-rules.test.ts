import { describe, expect, it } from "vitest";
import { Coverage, type PartitionCoverage } from "../../../src/lifecycle/coverage.js";

// The rules of per-partition coverage one at a time, each at its boundary: what restarts a window,
// until when a partition counts as observed, and what another replica's published entry changes.

const T0 = Date.parse("2026-12-01T08:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;
const events = (partitions: number[]) => new Map([["events", partitions]]);

function entry(partition: number, fields: Partial<PartitionCoverage> = {}): PartitionCoverage {
  return { topic: "events", partition, coveredSince: s(0), lastOffset: "9", observedUntil: s(0), ...fields };
}

describe("gaps", () => {
  it("a partition assigned for the first time starts its window at the assignment, once", () => {
    const coverage = new Coverage();
    coverage.assigned(events([0]), s(10), false);
    coverage.assigned(events([0]), s(20), false);
    expect(coverage.gaps).toEqual([
      {
        topic: "events",
        partition: 0,
        reason: "first-observation",
        at: s(10),
        detail: "no earlier observation of this partition",
      },
    ]);
    expect(coverage.gapCounts.get("events")).toBe(1);
  });

  it("a jump over unprocessed offsets is a gap naming them; the next offset is none", () => {
    const coverage = new Coverage();
    coverage.processed("events", 0, "0", "9", s(1));
    coverage.processed("events", 0, "10", "12", s(2));
    expect(coverage.gaps.map((g) => g.reason)).toEqual(["first-observation"]);
    coverage.processed("events", 0, "15", "20", s(3));
    expect(coverage.gaps.at(-1)).toEqual({
      topic: "events",
      partition: 0,
      reason: "offsets-skipped",
      at: s(3),
      detail: "offsets 13..14 were never processed (retention, or a reset to the latest offset)",
    });
    expect(coverage.get("events", 0)).toEqual(
      entry(0, { coveredSince: s(3), lastOffset: "20", observedUntil: s(3) }),
    );
    expect(coverage.gapCounts.get("events")).toBe(2);
  });

  it("a log that ends at or before the offset read last is another log: a gap, even read from a lower offset", () => {
    // The topic deleted and created again while the monitor was down (same partitions, offsets anew),
    // or the log truncated: what the old log held past offset 9 was never read.
    const coverage = new Coverage();
    coverage.restore([entry(0), entry(1)]);
    coverage.processed("events", 0, "0", "4", s(3), "9");
    expect(coverage.gaps).toEqual([
      {
        topic: "events",
        partition: 0,
        reason: "log-truncated",
        at: s(3),
        detail:
          "the log ends at offset 9, before offset 9 read earlier (the topic was created again, or its log truncated)",
      },
    ]);
    expect(coverage.get("events", 0)).toEqual(
      entry(0, { coveredSince: s(3), lastOffset: "4", observedUntil: s(3) }),
    );
    // Records read again after a rejoin (the committed offset lags): the log still reaches past them.
    // The log ends at offset 10, one past the offset read last (9): the same log.
    coverage.processed("events", 1, "3", "9", s(4), "10");
    coverage.processed("events", 1, "10", "12", s(5), "13");
    expect(coverage.gaps).toHaveLength(1);
    expect(coverage.get("events", 1)).toEqual(entry(1, { lastOffset: "12", observedUntil: s(5) }));
  });

  it("a partition read before that the group starts anew (no committed offset) is a gap, and its offsets are forgotten", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0), entry(1, { lastOffset: null })]);
    coverage.startsAnew("events", 0, "1", s(3));
    // Never read here (no offset): nothing was lost, its window runs on.
    coverage.startsAnew("events", 1, "0", s(3));
    coverage.startsAnew("events", 2, "0", s(3));
    expect(coverage.gaps).toEqual([
      {
        topic: "events",
        partition: 0,
        reason: "offsets-lost",
        at: s(3),
        detail:
          "the group has no committed offset for it, so reading starts at offset 1 (the topic was created again, or the group's offsets expired)",
      },
    ]);
    expect(coverage.get("events", 0)).toEqual(
      entry(0, { coveredSince: s(3), lastOffset: null, observedUntil: s(3) }),
    );
    expect(coverage.get("events", 1)).toEqual(entry(1, { lastOffset: null }));
    expect(coverage.get("events", 2)).toBeUndefined();
    // The new log's offsets are not compared with the old one's: offset 1 after 9 is no further gap.
    coverage.processed("events", 0, "1", "1", s(4), "2");
    expect(coverage.gaps).toHaveLength(1);
  });

  it("keeps the last 1000 gaps and counts them all", () => {
    const coverage = new Coverage();
    for (let i = 0; i < 1001; i++) coverage.unreadable("events", i, s(i), "corrupt");
    expect(coverage.gaps).toHaveLength(1000);
    expect(coverage.gaps[0]!.partition).toBe(1);
    expect(coverage.gapCounts.get("events")).toBe(1001);
  });

  it("a restart with unreadable state restarts every known partition, and counts a gap per topic when none is known", () => {
    const known = new Coverage();
    known.restore([entry(0), entry(1)]);
    known.invalidateAll(s(5), "bad state", ["events", "orders"]);
    expect(known.gaps.map((g) => `${g.partition} ${g.reason} ${g.detail}`)).toEqual([
      "0 state-unreadable bad state",
      "1 state-unreadable bad state",
    ]);
    expect([...known.gapCounts]).toEqual([["events", 2]]);
    const none = new Coverage();
    none.invalidateAll(s(5), "bad state", ["events", "orders"]);
    expect([...none.gapCounts]).toEqual([
      ["events", 1],
      ["orders", 1],
    ]);
  });

  it("a missing topic restarts only partitions that have an offset to forget", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0), entry(1, { lastOffset: null }), { ...entry(0), topic: "orders" }]);
    coverage.topicMissing("events", s(5));
    expect(coverage.gaps.map((g) => `${g.topic}/${g.partition}`)).toEqual(["events/0"]);
  });

  it("an undecodable batch restarts the window and moves the offsets past it: the next batch is contiguous", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0)]);
    coverage.assigned(events([0]), s(0), false);
    coverage.undecodable("events", 0, "10", "19", s(5), "bad checksum");
    coverage.processed("events", 0, "20", "29", s(6));
    expect(coverage.gaps.map((g) => g.reason)).toEqual(["undecodable-batch"]);
    expect(coverage.get("events", 0)).toMatchObject({ coveredSince: s(5), lastOffset: "29" });
  });
});

describe("until when a partition counts as observed", () => {
  it("an assigned, caught-up partition: now; ticks move its last observation forward, never back", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { observedUntil: s(50) })]);
    coverage.assigned(events([0]), s(0), false);
    expect(coverage.observedThrough(coverage.get("events", 0)!, s(60))).toBe(s(60));
    coverage.tick(s(40));
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(50));
    coverage.tick(s(70));
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(70));
  });

  it("a partition catching up is not moved by ticks, and a lag measured exactly at the assignment catches it up", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { observedUntil: s(0) })]);
    coverage.assigned(events([0]), s(10));
    coverage.tick(s(20));
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(0));
    coverage.lagMeasured("events", 0, 0, s(10), s(30));
    expect(coverage.isCatchingUp("events", 0)).toBe(false);
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(30));
  });

  it("a batch that ends one short of the high watermark has not caught up; one that reaches it has", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0)]);
    coverage.assigned(events([0]), s(10));
    coverage.processed("events", 0, "10", "18", s(11), "20");
    expect(coverage.isCatchingUp("events", 0)).toBe(true);
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(0));
    coverage.processed("events", 0, "19", "19", s(12), "20");
    expect(coverage.isCatchingUp("events", 0)).toBe(false);
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(12));
    // a batch without a known high watermark never ends catching up by itself
    coverage.assigned(events([0]), s(13));
    coverage.processed("events", 0, "20", "30", s(14));
    expect(coverage.isCatchingUp("events", 0)).toBe(true);
  });

  it("a revoked partition: its last observation, and only the new assignment counts as assigned", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0), entry(1)]);
    coverage.assigned(events([0, 1]), s(0), false);
    coverage.revoked(s(30));
    expect(coverage.isAssigned("events", 0)).toBe(false);
    expect(coverage.owned()).toEqual([]);
    expect(coverage.observedThrough(coverage.get("events", 0)!, s(60))).toBe(s(30));
    coverage.assigned(events([1]), s(40), false);
    expect(coverage.owned()).toEqual([entry(1, { observedUntil: s(30) })]);
    expect(coverage.isAssigned("events", 0)).toBe(false);
  });

  it("another replica's partition: now while it publishes within the slack, to the millisecond, then its last word", () => {
    const coverage = new Coverage({ sharedSlackMs: 25_000 });
    coverage.shared(entry(2, { observedUntil: s(100) }), s(101), "r2");
    coverage.heard("r2", s(124));
    const e = coverage.get("events", 2)!;
    expect(coverage.isShared("events", 2)).toBe(true);
    expect(coverage.observedThrough(e, s(125))).toBe(s(125));
    expect(coverage.observedThrough(e, s(125.001))).toBe(s(100));
  });

  it("another replica's partition: now only while its owner was heard within aliveSlackMs, to the millisecond", () => {
    const coverage = new Coverage();
    expect(coverage.aliveSlackMs).toBe(5_000);
    coverage.shared(entry(2, { observedUntil: s(100) }), s(101), "r2");
    const e = coverage.get("events", 2)!;
    // never heard from (a replica killed before its first heartbeat, or heartbeats read only on start)
    expect(coverage.observedThrough(e, s(102))).toBe(s(100));
    coverage.heard("r1", s(102));
    expect(coverage.observedThrough(e, s(102))).toBe(s(100));
    coverage.heard("r2", s(103));
    expect(coverage.observedThrough(e, s(108))).toBe(s(108));
    // killed at 103: what is sent to its partitions from then on is read by nobody
    expect(coverage.observedThrough(e, s(108.001))).toBe(s(100));
  });

  it("a partition its owner gave up, or still catches up on, counts only up to its observation, even while the owner is heard", () => {
    const coverage = new Coverage();
    coverage.heard("r2", s(101));
    coverage.shared(entry(2, { observedUntil: s(100) }), s(101), "r2", false);
    expect(coverage.observedThrough(coverage.get("events", 2)!, s(101))).toBe(s(100));
    // the owner's next publish reads it up to now
    coverage.shared(entry(2, { observedUntil: s(110) }), s(111), "r2", true);
    coverage.heard("r2", s(111));
    expect(coverage.observedThrough(coverage.get("events", 2)!, s(112))).toBe(s(112));
  });
});

describe("another replica's published entry", () => {
  it("takes the later start of coverage, and an observation no later than now", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { coveredSince: s(50) })]);
    coverage.shared(entry(0, { coveredSince: s(20), observedUntil: s(200) }), s(100), "r2");
    expect(coverage.get("events", 0)).toEqual(entry(0, { coveredSince: s(50), observedUntil: s(100) }));
    coverage.shared(entry(1, { coveredSince: s(20), observedUntil: s(90) }), s(100), "r2");
    expect(coverage.get("events", 1)).toEqual(entry(1, { coveredSince: s(20), observedUntil: s(90) }));
  });

  it("for a partition just assigned here, a later offset from the previous owner is the better history until the first batch", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { lastOffset: "9", coveredSince: s(0) })]);
    coverage.assigned(events([0]), s(10));
    coverage.shared(entry(0, { lastOffset: "9", coveredSince: s(5) }), s(11), "r2");
    expect(coverage.get("events", 0)).toMatchObject({ lastOffset: "9", coveredSince: s(0) });
    coverage.shared(entry(0, { lastOffset: null, coveredSince: s(5) }), s(11), "r2");
    expect(coverage.get("events", 0)).toMatchObject({ lastOffset: "9" });
    coverage.shared(entry(0, { lastOffset: "15", coveredSince: s(5) }), s(12), "r2");
    expect(coverage.get("events", 0)).toMatchObject({ lastOffset: "15", coveredSince: s(5) });
    expect(coverage.isShared("events", 0)).toBe(false);
    // the next batch continues from it: no gap
    coverage.processed("events", 0, "16", "20", s(13));
    expect(coverage.gaps).toEqual([]);
    // after a batch here, this member's own history wins
    coverage.shared(entry(0, { lastOffset: "99", coveredSince: s(6) }), s(14), "r2");
    expect(coverage.get("events", 0)).toMatchObject({ lastOffset: "20", coveredSince: s(5) });
  });

  it("for a partition assigned here and never read before, the previous owner's offset is taken, its window kept", () => {
    const coverage = new Coverage();
    coverage.assigned(events([0]), s(10));
    coverage.shared(entry(0, { lastOffset: "15", coveredSince: s(0) }), s(11), "r2");
    expect(coverage.get("events", 0)).toEqual(
      entry(0, { lastOffset: "15", coveredSince: s(10), observedUntil: s(10) }),
    );
    // the shared entry of a partition not assigned here is taken whole
    coverage.shared(entry(1, { lastOffset: "3" }), s(11), "r2");
    expect(coverage.get("events", 1)).toEqual(entry(1, { lastOffset: "3" }));
  });
});

describe("the partitions of a topic", () => {
  it("are those the brokers report and those observed, in order, of that topic only", () => {
    const coverage = new Coverage();
    coverage.restore([entry(10), entry(2), { ...entry(7), topic: "orders" }]);
    expect(coverage.partitionsOf("events", [3, 1])).toEqual([1, 2, 3, 10]);
    expect(coverage.partitionsOf("events")).toEqual([2, 10]);
    expect([...coverage.partitions].map((p) => p.partition)).toEqual([10, 2, 7]);
  });
});

describe("assignments, revocations and what they forget", () => {
  it("a new assignment replaces the old one; a partition assigned here is no longer another replica's", () => {
    const coverage = new Coverage();
    coverage.shared(entry(1, { observedUntil: s(0) }), s(1), "r2");
    expect(coverage.isShared("events", 1)).toBe(true);
    coverage.assigned(events([0, 1]), s(2), false);
    expect(coverage.isShared("events", 1)).toBe(false);
    coverage.assigned(events([1]), s(3), false);
    expect(coverage.isAssigned("events", 0)).toBe(false);
    expect(coverage.isAssigned("events", 1)).toBe(true);
  });

  it("a revocation forgets what was catching up and what was read since the assignment", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { lastOffset: "9" })]);
    coverage.assigned(events([0]), s(10));
    coverage.processed("events", 0, "10", "12", s(11), "20");
    coverage.revoked(s(12));
    coverage.assigned(events([0]), s(13), false);
    expect(coverage.isCatchingUp("events", 0)).toBe(false);
    // no batch since this assignment: the previous owner's later offset is still the better history
    coverage.shared(entry(0, { lastOffset: "30" }), s(14), "r2");
    expect(coverage.get("events", 0)!.lastOffset).toBe("30");
  });

  it("after an undecodable batch, this member's offsets win over a previous owner's", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { lastOffset: "9" })]);
    coverage.assigned(events([0]), s(10));
    coverage.undecodable("events", 0, "10", "19", s(11), "bad");
    coverage.shared(entry(0, { lastOffset: "30" }), s(12), "r2");
    expect(coverage.get("events", 0)!.lastOffset).toBe("19");
  });

  it("a lag measured at 0 says nothing of a partition this member no longer reads", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { observedUntil: s(5) })]);
    coverage.lagMeasured("events", 0, 0, s(20), s(20));
    expect(coverage.get("events", 0)!.observedUntil).toBe(s(5));
  });

  it("partitions the brokers no longer list are forgotten whole; the topic's others get one gap, other topics none", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0), entry(1), entry(2), { ...entry(0), topic: "other" }]);
    coverage.assigned(
      new Map([
        ["events", [0, 1]],
        ["other", [0]],
      ]),
      s(10),
    );
    coverage.shared(entry(2), s(11), "r2");
    coverage.endsMeasured("events", 1, { stable: 5n, logEnd: 8n }, 3, s(12));
    expect([coverage.isCatchingUp("events", 1), coverage.isShared("events", 2)]).toEqual([true, true]);
    expect(coverage.openTransaction("events", 1)?.partition).toBe(1);
    const before = coverage.gaps.length;

    expect(coverage.partitionsListed("events", [0], s(20))).toEqual([1, 2]);
    expect(
      coverage.gaps.slice(before).map((g) => `${g.topic}/${g.partition} ${g.reason}: ${g.detail}`),
    ).toEqual([
      "events/0 partitions-removed: partitions events/1, events/2 no longer exist (topic events was recreated with fewer partitions)",
    ]);
    for (const gone of [1, 2]) {
      expect([
        coverage.get("events", gone),
        coverage.isAssigned("events", gone),
        coverage.isCatchingUp("events", gone),
        coverage.isShared("events", gone),
        coverage.openTransaction("events", gone),
      ]).toEqual([undefined, false, false, false, undefined]);
    }
    expect(coverage.partitionsOf("events")).toEqual([0]);
    expect(coverage.isAssigned("other", 0)).toBe(true);
    // Listed again as they are: nothing more to forget, no second gap.
    expect(coverage.partitionsListed("events", [0], s(21))).toEqual([]);
    expect(coverage.gaps.length).toBe(before + 1);
  });

  it("one partition gone is named in the singular", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0), entry(1)]);
    expect(coverage.partitionsListed("events", [0], s(20))).toEqual([1]);
    expect(coverage.gaps.map((g) => g.detail)).toEqual([
      "partition events/1 no longer exists (topic events was recreated with fewer partitions)",
    ]);
  });

  it("a gap on a known partition keeps its offset; the reasons and details are named", () => {
    const coverage = new Coverage();
    coverage.restore([entry(0, { lastOffset: "9" })]);
    coverage.unreadable("events", 0, s(5), "record r2 corrupt");
    expect(coverage.get("events", 0)).toEqual(
      entry(0, { lastOffset: "9", coveredSince: s(5), observedUntil: s(5) }),
    );
    coverage.processed("events", 1, "0", "0", s(6));
    expect(coverage.gaps.map((g) => `${g.partition} ${g.reason}: ${g.detail}`)).toEqual([
      "0 state-unreadable: record r2 corrupt",
      "1 first-observation: no earlier observation of this partition",
    ]);
  });
});
