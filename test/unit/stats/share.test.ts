import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/load.js";
import { readSharedBucket, StatsShare } from "../../../src/stats/share.js";
import { newSketch, addValue, sketchToJSON } from "../../../src/stats/sketch.js";
import { FieldStats } from "../../../src/stats/stats.js";
import { StatsStore, type StoreOptions } from "../../../src/stats/store.js";
import { eventConfigYaml } from "../../helpers/monitor.js";

// Field statistics shared by replicas through the state topic (src/stats/share.ts): one record per
// bucket, only the changed ones, tombstones for buckets that left the ring; other replicas' buckets
// kept apart and merged when read, never counted twice.

const HOUR = 3_600_000;
const T0 = 1_000 * HOUR; // the start of bucket 1000
const options: StoreOptions = { bucketMs: HOUR, buckets: 3, maxSeries: 2, maxValues: 2, maxBytes: 1e9 };
const key = (index: number, producer = "billing") => ({
  subject: "event",
  field: "/amount",
  producer,
  writer: "1.1.0",
  index,
});

function sketchOf(...values: number[]) {
  const sketch = newSketch();
  for (const v of values) addValue(sketch, v);
  return sketchToJSON(sketch);
}

describe("a replica's own buckets, published", () => {
  it("one record per bucket, then only the buckets whose count changed, and a tombstone for one that left the ring", () => {
    const store = new StatsStore(options);
    const share = new StatsShare(store, []);
    const series = store.series("event", "/amount", "number", "billing", "1.1.0");
    store.addNumber(series, T0, 5);
    store.addNumber(series, T0 + HOUR, 7);
    const first = share.records(T0 + HOUR);
    expect(first.map((r) => [r.parts, JSON.parse(r.value!)])).toEqual([
      [
        ["event", "/amount", "billing", "1.1.0", 1000],
        { kind: "number", bucketMs: HOUR, count: 1, sketch: sketchOf(5) },
      ],
      [
        ["event", "/amount", "billing", "1.1.0", 1001],
        { kind: "number", bucketMs: HOUR, count: 1, sketch: sketchOf(7) },
      ],
    ]);
    expect(share.records(T0 + HOUR)).toEqual([]);
    store.addNumber(series, T0 + HOUR, 9);
    expect(share.records(T0 + HOUR).map((r) => [r.parts[4], JSON.parse(r.value!).count])).toEqual([
      [1001, 2],
    ]);
    // three hours on, bucket 1000's slot holds bucket 1003: its record is withdrawn
    store.addNumber(series, T0 + 3 * HOUR, 1);
    expect(share.records(T0 + 3 * HOUR).map((r) => [r.parts[4], r.value === null])).toEqual([
      [1003, false],
      [1000, true],
    ]);
  });

  it("a bucket whose JSON passes the record bound is not published, and counted once", () => {
    const store = new StatsStore(options);
    const share = new StatsShare(store, [], 60);
    const series = store.series("event", "/event", "values", "web", "none");
    store.addValue(series, T0, "x".repeat(100));
    expect(share.records(T0)).toEqual([]);
    store.addValue(series, T0, "x".repeat(100));
    expect([share.records(T0), share.tooLarge]).toEqual([[], 1]);
  });

  it("a values bucket holds names of at most 50 characters, so the most a config allows (1,000 values of 120 KB sent) is published (issue 38)", () => {
    const store = new StatsStore({ ...options, maxValues: 1000 });
    const share = new StatsShare(store, []);
    const series = store.series("event", "/note", "values", "web", "none");
    // Characters JSON writes as \u escapes, six bytes each: the widest a name can be.
    for (let i = 0; i < 1000; i++)
      store.addValue(series, T0, `${"\u0001".repeat(60)}${i}${"x".repeat(120_000)}`);
    const [record] = share.records(T0);
    expect([Buffer.byteLength(record!.value!) < 900_000, share.tooLarge]).toEqual([true, 0]);
    expect(Object.keys(JSON.parse(record!.value!).values)).toHaveLength(1000);
  });
});

