import {
  BIN_BYTES,
  FOLD_REASONS,
  WIDEST_GROWTH,
  countValue,
  growth,
  keptValue,
  OTHER,
  Series,
  type Budget,
  type Bucket,
  type FoldReason,
  type SeriesKey,
  type StoreOptions,
} from "./series.js";
import type { FieldKind } from "./fields.js";
import { addValue, sketchFromJSON, sketchToJSON, type SketchJSON } from "./sketch.js";

/**
 * Field statistics in time buckets: the series of every (subject, field, producer, writer version),
 * bounded in number (`maxSeries`) and in estimated bytes (`maxBytes`), mergeable and saved as JSON.
 */

export { FOLD_REASONS, OTHER, Series };
export type { Bucket, FoldReason, SeriesKey, StoreOptions };

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

/** A series itself, without its buckets: the object, its ring's slots and the maps that find it. */
const seriesBytes = (buckets: number): number => 400 + 8 * buckets;

export class StatsStore {
  // subject → field → producer → writer → series: four lookups and no key string per value.
  readonly #series = new Map<string, Map<string, Map<string, Map<string, Series>>>>();
  #size = 0;
  readonly #budget: Budget;
  /** Values not kept because `maxSeries` series existed already, or `maxBytes` were taken. */
  dropped = 0;
  /** Values older than the bucket that holds their slot (a replay out of order). */
  late = 0;
  /** Values counted, but not by their own name (`FoldReason`): what a values bucket did not keep. */
  readonly folded: Record<FoldReason, number> = { outside_enum: 0, past_max_values: 0, memory: 0, cut: 0 };

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
      const bytes = seriesBytes(this.options.buckets);
      if (this.#size >= this.options.maxSeries || this.#budget.bytes + bytes > this.#budget.max)
        return undefined;
      series = new Series(subject, field, producer, writer, kind, this.options, this.#budget);
      writers.set(writer, series);
      this.#budget.bytes += bytes;
      this.#size++;
    }
    return series;
  }

  /** Records one number observed at `at` (ms), as `weight` numbers (a drawn record's, stats/thinning.ts). */
  addNumber(series: Series | undefined, at: number, value: number, weight = 1): void {
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
    bucket.count += weight;
    const bins = sketch.store.bins.length + sketch.negativeStore.bins.length;
    addValue(sketch, value, weight);
    // Two lengths read per value: the budget learns of a store that grew by a chunk.
    if (sketch.store.bins.length + sketch.negativeStore.bins.length !== bins) series.measure(bucket);
  }

  /**
   * Records one value of a `values` field observed at `at` (ms); `enumValues`: the field's enum, any
   * other value counted as OTHER. A value is named by at most MAX_VALUE_CHARS characters (`keptValue`),
   * and only while naming it keeps the bytes within the bound.
   */
  addValue(series: Series | undefined, at: number, value: string, enumValues?: ReadonlySet<string>): void {
    if (!series) return void this.dropped++;
    const bucket = series.bucket(Math.floor(at / this.options.bucketMs));
    if (typeof bucket === "string") return void (bucket === "late" ? this.late++ : this.dropped++);
    bucket.count++;
    const values = bucket.values!;
    const outside = enumValues !== undefined && !enumValues.has(value);
    const name = outside ? OTHER : keptValue(value);
    if (outside) this.folded.outside_enum++;
    else if (name !== value) this.folded.cut++;
    const size = values.size;
    const budget = this.#budget;
    const folded = countValue(values, name, 1, this.options.maxValues, (b) => budget.bytes + b <= budget.max);
    if (folded) this.folded[folded]++;
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
      if (s.kind !== "number" && s.kind !== "length" && s.kind !== "values")
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
