import type { Catalog, CatalogSubject, CatalogVersion } from "../catalog/types.js";
import type { Config, SubjectConfig } from "../config/types.js";
import { createResults, evaluateInto, type ReaderResult } from "../engine/evaluate.js";
import type { RecordSink } from "./health.js";
import { ProducerResolver, OTHER_PRODUCER, UNKNOWN_PRODUCER } from "./producer.js";
import type { DecodeReason, SourceRecord, UnreadableReason } from "./record.js";
import { Sampler } from "./sampler.js";
import { NO_VERSION, Tallies, UNREADABLE, seenAt } from "./tallies.js";
import { WriterResolver, type WriterResult } from "./writer.js";

/** Topics that are not configured share one label value, so a stray topic cannot grow the label set. */
export const UNKNOWN_TOPIC = "unknown";

/** A recent sampled record, kept so that a candidate added by a reload is judged at once. */
export interface ReservoirEntry {
  readonly topic: string;
  readonly producer: string;
  readonly writer: string;
  readonly document: unknown;
  readonly observedAt: number;
}

const RESERVOIR_SIZE = 500;

/** Per-subject machinery: resolvers, sampler and reusable result objects. */
export class SubjectPipeline {
  subject: CatalogSubject;
  readonly config: SubjectConfig;
  writer: WriterResolver;
  readonly producer: ProducerResolver;
  readonly sampler: Sampler;
  results: ReaderResult[];
  readonly needsPayload: boolean;
  /** The last RESERVOIR_SIZE sampled documents, oldest overwritten first. */
  readonly reservoir: ReservoirEntry[] = [];
  #next = 0;

  constructor(subject: CatalogSubject, config: SubjectConfig, catalog: Catalog, now: () => number) {
    this.subject = subject;
    this.config = config;
    this.writer = new WriterResolver(subject, catalog, config.writer);
    this.producer = new ProducerResolver(config.producer);
    this.sampler = new Sampler(config.sampling, now);
    this.results = createResults(subject);
    this.needsPayload = this.producer.needsPayload;
  }

