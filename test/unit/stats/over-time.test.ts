import { describe, expect, it } from "vitest";
import { quartilesOverTime } from "../../../src/stats/over-time.js";
import { StatsStore, type StoreOptions } from "../../../src/stats/store.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 1, 8);
const options: StoreOptions = { bucketMs: HOUR, buckets: 4, maxSeries: 20, maxValues: 5, maxBytes: 1e8 };

/** Within the sketch's 1% of the value seen at that rank (closeTo's bound is half of 10^-digits). */
const near = (value: number) => expect.closeTo(value, -Math.log10(value * 0.02));

describe("a subject's quartiles over time", () => {
  it("gives each field and producer its quartiles per bucket of the window, writer versions merged", () => {
    const store = new StatsStore(options);
    const billing10 = store.series("pay", "/amount", "number", "billing", "1.0.0");
    const billing11 = store.series("pay", "/amount", "number", "billing", "1.1.0");
    const web = store.series("pay", "/amount", "number", "web", "1.0.0");
    const note = store.series("pay", "/note", "length", "web", "1.0.0");
    const kind = store.series("pay", "/kind", "values", "web", "1.0.0");
    const other = store.series("refund", "/amount", "number", "web", "1.0.0");
    // billing in cents, then in dollars from the third hour (on 1.0.0 and 1.1.0 at once).
    for (const v of [1000, 2000, 3000, 4000]) store.addNumber(billing10, T0 - HOUR, v);
    for (const v of [10, 20]) store.addNumber(billing10, T0 + HOUR, v);
    for (const v of [30, 40]) store.addNumber(billing11, T0 + HOUR, v);
    for (const v of [500, 600, 700]) store.addNumber(web, T0 - 3 * HOUR, v); // before the window
    store.addNumber(web, T0, 550);
    store.addNumber(note, T0, 12);
    store.addValue(kind, T0, "a");
    store.addNumber(other, T0, 1);
    const view = quartilesOverTime(store, "pay", T0 + HOUR + 5);
    expect({
      ...view,
      lines: view.lines.map((l) => `${l.field} ${l.producer} ${l.measure} ${l.count.join(" ")}`),
    }).toEqual({
      subject: "pay",
      bucketMs: HOUR,
      from: T0 - 2 * HOUR,
      buckets: 4,
      lines: ["/amount billing value 0 4 0 4", "/amount web value 0 0 1 0", "/note web length 0 0 1 0"],
    });
    const billing = view.lines[0]!;
    expect([billing.p25, billing.p50, billing.p75]).toEqual([
      // The sketch's quantile is the value at rank q × (n - 1), rounded down: the 1st, 2nd, 3rd of 4.
      [null, near(1000), null, near(10)],
      [null, near(2000), null, near(20)],
      [null, near(3000), null, near(30)],
    ]);
    // Read only: the series' own sketches keep their counts.
    expect(billing10!.buckets().map((b) => b.count)).toEqual([4, 2]);
    expect(billing11!.buckets().map((b) => b.count)).toEqual([2]);
  });

  it("is empty for a subject without statistics", () => {
    expect(quartilesOverTime(new StatsStore(options), "pay", T0)).toEqual({
      subject: "pay",
      bucketMs: HOUR,
      from: T0 - 3 * HOUR,
      buckets: 4,
      lines: [],
    });
  });
});
