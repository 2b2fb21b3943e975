import { DDSketch } from "@datadog/sketches-js";

/**
 * The one room that knows @datadog/sketches-js (pinned to exactly 2.1.1): a quantile sketch with a
 * known relative error (DDSketch), how two of them merge and how one is written to the state document.
 */

/** A quantile is within 1% of a value that was really seen at that rank. */
export const RELATIVE_ACCURACY = 0.01;

/**
 * The magnitudes a sketch keeps apart: a value nearer zero than SMALLEST counts as SMALLEST (with its
 * sign), one beyond LARGEST as LARGEST. That bounds a store to the 3,110 bins of 1% between them
 * (log(10^27) / log(1.0202)), whatever it is fed. The library's collapsing stores would bound it too,
 * but 2.1.1 over-counts the bin they collapse into (the counts then exceed the values and every
 * quantile reads the lowest bin), so the plain store is used, and fed only this range.
 */
export const SMALLEST = 1e-9;
export const LARGEST = 1e18;

type Sketch = DDSketch;
type Store = Sketch["store"];

/** A sketch as the state document keeps it: each store's contiguous counts from its lowest key. */
export interface SketchJSON {
  /** Count, sum, min and max: the sketch's summary (its own fields). */
  readonly n: number;
  readonly sum: number;
  readonly min: number;
  readonly max: number;
  readonly zero: number;
  /** Positive values: [lowest key, ...counts from it]. */
  readonly pos: readonly number[];
  /** Negative values by their magnitude, the same way. */
  readonly neg: readonly number[];
}

export function newSketch(): Sketch {
  return new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY });
}

/**
 * Adds one value, its magnitude held within [SMALLEST, LARGEST] (zero stays zero), as `weight` values
 * (a whole number, at least 1: a record drawn that stands for others, stats/thinning.ts).
 */
export function addValue(sketch: Sketch, value: number, weight = 1): void {
  const magnitude = Math.abs(value);
  if (magnitude === 0 || (magnitude >= SMALLEST && magnitude <= LARGEST)) sketch.accept(value, weight);
  else sketch.accept(Math.sign(value) * (magnitude < SMALLEST ? SMALLEST : LARGEST), weight);
}

// The keys of SMALLEST and LARGEST: a saved store outside them was not written by this file.
const KEY_RANGE = (() => {
  const mapping = newSketch().mapping;
  return [mapping.key(SMALLEST), mapping.key(LARGEST)] as const;
})();

/** The value at quantile q, within RELATIVE_ACCURACY of a value seen; NaN for an empty sketch. */
export function quantile(sketch: Sketch, q: number): number {
  return sketch.getValueAtQuantile(q);
}

/**
 * Adds `from` into `into`. The library's `merge` (2.1.1) forgets the negative store when `into` is not
 * empty, while it adds the count: the ranks then point past the stores. So the negatives are merged
 * here; test/unit/stats/sketch.test.ts fails if the library starts doing it itself (counted twice).
 */
export function mergeSketch(into: Sketch, from: Sketch): void {
  const wasEmpty = into.count === 0;
  into.merge(from);
  if (!wasEmpty && from.count > 0) into.negativeStore.merge(from.negativeStore);
}

export function sketchToJSON(sketch: Sketch): SketchJSON {
  return {
    n: sketch.count,
    sum: sketch.sum,
    // JSON has no Infinity: an empty sketch's min and max are written as 0 and restored from n.
    min: sketch.count > 0 ? sketch.min : 0,
    max: sketch.count > 0 ? sketch.max : 0,
    zero: sketch.zeroCount,
    pos: storeToJSON(sketch.store),
    neg: storeToJSON(sketch.negativeStore),
  };
}

/**
 * A sketch from its JSON form, rebuilt through the stores' public `add`, so it collapses exactly as the
 * sketch it came from. Throws on a malformed form (the caller decides whether to start afresh).
 */
export function sketchFromJSON(json: SketchJSON): Sketch {
  const sketch = newSketch();
  const pos = restoreStore(sketch.store, json.pos);
  const neg = restoreStore(sketch.negativeStore, json.neg);
  if (!isCount(json.zero) || !isCount(json.n) || json.n !== pos + neg + json.zero) {
    throw new TypeError(`a saved sketch's counts do not add up (n ${String(json.n)})`);
  }
  if (![json.sum, json.min, json.max].every(Number.isFinite))
    throw new TypeError("a saved sketch's summary is not finite");
  sketch.zeroCount = json.zero;
  sketch.count = json.n;
  sketch.sum = json.sum;
  if (json.n > 0) {
    sketch.min = json.min;
    sketch.max = json.max;
  }
  return sketch;
}

function storeToJSON(store: Store): number[] {
  if (store.count === 0) return [];
  const from = store.minKey - store.offset;
  return [store.minKey, ...store.bins.slice(from, store.maxKey - store.offset + 1)];
}

function restoreStore(store: Store, saved: readonly number[]): number {
  if (!Array.isArray(saved)) throw new TypeError("a saved sketch's store is not a list");
  if (saved.length === 0) return 0;
  const lowest = saved[0]!;
  if (!Number.isSafeInteger(lowest)) throw new TypeError("a saved sketch's lowest key is not an integer");
  if (lowest < KEY_RANGE[0] || lowest + saved.length - 2 > KEY_RANGE[1]) {
    throw new TypeError("a saved sketch's keys lie outside the range a sketch keeps");
  }
  let total = 0;
  for (let i = 1; i < saved.length; i++) {
    const count = saved[i]!;
    if (!isCount(count)) throw new TypeError("a saved sketch's bin count is not a count");
    if (count > 0) store.add(lowest + i - 1, count);
    total += count;
  }
  return total;
}

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
