import { describe, expect, it } from "vitest";
import { Coverage } from "../../../src/lifecycle/coverage.js";
import { liveLifecycle } from "../../helpers/lifecycle.js";

const T0 = Date.parse("2026-12-01T08:00:00Z");
const s = (seconds: number) => T0 + seconds * 1000;
const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, "Z");
const WEEK = 7 * 24 * 3600 * 1000;

/** Partition events/0, read here and caught up, read through offset 9. */
function reading(): Coverage {
  const coverage = new Coverage();
  coverage.assigned(new Map([["events", [0]]]), s(0), false);
  coverage.processed("events", 0, "0", "9", s(1));
  return coverage;
}

describe("an open transaction on a partition", () => {
  it("is found when the log end is past the last stable offset, and kept with its first time", () => {
    const coverage = reading();
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 10n }, 0, s(2));
    expect(coverage.openTransaction("events", 0)).toBeUndefined();
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 60n }, 0, s(3));
    expect(coverage.openTransaction("events", 0)).toEqual({
      topic: "events",
      partition: 0,
      since: s(3),
      records: 50,
      until: 60n,
    });
    // still open, and more was written behind it: the first time stays, the end moves on
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 75n }, 0, s(18));
    expect(coverage.openTransaction("events", 0)).toMatchObject({ since: s(3), records: 65, until: 75n });
    expect(coverage.endsMeasuredAt("events")).toBe(s(18));
    // an open transaction is no gap: the window goes on, only the verdict waits
    expect(coverage.gaps.map((g) => g.reason)).toEqual(["first-observation"]);
  });

  it("ends once this member has processed past where the log ended", () => {
    const coverage = reading();
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 60n }, 0, s(3));
    // committed: its records arrive, but not all of them yet
    coverage.processed("events", 0, "10", "58", s(4));
    expect(coverage.openTransaction("events", 0)?.until).toBe(60n);
    coverage.processed("events", 0, "59", "59", s(5));
    expect(coverage.openTransaction("events", 0)).toBeUndefined();
  });

  it("ends once the group has committed past where the log ended (aborted, or read by another member)", () => {
    const coverage = reading();
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 60n }, 0, s(3));
    // closed (stable past it) but the group has not read it all: committed = 61 - 5 = 56
    coverage.endsMeasured("events", 0, { stable: 61n, logEnd: 61n }, 5, s(18));
    expect(coverage.openTransaction("events", 0)?.since).toBe(s(3));
    // read: committed = 61 - 0 = 61 >= 60
    coverage.endsMeasured("events", 0, { stable: 61n, logEnd: 61n }, 0, s(33));
    expect(coverage.openTransaction("events", 0)).toBeUndefined();
    expect([...coverage.openTransactions]).toEqual([]);
  });

  it("a transaction opened after the last one ended starts its own time", () => {
    const coverage = reading();
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 12n }, 0, s(3));
    coverage.endsMeasured("events", 0, { stable: 13n, logEnd: 20n }, 0, s(18));
    expect(coverage.openTransaction("events", 0)).toMatchObject({ since: s(18), records: 7, until: 20n });
  });

  it("is forgotten with its topic, whose gap stands for it", () => {
    const coverage = reading();
    coverage.endsMeasured("events", 0, { stable: 10n, logEnd: 60n }, 0, s(3));
    coverage.topicMissing("events", s(4));
    expect(coverage.openTransaction("events", 0)).toBeUndefined();
    expect(coverage.gaps.map((g) => g.reason)).toEqual(["first-observation", "topic-missing"]);
  });
});

/** A live runtime on the example subject, with events/0 observed for more than the drain window. */
async function liveRuntime(lagInterval?: number) {
  const { runtime, world } = await liveLifecycle(lagInterval === undefined ? {} : { lagInterval });
  const now = Date.now();
  runtime.lifecycle.coverage.restore([
    { topic: "events", partition: 0, coveredSince: now - WEEK - 60_000, lastOffset: "9", observedUntil: now },
  ]);
  /** The source's lag measurement of events/0 at `at` (without `stable`, one that read no ends). */
  const measure = (at: number, stable?: bigint, logEnd?: bigint, lag = 0) =>
    runtime.sourceEvents.onLagMeasured(
      "events",
      new Map([[0, lag]]),
      stable === undefined || logEnd === undefined ? undefined : new Map([[0, { stable, logEnd }]]),
      at,
    );
  const drained = () => runtime.verdicts().get("event\u00001.0.0")!;
  return { runtime, world, measure, drained, now };
}

