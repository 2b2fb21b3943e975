import type { Catalog } from "../catalog/types.js";

type Sample = { readonly labels: object; readonly value: number };
/** A sample of a metric with a `producer` label; its other labels are whatever the metric declares. */
export type ProducerSample = { readonly labels: { readonly producer: string }; readonly value: number };

/** Which series keep their producers when the budget folds: those whose `keep` says so. */
export type Keep = (labels: Readonly<Record<string, unknown>>) => boolean;

/**
 * The series budget (config `metrics.seriesBudget`): when a scrape would export more `schemawatch_*`
 * series than the budget, the per-producer series of the metrics that have a `producer` label and
 * can be summed (validations, their failures, field presence) are summed over producers, except where
 * they need attention: a writer version that is deprecated or retired, a (writer, reader) pair that
 * would fail above zero, a deprecated field. Those keep every producer, so the alerts and panels that
 * name producers still name them where it matters.
 *
 * Decided once per scrape, at the first foldable metric: the exporter registers the foldable metrics
 * after every other `schemawatch_*` metric and counts what those exported (`counted`), so the decision
 * knows the whole scrape. A summed series is exported without `producer`, as with
 * `metrics.producerDetail: false`: to Prometheus a missing label is an empty one, so every
 * `sum by (…, producer, …)` keeps working (docs/metrics.md, "Series budget").
 */
export class SeriesBudget {
  readonly limit: number;
  #counted = 0;
  /** The series of the metrics that are never folded, as the last decision counted them. */
  #fixed = 0;
  #folding = false;
  #depth: Depth = "producers";
  /** Per metric name: how many series the last scrape folded away (0 when it folded nothing). */
  readonly folded = new Map<string, number>();

  constructor(limit: number) {
    this.limit = limit;
  }

  /** A metric that is never folded exported `n` series in this scrape. */
  counted(n: number): void {
    this.#counted += n;
  }

  /** At the first foldable metric: whether this scrape folds, given what the foldable ones hold. */
  decide(foldable: number): boolean {
    this.#fixed = this.#counted;
    this.#folding = this.#counted + foldable > this.limit;
    this.#depth = "producers";
    this.#counted = 0;
    return this.#folding;
  }

  /**
   * When this scrape folds: given how many series the foldable metrics keep summed over producers
   * alone, whether it must fold deeper (over writer versions too, its zero sums left out).
   */
  deepen(foldedOverProducers: number): Depth {
    if (this.#folding && this.#fixed + foldedOverProducers > this.limit) this.#depth = "writers";
    return this.#depth;
  }

  get folding(): boolean {
    return this.#folding;
  }

  /** How far this scrape folds: `writers` when summing over producers was not enough. */
  get depth(): Depth {
    return this.#depth;
  }

  /** The samples as this scrape exports them, folded or not; records how many series went. */
  apply(metric: string, samples: readonly ProducerSample[], keep: Keep): readonly Sample[] {
    if (!this.#folding) {
      this.folded.set(metric, 0);
      return samples;
    }
    const out = foldProducers(samples, keep, this.#depth);
    this.folded.set(metric, samples.length - out.length);
    return out;
  }

  /** Series folded away by the last scrape, in all. */
  totalFolded(): number {
    let total = 0;
    for (const n of this.folded.values()) total += n;
    return total;
  }
}

/**
 * How far a fold goes. `producers`: the series that need no attention summed over `producer`. `writers`
 * (when summing over producers alone still leaves the scrape over the budget): summed over `producer`,
 * `writer_version` and `topic` (the rules and panels sum validations by subject, never by topic), and a sum that is 0 not exported (a fold keeps its totals exact, and a missing
 * series adds nothing to a `sum by`).
 */
export type Depth = "producers" | "writers";
const OMITTED: Record<Depth, readonly string[]> = {
  producers: ["producer"],
  writers: ["producer", "writer_version", "topic"],
};

/**
 * The samples that `keep` accepts as they are; the others summed over the labels `depth` leaves out
 * (`producer`, or `producer`, `writer_version` and `topic`), one sum per remaining label set (in the order each
 * first appears); at depth `writers` every series of 0 is left out.
 */
export function foldProducers(
  samples: Iterable<ProducerSample>,
  keep: Keep,
  depth: Depth = "producers",
): Sample[] {
  const omitted = OMITTED[depth];
  const out: Sample[] = [];
  const sums = new Map<string, { labels: object; value: number }>();
  for (const sample of samples) {
    const labels = sample.labels as Readonly<Record<string, unknown>>;
    if (keep(labels)) {
      out.push(sample);
      continue;
    }
    const rest: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(labels)) if (!omitted.includes(name)) rest[name] = value;
    // Label values never hold a NUL or a \u0001 (topics, versions, keywords and pointers cannot).
    const key = Object.entries(rest)
      .map(([name, value]) => `${name}\u0001${String(value)}`)
      .join("\u0000");
    const sum = sums.get(key);
    if (sum === undefined) {
      const entry = { labels: rest, value: sample.value };
      sums.set(key, entry);
      out.push(entry);
    } else sum.value += sample.value;
  }
  return depth === "producers" ? out : out.filter((sample) => sample.value !== 0);
}

/**
 * `subject\0version` of every deprecated or retired version (or only those of `statuses`): their series
 * keep their producers.
 */
export function versionsNeedingAttention(
  catalog: Catalog,
  statuses: readonly string[] = ["deprecated", "retired"],
): Set<string> {
  const versions = new Set<string>();
  for (const subject of catalog.subjects.values())
    for (const v of subject.versions)
      if (statuses.includes(v.status)) versions.add(`${subject.name}\u0000${v.version.text}`);
  return versions;
}

/**
 * The (topic, subject, writer, reader, direction) pairs, without producer, whose `fail` count is above
 * zero for any producer: the pairs that would fail, whose producers stay named.
 */
export function failingPairs(validations: readonly ProducerSample[]): Set<string> {
  const failing = new Set<string>();
  for (const sample of validations) {
    const l = sample.labels as Readonly<Record<string, string>>;
    if (l["result"] === "fail" && sample.value > 0) failing.add(pairKey(l));
  }
  return failing;
}

export function pairKey(l: Readonly<Record<string, unknown>>): string {
  return `${String(l["topic"])}\u0000${String(l["subject"])}\u0000${String(l["writer_version"])}\u0000${String(l["reader_version"])}\u0000${String(l["direction"])}`;
}
