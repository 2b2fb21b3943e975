import {
  clock,
  keyOf,
  changeWords,
  type Quartiles,
  type ScaleFinding,
  type ShiftOptions,
} from "./findings.js";
import { RELATIVE_ACCURACY, mergeSketch, newSketch, quantile } from "./sketch.js";
import type { Bucket, SeriesKey } from "./store.js";

/**
 * The scale-shift test: "the meaning may have changed". Pure: buckets in, findings out.
 *
 * A producer's values are split at each bucket c into before (the kept buckets older than c) and after
 * (c to the newest). It is a finding when both sides hold at least `minSamples` values and the lower,
 * middle and upper quartiles of after are each at least `factor` times those of before, or each at most
 * 1/factor of them, and the change is a step at c: the median of bucket c alone moved by the factor
 * the same way from before's and from the nearest bucket before c that holds values. The earliest such
 * c is the bucket the change began in.
 *
 * The step is what tells a unit change from a trend: a counter or a steady growth moves the two sides
 * apart as buckets accumulate, but never its adjacent buckets by the factor; and an after side long in
 * the new scale can carry an older bucket of old values over the line, but not that bucket's median.
 */

const QS = [0.25, 0.5, 0.75] as const;

/**
 * How far under the factor a ratio of two quantiles may fall and still count as the factor: each
 * quantile is within the sketch's relative accuracy of a value seen, so a change of exactly the factor
 * (values divided by 10) reads as 9.8 to 10.2.
 */
export const FACTOR_TOLERANCE = (1 - RELATIVE_ACCURACY) / (1 + RELATIVE_ACCURACY);

/** The scale shift of a `number` series' buckets (oldest first), or undefined. */
export function detectScaleShift(
  key: SeriesKey,
  buckets: readonly Bucket[],
  options: ShiftOptions,
): ScaleFinding | undefined {
  const n = buckets.length;
  if (n < 2) return undefined;
  // Quartiles of every prefix and suffix, each sketch merged once: 2n merges instead of n².
  const beforeQ: (Quartiles | undefined)[] = new Array(n).fill(undefined);
  const beforeN: number[] = new Array(n).fill(0);
  const running = newSketch();
  for (let c = 1; c < n; c++) {
    const sketch = buckets[c - 1]!.sketch;
    if (sketch) mergeSketch(running, sketch);
    beforeN[c] = running.count;
    if (running.count >= options.minSamples) beforeQ[c] = quartiles(running);
  }
  const afterQ: (Quartiles | undefined)[] = new Array(n).fill(undefined);
  const afterN: number[] = new Array(n).fill(0);
  const tail = newSketch();
  for (let c = n - 1; c >= 1; c--) {
    const sketch = buckets[c]!.sketch;
    if (sketch) mergeSketch(tail, sketch);
    afterN[c] = tail.count;
    if (tail.count >= options.minSamples) afterQ[c] = quartiles(tail);
  }
  // The median of the nearest bucket before c that holds values.
  let previous: number | undefined;
  for (let c = 1; c < n; c++) {
    const last = buckets[c - 1]!.sketch;
    if (last && last.count > 0) previous = quantile(last, 0.5);
    const before = beforeQ[c];
    const after = afterQ[c];
    const own = buckets[c]!.sketch;
    if (!before || !after || !own || own.count === 0 || previous === undefined) continue;
    const ratio = shiftRatio(before, after, options.factor);
    if (ratio === undefined) continue;
    const median = quantile(own, 0.5);
    if (!moved(before[1], median, ratio, options.factor) || !moved(previous, median, ratio, options.factor))
      continue;
    const since = buckets[c]!.index * options.bucketMs;
    return {
      ...keyOf(key),
      kind: "scale",
      measure: options.measure ?? "value",
      since,
      before,
      after,
      samplesBefore: beforeN[c]!,
      samplesAfter: afterN[c]!,
      factor: ratio,
      message: scaleMessage(key, ratio, since, options.measure),
    };
  }
  return undefined;
}

/** Whether `to` is at least `factor` (within the sketch's accuracy) from `from`, the way `ratio` says. */
function moved(from: number, to: number, ratio: number, factor: number): boolean {
  if (from === 0 || to === 0 || Math.sign(from) !== Math.sign(to)) return false;
  const r = to / from;
  return ratio > 1 ? r >= factor * FACTOR_TOLERANCE : r <= 1 / (factor * FACTOR_TOLERANCE);
}

/**
 * The median's ratio when every quartile moved by at least `factor` (within the sketch's accuracy,
 * FACTOR_TOLERANCE) the same way; undefined otherwise, and for quartiles at zero or of different signs
 * (a ratio says nothing there).
 */
export function shiftRatio(before: Quartiles, after: Quartiles, factor: number): number | undefined {
  const least = factor * FACTOR_TOLERANCE;
  let up = 0;
  let down = 0;
  for (let i = 0; i < 3; i++) {
    const b = before[i]!;
    const a = after[i]!;
    if (b === 0 || a === 0 || Math.sign(a) !== Math.sign(b)) return undefined;
    const r = a / b;
    if (r >= least) up++;
    else if (r <= 1 / least) down++;
  }
  return up === 3 || down === 3 ? after[1] / before[1] : undefined;
}

export function quartiles(sketch: ReturnType<typeof newSketch>): Quartiles {
  return [quantile(sketch, QS[0]), quantile(sketch, QS[1]), quantile(sketch, QS[2])];
}

function scaleMessage(
  key: SeriesKey,
  ratio: number,
  since: number,
  measure: ShiftOptions["measure"],
): string {
  const { times, check } = changeWords(ratio, measure);
  const version = key.writer === "none" ? "no declared version" : `version ${key.writer}`;
  return `${key.producer}'s ${key.field} (${key.subject}, ${version}) is ${times} since ${clock(since)} while its schema did not change: ${check}`;
}