  keep(entry: ReservoirEntry): void {
    if (this.reservoir.length < RESERVOIR_SIZE) this.reservoir.push(entry);
    else this.reservoir[this.#next] = entry;
    this.#next = (this.#next + 1) % RESERVOIR_SIZE;
  }

  /** Takes a reloaded catalog's version of this subject; producers, sampler and reservoir stay. */
  rebind(subject: CatalogSubject, catalog: Catalog): void {
    this.subject = subject;
    this.writer = new WriterResolver(subject, catalog, this.config.writer);
    this.results = createResults(subject);
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The path of one record: find its subject, read its writer version and producer (cheaply, without
 * parsing when they are outside the payload), count it, and for a sample parse it once and validate it
 * against every non-retired version. A record that cannot be decoded is counted by reason and skipped;
 * nothing a record contains can stop the pipeline.
 */
export class Pipeline implements RecordSink {
  readonly tallies = new Tallies();
  readonly subjects: ReadonlyMap<string, SubjectPipeline>;
  readonly #byTopic = new Map<string, SubjectPipeline>();
  readonly #maxBytes: number;
  readonly #writer: WriterResult = { version: undefined, payloadStart: 0, error: undefined };
  /**
   * Called for each validated record, after its tallies are recorded (lifecycle, corpus). The
   * subject's `results` hold that record's outcome against every reader until the next record.
   */
  onValidated:
    | ((
        subject: SubjectPipeline,
        producer: string,
        record: SourceRecord,
        document: unknown,
        writer: CatalogVersion | undefined,
      ) => void)
    | undefined;
  /**
   * Called for each record (or undecodable batch) whose writer version could not be read: evidence of
   * unknown use on that partition, which the lifecycle keeps against the subject's deprecated versions.
   */
  onUnreadable:
    | ((
        subject: SubjectPipeline,
        topic: string,
        partition: number,
        reason: UnreadableReason,
        records: number,
        at: number,
      ) => void)
    | undefined;
  /** Called with a bug's error (a record landed in `internal_error`); never with the record's contents. */
  onInternalError: ((error: unknown, record: SourceRecord) => void) | undefined;
  /**
   * When records are observed, in milliseconds. A live source sets it from a coarse clock (a
   * timestamp per record would cost a clock read each); undefined means the record's own timestamp,
   * which is what a replayed capture wants.
   */
  observedAt: number | undefined;

  constructor(catalog: Catalog, config: Config, now: () => number = Date.now) {
    this.#maxBytes = config.maxRecordBytes;
    const subjects = new Map<string, SubjectPipeline>();
    for (const subjectConfig of config.subjects) {
      const subject = catalog.subjects.get(subjectConfig.name);
      if (!subject) continue;
      const pipeline = new SubjectPipeline(subject, subjectConfig, catalog, now);
      subjects.set(subject.name, pipeline);
      for (const topic of subject.topics) this.#byTopic.set(topic, pipeline);
      this.#startAtZero(pipeline);
    }
    this.subjects = subjects;
  }

  /** Zero is a value: every label set known before traffic starts at 0. */
  #startAtZero(pipeline: SubjectPipeline): void {
    const declared = pipeline.producer.declared;
    const producers =
      declared.length > 0 ? [...declared, OTHER_PRODUCER, UNKNOWN_PRODUCER] : [UNKNOWN_PRODUCER];
    const writers = [undefined, ...pipeline.subject.versions, UNREADABLE] as const;
    for (const topic of pipeline.subject.topics) {
      for (const producer of producers) {
        for (const writer of writers) this.tallies.series(topic, pipeline.subject, producer, writer);
      }
    }
  }

  /**
   * Takes a reloaded catalog (same subjects and topics). Counters carry over; readers that are new
   * (a candidate just added) are evaluated at once against the reservoir of recent samples, and
   * `onReservoir` hears of each such result.
   */
  replaceCatalog(
    catalog: Catalog,
    onReservoir?: (
      subject: SubjectPipeline,
      entry: ReservoirEntry,
      reader: CatalogVersion,
      result: ReaderResult,
    ) => void,
  ): void {
    for (const pipeline of this.subjects.values()) {
      const subject = catalog.subjects.get(pipeline.subject.name);
      if (!subject) continue;
      const before = new Set(pipeline.subject.readers.map((r) => r.version.text));
      pipeline.rebind(subject, catalog);
      this.tallies.rebind(subject);
      const added = subject.readers
        .map((r, i) => [r, i] as const)
        .filter(([r]) => !before.has(r.version.text));
      if (added.length === 0) continue;
      for (const entry of pipeline.reservoir) {
        const results = evaluateInto(
          pipeline.results,
          entry.document,
          subject,
          subject.byVersion.get(entry.writer)?.version,
        );
        const series = this.tallies.series(
          entry.topic,
          subject,
          entry.producer,
          subject.byVersion.get(entry.writer),
        );
        for (const [reader, index] of added) {
          const result = results[index]!;
          if (result.passed) series.readers[index]!.pass.value++;
          else this.tallies.fail(series, index, result.keyword!, result.instancePath!);
          onReservoir?.(pipeline, entry, reader, result);
        }
      }
    }
  }

  process(record: SourceRecord): void {
    try {
      this.#process(record);
    } catch (error) {
      // Only a bug can land here (decoding and validation errors are handled below); a record must
      // still never stop the monitor. Count it where an operator will see it, and say where it broke.
      this.tallies.decodeError(
        this.#byTopic.has(record.topic) ? record.topic : UNKNOWN_TOPIC,
        "internal_error",
      );
      this.onInternalError?.(error, record);
    }
  }

  /**
   * A record batch that could not be decoded: its records count for no known version (`unknown`),
   * as `undecodable_batch`, and as evidence of unknown use on their partition.
   */
  undecodableBatch(topic: string, partition: number, records: number): void {
    const pipeline = this.#byTopic.get(topic);
    if (!pipeline) return this.tallies.decodeError(UNKNOWN_TOPIC, "undecodable_batch", records);
    this.tallies.decodeError(topic, "undecodable_batch", records);
    const series = this.tallies.series(topic, pipeline.subject, UNKNOWN_PRODUCER, UNREADABLE);
    series.count.value += records;
    const at = this.observedAt ?? Date.now();
    if (at > series.lastObservedMs) series.lastObservedMs = at;
    this.onUnreadable?.(pipeline, topic, partition, "undecodable_batch", records, at);
  }

  #process(record: SourceRecord): void {
    const pipeline = this.#byTopic.get(record.topic);
    if (!pipeline) return this.tallies.decodeError(UNKNOWN_TOPIC, "unknown_topic");
    const value = record.value;
    const writer = this.#writer;
    // The version and producer are read from outside the payload first, whatever the payload holds:
    // a record too large to parse, or not JSON, still counts for the version it declares.
    const complete = pipeline.writer.resolve(record, writer);
    let unreadable: DecodeReason | undefined =
      !value || value.length === 0 ? "empty" : value.length > this.#maxBytes ? "too_large" : undefined;
    let document: unknown;
    let parsed = false;
    if (unreadable === undefined && writer.error === undefined && (!complete || pipeline.needsPayload)) {
      const result = parse(value!, writer.payloadStart);
      if (typeof result === "string") unreadable = result;
      else {
        document = result.document;
        parsed = true;
        if (!complete) pipeline.writer.resolve(record, writer, document);
      }
    }
    // A version that cannot be read (an unknown schema id, a version pointer in a payload that does
    // not parse) is unknown, never absent: those records are counted as `unknown`.
    const versionUnknown = writer.error !== undefined || (!complete && !parsed);
    const reason = writer.error ?? unreadable;

    const producer = pipeline.producer.resolve(record, document);
    const subject = pipeline.subject;
    const series = this.tallies.series(
      record.topic,
      subject,
      producer,
      versionUnknown ? UNREADABLE : writer.version,
    );
    series.count.value++;
    const seen = seenAt(record.timestamp, this.observedAt);
    if (seen > series.lastSeenMs) series.lastSeenMs = seen;
    const observedAt = this.observedAt ?? record.timestamp;
    if (observedAt > series.lastObservedMs) series.lastObservedMs = observedAt;
    if (reason !== undefined) {
      this.tallies.decodeError(record.topic, reason);
      if (versionUnknown) {
        this.onUnreadable?.(
          pipeline,
          record.topic,
          record.partition,
          reason as UnreadableReason,
          1,
          observedAt,
        );
      }
      return;
    }

    if (!pipeline.sampler.sample()) return;
    if (!parsed) {
      const result = parse(value!, writer.payloadStart);
      if (typeof result === "string") return this.tallies.decodeError(record.topic, result);
      document = result.document;
    }
    let results: ReaderResult[];
    try {
      results = evaluateInto(pipeline.results, document, subject, writer.version?.version);
    } catch (error) {
      // The validators recurse with the document; one nested deeper than the stack allows is counted
      // for what it is. Anything else is a bug.
      if (isStackOverflow(error)) return this.tallies.decodeError(record.topic, "too_deep");
      throw error;
    }
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if (result.passed) series.readers[i]!.pass.value++;
      else this.tallies.fail(series, i, result.keyword!, result.instancePath!);
    }
    pipeline.keep({
      topic: record.topic,
      producer,
      writer: writer.version ? writer.version.version.text : NO_VERSION,
      document,
      observedAt,
    });
    try {
      this.onValidated?.(pipeline, producer, record, document, writer.version);
    } catch (error) {
      // The corpus walks the document too; its count and validations stand, the rest is skipped.
      if (isStackOverflow(error)) return this.tallies.decodeError(record.topic, "too_deep");
      throw error;
    }
  }
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

const parsedBox: { document: unknown } = { document: undefined };

/** Decodes UTF-8 strictly and parses JSON once; returns the reason on failure. */
function parse(value: Buffer, start: number): { document: unknown } | DecodeReason {
  let text: string;
  try {
    text = utf8.decode(start === 0 ? value : value.subarray(start));
  } catch {
    return "not_utf8";
  }
  try {
    parsedBox.document = JSON.parse(text);
  } catch {
    return "not_json";
  }
  return parsedBox;
}
