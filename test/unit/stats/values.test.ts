import { describe, expect, it } from "vitest";
import type { ShiftOptions } from "../../../src/stats/findings.js";
import { StatsStore } from "../../../src/stats/store.js";
import { detectNewValue, detectShareJump } from "../../../src/stats/values.js";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 4, 8);
const shift: ShiftOptions = { factor: 10, minSamples: 50, bucketMs: HOUR };
const vkey = { subject: "payment", field: "/currency", producer: "billing", writer: "1.1.0" };

const currencies = (hours: number, perHour: number, value: (hour: number, i: number) => string) => {
  const store = new StatsStore({ bucketMs: HOUR, buckets: 48, maxSeries: 10, maxValues: 20, maxBytes: 1e9 });
  const series = store.series("payment", "/currency", "values", "billing", "1.1.0")!;
  for (let h = 0; h < hours; h++)
    for (let i = 0; i < perHour; i++) store.addValue(series, START + h * HOUR + i, value(h, i));
  return series.buckets();
};

describe("detectNewValue", () => {
  it("finds a value never seen before, with the bucket it first came in", () => {
    const buckets = currencies(6, 30, (h, i) => (h >= 4 && i % 3 === 0 ? "GBP" : i % 2 ? "EUR" : "USD"));
    expect(detectNewValue(vkey, buckets, shift)).toEqual({
      ...vkey,
      kind: "new-value",
      since: START + 4 * HOUR,
      value: "GBP",
      count: 20,
      samplesBefore: 120,
      message:
        'billing\'s /currency (payment) sent a value never seen before, "GBP", since 2026-12-04 12:00 UTC (20 times; 120 values before it)',
    });
  });

  it("finds nothing when the past held too few values to know it", () => {
    const buckets = currencies(3, 20, (h, i) => (h === 2 ? "GBP" : i % 2 ? "EUR" : "USD"));
    expect(detectNewValue(vkey, buckets, shift)).toBeUndefined();
  });
});

describe("detectShareJump", () => {
  // 100 values an hour: GBP once in 200 (0.5%) for four hours, then in 30 of every 100.
  const gbp = (h: number, i: number) =>
    h < 4 ? (i === 0 && h % 2 === 0 ? "GBP" : "EUR") : i < 30 ? "GBP" : "EUR";

  it("finds a value whose share jumped from near zero, with the bucket it began in", () => {
    expect(detectShareJump(vkey, currencies(6, 100, gbp), shift)).toEqual({
      ...vkey,
      kind: "share",
      since: START + 4 * HOUR,
      value: "GBP",
      shareBefore: 0.005,
      shareAfter: 0.3,
      samplesBefore: 400,
      samplesAfter: 200,
      message:
        'billing\'s /currency (payment) is "GBP" in 30% of its values since 2026-12-04 12:00 UTC, against 0.5% before',
    });
    // A value never seen before is not a share finding (it is a new value).
    expect(detectNewValue(vkey, currencies(6, 100, gbp), shift)).toBeUndefined();
  });

  it("finds nothing when the share was not near zero, rose less than tenfold past 1%, or the sides are small", () => {
    const common = (h: number, i: number) => (h < 4 ? (i < 5 ? "GBP" : "EUR") : i < 30 ? "GBP" : "EUR");
    expect(detectShareJump(vkey, currencies(6, 100, common), shift)).toBeUndefined();
    const modest = (h: number, i: number) =>
      h < 4 ? (i === 0 && h % 2 === 0 ? "GBP" : "EUR") : i < 9 ? "GBP" : "EUR";
    expect(detectShareJump(vkey, currencies(6, 100, modest), shift)).toBeUndefined();
    expect(detectShareJump(vkey, currencies(6, 20, gbp), shift)).toBeUndefined();
  });
});