describe("another replica's buckets", () => {
  it("are merged with the own ones when read, and the own store is left as it was", () => {
    const store = new StatsStore(options);
    const share = new StatsShare(store, []);
    store.addNumber(store.series("event", "/amount", "number", "billing", "1.1.0"), T0, 100);
    expect(
      share.apply(
        "b",
        false,
        key(1000),
        { kind: "number", bucketMs: HOUR, count: 2, sketch: sketchOf(1, 2) },
        T0,
      ),
    ).toBe(true);
    const merged = share.merged(T0, 998, 60_000);
    expect([...merged.all()].map((s) => s.buckets().map((b) => [b.index, b.count, b.sketch!.count]))).toEqual(
      [[[1000, 3, 3]]],
    );
    expect([...store.all()].map((s) => s.buckets().map((b) => b.count))).toEqual([[1]]);
    // the same record again replaces the replica's bucket, never adds to it
    share.apply(
      "b",
      false,
      key(1000),
      { kind: "number", bucketMs: HOUR, count: 2, sketch: sketchOf(1, 2) },
      T0,
    );
    expect([...share.merged(T0, 998, 60_000).all()][0]!.buckets()[0]!.count).toBe(3);
    // a tombstone withdraws it
    share.apply("b", false, key(1000), null, T0);
    expect([...share.merged(T0, 998, 60_000).all()][0]!.buckets()[0]!.count).toBe(1);
  });

  it("this replica's previous run (read on start) goes into its own store, and is not published again", () => {
    const store = new StatsStore(options);
    const share = new StatsShare(store, []);
    const own = (count: number, ...values: number[]) =>
      share.apply(
        "a",
        true,
        key(1000),
        { kind: "number", bucketMs: HOUR, count, sketch: sketchOf(...values) },
        T0,
      );
    // an older value of the key, not yet compacted away, then the last one: only the last counts
    own(1, 1);
    own(2, 1, 2);
    expect([...store.all()]).toEqual([]);
    share.loaded();
    expect([...store.all()].map((s) => s.buckets().map((b) => b.count))).toEqual([[2]]);
    expect(share.records(T0)).toEqual([]);
    expect(share.merged(T0, 998, 60_000)).toBe(store);
  });

  it("leaves out buckets older than the ring, fields redacted here, and series past one replica's bound", () => {
    const share = new StatsShare(new StatsStore(options), ["/amount"]);
    const bucket = { kind: "number", bucketMs: HOUR, count: 1, sketch: sketchOf(1) };
    expect(share.apply("b", false, key(1000), bucket, T0)).toBe(true);
    expect(share.peerSeries).toBe(0);
    const open = new StatsShare(new StatsStore(options), []);
    open.apply("b", false, key(997), bucket, T0);
    for (const producer of ["p1", "p2", "p3"]) open.apply("b", false, key(1000, producer), bucket, T0);
    expect(open.peerSeries).toBe(2);
  });

  it("unreadable values are left out", () => {
    const share = new StatsShare(new StatsStore(options), []);
    const bad: unknown[] = [
      undefined,
      "{",
      { kind: "weird", bucketMs: HOUR, count: 1, sketch: sketchOf(1) },
      // counted in buckets of another length (a replica with another stats.bucket)
      { kind: "number", bucketMs: 60_000, count: 1, sketch: sketchOf(1) },
      { kind: "number", bucketMs: HOUR, count: -1, sketch: sketchOf(1) },
      { kind: "number", bucketMs: HOUR, count: 1 },
      { kind: "number", bucketMs: HOUR, count: 1, sketch: { ...sketchOf(1), n: 5 } },
      { kind: "number", bucketMs: HOUR, count: 1, sketch: sketchOf(1), values: { a: 1 } },
      { kind: "values", bucketMs: HOUR, count: 1, values: { a: 0 } },
      { kind: "values", bucketMs: HOUR, count: 1, values: null },
    ];
    expect(bad.map((v) => share.apply("b", false, key(1000), v, T0))).toEqual(bad.map(() => false));
    expect(bad.map((v) => readSharedBucket(v, HOUR))).toEqual(bad.map(() => undefined));
    expect(readSharedBucket({ kind: "values", bucketMs: HOUR, count: 2, values: { a: 2 } }, HOUR)).toEqual({
      kind: "values",
      index: 0,
      count: 2,
      sketch: undefined,
      values: new Map([["a", 2]]),
    });
  });
});

describe("the quartiles a replica reports", () => {
  it("are those of every replica's values of a producer together: B reports A's producer exactly", () => {
    const config = parseConfig(eventConfigYaml(), "/tmp/config.yaml");
    const a = new FieldStats(config.stats, [], { now: () => T0 });
    const b = new FieldStats(config.stats, [], { now: () => T0 });
    const series = a.store.series("event", "/amount", "number", "billing", "1.1.0");
    for (const v of [10, 20, 30, 40]) a.store.addNumber(series, T0, v);
    for (const r of a.share.records(T0))
      b.share.apply("a", false, { ...toKey(r.parts) }, JSON.parse(r.value!), T0);
    expect([...b.quantiles()]).toEqual([...a.quantiles()]);
    // within the sketch's 1% of the values at those ranks
    expect([...b.quantiles()].map((q) => q.value)).toEqual([10, 20, 30].map((v) => expect.closeTo(v, 0)));
  });
});

function toKey(parts: readonly [string, string, string, string, number]) {
  const [subject, field, producer, writer, index] = parts;
  return { subject, field, producer, writer, index };
}
