import {
  clock,
  keyOf,
  changeWords,
  type Quartiles,
  type ScaleFinding,
  type ShiftOptions,
} from "./findings.js";
import { mergeSketch, newSketch, quantile } from "./sketch.js";
import type { Bucket, SeriesKey } from "./store.js";

/**
 * The scale-shift test: "the meaning may have changed". Pure: buckets in, findings out.
 *
 * A producer's values are split at each bucket c into before (the kept buckets older than c) and after
 * (c to the newest). It is a finding when both sides hold at least `minSamples` values and the lower,
 * middle and upper quartiles of after are each at least `factor` times those of before, or each at most
 * 1/factor of them. The earliest such c is the bucket the change began in.
 */

const QS = [0.25, 0.5, 0.75] as const;

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
  for (let c = 1; c < n; c++) {
    const before = beforeQ[c];
    const after = afterQ[c];
    if (!before || !after) continue;
    const ratio = shiftRatio(before, after, options.factor);
    if (ratio === undefined) continue;
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

/**
 * The median's ratio when every quartile moved by at least `factor` the same way; undefined otherwise,
 * and for quartiles at zero or of different signs (a ratio says nothing there).
 */
export function shiftRatio(before: Quartiles, after: Quartiles, factor: number): number | undefined {
  let up = 0;
  let down = 0;
  for (let i = 0; i < 3; i++) {
    const b = before[i]!;
    const a = after[i]!;
    if (b === 0 || a === 0 || Math.sign(a) !== Math.sign(b)) return undefined;
    const r = a / b;
    if (r >= factor) up++;
    else if (r <= 1 / factor) down++;
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
