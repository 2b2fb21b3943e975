import { describe, expect, it } from "vitest";
import { roundFactor, type ShiftOptions } from "../../../src/stats/findings.js";
import { detectScaleShift, shiftRatio } from "../../../src/stats/shift.js";
import { addValue, newSketch } from "../../../src/stats/sketch.js";
import { StatsStore } from "../../../src/stats/store.js";

const HOUR = 3_600_000;
// 2026-12-04 08:00 UTC: hour 6 of the run is 14:00.
const START = Date.UTC(2026, 11, 4, 8);
const shift: ShiftOptions = { factor: 10, minSamples: 50, bucketMs: HOUR };
const key = { subject: "payment", field: "/amount", producer: "billing", writer: "1.1.0" };

/** A store of one series fed `perHour` values an hour for `hours` hours by `value(hour, i)`. */
function run(hours: number, perHour: number, value: (hour: number, i: number) => number) {
  const store = new StatsStore({ bucketMs: HOUR, buckets: 48, maxSeries: 10, maxValues: 20, maxBytes: 1e9 });
  const series = store.series(key.subject, key.field, "number", key.producer, key.writer)!;
  for (let h = 0; h < hours; h++)
    for (let i = 0; i < perHour; i++) store.addNumber(series, START + h * HOUR + i * 1000, value(h, i));
  return series.buckets();
}

/** Amounts between 10.00 and 99.99 in cents, spread evenly and the same every hour. */
const cents = (i: number) => 1000 + ((i * 7919) % 9000);

describe("detectScaleShift", () => {
  it("finds cents turned into dollars, named with the bucket it began in", () => {
    const buckets = run(8, 100, (h, i) => (h < 6 ? cents(i) : cents(i) / 100));
    const finding = detectScaleShift(key, buckets, shift)!;
    expect(finding).toMatchObject({
      kind: "scale",
      subject: "payment",
      field: "/amount",
      producer: "billing",
      writer: "1.1.0",
      since: START + 6 * HOUR,
      samplesBefore: 600,
      samplesAfter: 200,
    });
    expect(finding.message).toBe(
      "billing's /amount (payment, version 1.1.0) is 100 times smaller since 2026-12-04 14:00 UTC while its schema did not change: check its unit",
    );
    // Quartiles within the sketch's 1% of the values at their ranks (the same 100 amounts every hour).
    const sorted = Array.from({ length: 100 }, (_, i) => cents(i)).sort((a, b) => a - b);
    const atRank = (q: number, n: number) => sorted[Math.floor((q * (n - 1)) / (n / 100))]!;
    expect([atRank(0.25, 600), atRank(0.5, 600), atRank(0.75, 600)]).toEqual([3137, 5601, 7788]);
    const close = (got: readonly number[], want: number[]) =>
      got.forEach((g, i) => expect(Math.abs(g / want[i]! - 1)).toBeLessThan(0.01));
    close(finding.before, [3137, 5601, 7788]);
    close(finding.after, [31.37, 56.01, 77.88]);
    expect(finding.factor).toBeCloseTo(0.01, 3);
  });

  it("finds it within the first bucket after the change once that bucket holds enough samples", () => {
    expect(
      detectScaleShift(
        key,
        run(7, 50, (h, i) => (h < 6 ? cents(i) : cents(i) / 100)),
        shift,
      )?.since,
    ).toBe(START + 6 * HOUR);
    expect(
      detectScaleShift(
        key,
        run(7, 49, (h, i) => (h < 6 ? cents(i) : cents(i) / 100)),
        shift,
      ),
    ).toBeUndefined();
  });

  it("does not find a slow trend: amounts growing 30% a day for two days", () => {
    expect(
      detectScaleShift(
        key,
        run(48, 100, (h, i) => cents(i) * 1.3 ** (h / 24)),
        shift,
      ),
    ).toBeUndefined();
  });

  it("does not find a single huge outlier", () => {
    const buckets = run(8, 100, (h, i) => (h === 7 && i === 0 ? 1e12 : cents(i)));
    expect(detectScaleShift(key, buckets, shift)).toBeUndefined();
  });

  it("does not find a producer with 20 samples, however its values moved", () => {
    expect(
      detectScaleShift(
        key,
        run(4, 5, (h, i) => (h < 2 ? cents(i) : cents(i) / 100)),
        shift,
      ),
    ).toBeUndefined();
  });

  it("does not find quartiles that moved by less than the factor, or only some of them", () => {
    expect(
      detectScaleShift(
        key,
        run(8, 100, (h, i) => (h < 6 ? cents(i) : cents(i) / 9)),
        shift,
      ),
    ).toBeUndefined();
    // Only the lower half moved: the upper quartile stayed.
    const half = run(8, 100, (h, i) => (h >= 6 && i < 60 ? cents(i) / 100 : cents(i)));
    expect(detectScaleShift(key, half, shift)).toBeUndefined();
  });

  it("finds growth as well, with the factor as people say it", () => {
    const finding = detectScaleShift(
      key,
      run(6, 100, (h, i) => (h < 3 ? cents(i) : cents(i) * 1000)),
      shift,
    );
    expect(finding?.message).toBe(
      "billing's /amount (payment, version 1.1.0) is 1,000 times larger since 2026-12-04 11:00 UTC while its schema did not change: check its unit",
    );
    expect([roundFactor(98.5), roundFactor(37.2), roundFactor(0.5)]).toEqual(["100", "37", "0.5"]);
  });
});

