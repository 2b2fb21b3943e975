import { afterEach, describe, expect, it, vi } from "vitest";
import { DECODE_REASONS, type UnreadableReason } from "../../../src/pipeline/record.js";
import { liveLifecycle } from "../../helpers/lifecycle.js";
import { decodeCounts, record, recordCounts, wire } from "../../helpers/monitor.js";

// Every cause that keeps a deprecated version from being drained, each with its reason exactly as a
// person reads it, and each at its boundary: a rule moved by a second (or a tick) fails here.

const T0 = Date.parse("2026-12-01T08:00:00Z");
/** The drain window of these tests: 10 minutes. */
const WINDOW_S = 600;
const V1 = { id: 1, event: "view" };

/**
 * A live monitor of the bundled `event` catalog (1.0.0 deprecated) on a clock these tests move: the
 * lifecycle's and the pipeline's clock both read the faked Date. Partition events/0 is listed by the
 * brokers, assigned at T0 and caught up at once, so that at T0 + 10 min nothing withholds drained.
 */
async function live() {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
  const { pipeline, runtime, lifecycle, clock, world } = await liveLifecycle({
    subjectExtra: `    drainWindow: ${WINDOW_S}s\n`,
  });
  clock.advance(T0);
  return {
    pipeline,
    runtime,
    lifecycle,
    world,
    /** Moves the clock to T0 + `seconds`. */
    at(seconds: number) {
      vi.setSystemTime(T0 + seconds * 1000);
      clock.advance(Date.now());
    },
    /** Lists events/0 and assigns it now; it has caught up once a batch reached the high watermark. */
    observe() {
      lifecycle.knownPartitions.set("events", new Set([0]));
      runtime.sourceEvents.onAssigned(new Map([["events", [0]]]));
      runtime.sourceEvents.onBatchEnd("events", 0, "0", "9", "10");
    },
    drained() {
      return runtime.verdicts().get("event\u00001.0.0")!;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("drained, the baseline every cause below departs from", () => {
  it("is drained exactly at the end of a window observed without a gap, with no record of the version", async () => {
    const m = await live();
    m.observe();
    m.at(WINDOW_S);
    const verdict = m.drained();
    expect(verdict.reasons).toEqual([]);
    expect(verdict.yes).toBe(true);
    expect(verdict.evidence).toEqual({
      window: "10m",
      coveredSince: "2026-12-01T08:00Z",
      partitions: 1,
      lastDeclared: null,
      lastDeclaredBy: null,
      undeclaredDependents: 0,
      unreadableRecords: 0,
      registryDownSince: null,
    });
  });
});

describe("not drained: a record declared the version within the window", () => {
  it("counts a record one tick (1 s) before the window's start, and not one a millisecond older", async () => {
    const m = await live();
    m.observe();
    m.pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    // The live clock ticks every 250 ms rather than per record: a window read at T0 + 10m1s still
    // holds a record stamped T0.
    m.at(WINDOW_S + 1);
    expect(m.drained().reasons).toEqual(["last seen 10m1s ago from producer web"]);
    expect(m.drained().evidence).toMatchObject({ lastDeclared: "2026-12-01T08:00Z", lastDeclaredBy: "web" });
    m.at(WINDOW_S + 1.001);
    expect(m.drained().reasons).toEqual([]);
    expect(m.drained().yes).toBe(true);
  });

  it("says 'just now' under a second, and counts seconds from one second on", async () => {
    const m = await live();
    m.observe();
    m.at(WINDOW_S + 100);
    m.pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    m.at(WINDOW_S + 100.999);
    expect(m.drained().reasons).toEqual(["last seen just now from producer web"]);
    m.at(WINDOW_S + 101);
    expect(m.drained().reasons).toEqual(["last seen 1s ago from producer web"]);
  });

  it("names the producer 'unknown' when the evidence (an older state) does not say who sent it", async () => {
    const m = await live();
    m.observe();
    m.at(WINDOW_S);
    const evidence = m.lifecycle.version("event", "1.0.0");
    evidence.lastDeclaredAt = T0 + 590_000;
    expect(m.drained().reasons).toEqual(["last seen 10s ago from producer unknown"]);
  });
});

describe("not drained: undeclared records still need the version", () => {
  it("counts them through the one-tick allowance at the window's start", async () => {
    const m = await live();
    m.observe();
    const evidence = m.lifecycle.version("event", "1.0.0");
    evidence.undeclaredDependents = 3;
    evidence.lastUndeclaredAt = T0;
    m.at(WINDOW_S + 1);
    expect(m.drained().reasons).toEqual([
      "undeclared records still need it (they pass 1.0.0 and fail every newer active version): 3 so far, last one 10m1s ago",
    ]);
    expect(m.drained().evidence).toMatchObject({ undeclaredDependents: 3 });
    m.at(WINDOW_S + 1.001);
    expect(m.drained().reasons).toEqual([]);
  });
});

const UNREADABLE_REASONS: UnreadableReason[] = [
  ...DECODE_REASONS.filter(
    (r): r is Exclude<typeof r, "unknown_topic" | "invalid_capture_line"> =>
      r !== "unknown_topic" && r !== "invalid_capture_line",
  ),
  "not_validated",
];

describe("not drained: records of the subject whose version could not be read", () => {
  it.each(UNREADABLE_REASONS.filter((r) => r !== "not_validated"))(
    "%s: one record withholds drained for the window plus one tick, naming the reason",
    async (reason) => {
      const m = await live();
      m.observe();
      m.lifecycle.unreadable("event", "events", 0, reason, 1, T0 + 60_000);
      m.at(WINDOW_S + 61);
      expect(m.drained().reasons).toEqual([
        `1 record on events/0 could not be read (${reason}) since 2026-12-01T08:01Z, the last one 10m1s ago: their version is unknown, so 1.0.0 may still be in use`,
      ]);
      expect(m.drained().evidence).toMatchObject({ unreadableRecords: 1 });
      m.at(WINDOW_S + 61.001);
      expect(m.drained().reasons).toEqual([]);
      expect(m.drained().evidence).toMatchObject({ unreadableRecords: 0 });
    },
  );

  it("not_validated: undeclared records the sampler skipped may need the version", async () => {
    const m = await live();
    m.observe();
    m.lifecycle.unreadable("event", "events", 0, "not_validated", 1, T0 + 60_000);
    m.lifecycle.unreadable("event", "events", 0, "not_validated", 1, T0 + 120_000);
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual([
      "2 records on events/0 declared no version and were not sampled for validation since 2026-12-01T08:01Z, the last one 8m ago: they may need 1.0.0",
    ]);
    expect(m.drained().evidence).toMatchObject({ unreadableRecords: 2 });
  });

  it("every reason the pipeline can report has its line, and the counts add up in the evidence", async () => {
    const m = await live();
    m.observe();
    for (const reason of UNREADABLE_REASONS) m.lifecycle.unreadable("event", "events", 0, reason, 2, T0);
    m.at(WINDOW_S);
    const { reasons, evidence } = m.drained();
    expect(reasons).toHaveLength(UNREADABLE_REASONS.length);
    for (const reason of UNREADABLE_REASONS)
      expect(reasons.filter((r) => r.includes(`(${reason})`) || r.includes("not sampled"))).not.toEqual([]);
    expect(evidence).toMatchObject({ unreadableRecords: 2 * UNREADABLE_REASONS.length });
  });

  it("unknown_schema_id: a record whose Confluent schema id no version has, read by the pipeline", async () => {
    const m = await live();
    m.observe();
    m.at(30);
    m.pipeline.process(record(undefined, { producer: "billing" }, { raw: wire(999, V1) }));
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual([
      "1 record on events/0 could not be read (unknown_schema_id) since 2026-12-01T08:00Z, the last one 9m30s ago: their version is unknown, so 1.0.0 may still be in use",
    ]);
  });

  it("another subject's unreadable records do not withhold this one", async () => {
    const m = await live();
    m.observe();
    m.lifecycle.unreadable("order", "orders", 0, "not_json", 5, T0 + 60_000);
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual([]);
  });
});

describe("not drained: an undecodable batch", () => {
  const batch = { firstOffset: "10", lastOffset: "19", records: 10, codec: "lz4", problem: "bad checksum" };

  it("is a coverage gap, ten records counted as undecodable_batch, and a verdict line", async () => {
    const m = await live();
    m.observe();
    m.at(100);
    m.runtime.sourceEvents.onUndecodable("events", 0, batch);
    // the gap: observation restarts at the batch, and continues after its last offset
    expect(m.lifecycle.coverage.gaps.at(-1)).toEqual({
      topic: "events",
      partition: 0,
      reason: "undecodable-batch",
      at: T0 + 100_000,
      detail: "offsets 10..19: bad checksum",
    });
    expect(m.lifecycle.coverage.get("events", 0)).toMatchObject({
      coveredSince: T0 + 100_000,
      lastOffset: "19",
    });
    // the count: every record of the batch, of an unknown version
    expect(decodeCounts(m.pipeline)).toEqual(["events undecodable_batch=10"]);
    expect(recordCounts(m.pipeline)).toEqual(["unknown unknown=10"]);
    expect(m.lifecycle.unreadableOf("event")).toEqual([
      {
        topic: "events",
        partition: 0,
        reason: "undecodable_batch",
        records: 10,
        firstAt: T0 + 100_000,
        lastAt: T0 + 100_000,
      },
    ]);
    // the verdict: both the gap and the records, until the window passes over the batch
    m.at(WINDOW_S + 99);
    expect(m.drained().reasons).toEqual([
      "coverage gap on events/0 until 2026-12-01T08:11Z",
      "10 records on events/0 could not be read (undecodable_batch) since 2026-12-01T08:01Z, the last one 9m59s ago: their version is unknown, so 1.0.0 may still be in use",
    ]);
    expect(m.drained().evidence).toMatchObject({ coveredSince: "2026-12-01T08:01Z", unreadableRecords: 10 });
    m.at(WINDOW_S + 100);
    expect(m.drained().reasons).toEqual([
      "10 records on events/0 could not be read (undecodable_batch) since 2026-12-01T08:01Z, the last one 10m ago: their version is unknown, so 1.0.0 may still be in use",
    ]);
    m.at(WINDOW_S + 101.001);
    expect(m.drained().reasons).toEqual([]);
    expect(m.drained().yes).toBe(true);
  });
});

describe("not drained: a coverage gap at the window's edge", () => {
  it("holds until exactly one window after the gap: a second earlier it is a gap, at the second it is not", async () => {
    const m = await live();
    m.observe();
    m.at(WINDOW_S - 1);
    expect(m.drained().reasons).toEqual(["coverage gap on events/0 until 2026-12-01T08:10Z"]);
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual([]);
    m.at(WINDOW_S + 1);
    expect(m.drained().reasons).toEqual([]);
  });

  it("reports the latest start of continuous observation over the partitions, and a gap on each", async () => {
    const m = await live();
    m.lifecycle.knownPartitions.set("events", new Set([0, 1]));
    // partition 0 restarted later than partition 1: the subject is covered only since then
    m.lifecycle.coverage.restore([
      { topic: "events", partition: 0, coveredSince: T0 + 120_000, lastOffset: "5", observedUntil: T0 },
      { topic: "events", partition: 1, coveredSince: T0, lastOffset: "5", observedUntil: T0 },
    ]);
    m.lifecycle.coverage.assigned(new Map([["events", [0, 1]]]), T0, false);
    m.at(WINDOW_S + 60);
    expect(m.drained().reasons).toEqual(["coverage gap on events/0 until 2026-12-01T08:12Z"]);
    expect(m.drained().evidence).toMatchObject({ coveredSince: "2026-12-01T08:02Z", partitions: 2 });
  });
});

describe("not drained: a partition not observed", () => {
  it("allows one second of slack after a revocation, and not a millisecond more", async () => {
    const m = await live();
    m.observe();
    m.at(WINDOW_S);
    m.runtime.sourceEvents.onRevoked();
    m.at(WINDOW_S + 1);
    expect(m.drained().reasons).toEqual([]);
    m.at(WINDOW_S + 1.001);
    expect(m.drained().reasons).toEqual(["partition events/0 not observed since 2026-12-01T08:10Z"]);
    expect(m.drained().yes).toBe(false);
  });

  it("with no partition of the topic known at all, says so and has no start of coverage", async () => {
    const m = await live();
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual(["no partition of events observed yet"]);
    expect(m.drained().evidence).toMatchObject({ coveredSince: null, partitions: 0 });
  });

  it("a partition the brokers list that no member reads", async () => {
    const m = await live();
    m.observe();
    m.lifecycle.knownPartitions.set("events", new Set([0, 1]));
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual([
      "partition events/1 never observed (no member that shares this state reads it)",
    ]);
  });
});

describe("not drained: the registry is down", () => {
  it("waits for the registry, naming it and since when", async () => {
    const m = await live();
    m.observe();
    m.world.registryDown = (subject) =>
      subject === "event" ? { registry: "main", since: T0 + 300_000 } : undefined;
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual([
      "registry main down since 2026-12-01T08:05Z: a version registered meanwhile could be what the records carry",
    ]);
    expect(m.drained().evidence).toMatchObject({ registryDownSince: "2026-12-01T08:05Z" });
  });
});

describe("not drained: several causes at once", () => {
  it("lists what traffic says first (undeclared, then declared), then coverage, unreadable records, the registry", async () => {
    const m = await live();
    m.observe();
    m.at(WINDOW_S - 60);
    m.pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    const evidence = m.lifecycle.version("event", "1.0.0");
    evidence.undeclaredDependents = 1;
    evidence.lastUndeclaredAt = T0 + 500_000;
    m.lifecycle.unreadable("event", "events", 0, "too_large", 1, T0 + 500_000);
    m.world.registryDown = () => ({ registry: "main", since: T0 });
    m.lifecycle.knownPartitions.set("events", new Set([0, 1]));
    m.at(WINDOW_S);
    expect(m.drained().reasons).toEqual([
      "undeclared records still need it (they pass 1.0.0 and fail every newer active version): 1 so far, last one 1m40s ago",
      "last seen 1m ago from producer web",
      "partition events/1 never observed (no member that shares this state reads it)",
      "1 record on events/0 could not be read (too_large) since 2026-12-01T08:08Z, the last one 1m40s ago: their version is unknown, so 1.0.0 may still be in use",
      "registry main down since 2026-12-01T08:00Z: a version registered meanwhile could be what the records carry",
    ]);
  });
});
