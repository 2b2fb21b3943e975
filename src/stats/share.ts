import { coveredBy, type FieldKind } from "./fields.js";
import { sketchFromJSON, sketchToJSON, type SketchJSON } from "./sketch.js";
import { StatsStore, type Bucket, type SeriesKey, type StoreOptions } from "./store.js";

/**
 * Field statistics shared by replicas through the state topic: one record per bucket of each series
 * (`stats/<subject>/<field>/<producer>/<writer>/<index>/<replica>`), so that only the current bucket
 * is sent again as it fills and no record nears Kafka's 1 MB message limit; the other replicas'
 * buckets, kept per replica, and merged with this replica's own store when read, never into it (so
 * nothing is counted twice). No Kafka here: state/messages.ts reads and writes the records.
 */

/** A record's value: one bucket of one series, with its kind. */
export interface SharedBucketJSON {
  readonly kind: FieldKind;
  /** The bucket length it was counted in (ms): a replica with another `stats.bucket` is left out. */
  readonly bucketMs: number;
  readonly count: number;
  readonly sketch?: SketchJSON;
  readonly values?: Readonly<Record<string, number>>;
}

/** The largest record value published (bytes of JSON); a bucket past it is left out and counted. */
export const MAX_RECORD_BYTES = 900_000;

/** One record to publish: the key's parts after `stats/`, and the value (null: a tombstone). */
export interface SharedBucketRecord {
  readonly parts: readonly [string, string, string, string, number];
  readonly value: string | null;
}

interface PeerSeries extends SeriesKey {
  readonly kind: FieldKind;
  readonly buckets: Map<number, Bucket>;
}

const seriesId = (s: SeriesKey) => `${s.subject}\u0000${s.field}\u0000${s.producer}\u0000${s.writer}`;
const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/**
 * A bucket as another replica published it; undefined when the value is not a readable one (a wrong
 * kind, counts that are not counts, a sketch whose counts do not add up).
 */
export function readSharedBucket(
  value: unknown,
  bucketMs: number,
): (Bucket & { readonly kind: FieldKind }) | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<SharedBucketJSON>;
  if (v.bucketMs !== bucketMs) return undefined;
  if (v.kind !== "number" && v.kind !== "length" && v.kind !== "values") return undefined;
  if (!isCount(v.count)) return undefined;
  if (v.kind === "values") {
    if (typeof v.values !== "object" || v.values === null || v.sketch !== undefined) return undefined;
    const values = new Map(Object.entries(v.values));
    if (![...values.values()].every((n) => isCount(n) && n > 0)) return undefined;
    return { kind: v.kind, index: 0, count: v.count, sketch: undefined, values };
  }
  if (typeof v.sketch !== "object" || v.sketch === null || v.values !== undefined) return undefined;
  try {
    const sketch = sketchFromJSON(v.sketch);
    return { kind: v.kind, index: 0, count: v.count, sketch, values: undefined };
  } catch {
    return undefined;
  }
}

export class StatsShare {
  /** Other replicas' buckets, per replica and series. */
  readonly #peers = new Map<string, Map<string, PeerSeries>>();
  /** What was last published of each own bucket (its count), by key. */
  readonly #sent = new Map<string, { readonly parts: SharedBucketRecord["parts"]; count: number }>();
  /** This replica's previous run's buckets read on start, the last value of each key. */
  readonly #loaded = new Map<
    string,
    { readonly parts: SharedBucketRecord["parts"]; readonly bucket: Bucket & { readonly kind: FieldKind } }
  >();
  /** Changes of the peers since the last merged view. */
  #version = 0;
  #view:
    { readonly version: number; readonly from: number; readonly at: number; store: StatsStore } | undefined;
  /** Own buckets not published because their JSON passed MAX_RECORD_BYTES. */
  tooLarge = 0;

  constructor(
    readonly store: StatsStore,
    readonly redact: readonly string[],
    readonly maxRecordBytes = MAX_RECORD_BYTES,
  ) {}

  get options(): StoreOptions {
    return this.store.options;
  }

