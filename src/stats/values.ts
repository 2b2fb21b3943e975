import { clock, keyOf, quote, type ShareFinding, type ShiftOptions, type ValueFinding } from "./findings.js";
import { OTHER, type Bucket, type SeriesKey } from "./store.js";

/** The tests of a `values` series (an enum, a named string field): a new value, a share from near zero. */

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

/** A share below this is "near zero". */
export const NEAR_ZERO = 0.01;

/**
 * A value whose share of a producer's values jumped from near zero: under NEAR_ZERO (1%) of the
 * buckets before c (at least `minSamples` values, the value among them), and at least `factor` times
 * NEAR_ZERO (10% by default) of c and the newer ones (at least `minSamples` too) and of c alone.
 * The earliest such c.
 */
export function detectShareJump(
  key: SeriesKey,
  buckets: readonly Bucket[],
  options: ShiftOptions,
): ShareFinding | undefined {
  const total = (from: number, to: number, value?: string) => {
    let n = 0;
    for (let d = from; d < to; d++) {
      const values = buckets[d]!.values;
      if (!values) continue;
      if (value === undefined) for (const count of values.values()) n += count;
      else n += values.get(value) ?? 0;
    }
    return n;
  };
  for (let c = 1; c < buckets.length; c++) {
    const before = total(0, c);
    const after = total(c, buckets.length);
    if (before < options.minSamples || after < options.minSamples) continue;
    for (const value of buckets[c]!.values?.keys() ?? []) {
      if (value === OTHER) continue;
      const shareBefore = total(0, c, value) / before;
      const shareAfter = total(c, buckets.length, value) / after;
      // A value never seen before is the new-value finding's.
      if (shareBefore === 0 || shareBefore >= NEAR_ZERO || shareAfter < options.factor * NEAR_ZERO) continue;
      // Dated by the bucket that brought the jump: the after side alone could carry an earlier,
      // still ordinary bucket over the line.
      if (total(c, c + 1, value) / total(c, c + 1) < options.factor * NEAR_ZERO) continue;
      const since = buckets[c]!.index * options.bucketMs;
      return {
        ...keyOf(key),
        kind: "share",
        since,
        value,
        shareBefore,
        shareAfter,
        samplesBefore: before,
        samplesAfter: after,
        message: `${key.producer}'s ${key.field} (${key.subject}) is ${quote(value)} in ${percent(shareAfter)} of its values since ${clock(since)}, against ${percent(shareBefore)} before`,
      };
    }
  }
  return undefined;
}

const percent = (share: number): string => `${Number((share * 100).toPrecision(2))}%`;
