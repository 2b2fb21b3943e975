import type { Catalog, CatalogSubject } from "../catalog/types.js";
import type { Config, SubjectConfig } from "../config/types.js";
import { createResults, evaluateInto, type ReaderResult } from "../engine/evaluate.js";
import type { RecordSink } from "./health.js";
import { ProducerResolver, OTHER_PRODUCER, UNKNOWN_PRODUCER } from "./producer.js";
import type { DecodeReason, SourceRecord } from "./record.js";
import { Sampler } from "./sampler.js";
import { Tallies } from "./tallies.js";
import { WriterResolver, type WriterResult } from "./writer.js";

/** Topics that are not configured share one label value, so a stray topic cannot grow the label set. */
export const UNKNOWN_TOPIC = "unknown";

/** Per-subject machinery, built once: resolvers, sampler and reusable result objects. */
export class SubjectPipeline {
  readonly subject: CatalogSubject;
  readonly config: SubjectConfig;
  readonly writer: WriterResolver;
  readonly producer: ProducerResolver;
  readonly sampler: Sampler;
  readonly results: ReaderResult[];
  readonly needsPayload: boolean;

  constructor(subject: CatalogSubject, config: SubjectConfig, catalog: Catalog, now: () => number) {
    this.subject = subject;
    this.config = config;
    this.writer = new WriterResolver(subject, catalog, config.writer);
    this.producer = new ProducerResolver(config.producer);
    this.sampler = new Sampler(config.sampling, now);
    this.results = createResults(subject);
    this.needsPayload = this.producer.needsPayload;
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
  /** Called for each validated record, after its tallies are recorded (lifecycle, corpus). */
  onValidated:
    | ((subject: SubjectPipeline, producer: string, record: SourceRecord, document: unknown) => void)
    | undefined;

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
    const writers = [undefined, ...pipeline.subject.versions];
    for (const topic of pipeline.subject.topics) {
      for (const producer of producers) {
        for (const writer of writers) this.tallies.series(topic, pipeline.subject, producer, writer);
      }
    }
  }

  process(record: SourceRecord): void {
    try {
      this.#process(record);
    } catch {
      // Only a bug can land here (decoding and validation errors are handled below); a record must
      // still never stop the monitor. Count it where an operator will see it.
      this.tallies.decodeError(
        this.#byTopic.has(record.topic) ? record.topic : UNKNOWN_TOPIC,
        "internal_error",
      );
    }
  }

  #process(record: SourceRecord): void {
    const pipeline = this.#byTopic.get(record.topic);
    if (!pipeline) return this.tallies.decodeError(UNKNOWN_TOPIC, "unknown_topic");
    const value = record.value;
    if (!value || value.length === 0) return this.tallies.decodeError(record.topic, "empty");
    if (value.length > this.#maxBytes) return this.tallies.decodeError(record.topic, "too_large");

    const writer = this.#writer;
    let document: unknown;
    let parsed = false;
    if (!pipeline.writer.resolve(record, writer) || pipeline.needsPayload) {
      const result = parse(value, writer.payloadStart);
      if (typeof result === "string") return this.tallies.decodeError(record.topic, result);
      document = result.document;
      parsed = true;
      pipeline.writer.resolve(record, writer, document);
    }
    if (writer.error) return this.tallies.decodeError(record.topic, writer.error);

    const producer = pipeline.producer.resolve(record, document);
    const subject = pipeline.subject;
    const series = this.tallies.series(record.topic, subject, producer, writer.version);
    series.count.value++;
    if (record.timestamp > series.lastSeenMs) series.lastSeenMs = record.timestamp;

    if (!pipeline.sampler.sample()) return;
    if (!parsed) {
      const result = parse(value, writer.payloadStart);
      if (typeof result === "string") return this.tallies.decodeError(record.topic, result);
      document = result.document;
    }
    const results = evaluateInto(pipeline.results, document, subject, writer.version?.version);
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if (result.passed) series.readers[i]!.pass.value++;
      else this.tallies.fail(series, i, result.keyword!);
    }
    this.onValidated?.(pipeline, producer, record, document);
  }
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
