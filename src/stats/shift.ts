import { mergeSketch, newSketch, quantile } from "./sketch.js";
import { OTHER, type Bucket, type SeriesKey } from "./store.js";

/**
 * The scale-shift test: "the meaning may have changed". Pure: buckets in, findings out.
 *
 * A producer's values are split at each bucket c into before (the kept buckets older than c) and after
 * (c to the newest). It is a finding when both sides hold at least `minSamples` values and the lower,
 * middle and upper quartiles of after are each at least `factor` times those of before, or each at most
 * 1/factor of them. The earliest such c is the bucket the change began in.
 */

export interface ShiftOptions {
  /** The least ratio of every quartile (default 10; cents to dollars is 100). */
  readonly factor: number;
  /** Values needed on each side (default 50). */
  readonly minSamples: number;
  /** A bucket's length in ms, to say when a change began. */
  readonly bucketMs: number;
}

export type Quartiles = readonly [q1: number, median: number, q3: number];

export interface ScaleFinding extends SeriesKey {
  readonly kind: "scale";
  /** The start (ms) of the bucket the change began in. */
  readonly since: number;
  readonly before: Quartiles;
  readonly after: Quartiles;
  readonly samplesBefore: number;
  readonly samplesAfter: number;
  /** after / before of the median: above 1 larger, below 1 smaller. */
  readonly factor: number;
  readonly message: string;
}

export interface ValueFinding extends SeriesKey {
  readonly kind: "new-value";
  readonly since: number;
  readonly value: string;
  /** How often the new value came since, and how many values the past held without it. */
  readonly count: number;
  readonly samplesBefore: number;
  readonly message: string;
}

export type Finding = ScaleFinding | ValueFinding;

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
      since,
      before,
      after,
      samplesBefore: beforeN[c]!,
      samplesAfter: afterN[c]!,
      factor: ratio,
      message: scaleMessage(key, ratio, since),
    };
  }
  return undefined;
}

/**
 * The median's ratio when every quartile moved by at least `factor` the same way; undefined otherwise,
 * and for quartiles at zero or of different signs (a ratio says nothing there).
 */
function shiftRatio(before: Quartiles, after: Quartiles, factor: number): number | undefined {
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

function quartiles(sketch: ReturnType<typeof newSketch>): Quartiles {
  return [quantile(sketch, QS[0]), quantile(sketch, QS[1]), quantile(sketch, QS[2])];
}

/**
 * A value of a `values` series never counted in the past buckets, which held at least `minSamples`
 * values: the first such value of the earliest bucket that brought one.
 */
export function detectNewValue(
  key: SeriesKey,
  buckets: readonly Bucket[],
  options: ShiftOptions,
): ValueFinding | undefined {
  const seen = new Set<string>();
  let samples = 0;
  for (let c = 0; c < buckets.length; c++) {
    const values = buckets[c]!.values;
    if (!values) continue;
    if (samples >= options.minSamples) {
      for (const [value] of values) {
        // OTHER holds values past the bound: never new by name.
        if (seen.has(value) || value === OTHER) continue;
        let count = 0;
        for (let d = c; d < buckets.length; d++) count += buckets[d]!.values?.get(value) ?? 0;
        const since = buckets[c]!.index * options.bucketMs;
        return {
          ...keyOf(key),
          kind: "new-value",
          since,
          value,
          count,
          samplesBefore: samples,
          message: `${key.producer}'s ${key.field} (${key.subject}) sent a value never seen before, ${quote(value)}, since ${clock(since)} (${count === 1 ? "once" : `${count} times`}; ${samples} values before it)`,
        };
      }
    }
    for (const [value, n] of values) {
      seen.add(value);
      samples += n;
    }
  }
  return undefined;
}

const keyOf = (key: SeriesKey): SeriesKey => ({
  subject: key.subject,
  field: key.field,
  producer: key.producer,
  writer: key.writer,
});

function scaleMessage(key: SeriesKey, ratio: number, since: number): string {
  const times = ratio >= 1 ? `${roundFactor(ratio)} times larger` : `${roundFactor(1 / ratio)} times smaller`;
  const version = key.writer === "none" ? "no declared version" : `version ${key.writer}`;
  return `${key.producer}'s ${key.field} (${key.subject}, ${version}) is ${times} since ${clock(since)} while its schema did not change: check its unit`;
}

/** A factor as people say it: a power of ten when within the sketch's error of one, else 2 digits. */
export function roundFactor(factor: number): string {
  const power = Math.round(Math.log10(factor));
  if (Math.abs(factor / 10 ** power - 1) < 0.03) return (10 ** power).toLocaleString("en-US");
  return Number(factor.toPrecision(2)).toLocaleString("en-US");
}

/** A bucket's start as `2026-12-04 14:00 UTC` (with seconds when buckets are shorter than minutes). */
export function clock(ms: number): string {
  return (
    new Date(ms)
      .toISOString()
      .slice(0, ms % 60_000 === 0 ? 16 : 19)
      .replace("T", " ") + " UTC"
  );
}

const quote = (value: string): string => JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
