import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import { directionOf, type Direction } from "../engine/direction.js";
import type { DecodeReason } from "./record.js";

/** One counter series: its labels, fixed at creation, and its value. */
export interface Cell<L> {
  readonly labels: L;
  value: number;
}

export interface RecordLabels {
  readonly topic: string;
  readonly subject: string;
  readonly producer: string;
  readonly writer_version: string;
}

export interface ValidationLabels extends RecordLabels {
  readonly reader_version: string;
  readonly direction: Direction;
  readonly result: "pass" | "fail";
}

export interface FailureLabels extends RecordLabels {
  readonly reader_version: string;
  readonly direction: Direction;
  readonly keyword: string;
}

/** Tombstones are counted per topic of a subject. */
export interface TombstoneLabels {
  readonly topic: string;
  readonly subject: string;
}

/** A failure counter, and where in the document its keyword last failed (kept for the report, never a label). */
export interface FailureCell extends Cell<FailureLabels> {
  /** The JSON Pointer (ajv's instancePath) of the latest failure; `""` is the document itself. */
  pointer: string;
}

export interface DecodeLabels {
  readonly topic: string;
  readonly reason: DecodeReason;
}

/** The validation counters of one record series against one reader version. */
export interface ReaderCells {
  readonly reader: CatalogVersion;
  readonly pass: Cell<ValidationLabels>;
  readonly fail: Cell<ValidationLabels>;
  readonly failures: Map<string, FailureCell>;
  /** Reads that dropped or defaulted data the writer sent (`lossy`), by rule: passes, counted apart. */
  readonly losses: Map<string, FailureCell>;
}

/** Everything counted for one (topic, subject, producer, writer version). */
export interface RecordSeries {
  readonly count: Cell<RecordLabels>;
  writer: CatalogVersion | undefined;
  /** Indexed like the subject's readers. */
  readers: ReaderCells[];
  /**
   * When this series last got a record, by the monitor's clock (a replay's: the capture's clock), in
   * ms; 0 before any. What removal verdicts and the last-seen gauge use; never a producer's timestamp.
   */
  lastObservedMs: number;
  /** Records counted while the writer version was retired: traffic after a prune (lifecycle/retired.ts). */
  retiredRecords: number;
}

export const NO_VERSION = "none";
/** The writer version of a record whose version could not be read (see UnreadableReason). */
export const UNKNOWN_VERSION = "unknown";
/** Stands for an unreadable writer version where a CatalogVersion would go. */
export const UNREADABLE: unique symbol = Symbol("unreadable writer version");
export type SeriesWriter = CatalogVersion | undefined | typeof UNREADABLE;

/**
 * The monitor's counts, kept in plain maps and arrays on the hot path and read by the metrics
 * collectors and the status report at scrape time. A series, once created, is never removed, so the
 * counters never go backwards.
 */
