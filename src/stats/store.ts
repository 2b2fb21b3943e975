import type { FieldKind } from "./fields.js";
import {
  LARGEST,
  SMALLEST,
  addValue,
  mergeSketch,
  newSketch,
  sketchFromJSON,
  sketchToJSON,
  type SketchJSON,
} from "./sketch.js";

/**
 * Field statistics in time buckets: per (subject, field, producer, writer version) a ring of buckets,
 * each a DDSketch of the field's numbers or the count of each of its values. Memory is bounded per
 * series (buckets × the sketch's bin limit, or `maxValues` counts) and in all (`maxSeries`).
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

type Sketch = ReturnType<typeof newSketch>;

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
interface HeldBucket extends Bucket {
  bytes: number;
}

// Measured on Node 24 (docs/stats.md): an empty sketch with its two stores takes about 570 bytes (700
// with its bucket), and a bin about 12 (the stores grow in chunks of 128 bins, so a bucket of values
// within a factor of 10 holds 128: about 2.2 KB; the widest, 2 × 3,200 bins, about 77 KB). A value
// counted by name, about 80.
const BUCKET_BYTES = 700;
const BIN_BYTES = 12;
const VALUE_BYTES = 80;
const CHUNK = 128;
/** What a `number` bucket takes once it holds a value: its first chunk of bins. */
const FIRST_CHUNK = CHUNK * BIN_BYTES;
/** The most one value can grow a store by: from nothing to the 3,200 bins of the whole range. */
const WIDEST_GROWTH = 25 * FIRST_CHUNK;

function estimate(bucket: Bucket): number {
  if (bucket.sketch)
    return (
      BUCKET_BYTES + BIN_BYTES * (bucket.sketch.store.bins.length + bucket.sketch.negativeStore.bins.length)
    );
  return BUCKET_BYTES + VALUE_BYTES * (bucket.values?.size ?? 0);
}

/** The bytes all series' buckets are estimated at, against the bound. */
interface Budget {
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
    if (this.budget.bytes + BUCKET_BYTES + (this.kind === "number" ? FIRST_CHUNK : 0) > this.budget.max)
      return "full";
    const made: HeldBucket = {
      index,
      count: 0,
      sketch: this.kind === "number" ? newSketch() : undefined,
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
      for (const [value, n] of from.values) countValue(into.values, value, n, this.options.maxValues);
    this.measure(into);
    return true;
  }
}

/** The bins adding value makes its store allocate, as DenseStore grows: the key range in chunks. */
function growth(sketch: Sketch, value: number): number {
  if (value === 0) return 0;
  const store = value > 0 ? sketch.store : sketch.negativeStore;
  const key = sketch.mapping.key(Math.min(Math.max(Math.abs(value), SMALLEST), LARGEST));
  if (store.bins.length > 0 && key >= store.offset && key < store.offset + store.bins.length) return 0;
  const span = Math.max(key, store.maxKey) - Math.min(key, store.minKey) + 1;
  return Math.max(0, CHUNK * Math.ceil(span / CHUNK) - store.bins.length);
}

function countValue(values: Map<string, number>, value: string, n: number, maxValues: number): void {
  const known = values.get(value);
  if (known !== undefined) values.set(value, known + n);
  else if (values.size < maxValues || value === OTHER) values.set(value, n);
  else values.set(OTHER, (values.get(OTHER) ?? 0) + n);
}

/** What the state document keeps of the store (its `stats` section). */
export interface StoreJSON {
  readonly bucketMs: number;
  readonly dropped: number;
  readonly series: readonly {
    readonly subject: string;
    readonly field: string;
    readonly producer: string;
    readonly writer: string;
    readonly kind: FieldKind;
    readonly buckets: readonly {
      readonly index: number;
      readonly count: number;
      readonly sketch?: SketchJSON;
      readonly values?: Readonly<Record<string, number>>;
    }[];
  }[];
}

export class StatsStore {
  // subject → field → producer → writer → series: four lookups and no key string per value.
  readonly #series = new Map<string, Map<string, Map<string, Map<string, Series>>>>();
  #size = 0;
  readonly #budget: Budget;
  /** Values not kept because `maxSeries` series existed already, or `maxBytes` were taken. */
  dropped = 0;
  /** Values older than the bucket that holds their slot (a replay out of order). */
  late = 0;

  constructor(readonly options: StoreOptions) {
    this.#budget = { bytes: 0, max: options.maxBytes };
  }

  /** How many series exist. */
  get size(): number {
    return this.#size;
  }

  /** The bytes all buckets are estimated to take. */
  get bytes(): number {
    return this.#budget.bytes;
  }