describe("detectScaleShift on a crafted or long stream (issue 42)", () => {
  it("dates a long-lasting change to the bucket of its first changed values, with its whole factor", () => {
    // Cents for 6 hours, then dollars for 18: the old test dated it an hour early, and earlier the
    // longer the dollars lasted.
    for (const hours of [8, 24, 48]) {
      const finding = detectScaleShift(
        key,
        run(hours, 100, (h, i) => (h < 6 ? cents(i) : cents(i) / 100)),
        shift,
      )!;
      expect([hours, finding.since, finding.samplesBefore]).toEqual([hours, START + 6 * HOUR, 600]);
      expect(Math.abs(finding.factor / 0.01 - 1)).toBeLessThan(0.02);
    }
    // A change at a quarter past the hour: its hour holds a quarter of old values, and is the date.
    const late = run(24, 100, (h, i) => (h < 6 || (h === 6 && i < 25) ? cents(i) : cents(i) / 100));
    expect(detectScaleShift(key, late, shift)?.since).toBe(START + 6 * HOUR);
    // An hour of tenths just before an ordinary hour: that hour steps from the one before, but is
    // not apart from the past; the change is the hour after it.
    const dip = run(24, 100, (h, i) => (h === 5 ? cents(i) / 10 : h < 7 ? cents(i) : cents(i) * 100));
    expect(detectScaleShift(key, dip, shift)?.since).toBe(START + 7 * HOUR);
    // At three quarters past: its hour is mostly old values, the next one is the date.
    const later = run(24, 100, (h, i) => (h < 6 || (h === 6 && i < 75) ? cents(i) : cents(i) / 100));
    expect(detectScaleShift(key, later, shift)?.since).toBe(START + 7 * HOUR);
  });

  it("finds a change of exactly the factor, either way: the quartiles are within the sketch's 1% of it", () => {
    for (const h0 of [3, 6]) {
      const down = run(8, 100, (h, i) => (h < h0 ? cents(i) : cents(i) / 10));
      expect(detectScaleShift(key, down, shift)?.since).toBe(START + h0 * HOUR);
      const up = run(8, 100, (h, i) => (h < h0 ? cents(i) : cents(i) * 10));
      expect(detectScaleShift(key, up, shift)?.since).toBe(START + h0 * HOUR);
    }
  });

  it("does not call a counter a meaning drift: an id counting up from 0 is a trend, not a step", () => {
    expect(
      detectScaleShift(
        key,
        run(48, 100, (h, i) => h * 100 + i),
        shift,
      ),
    ).toBeUndefined();
    expect(
      detectScaleShift(
        key,
        run(48, 1000, (h, i) => h * 1000 + i),
        shift,
      ),
    ).toBeUndefined();
    // Counting up 10% a bucket, compounding: 1.1^47 = 88 times larger in all, never 10 from one bucket to the next.
    expect(
      detectScaleShift(
        key,
        run(48, 100, (h, i) => 1000 * 1.1 ** h + i),
        shift,
      ),
    ).toBeUndefined();
    // Four times larger every hour: each bucket far above the whole past, never 10 times the one before.
    expect(
      detectScaleShift(
        key,
        run(12, 100, (h, i) => cents(i) * 4 ** h),
        shift,
      ),
    ).toBeUndefined();
  });
});