  /** The oldest bucket index a series still keeps at `now`. */
  #oldest(now: number): number {
    return Math.floor(now / this.options.bucketMs) - this.options.buckets + 1;
  }

  /**
   * The own buckets whose count changed since last published, and a tombstone for each published one
   * that left the ring (so the compacted topic keeps at most `buckets` records per series).
   */
  records(now: number): SharedBucketRecord[] {
    const records: SharedBucketRecord[] = [];
    const live = new Set<string>();
    for (const series of this.store.all())
      for (const bucket of series.buckets()) {
        const parts = [series.subject, series.field, series.producer, series.writer, bucket.index] as const;
        const key = parts.join("\u0000");
        live.add(key);
        const sent = this.#sent.get(key);
        if (sent?.count === bucket.count) continue;
        const value = JSON.stringify({
          kind: series.kind,
          bucketMs: this.options.bucketMs,
          count: bucket.count,
          ...(bucket.sketch ? { sketch: sketchToJSON(bucket.sketch) } : {}),
          ...(bucket.values ? { values: Object.fromEntries(bucket.values) } : {}),
        } satisfies SharedBucketJSON);
        if (Buffer.byteLength(value) > this.maxRecordBytes) {
          // Only a `values` bucket of very long strings can get here (a sketch's JSON is at most some
          // 30 KB): the other replicas go without it, and it is counted.
          if (!sent) this.tooLarge++;
          this.#sent.set(key, { parts, count: bucket.count });
          continue;
        }
        this.#sent.set(key, { parts, count: bucket.count });
        records.push({ parts, value });
      }
    const oldest = this.#oldest(now);
    for (const [key, { parts }] of this.#sent)
      if (!live.has(key) && parts[4] < oldest) {
        this.#sent.delete(key);
        records.push({ parts, value: null });
      }
    return records;
  }

  /**
   * A bucket read from the topic. `own`: this replica's previous run (read on start), merged into its
   * own store and remembered as published; another replica's is kept apart. `bucket` undefined: a
   * tombstone. False when the value is unreadable (left out).
   */
  apply(
    replica: string,
    own: boolean,
    key: SeriesKey & { readonly index: number },
    value: unknown,
    now: number,
  ): boolean {
    if (coveredBy(key.field, this.redact)) return true;
    const id = seriesId(key);
    if (value === null) {
      const peer = this.#peers.get(replica)?.get(id);
      if (peer?.buckets.delete(key.index)) this.#version++;
      return true;
    }
    const bucket = readSharedBucket(value, this.options.bucketMs);
    if (!bucket) return false;
    if (key.index < this.#oldest(now)) return true;
    if (own) {
      // Kept until the first read ends: a compacted topic may still hold older values of the key,
      // and only the last one counts (merging each would count the earlier ones twice).
      const parts = [key.subject, key.field, key.producer, key.writer, key.index] as const;
      this.#loaded.set(parts.join("\u0000"), { parts, bucket: { ...bucket, index: key.index } });
      return true;
    }
    let peer = this.#peers.get(replica);
    if (!peer) this.#peers.set(replica, (peer = new Map()));
    let series = peer.get(id);
    if (!series || series.kind !== bucket.kind) {
      // A series past the bound of one replica's store is left out, as the replica's own would be.
      if (!series && peer.size >= this.options.maxSeries) return true;
      peer.set(id, (series = { ...key, kind: bucket.kind, buckets: new Map() }));
    }
    series.buckets.set(key.index, { ...bucket, index: key.index });
    this.#version++;
    return true;
  }

  /**
   * The first read of the topic ended: this replica's previous run's buckets (the last value of each)
   * go into its own store, remembered as published.
   */
  loaded(): void {
    for (const [id, { parts, bucket }] of this.#loaded) {
      const [subject, field, producer, writer] = parts;
      const series = this.store.series(subject, field, bucket.kind, producer, writer);
      if (series?.kind === bucket.kind && series.mergeBucket(bucket))
        this.#sent.set(id, { parts, count: bucket.count });
    }
    this.#loaded.clear();
  }

  /** How many series other replicas shared, in all. */
  get peerSeries(): number {
    let n = 0;
    for (const peer of this.#peers.values()) n += peer.size;
    return n;
  }

  /**
   * This replica's store with every other replica's buckets from index `from` on added: a copy,
   * made again when a peer's bucket arrived or `maxAgeMs` passed; the store itself without peers.
   */
  merged(now: number, from: number, maxAgeMs: number): StatsStore {
    if (this.#peers.size === 0) return this.store;
    const cached = this.#view;
    if (cached && cached.version === this.#version && cached.from <= from && now - cached.at < maxAgeMs)
      return cached.store;
    // Unbounded in series and bytes: it holds what the bounded stores hold, for as long as it is read.
    const store = new StatsStore({ ...this.options, maxSeries: Infinity, maxBytes: Infinity });
    const add = (s: SeriesKey & { kind: FieldKind }, buckets: Iterable<Bucket>) => {
      const into = store.series(s.subject, s.field, s.kind, s.producer, s.writer);
      if (into?.kind !== s.kind) return;
      for (const b of buckets) if (b.index >= from) into.mergeBucket(b);
    };
    for (const series of this.store.all()) add(series, series.buckets());
    const oldest = this.#oldest(now);
    for (const peer of this.#peers.values())
      for (const series of peer.values()) {
        for (const index of series.buckets.keys()) if (index < oldest) series.buckets.delete(index);
        add(series, series.buckets.values());
      }
    store.dropped = this.store.dropped;
    this.#view = { version: this.#version, from, at: now, store };
    return store;
  }
}
