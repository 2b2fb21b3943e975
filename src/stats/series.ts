import type { FieldKind } from "./fields.js";
import { LARGEST, SMALLEST, mergeSketch, newSketch } from "./sketch.js";

/**
 * One series of field statistics: per (subject, field, producer, writer version) a ring of time
 * buckets, each a DDSketch of the field's numbers or the count of each of its values, and what each
 * bucket is estimated to take against the store's byte budget.
 */

export interface StoreOptions {
  /** A bucket's length in ms. */
  readonly bucketMs: number;
  /** How many buckets a series keeps (the newest ones). */
  readonly buckets: number;
  /** Series kept in all; values of a further series are dropped and counted. */
  readonly maxSeries: number;
  /** Distinct values a `values` bucket counts by name; the rest are counted as OTHER. */
  readonly maxValues: number;
  /** Bytes all buckets may take, as estimated (docs/stats.md); a bucket past it is not made. */
  readonly maxBytes: number;
}

/** Where the values past `maxValues` are counted. */
export const OTHER = "(other)";

export type Sketch = ReturnType<typeof newSketch>;

/** One bucket: its index (start / bucketMs), how many values it holds, and what they were. */
export interface Bucket {
  readonly index: number;
  count: number;
  /** For a `number` field. */
  readonly sketch: Sketch | undefined;
  /** For a `values` field: each value's count. */
  readonly values: Map<string, number> | undefined;
}

/** A bucket as a series holds it: with the bytes it was last estimated at. */
export interface HeldBucket extends Bucket {
  bytes: number;
}

// Measured on Node 24 (docs/stats.md): an empty sketch with its two stores takes about 570 bytes (700
// with its bucket), and a bin about 12 (the stores grow in chunks of 128 bins, so a bucket of values
// within a factor of 10 holds 128: about 2.2 KB; the widest, 2 × 3,200 bins, about 77 KB). A value
// counted by name, about 80.
export const BUCKET_BYTES = 700;
export const BIN_BYTES = 12;
/** A value counted by name, besides its text (two bytes a character at most). */
const VALUE_BYTES = 80;
const CHUNK = 128;
/** What a `number` bucket takes once it holds a value: its first chunk of bins. */
export const FIRST_CHUNK = CHUNK * BIN_BYTES;
/** The most one value can grow a store by: from nothing to the 3,200 bins of the whole range. */
export const WIDEST_GROWTH = 25 * FIRST_CHUNK;

function estimate(bucket: Bucket): number {
  if (bucket.sketch)
    return (
      BUCKET_BYTES + BIN_BYTES * (bucket.sketch.store.bins.length + bucket.sketch.negativeStore.bins.length)
    );
  let bytes = BUCKET_BYTES;
  // OTHER's entry is within BUCKET_BYTES: a bucket at the bound can still count what it cannot name.
  if (bucket.values)
    for (const value of bucket.values.keys()) if (value !== OTHER) bytes += valueBytes(value);
  return bytes;
}

/** What a value counted by name takes: the map's entry and its text, its true size. */
export const valueBytes = (value: string): number => VALUE_BYTES + 2 * value.length;

/**
 * A value longer than this is kept by its first KEPT_CHARS characters and a hash of the whole: a bucket
 * holds at most `maxValues` names of at most 50 characters, whatever the records carry (a bucket's
 * JSON stays far under the state topic's 1 MB).
 */
export const MAX_VALUE_CHARS = 64;
const KEPT_CHARS = 40;

/** The name a value is counted by: itself, or its beginning and a hash of the whole when longer. */
export function keptValue(value: string): string {
  if (value.length <= MAX_VALUE_CHARS) return value;
  // FNV-1a over the UTF-16 code units: two long values that begin alike stay apart.
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) hash = Math.imul(hash ^ value.charCodeAt(i), 0x01000193);
  return `${value.slice(0, KEPT_CHARS)}…#${(hash >>> 0).toString(16).padStart(8, "0")}`;
}

/**
 * Why a value was not counted by its own name: `outside_enum` (a value the field's enum does not
 * list, counted as OTHER), `past_max_values` (the bucket already names `maxValues`), `memory` (naming
 * it would pass `stats.maxMemoryMiB`), `cut` (longer than MAX_VALUE_CHARS: named by its beginning and
 * a hash).
 */