describe("shiftRatio", () => {
  it("takes a move of exactly the factor either way, and returns the median's ratio", () => {
    expect(shiftRatio([1, 2, 4], [10, 40, 40], 10)).toBe(20);
    expect(shiftRatio([10, 40, 40], [1, 2, 4], 10)).toBe(0.05);
    expect(shiftRatio([-1, -2, -4], [-10, -40, -40], 10)).toBe(20);
    // Within the sketch's accuracy of the factor (9.81, 1/9.81): the factor.
    expect(shiftRatio([1, 2, 4], [9.81, 40, 40], 10)).toBe(20);
    expect(shiftRatio([10, 40, 40], [10 / 9.81, 2, 4], 10)).toBe(0.05);
    // Short of it by more in one quartile (9.8), or one quartile the other way.
    expect(shiftRatio([1, 2, 4], [9.8, 40, 40], 10)).toBeUndefined();
    expect(shiftRatio([10, 40, 40], [10 / 9.8, 2, 4], 10)).toBeUndefined();
    expect(shiftRatio([1, 20, 4], [10, 2, 40], 10)).toBeUndefined();
    expect(shiftRatio([10, 2, 40], [1, 20, 4], 10)).toBeUndefined();
  });

  it("says nothing of quartiles at zero or of different signs", () => {
    expect(shiftRatio([0, 2, 4], [10, 40, 40], 10)).toBeUndefined();
    expect(shiftRatio([10, 40, 40], [1, 2, 0], 10)).toBeUndefined();
    // Every ratio -10: tenfold in size, but across zero.
    expect(shiftRatio([1, 2, 4], [-10, -20, -40], 10)).toBeUndefined();
    expect(shiftRatio([1, 2, 4], [10, 20, -40], 10)).toBeUndefined();
  });
});

describe("detectScaleShift's options and edges", () => {
  const s = (values: number[]) => {
    const sketch = newSketch();
    for (const v of values) addValue(sketch, v);
    return sketch;
  };
  const b = (index: number, values?: number[]) => ({
    index,
    count: values?.length ?? 0,
    sketch: values && s(values),
    values: undefined,
  });
  const hundred = (scale: number) => Array.from({ length: 100 }, (_, i) => cents(i) * scale);

  it("counts exactly minSamples before, skips buckets without a sketch, and says lengths and undeclared versions", () => {
    const buckets = [b(3, hundred(1).slice(0, 50)), b(4), b(5, hundred(100).slice(0, 50))];
    const finding = detectScaleShift({ ...key, writer: "none" }, buckets, { ...shift, measure: "length" })!;
    // Dated by the first bucket with values in the new scale, not the empty one before it.
    expect([finding.since, finding.samplesBefore, finding.samplesAfter, finding.measure]).toEqual([
      5 * HOUR,
      50,
      50,
      "length",
    ]);
    expect(finding.message).toBe(
      "billing's /amount (payment, no declared version) is 100 times longer since 1970-01-01 05:00 UTC while its schema did not change: check what it carries",
    );
    expect(detectScaleShift(key, buckets, shift)?.measure).toBe("value");
    // 49 before: too few.
    const short = [b(3, hundred(1).slice(0, 49)), b(4), b(5, hundred(100).slice(0, 50))];
    expect(detectScaleShift(key, short, shift)).toBeUndefined();
    // Two buckets: the change in the second, the first it can begin in.
    expect(detectScaleShift(key, [b(3, hundred(1)), b(4, hundred(100))], shift)?.since).toBe(4 * HOUR);
    // One bucket: nothing to compare.
    expect(detectScaleShift(key, [b(3, hundred(1))], shift)).toBeUndefined();
  });

  it("names the earliest bucket the change began in", () => {
    const buckets = [b(0, hundred(1)), b(1, hundred(1)), b(2, hundred(100)), b(3, hundred(100))];
    const finding = detectScaleShift(key, buckets, shift)!;
    expect([finding.since, finding.samplesBefore, finding.samplesAfter]).toEqual([2 * HOUR, 200, 200]);
  });
});
