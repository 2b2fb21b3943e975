import type { CatalogSubject } from "../catalog/types.js";
import type { ValidatedHook } from "../pipeline/validated.js";
import { readValues, type ProfiledField } from "./fields.js";
import type { FieldStats } from "./stats.js";
import type { Series, StatsStore } from "./store.js";
import { thinningFor, type ProducerThinning } from "./thinning.js";

/** The writer label of a record that declares no version (as the corpus and the metrics write it). */
export const NO_WRITER = "none";

/**
 * Feeds field statistics from the pipeline: a validated-record listener, given to the pipeline at its
 * construction like the lifecycle's and the corpus's. A profiled record costs a walk of each profiled
 * field's pointer, one sketch insert per value and two map lookups for its series. Past its producer's
 * `stats.maxPerSecond` (ProducerThinning), a record drawn counts as the records it stands for in the
 * numbers' sketches, and a record not drawn has only its `values` fields counted (an
 * enum, a named string: a map's count each, and what the new-value test needs whole, see below), or
 * costs two lookups and a random number when the subject profiles none; a subject without profiled
 * fields costs a lookup.
 *
 * Why values are counted in full: a value that recurs rarely (one record in a million) would be drawn
 * in some buckets and not in others, and a bucket that drew it after one that did not would read as a
 * value never seen before. Numbers are judged by quartiles, which a random share keeps.
 */
export function feedStats(stats: FieldStats): ValidatedHook {
  const visitor = new Visitor(stats.store);
  // Per subject object: whether it profiles a `values` field, and per producer which records are
  // profiled whole, and per writer the series of each profiled field, made at its first value.
  const series = new WeakMap<CatalogSubject, SubjectSeries>();
  // Per subject name and producer: a catalog reloaded (a new subject object) keeps its rates and draws.
  const thinnings = new Map<string, Map<string, ProducerThinning>>();
  const thinningOf = (subject: string, producer: string): ProducerThinning => {
    let producers = thinnings.get(subject);
    if (!producers) thinnings.set(subject, (producers = new Map()));
    let thinning = producers.get(producer);
    if (!thinning) producers.set(producer, (thinning = thinningFor(subject, producer, stats.maxPerSecond)));
    return thinning;
  };
  return (record) => {
    const subject = record.subject.subject;
    const { fields } = stats.fieldsOf(subject);
    if (fields.length === 0) return;
    let own = series.get(subject);
    if (!own) {
      own = { countsValues: fields.some((f) => f.kind === "values"), producers: new Map() };
      series.set(subject, own);
    }
    let producer = own.producers.get(record.producer);
    if (!producer) {
      producer = { thinning: thinningOf(subject.name, record.producer), writers: new Map() };
      own.producers.set(record.producer, producer);
    }
    // How many records this one stands for in the numbers' sketches: 0 when it is not drawn.
    const weight = producer.thinning.draw(record.observedAt);
    const whole = weight > 0;
    if (!whole && !own.countsValues) return;
    const document = record.document();
    const writer = record.writer?.version.text ?? NO_WRITER;
    const writers = producer.writers;
    let list = writers.get(writer);
    if (!list) writers.set(writer, (list = new Array<Series | undefined>(fields.length).fill(undefined)));
    visitor.at = record.observedAt;
    visitor.weight = weight;
    visitor.subject = subject.name;
    visitor.producer = record.producer;
    visitor.writer = writer;
    visitor.list = list;
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (!whole && field.kind !== "values") continue;
      visitor.field = field;
      visitor.slot = i;
      readValues(document, field.path, visitor[field.kind]);
    }
  };
}

interface SubjectSeries {
  /** Whether a field is of kind `values`: counted from every record, drawn or not. */
  readonly countsValues: boolean;
  readonly producers: Map<string, ProducerSeries>;
}

interface ProducerSeries {
  readonly thinning: ProducerThinning;
  readonly writers: Map<string, (Series | undefined)[]>;
}

/** One object reused for every record: no closure is made per record or per field. */
class Visitor {
  subject = "";
  producer = "";
  writer = "";
  field: ProfiledField | undefined;
  at = 0;
  weight = 1;
  list: (Series | undefined)[] = [];
  slot = 0;

  constructor(readonly store: StatsStore) {}

  // Made at the field's first value, so a record without the field makes no series; one the store
  // has no room for is asked again (and its values counted as dropped).
  #series(): Series | undefined {
    const made = this.list[this.slot];
    if (made) return made;
    const field = this.field!;
    return (this.list[this.slot] = this.store.series(
      this.subject,
      field.pointer,
      field.kind,
      this.producer,
      this.writer,
    ));
  }

  readonly number = (value: unknown): void => {
    // A value of another type than declared is the validator's business, not a statistic.
    if (typeof value === "number") this.store.addNumber(this.#series(), this.at, value, this.weight);
  };

  readonly length = (value: unknown): void => {
    if (typeof value === "string") this.store.addNumber(this.#series(), this.at, value.length, this.weight);
  };

  readonly values = (value: unknown): void => {
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      this.store.addValue(this.#series(), this.at, String(value), this.field!.enum);
    }
  };
}
