import { describe, expect, it } from "vitest";
import type { ShiftOptions } from "../../../src/stats/findings.js";
import { OTHER, StatsStore, type Bucket } from "../../../src/stats/store.js";
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

// Buckets made by hand, so that each count sits exactly on a rule's edge.
const bucket = (index: number, values?: Record<string, number>): Bucket => ({
  index,
  count: Object.values(values ?? {}).reduce((n, c) => n + c, 0),
  sketch: undefined,
  values: values === undefined ? undefined : new Map(Object.entries(values)),
});

describe("detectNewValue at its edges", () => {
  it("needs exactly minSamples values before, skips buckets without values, and never names (other)", () => {
    const buckets = [
      bucket(10, { EUR: 30, USD: 20 }),
      bucket(11),
      bucket(12, { [OTHER]: 4, EUR: 1, GBP: 2 }),
      bucket(13),
      bucket(14, { GBP: 1 }),
    ];
    expect(detectNewValue(vkey, buckets, shift)).toEqual({
      ...vkey,
      kind: "new-value",
      since: 12 * HOUR,
      value: "GBP",
      count: 3,
      samplesBefore: 50,
      message:
        'billing\'s /currency (payment) sent a value never seen before, "GBP", since 1970-01-01 12:00 UTC (3 times; 50 values before it)',
    });
    // 49 before: not enough to call anything new.
    expect(detectNewValue(vkey, [bucket(10, { EUR: 49 }), bucket(11, { GBP: 1 })], shift)).toBeUndefined();
    // A value seen before is not new, and once is said "once".
    expect(
      detectNewValue(vkey, [bucket(10, { EUR: 50 }), bucket(11, { EUR: 5, GBP: 1 })], shift)?.message,
    ).toBe(
      `billing's /currency (payment) sent a value never seen before, "GBP", since 1970-01-01 11:00 UTC (once; 50 values before it)`,
    );
    expect(detectNewValue(vkey, [bucket(10, { EUR: 50 }), bucket(11, { EUR: 5 })], shift)).toBeUndefined();
    // (other) only: nothing new by name.
    expect(
      detectNewValue(vkey, [bucket(10, { EUR: 50 }), bucket(11, { [OTHER]: 9 })], shift),
    ).toBeUndefined();
  });
});

describe("detectShareJump at its edges", () => {
  it("takes exactly minSamples on each side and a rise to exactly factor × 1%", () => {
    // 1 in 200 before (0.5%, a bucket without values and one without GBP among them); after: 5 of 50
    // (10%, the line itself).
    const buckets = [
      bucket(0, { GBP: 1, EUR: 149 }),
      bucket(1),
      bucket(2, { EUR: 50 }),
      bucket(3, { GBP: 5, EUR: 45 }),
    ];
    expect(detectShareJump(vkey, buckets, shift)).toEqual({
      ...vkey,
      kind: "share",
      since: 3 * HOUR,
      value: "GBP",
      shareBefore: 0.005,
      shareAfter: 0.1,
      samplesBefore: 200,
      samplesAfter: 50,
      message:
        'billing\'s /currency (payment) is "GBP" in 10% of its values since 1970-01-01 03:00 UTC, against 0.5% before',
    });
    // 49 after: too few.
    expect(
      detectShareJump(vkey, [bucket(0, { GBP: 1, EUR: 199 }), bucket(1, { GBP: 5, EUR: 44 })], shift),
    ).toBeUndefined();
    // 49 before: too few.
    expect(
      detectShareJump(vkey, [bucket(0, { GBP: 1, EUR: 48 }), bucket(1, { GBP: 50, EUR: 50 })], shift),
    ).toBeUndefined();
    // Exactly minSamples before and after (200 here: 1 in 50 is not near zero): enough.
    const at200 = { ...shift, minSamples: 200 };
    expect(
      detectShareJump(vkey, [bucket(0, { GBP: 1, EUR: 199 }), bucket(1, { GBP: 100, EUR: 100 })], at200)
        ?.samplesBefore,
    ).toBe(200);
    expect(
      detectShareJump(vkey, [bucket(0, { GBP: 1, EUR: 198 }), bucket(1, { GBP: 100, EUR: 100 })], at200),
    ).toBeUndefined();
    // Just under 10% after: no jump.
    expect(
      detectShareJump(vkey, [bucket(0, { GBP: 1, EUR: 199 }), bucket(1, { GBP: 9, EUR: 91 })], shift),
    ).toBeUndefined();
  });

  it("a share of exactly 1% before is not near zero; (other) never jumps", () => {
    expect(
      detectShareJump(vkey, [bucket(0, { GBP: 1, EUR: 99 }), bucket(1, { GBP: 50, EUR: 50 })], shift),
    ).toBeUndefined();
    expect(
      detectShareJump(vkey, [bucket(0, { GBP: 1, EUR: 100 }), bucket(1, { GBP: 50, EUR: 50 })], shift)
        ?.shareBefore,
    ).toBe(1 / 101);
    expect(
      detectShareJump(
        vkey,
        [bucket(0, { [OTHER]: 1, EUR: 199 }), bucket(1, { [OTHER]: 50, EUR: 50 })],
        shift,
      ),
    ).toBeUndefined();
  });

  it("is dated by the bucket that brought the jump, not an earlier one the newer buckets carry over the line", () => {
    // At hour 1 the after side is 55 of 200 (27.5%) but hour 1 alone 5 of 100 (5%); hour 2 is the jump,
    // and before it GBP is 6 of 1 100 (0.55%), still near zero.
    const buckets = [
      bucket(0, { GBP: 1, EUR: 999 }),
      bucket(1, { GBP: 5, EUR: 95 }),
      bucket(2, { GBP: 50, EUR: 50 }),
    ];
    const finding = detectShareJump(vkey, buckets, shift)!;
    expect([finding.since, finding.shareBefore, finding.shareAfter, finding.samplesBefore]).toEqual([
      2 * HOUR,
      6 / 1100,
      0.5,
      1100,
    ]);
    // Exactly 10% in the bucket alone is enough.
    const edge = detectShareJump(
      vkey,
      [bucket(0, { GBP: 1, EUR: 999 }), bucket(1, { GBP: 10, EUR: 90 }), bucket(2, { GBP: 50, EUR: 50 })],
      shift,
    )!;
    expect([edge.since, edge.shareAfter]).toEqual([1 * HOUR, 0.3]);
  });

  it("needs the newer buckets together over the line too, and leaves a value never seen before to detectNewValue", () => {
    // Hour 1 alone is 10% GBP, but hours 1 and 2 together only 5%.
    expect(
      detectShareJump(
        vkey,
        [bucket(0, { GBP: 1, EUR: 999 }), bucket(1, { GBP: 10, EUR: 90 }), bucket(2, { EUR: 100 })],
        shift,
      ),
    ).toBeUndefined();
    expect(
      detectShareJump(vkey, [bucket(0, { EUR: 100 }), bucket(1, { GBP: 50, EUR: 50 })], shift),
    ).toBeUndefined();
  });
});
