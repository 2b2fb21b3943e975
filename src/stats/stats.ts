import type { CatalogSubject } from "../catalog/types.js";
import type { StatsConfig } from "../config/types.js";
import { coveredBy, profiledVersion, selectFields, type FieldSelection } from "./fields.js";
import type { Finding, ShiftOptions } from "./findings.js";
import { NO_WRITER } from "./listener.js";
import { detectPeerShift } from "./peers.js";
import { detectScaleShift } from "./shift.js";
import { StatsShare } from "./share.js";
import { detectNewValue, detectShareJump } from "./values.js";
import { mergeSketch, newSketch, quantile } from "./sketch.js";
import {
  StatsStore,
  type Bucket,
  type Series,
  type SeriesKey,
  type StoreJSON,
  type StoreOptions,
} from "./store.js";

/** The quantiles published per field and producer. */
export const PUBLISHED_QUANTILES = [0.25, 0.5, 0.75] as const;

// The test walks every series' buckets: at most once per 30 s (half a bucket when buckets are
// shorter, as in tests), whatever asks for it.
const FINDINGS_EVERY_MS = 30_000;
// Other replicas' buckets merged with the own ones for the quartiles at most this long ago.
const MERGED_QUANTILES_MS = 5_000;
// The state is saved every 10 s; the statistics (megabytes of JSON at their bound) once a minute, so
// a restart loses at most the last minute of them.
const SAVE_EVERY_MS = 60_000;

/** One quantile of the current bucket of a (subject, field, producer), all writer versions together. */
export interface QuantileSample {
  readonly labels: {
    readonly subject: string;
    readonly field: string;
    readonly producer: string;
    /** `value` for a number field, `length` for a string field's lengths. */
    readonly measure: "value" | "length";
    readonly quantile: string;
  };
  readonly value: number;
}

/** The `kind` label of a finding. */
export type FindingKind = "scale" | "peers" | "new_value" | "share";

const KIND_LABEL: Readonly<Record<Finding["kind"], FindingKind>> = {
  scale: "scale",
  peers: "peers",
  "new-value": "new_value",
  share: "share",
};

/** The count of findings of one (subject, field, producer, kind). */
export interface FindingSample {
  readonly labels: {
    readonly subject: string;
    readonly field: string;
    readonly producer: string;
    readonly kind: FindingKind;
  };
  readonly value: number;
}

/**
 * The field statistics of a monitor: which fields each subject profiles, the store of their sketches
 * and the findings of the scale-shift test. Values never leave it: only quantiles and counts do.
 */
export class FieldStats {
  readonly store: StatsStore;
  /** With a shared state topic: the other replicas' buckets, and what to publish of this one's. */
  readonly share: StatsShare;
  readonly #config: StatsConfig;
  readonly #redact: readonly string[];
  // Keyed by the subject object, so a reloaded catalog's subject gets its fields read again.
  readonly #fields = new WeakMap<CatalogSubject, FieldSelection>();
  #findings: { readonly at: number; readonly list: readonly Finding[] } | undefined;
  #saved: { readonly at: number; readonly json: StoreJSON } | undefined;
  /** The monitor's now: the wall clock live, the newest record's time in a replayed capture. */
  readonly now: () => number;

  constructor(
    config: StatsConfig,
    redact: readonly string[],
    options: { readonly store?: StatsStore; readonly now?: () => number } = {},
  ) {
    this.#config = config;
    this.#redact = redact;
    this.store = options.store ?? new StatsStore(storeOptions(config));
    this.share = new StatsShare(this.store, redact);
    this.now = options.now ?? Date.now;
  }

  /** Records profiled a second per subject and producer, at most (about; ProducerThinning). */
  get maxPerSecond(): number {
    return this.#config.maxPerSecond;
  }

  /** The fields profiled in a subject's documents, read once per subject object. */
  fieldsOf(subject: CatalogSubject): FieldSelection {
    let selection = this.#fields.get(subject);
    if (!selection) {
      const schema = profiledVersion(subject)?.file.json;
      selection = selectFields(schema, {
        maxFields: this.#config.maxFields,
        maxValues: this.#config.maxValues,
        include: this.#config.include[subject.name] ?? [],
        exclude: this.#config.exclude[subject.name] ?? [],
        redact: this.#redact,
      });
      this.#fields.set(subject, selection);
    }
    return selection;
  }