export type FoldReason = "outside_enum" | "past_max_values" | "memory" | "cut";
export const FOLD_REASONS: readonly FoldReason[] = ["outside_enum", "past_max_values", "memory", "cut"];

/** The bytes all series' buckets are estimated at, against the bound. */
export interface Budget {
  bytes: number;
  readonly max: number;
}

export interface SeriesKey {
  readonly subject: string;
  readonly field: string;
  readonly producer: string;
  /** The writer version's text, or `none`. */
  readonly writer: string;
}

/** One series: its ring of buckets, slot = index mod buckets. */
export class Series implements SeriesKey {
  readonly #ring: (HeldBucket | undefined)[];

  constructor(
    readonly subject: string,
    readonly field: string,
    readonly producer: string,
    readonly writer: string,
    readonly kind: FieldKind,
    readonly options: StoreOptions,
    readonly budget: Budget,
  ) {
    this.#ring = new Array<HeldBucket | undefined>(options.buckets).fill(undefined);
  }

  /**
   * The bucket for index, made (replacing an older one in its slot) when the budget has room for it;
   * `late` when a newer bucket holds the slot, `full` when the budget has no room.
   */
  bucket(index: number): HeldBucket | "late" | "full" {
    const slot = index % this.#ring.length;
    const held = this.#ring[slot];
    if (held && held.index === index) return held;
    if (held && held.index > index) return "late";
    if (held) {
      this.budget.bytes -= held.bytes;
      this.#ring[slot] = undefined;
    }
    if (this.budget.bytes + BUCKET_BYTES + (this.kind === "values" ? 0 : FIRST_CHUNK) > this.budget.max)
      return "full";
    const made: HeldBucket = {
      index,
      count: 0,
      sketch: this.kind === "values" ? undefined : newSketch(),
      values: this.kind === "values" ? new Map() : undefined,
      bytes: 0,
    };
    this.#ring[slot] = made;
    this.measure(made);
    return made;
  }

  /** Brings the budget up to date with a bucket that may have grown. */
  measure(bucket: HeldBucket): void {
    const bytes = estimate(bucket);
    this.budget.bytes += bytes - bucket.bytes;
    bucket.bytes = bytes;
  }

  /** The buckets held, oldest first. */
  buckets(): Bucket[] {
    return this.#ring.filter((b): b is HeldBucket => b !== undefined).sort((a, b) => a.index - b.index);
  }

  /** Adds `from`'s counts into this series' bucket of the same index (or keeps `from` when newer). */
  mergeBucket(from: Bucket): boolean {
    const into = this.bucket(from.index);
    if (typeof into === "string") return false;
    into.count += from.count;
    if (into.sketch && from.sketch) mergeSketch(into.sketch, from.sketch);
    if (into.values && from.values)
      for (const [value, n] of from.values)
        countValue(into.values, keptValue(value), n, this.options.maxValues);
    this.measure(into);
    return true;
  }
}

/** The bins adding value makes its store allocate, as DenseStore grows: the key range in chunks. */
export function growth(sketch: Sketch, value: number): number {
  if (value === 0) return 0;
  const store = value > 0 ? sketch.store : sketch.negativeStore;
  const key = sketch.mapping.key(Math.min(Math.max(Math.abs(value), SMALLEST), LARGEST));
  if (store.bins.length > 0 && key >= store.offset && key < store.offset + store.bins.length) return 0;
  const span = Math.max(key, store.maxKey) - Math.min(key, store.minKey) + 1;
  return Math.max(0, CHUNK * Math.ceil(span / CHUNK) - store.bins.length);
}

/**
 * Counts `n` of `value` (a name KEPT as `keptValue` makes it) in `values`: by name while the bucket names
 * fewer than `maxValues` and `room` allows the name's bytes, else as OTHER. Returns why it went to
 * OTHER, if it did.
 */
export function countValue(
  values: Map<string, number>,
  value: string,
  n: number,
  maxValues: number,
  room: (bytes: number) => boolean = () => true,
): "past_max_values" | "memory" | undefined {
  const known = values.get(value);
  if (known !== undefined) return void values.set(value, known + n);
  const full = values.size >= maxValues && value !== OTHER;
  if (!full && room(valueBytes(value))) return void values.set(value, n);
  values.set(OTHER, (values.get(OTHER) ?? 0) + n);
  return full ? "past_max_values" : "memory";
}