  /** The series, made when there is room; undefined (and the caller's values dropped) when there is none. */
  series(
    subject: string,
    field: string,
    kind: FieldKind,
    producer: string,
    writer: string,
  ): Series | undefined {
    let fields = this.#series.get(subject);
    if (!fields) this.#series.set(subject, (fields = new Map()));
    let producers = fields.get(field);
    if (!producers) fields.set(field, (producers = new Map()));
    let writers = producers.get(producer);
    if (!writers) producers.set(producer, (writers = new Map()));
    let series = writers.get(writer);
    if (!series) {
      if (this.#size >= this.options.maxSeries) return undefined;
      series = new Series(subject, field, producer, writer, kind, this.options, this.#budget);
      writers.set(writer, series);
      this.#size++;
    }
    return series;
  }

  /** Records one number observed at `at` (ms). */
  addNumber(series: Series | undefined, at: number, value: number): void {
    if (!series) return void this.dropped++;
    if (!Number.isFinite(value)) return;
    const bucket = series.bucket(Math.floor(at / this.options.bucketMs));
    if (typeof bucket === "string") return void (bucket === "late" ? this.late++ : this.dropped++);
    const sketch = bucket.sketch!;
    // Near the bound (only there, as it costs a logarithm), a value whose store would grow past it is dropped.
    if (this.#budget.bytes + WIDEST_GROWTH > this.#budget.max) {
      if (this.#budget.bytes + BIN_BYTES * growth(sketch, value) > this.#budget.max)
        return void this.dropped++;
    }
    bucket.count++;
    const bins = sketch.store.bins.length + sketch.negativeStore.bins.length;
    addValue(sketch, value);
    // Two lengths read per value: the budget learns of a store that grew by a chunk.
    if (sketch.store.bins.length + sketch.negativeStore.bins.length !== bins) series.measure(bucket);
  }

  /** Records one value of a `values` field observed at `at` (ms). */
  addValue(series: Series | undefined, at: number, value: string): void {
    if (!series) return void this.dropped++;
    const bucket = series.bucket(Math.floor(at / this.options.bucketMs));
    if (typeof bucket === "string") return void (bucket === "late" ? this.late++ : this.dropped++);
    bucket.count++;
    const values = bucket.values!;
    const size = values.size;
    countValue(values, value, 1, this.options.maxValues);
    if (values.size !== size) series.measure(bucket);
  }

  /** Every series, in the order they were made. */
  *all(): IterableIterator<Series> {
    for (const fields of this.#series.values())
      for (const producers of fields.values())
        for (const writers of producers.values()) yield* writers.values();
  }

  /** Adds another replica's (or a saved) store into this one: same-index buckets add up. */
  merge(other: StatsStore): void {
    for (const from of other.all()) {
      const into = this.series(from.subject, from.field, from.kind, from.producer, from.writer);
      if (!into || into.kind !== from.kind) continue;
      for (const bucket of from.buckets()) into.mergeBucket(bucket);
    }
    this.dropped += other.dropped;
  }

  toJSON(): StoreJSON {
    return {
      bucketMs: this.options.bucketMs,
      dropped: this.dropped,
      series: [...this.all()].map((s) => ({
        subject: s.subject,
        field: s.field,
        producer: s.producer,
        writer: s.writer,
        kind: s.kind,
        buckets: s.buckets().map((b) => ({
          index: b.index,
          count: b.count,
          ...(b.sketch ? { sketch: sketchToJSON(b.sketch) } : {}),
          ...(b.values ? { values: Object.fromEntries(b.values) } : {}),
        })),
      })),
    };
  }

  /**
   * A store from its saved form, under the current options (a saved bucket past the ring or a series
   * past `maxSeries` is left out). Throws a TypeError on a malformed form or another bucket length.
   */
  static fromJSON(
    json: StoreJSON,
    options: StoreOptions,
    keep: (series: SeriesKey) => boolean = () => true,
  ): StatsStore {
    if (json.bucketMs !== options.bucketMs) {
      throw new TypeError(
        `the saved statistics use ${String(json.bucketMs)} ms buckets, not ${options.bucketMs}`,
      );
    }
    if (!Array.isArray(json.series)) throw new TypeError("the saved statistics have no series list");
    const store = new StatsStore(options);
    for (const s of json.series) {
      if (s.kind !== "number" && s.kind !== "values")
        throw new TypeError(`a saved series has kind ${String(s.kind)}`);
      if (!keep(s)) continue;
      const series = store.series(
        String(s.subject),
        String(s.field),
        s.kind,
        String(s.producer),
        String(s.writer),
      );
      if (!series) continue;
      for (const b of s.buckets) {
        if (!Number.isSafeInteger(b.index) || !Number.isSafeInteger(b.count)) {
          throw new TypeError("a saved bucket's index or count is not an integer");
        }
        const values = b.values ? new Map<string, number>(Object.entries(b.values)) : undefined;
        if (values && ![...values.values()].every((n) => Number.isSafeInteger(n) && n > 0)) {
          throw new TypeError("a saved bucket's value counts are not counts");
        }
        const sketch = b.sketch ? sketchFromJSON(b.sketch) : undefined;
        series.mergeBucket({ index: b.index, count: b.count, sketch, values });
      }
    }
    store.dropped = Number.isSafeInteger(json.dropped) ? json.dropped : 0;
    return store;
  }
}