describe("drained, with transactions", () => {
  it("waits while a transaction is open, says where, since when and how many records, and drains once it is read past", async () => {
    const { measure, drained, now } = await liveRuntime(1_000);
    measure(now - 500, 10n, 10n);
    expect(drained()).toMatchObject({ yes: true, reasons: [] });
    const opened = now - 400;
    measure(opened, 10n, 60n);
    expect(drained()).toMatchObject({
      yes: false,
      reasons: [
        `an open transaction on events/0 since ${iso(opened)}: 50 records not yet readable (counted once it commits, never if it aborts)`,
      ],
    });
    // aborted, and the group committed past it
    measure(now - 300, 61n, 61n);
    expect(drained()).toMatchObject({ yes: true, reasons: [] });
  });

  it("waits while the partition ends are not measured recently enough to see an open transaction", async () => {
    const { measure, drained, now } = await liveRuntime(1_000);
    measure(now - 33_000, 10n, 10n);
    expect(drained().reasons).toEqual([
      `the partition ends of events were last measured 33s ago: an open transaction there would not be seen`,
    ]);
    measure(now - 31_000, 10n, 10n);
    expect(drained().reasons).toEqual([]);
  });

  it("waits for a first measurement of the ends when the lag was listed without them", async () => {
    const { measure, drained, now } = await liveRuntime(1_000);
    measure(now - 100);
    expect(drained().reasons).toEqual([
      "the partition ends of events were never measured: an open transaction there would not be seen",
    ]);
  });

  it("a capture (no lag interval) has no transactions to wait for", async () => {
    const { runtime, drained } = await liveRuntime();
    runtime.lifecycle.knownPartitions.set("events", new Set([0]));
    expect(drained()).toMatchObject({ yes: true, reasons: [] });
  });
});

describe("partitions that no longer exist", () => {
  it("leave the window: forgotten, and the remaining partitions restart it", async () => {
    const { runtime, measure, drained, now } = await liveRuntime(1_000);
    const coverage = runtime.lifecycle.coverage;
    // a state file from when events had 3 partitions
    coverage.restore(
      [1, 2].map((partition) => ({
        topic: "events",
        partition,
        coveredSince: now - WEEK - 60_000,
        lastOffset: "4",
        observedUntil: now - 3_600_000,
      })),
    );
    const at = now - 200;
    measure(at, 10n, 10n);
    const verdict = drained();
    expect(coverage.partitionsOf("events")).toEqual([0]);
    expect(runtime.lifecycle.knownPartitions.get("events")).toEqual(new Set([0]));
    expect(coverage.gaps.map((g) => [g.topic, g.partition, g.reason, g.detail])).toEqual([
      [
        "events",
        0,
        "partitions-removed",
        "partitions events/1, events/2 no longer exist (topic events was recreated with fewer partitions)",
      ],
    ]);
    const gapAt = coverage.gaps[0]!.at;
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons).toEqual([`coverage gap on events/0 until ${iso(gapAt + WEEK)}`]);
    // the next measurement lists the same partitions: no second gap
    measure(at + 1, 10n, 10n);
    drained();
    expect(coverage.gaps).toHaveLength(1);
  });
});

describe("drained, with records waiting for the registry", () => {
  it("waits while records of its topics wait for the lookup of their schema id", async () => {
    const { world, measure, drained, now } = await liveRuntime(1_000);
    measure(now - 100, 10n, 10n);
    expect(drained().reasons).toEqual([]);
    let waiting = 3;
    world.waitingForLookups = (topic) => (topic === "events" ? waiting : 0);
    expect(drained().reasons).toEqual([
      "3 records on events wait for the registry to answer about their schema id: their version is not known yet",
    ]);
    waiting = 0;
    expect(drained()).toMatchObject({ yes: true, reasons: [] });
  });
});