  /** Every finding of the store, computed at most every 30 s. */
  findings(now = this.now()): readonly Finding[] {
    const every = Math.min(FINDINGS_EVERY_MS, this.#config.bucket / 2);
    if (this.#findings && now - this.#findings.at < every && now >= this.#findings.at) {
      return this.#findings.list;
    }
    const base: ShiftOptions = {
      factor: this.#config.factor,
      minSamples: this.#config.minSamples,
      bucketMs: this.#config.bucket,
    };
    // A field's own factor (stats.factors), else the default.
    const optionsFor = (series: Series): ShiftOptions => {
      const factor = this.#config.factors[series.subject]?.[series.field];
      const measure = series.kind === "length" ? ("length" as const) : ("value" as const);
      return { ...base, measure, ...(factor === undefined ? {} : { factor }) };
    };
    const oldest = Math.floor(now / this.#config.bucket) - this.#config.buckets + 1;
    const list: Finding[] = [];
    // The number series of one (subject, field, declared writer version): each producer's peers.
    const versions = new Map<string, { series: Series; buckets: Bucket[] }[]>();
    // With replicas, every replica's buckets of a series together: a producer's records are split
    // between the replicas that read its partitions.
    for (const series of this.share.merged(now, oldest, every).all()) {
      // The recent past only: a producer that stopped keeps its old buckets until their slots are reused.
      const buckets = series.buckets().filter((b) => b.index >= oldest);
      const options = optionsFor(series);
      if (series.kind === "values") {
        for (const f of [detectNewValue(series, buckets, options), detectShareJump(series, buckets, options)])
          if (f) list.push(f);
        continue;
      }
      const scale = detectScaleShift(series, buckets, options);
      if (scale) list.push(scale);
      // A producer whose own past shows the change is found; against its peers it would be twice.
      if (scale || series.writer === NO_WRITER) continue;
      const key = `${series.subject}\0${series.field}\0${series.writer}`;
      const group = versions.get(key) ?? [];
      group.push({ series, buckets });
      versions.set(key, group);
    }
    for (const group of versions.values()) {
      if (group.length < 3) continue;
      for (const { series, buckets } of group) {
        const peers = group.filter((g) => g.series !== series).map((g) => g.buckets);
        const finding = detectPeerShift(series, buckets, peers, optionsFor(series));
        if (finding) list.push(finding);
      }
    }
    this.#findings = { at: now, list };
    return list;
  }

  /** The quartiles of the current bucket per (subject, field, producer), writer versions merged. */
  *quantiles(now = this.now()): IterableIterator<QuantileSample> {
    const index = Math.floor(now / this.#config.bucket);
    const store = this.share.merged(now, index, MERGED_QUANTILES_MS);
    const merged = new Map<
      string,
      {
        subject: string;
        field: string;
        producer: string;
        measure: "value" | "length";
        sketch: ReturnType<typeof newSketch>;
      }
    >();
    for (const series of store.all()) {
      if (series.kind === "values") continue;
      const bucket = series.buckets().find((b) => b.index === index);
      if (!bucket?.sketch || bucket.sketch.count === 0) continue;
      const measure = series.kind === "length" ? ("length" as const) : ("value" as const);
      const key = `${series.subject}\0${series.field}\0${series.producer}\0${measure}`;
      let entry = merged.get(key);
      if (!entry) {
        entry = {
          subject: series.subject,
          field: series.field,
          producer: series.producer,
          measure,
          sketch: newSketch(),
        };
        merged.set(key, entry);
      }
      mergeSketch(entry.sketch, bucket.sketch);
    }
    for (const { subject, field, producer, measure, sketch } of merged.values()) {
      for (const q of PUBLISHED_QUANTILES) {
        const labels = { subject, field, producer, measure, quantile: String(q) };
        yield { labels, value: quantile(sketch, q) };
      }
    }
  }

  /**
   * The findings per (subject, field, producer, kind), writer versions together, with a 0 for every
   * such series without one: "none" is a value, not a missing series.
   */
  findingCounts(now = this.now()): IterableIterator<FindingSample> {
    const counts = new Map<string, { labels: FindingSample["labels"]; value: number }>();
    const count = (subject: string, field: string, producer: string, kind: FindingKind, n: number) => {
      const key = `${subject}\0${field}\0${producer}\0${kind}`;
      const entry = counts.get(key);
      if (entry) entry.value += n;
      else counts.set(key, { labels: { subject, field, producer, kind }, value: n });
    };
    const oldest = Math.floor(now / this.#config.bucket) - this.#config.buckets + 1;
    const every = Math.min(FINDINGS_EVERY_MS, this.#config.bucket / 2);
    for (const s of this.share.merged(now, oldest, every).all()) {
      const kinds: readonly FindingKind[] = s.kind === "values" ? ["new_value", "share"] : ["scale", "peers"];
      for (const kind of kinds) count(s.subject, s.field, s.producer, kind, 0);
    }
    for (const f of this.findings(now)) count(f.subject, f.field, f.producer, KIND_LABEL[f.kind], 1);
    return counts.values();
  }

  toJSON(): StoreJSON {
    return this.store.toJSON();
  }

  /**
   * What the state file saves: the JSON form, made again at most once a minute, and at the last save
   * before a stop (`final`), so that a graceful stop loses none of them.
   */
  saved(now: number, final = false): StoreJSON {
    if (final || !this.#saved || now - this.#saved.at >= SAVE_EVERY_MS || now < this.#saved.at) {
      this.#saved = { at: now, json: this.store.toJSON() };
    }
    return this.#saved.json;
  }

  /** The statistics saved in the state document, or a fresh store (with why) when they cannot be read. */
  static restore(
    config: StatsConfig,
    redact: readonly string[],
    saved: unknown,
    now?: () => number,
  ): { readonly stats: FieldStats; readonly problem?: string } {
    const clock = now ? { now } : {};
    if (saved === undefined) return { stats: new FieldStats(config, redact, clock) };
    try {
      // A field redacted since it was saved is not restored: its statistics could reveal it.
      const keep = (series: SeriesKey) => !coveredBy(series.field, redact);
      const store = StatsStore.fromJSON(saved as StoreJSON, storeOptions(config), keep);
      return { stats: new FieldStats(config, redact, { ...clock, store }) };
    } catch (error) {
      return {
        stats: new FieldStats(config, redact, clock),
        problem: error instanceof Error ? error.message : String(error),
      };
    }
  }
}

export function storeOptions(config: StatsConfig): StoreOptions {
  return {
    bucketMs: config.bucket,
    buckets: config.buckets,
    maxSeries: config.maxSeries,
    maxValues: config.maxValues,
    maxBytes: config.maxMemoryMiB * 1024 * 1024,
  };
}