export class Tallies {
  readonly records: Cell<RecordLabels>[] = [];
  readonly validations: Cell<ValidationLabels>[] = [];
  readonly failures: FailureCell[] = [];
  readonly losses: FailureCell[] = [];
  readonly decodeErrors: Cell<DecodeLabels>[] = [];
  /** Records without a value (null or empty): deletes on a compacted topic, no use of any version. */
  readonly tombstones: Cell<TombstoneLabels>[] = [];
  readonly allSeries: RecordSeries[] = [];
  readonly #topics = new Map<string, TopicSeries>();
  /** Each subject's series, so that what is read per subject walks that subject's alone. */
  readonly #bySubject = new Map<string, RecordSeries[]>();
  readonly #decode = new Map<string, Cell<DecodeLabels>>();
  readonly #create = (
    topic: string,
    subject: CatalogSubject,
    producer: string,
    writer: SeriesWriter,
    writerText: string,
  ): RecordSeries => {
    const labels: RecordLabels = { topic, subject: subject.name, producer, writer_version: writerText };
    const count = { labels, value: 0 };
    this.records.push(count);
    const version = writer === UNREADABLE ? undefined : writer;
    const series: RecordSeries = {
      count,
      writer: version,
      readers:
        writer === UNREADABLE
          ? []
          : subject.readers.map((reader) => this.#readerCells(labels, version, reader)),
      lastObservedMs: 0,
      retiredRecords: 0,
    };
    this.allSeries.push(series);
    let ofSubject = this.#bySubject.get(subject.name);
    if (!ofSubject) this.#bySubject.set(subject.name, (ofSubject = []));
    ofSubject.push(series);
    return series;
  };

  /**
   * The series of one topic. The hot path holds on to it (one per topic, made once), so finding a
   * record's series takes the same few steps however many subjects and topics there are.
   */
  topic(topic: string): TopicSeries {
    let found = this.#topics.get(topic);
    if (!found) this.#topics.set(topic, (found = new TopicSeries(topic, this.#create)));
    return found;
  }

  /**
   * The series of a record, created (with every reader's counters at zero) the first time. A series
   * of unreadable records has no readers: nothing of them is validated.
   */
  series(topic: string, subject: CatalogSubject, producer: string, writer: SeriesWriter): RecordSeries {
    return this.topic(topic).series(subject, producer, writer);
  }

  /**
   * When the monitor last observed a record of each writer version (`none` included) of a subject, in
   * seconds.
   */
  lastSeen(subject: string): Map<string, number> {
    const seen = new Map<string, number>();
    for (const series of this.#bySubject.get(subject) ?? []) {
      if (series.lastObservedMs === 0) continue;
      const version = series.count.labels.writer_version;
      const seconds = series.lastObservedMs / 1000;
      if ((seen.get(version) ?? 0) < seconds) seen.set(version, seconds);
    }
    return seen;
  }

  /**
   * After a catalog reload: every series of the subject follows the new reader list. Counters of
   * readers that remain are kept (counters never go back); new readers start at zero.
   */
  rebind(subject: CatalogSubject): void {
    for (const topic of this.#topics.values()) topic.forget();
    for (const series of this.#bySubject.get(subject.name) ?? []) {
      const labels = series.count.labels;
      if (labels.writer_version === UNKNOWN_VERSION) continue;
      series.writer =
        labels.writer_version === NO_VERSION ? undefined : subject.byVersion.get(labels.writer_version);
      const previous = new Map(series.readers.map((cells) => [cells.reader.version.text, cells]));
      series.readers = subject.readers.map((reader) => {
        const kept = previous.get(reader.version.text);
        return kept ? { ...kept, reader } : this.#readerCells(labels, series.writer, reader);
      });
    }
  }

  #readerCells(
    labels: RecordLabels,
    writer: CatalogVersion | undefined,
    reader: CatalogVersion,
  ): ReaderCells {
    const direction = directionOf(writer?.version, reader.version);
    const base = { ...labels, reader_version: reader.version.text, direction };
    const pass = { labels: { ...base, result: "pass" as const }, value: 0 };
    const fail = { labels: { ...base, result: "fail" as const }, value: 0 };
    this.validations.push(pass, fail);
    return { reader, pass, fail, failures: new Map(), losses: new Map() };
  }

  fail(series: RecordSeries, index: number, keyword: string, pointer = ""): void {
    const cells = series.readers[index]!;
    cells.fail.value++;
    let cell = cells.failures.get(keyword);
    if (!cell) {
      const { result: _result, ...base } = cells.fail.labels;
      cell = { labels: { ...base, keyword }, value: 0, pointer };
      cells.failures.set(keyword, cell);
      this.failures.push(cell);
    }
    cell.value++;
    cell.pointer = pointer;
  }

  /** A lossy read (a pass, counted in `pass` by the caller): by its rule, where it last happened. */
  lose(series: RecordSeries, index: number, rule: string, pointer = ""): void {
    const cells = series.readers[index]!;
    let cell = cells.losses.get(rule);
    if (!cell) {
      const { result: _result, ...base } = cells.pass.labels;
      cell = { labels: { ...base, keyword: rule }, value: 0, pointer };
      cells.losses.set(rule, cell);
      this.losses.push(cell);
    }
    cell.value++;
    cell.pointer = pointer;
  }

  /** The tombstone counter of a subject's topic, made at zero the first time (the pipeline holds it). */
  tombstoneCell(topic: string, subject: string): Cell<TombstoneLabels> {
    let cell = this.tombstones.find((c) => c.labels.topic === topic);
    if (!cell) this.tombstones.push((cell = { labels: { topic, subject }, value: 0 }));
    return cell;
  }

  decodeError(topic: string, reason: DecodeReason, records = 1): void {
    this.decodeCell(topic, reason).value += records;
  }

  decodeCell(topic: string, reason: DecodeReason): Cell<DecodeLabels> {
    const key = `${topic}\u0000${reason}`;
    let cell = this.#decode.get(key);
    if (!cell) {
      cell = { labels: { topic, reason }, value: 0 };
      this.#decode.set(key, cell);
      this.decodeErrors.push(cell);
    }
    return cell;
  }
}

type CreateSeries = (
  topic: string,
  subject: CatalogSubject,
  producer: string,
  writer: SeriesWriter,
  writerText: string,
) => RecordSeries;

/** The series of one topic, by producer and writer version, with the last one found. */
export class TopicSeries {
  readonly topic: string;
  readonly #create: CreateSeries;
  // Nested maps rather than a joined string key: the hot path finds a series without allocating.
  readonly #byProducer = new Map<string, Map<string, RecordSeries>>();
  #lastSubject: CatalogSubject | undefined;
  #lastProducer = "";
  #lastWriter: SeriesWriter;
  #last: RecordSeries | undefined;

  constructor(topic: string, create: CreateSeries) {
    this.topic = topic;
    this.#create = create;
  }

  /** The series of a record of this topic, created the first time (see `Tallies.series`). */
  series(subject: CatalogSubject, producer: string, writer: SeriesWriter): RecordSeries {
    // Consecutive records of a topic mostly share their series: the last one answers without lookups.
    if (
      this.#last !== undefined &&
      this.#lastWriter === writer &&
      this.#lastProducer === producer &&
      this.#lastSubject === subject
    )
      return this.#last;
    let byWriter = this.#byProducer.get(producer);
    if (!byWriter) this.#byProducer.set(producer, (byWriter = new Map()));
    // Keyed by the version's text, not its object, so series survive a catalog reload.
    const writerText = writerLabel(writer);
    let series = byWriter.get(writerText);
    if (!series)
      byWriter.set(writerText, (series = this.#create(this.topic, subject, producer, writer, writerText)));
    this.#lastSubject = subject;
    this.#lastProducer = producer;
    this.#lastWriter = writer;
    this.#last = series;
    return series;
  }

  /** Forgets the last series found: after a reload, its writer and subject are the old catalog's. */
  forget(): void {
    this.#last = undefined;
    this.#lastSubject = undefined;
  }
}

function writerLabel(writer: SeriesWriter): string {
  if (writer === UNREADABLE) return UNKNOWN_VERSION;
  return writer ? writer.version.text : NO_VERSION;
}
