import { describe, expect, it } from "vitest";
import { quantile } from "../../../src/stats/sketch.js";
import { OTHER, StatsStore, type StoreOptions } from "../../../src/stats/store.js";

const HOUR = 3_600_000;
const options: StoreOptions = { bucketMs: HOUR, buckets: 3, maxSeries: 2, maxValues: 2, maxBytes: 1e9 };

describe("StatsStore", () => {
  it("keeps the newest buckets of a series in a ring, oldest first, and refuses values older than their slot", () => {
    const store = new StatsStore(options);
    const series = store.series("event", "/amount", "number", "billing", "1.1.0");
    for (const hour of [0, 1, 2, 3]) store.addNumber(series, hour * HOUR + 5, 100 * (hour + 1));
    store.addNumber(series, 0, 7); // hour 0's slot now holds hour 3
    expect(series!.buckets().map((b) => [b.index, b.count, quantile(b.sketch!, 0.5)])).toEqual([
      [1, 1, expect.closeTo(200, -1)],
      [2, 1, expect.closeTo(300, -1)],
      [3, 1, expect.closeTo(400, -1)],
    ]);
    expect(store.late).toBe(1);
  });

  it("keeps at most maxSeries series and counts the values it drops", () => {
    const store = new StatsStore(options);
    const a = store.series("event", "/amount", "number", "a", "1.0.0");
    const b = store.series("event", "/amount", "number", "b", "1.0.0");
    const c = store.series("event", "/amount", "number", "c", "1.0.0");
    expect([a !== undefined, b !== undefined, c]).toEqual([true, true, undefined]);
    store.addNumber(c, 0, 1);
    store.addNumber(c, 0, 2);
    expect([store.size, store.dropped]).toEqual([2, 2]);
  });

  it("makes no bucket past maxBytes, and counts the values it drops", () => {
    const store = new StatsStore({ ...options, maxBytes: 4000 });
    const series = store.series("event", "/amount", "number", "billing", "1.0.0");
    store.addNumber(series, 0, 5);
    // The series (400 + 8 × 3 slots) and one bucket of 128 bins (700 + 12 × 128) as estimated.
    expect(store.bytes).toBe(424 + 2236);
    store.addNumber(series, HOUR, 5);
    expect([store.bytes, store.dropped, series!.buckets().length]).toEqual([2660, 1, 1]);
    // A newer bucket replacing the oldest frees its bytes first.
    const small = new StatsStore({ ...options, buckets: 1, maxBytes: 4000 });
    const one = small.series("event", "/amount", "number", "billing", "1.0.0");
    for (const hour of [0, 1, 2]) small.addNumber(one, hour * HOUR, 5);
    expect([small.bytes, small.dropped, one!.buckets().map((b) => b.index)]).toEqual([408 + 2236, 0, [2]]);
    // Near the bound, a value its store has no bin for is dropped; one it has a bin for is kept.
    small.addNumber(one, 2 * HOUR, 1e12);
    small.addNumber(one, 2 * HOUR, 6);
    expect([small.bytes, small.dropped, one!.buckets()[0]!.count]).toEqual([2644, 1, 2]);
    // A series itself counts: 424 bytes fit in 500 once.
    const tiny = new StatsStore({ ...options, maxBytes: 500 });
    expect(tiny.series("event", "/a", "number", "billing", "1.0.0")).toBeDefined();
    expect(tiny.series("event", "/b", "number", "billing", "1.0.0")).toBeUndefined();
    expect(tiny.bytes).toBe(424);
  });

  it("counts at most maxValues values by name, the rest as other", () => {
    const store = new StatsStore(options);
    const series = store.series("event", "/currency", "values", "billing", "1.0.0");
    for (const v of ["EUR", "USD", "EUR", "GBP", "JPY"]) store.addValue(series, 10, v);
    expect(Object.fromEntries(series!.buckets()[0]!.values!)).toEqual({ EUR: 2, USD: 1, [OTHER]: 2 });
    expect(store.folded).toEqual({ outside_enum: 0, past_max_values: 2, memory: 0, cut: 0 });
  });

  it("bounds the bytes a crafted stream of values takes: outside the enum as other, long ones cut, each counted at its true size (issue 42)", () => {
    const store = new StatsStore({ ...options, maxValues: 20 });
    const codes = new Set(["EUR", "USD"]);
    const currency = store.series("event", "/currency", "values", "billing", "1.0.0");
    // Distinct 120 KB strings: kept whole, 20 named of them took 4.8 MB, estimated at 1,600 bytes.
    for (let i = 0; i < 30; i++) store.addValue(currency, 10, `${i}:${"x".repeat(120_000)}`, codes);
    store.addValue(currency, 10, "EUR", codes);
    expect(Object.fromEntries(currency!.buckets()[0]!.values!)).toEqual({ [OTHER]: 30, EUR: 1 });
    // A named string field (no enum): each long value by its first 40 characters and a hash of the whole.
    const note = store.series("event", "/note", "values", "billing", "1.0.0");
    const long = (i: number) => "y".repeat(70_000) + String(i);
    for (const i of [1, 2, 1]) store.addValue(note, 10, long(i));
    const names = [...note!.buckets()[0]!.values!.keys()];
    expect(names.map((n) => [n.length, n.slice(0, 41), n.slice(41).length])).toEqual([
      [50, "y".repeat(40) + "…", 9],
      [50, "y".repeat(40) + "…", 9],
    ]);
    expect(names[0]).not.toBe(names[1]);
    expect(note!.buckets()[0]!.values!.get(names[0]!)).toBe(2);
    expect(store.folded).toEqual({ outside_enum: 30, past_max_values: 0, memory: 0, cut: 3 });
    // Two series (400 + 8 × 3), two buckets (700 each); EUR (80 + 2 × 3) and two cut names (80 + 2 × 50).
    expect(store.bytes).toBe(2 * 424 + 2 * 700 + 86 + 2 * 180);
  });

  it("names no value past maxBytes: it is counted as other (issue 42)", () => {
    const store = new StatsStore({ ...options, maxValues: 20, maxBytes: 424 + 700 + 2 * 90 });
    const series = store.series("event", "/code", "values", "billing", "1.0.0");
    for (const v of ["aaaaa", "bbbbb", "ccccc", "aaaaa"]) store.addValue(series, 10, v);
    expect(Object.fromEntries(series!.buckets()[0]!.values!)).toEqual({ aaaaa: 2, bbbbb: 1, [OTHER]: 1 });
    expect([store.bytes, store.folded.memory]).toEqual([424 + 700 + 2 * 90, 1]);
  });

  it("merges another replica's store: buckets of the same hour add up, newer ones are kept", () => {
    const a = new StatsStore(options);
    const b = new StatsStore(options);
    const sa = a.series("event", "/amount", "number", "billing", "1.0.0");
    const sb = b.series("event", "/amount", "number", "billing", "1.0.0");
    for (let i = 0; i < 10; i++) a.addNumber(sa, 5, 10);
    for (let i = 0; i < 30; i++) b.addNumber(sb, 6, 1000);
    b.addNumber(sb, HOUR, -4);
    a.merge(b);
    const buckets = sa!.buckets();
    expect(buckets.map((x) => [x.index, x.count, x.sketch!.count])).toEqual([
      [0, 40, 40],
      [1, 1, 1],
    ]);
    expect(quantile(buckets[0]!.sketch!, 0.2)).toBeCloseTo(10, -1);
    expect(quantile(buckets[0]!.sketch!, 0.5)).toBeCloseTo(1000, -2);
  });

  it("round-trips through the state document's JSON", () => {
    const store = new StatsStore(options);
    const n = store.series("event", "/amount", "number", "billing", "1.0.0");
    const v = store.series("event", "/currency", "values", "billing", "none");
    for (const x of [1, 2, 3, -5, 0]) store.addNumber(n, 2 * HOUR, x);
    store.addValue(v, HOUR, "EUR");
    store.addNumber(store.series("other", "/x", "number", "p", "1.0.0"), 0, 1);
    const json = JSON.parse(JSON.stringify(store.toJSON())) as ReturnType<StatsStore["toJSON"]>;
    expect(json.dropped).toBe(1);
    expect(json.series.map((s) => [s.field, s.writer, s.buckets.map((b) => [b.index, b.count])])).toEqual([
      ["/amount", "1.0.0", [[2, 5]]],
      ["/currency", "none", [[1, 1]]],
    ]);
    expect(json.series[1]!.buckets[0]!.values).toEqual({ EUR: 1 });
    expect(StatsStore.fromJSON(json, options).toJSON()).toEqual(json);
  });

  it("refuses saved statistics of another bucket length", () => {
    const json = new StatsStore(options).toJSON();
    expect(() => StatsStore.fromJSON(json, { ...options, bucketMs: 60_000 })).toThrow(
      "the saved statistics use 3600000 ms buckets, not 60000",
    );
  });
});
