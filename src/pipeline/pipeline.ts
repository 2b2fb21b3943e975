import type { Catalog, CatalogSubject } from "../catalog/types.js";
import type { Config } from "../config/types.js";
import { evaluateInto, type ReaderResult } from "../engine/evaluate.js";
import type { RecordSink } from "./record.js";
import { HeldRecords } from "./held.js";
import { UNKNOWN_PRODUCER } from "./producer.js";
import { isStackOverflow, parsePayload } from "./payload.js";
import type { DecodeReason, SourceRecord, UnreadableReason } from "./record.js";
import { SubjectPipeline, reservoirSize } from "./subject-pipeline.js";
import {
  NO_VERSION,
  Tallies,
  UNREADABLE,
  type Cell,
  type RecordSeries,
  type TombstoneLabels,
  type TopicSeries,
} from "./tallies.js";
import type { ObservationClock } from "./clock.js";
import { inOrder, type CountedHook, type PipelineHooks, type UnreadableHook } from "./hooks.js";
import { ValidatedRecord, type ValidatedHook } from "./validated.js";
import type { WriterResult } from "./writer.js";
import { judgeReservoir, startAtZero, type ReservoirListener } from "./catalog-change.js";
import { WorkerBatches } from "./workers/batches.js";

export { SubjectPipeline, type ReservoirEntry } from "./subject-pipeline.js";
export type { CountedHook, JobRunner, PipelineHooks, UnreadableHook } from "./hooks.js";

/** A configured topic's subject, its series and its tombstone counter: what a record of it needs. */
interface Route {
  readonly pipeline: SubjectPipeline;
  readonly series: TopicSeries;
  readonly tombstones: Cell<TombstoneLabels>;
}

/** Topics that are not configured share one label value, so a stray topic cannot grow the label set. */
export const UNKNOWN_TOPIC = "unknown";

/**
 * The path of one record: find its subject, read its writer version and producer (cheaply, without
 * parsing when they are outside the payload), count it, and for a sample parse it once and validate it
 * against every non-retired version. A record that cannot be decoded is counted by reason and skipped;
 * nothing a record contains can stop the pipeline.
 */
export class Pipeline implements RecordSink {
  readonly tallies = new Tallies();
  readonly subjects: ReadonlyMap<string, SubjectPipeline>;
  /** Each configured topic's subject, and its series (held here so a record finds both at once). */
  readonly #byTopic = new Map<string, Route>();
  readonly #maxBytes: number;
  readonly #writer: WriterResult = {
    version: undefined,
    payloadStart: 0,
    error: undefined,
    lookup: undefined,
    lookups: undefined,
  };
  /** Records whose unknown id is being looked up, counted when the answer took effect (in `flush`). */
  readonly #held: HeldRecords;
  /** True while a held record is counted: it is not held again. */
  #releasing = false;
  readonly #release = (record: SourceRecord): void => {
    this.#releasing = true;
    try {
      this.process(record);
    } finally {
      this.#releasing = false;
    }
  };
  readonly #onValidated: ValidatedHook | undefined;
  readonly #onUnreadable: UnreadableHook | undefined;
  readonly #onCounted: CountedHook | undefined;
  readonly #onInternalError: ((error: unknown, record: SourceRecord) => void) | undefined;
  readonly #clock: ObservationClock | undefined;
  readonly #validated = new ValidatedRecord();
  /** With validation workers: the sampled records of the batch being read, and the jobs in flight. */
  readonly #batches: WorkerBatches | undefined;
  /** Each subject's index in the config's subject list: how workers name it. */
  readonly #subjectIndex = new Map<SubjectPipeline, number>();
  readonly #subjectCount: number;

  constructor(catalog: Catalog, config: Config, hooks: PipelineHooks = {}) {
    const now = hooks.now ?? Date.now;
    this.#onValidated = inOrder(hooks.validated ?? []);
    this.#onUnreadable = inOrder(hooks.unreadable ?? []);
    this.#onCounted = inOrder(hooks.counted ?? []);
    this.#onInternalError = hooks.internalError;
    this.#clock = hooks.clock;
    this.#batches =
      hooks.runner &&
      new WorkerBatches(hooks.runner, {
        tallies: this.tallies,
        validated: this.#validated,
        notify: (validated) => this.#notify(validated),
        onUnreadable: this.#onUnreadable,
        onInternalError: this.#onInternalError,
        subjects: () => this.catalogSubjects(),
      });
    this.#maxBytes = config.maxRecordBytes;
    this.#held = new HeldRecords(now);
    this.#subjectCount = config.subjects.length;
    const subjects = new Map<string, SubjectPipeline>();
    config.subjects.forEach((subjectConfig, index) => {
      const subject = catalog.subjects.get(subjectConfig.name);
      if (!subject) return;
      const pipeline = new SubjectPipeline(
        subject,
        subjectConfig,
        now,
        reservoirSize(this.#subjectCount),
        hooks.lookups?.(subjectConfig),
      );
      subjects.set(subject.name, pipeline);
      this.#subjectIndex.set(pipeline, index);
      for (const topic of subject.topics)
        this.#byTopic.set(topic, {
          pipeline,
          series: this.tallies.topic(topic),
          tombstones: this.tallies.tombstoneCell(topic, subject.name),
        });
      startAtZero(this.tallies, pipeline);
    });
    this.subjects = subjects;
  }

  /** The catalog's subjects by their index in the config's subject list: how job runners name them. */
  catalogSubjects(): Array<CatalogSubject | undefined> {
    const subjects = new Array<CatalogSubject | undefined>(this.#subjectCount).fill(undefined);
    for (const [pipeline, index] of this.#subjectIndex) subjects[index] = pipeline.subject;
    return subjects;
  }

  /** Sampled records counted but not yet validated (with workers: collected or being validated). */
  get pendingValidations(): number {
    return this.#batches?.pending ?? 0;
  }

  /** Records not counted yet: they wait for the lookup of their unknown schema id (until `flush`). */
  get waitingForLookups(): number {
    return this.#held.size;
  }

  /** Records of a topic not counted yet because they wait for the lookup of their schema id. */
  waitingForLookupsOn(topic: string): number {
    return this.#held.heldOn(topic);
  }

  /**
   * Takes a reloaded catalog (same subjects and topics). Counters carry over; readers that are new
   * (a candidate just added) are evaluated at once against the reservoir of recent samples, and
   * `onReservoir` hears of each such result.
   */
  replaceCatalog(catalog: Catalog, onReservoir?: ReservoirListener): void {
    for (const pipeline of this.subjects.values()) {
      const subject = catalog.subjects.get(pipeline.subject.name);
      if (!subject) continue;
      const before = new Set(pipeline.subject.readers.map((r) => r.version.text));
      pipeline.rebind(subject);
      this.tallies.rebind(subject);
      // A version new to the catalog (registered meanwhile) shows at zero before its first record.
      startAtZero(this.tallies, pipeline);
      const added = subject.readers
        .map((r, i) => [r, i] as const)
        .filter(([r]) => !before.has(r.version.text));
      if (added.length > 0) judgeReservoir(this.tallies, pipeline, subject, added, onReservoir);
    }
  }

  process(record: SourceRecord): void {
    try {
      this.#process(record);
    } catch (error) {
      // Only a bug can land here (decoding and validation errors are handled below); a record must
      // still never stop the monitor. Count it where an operator will see it, and say where it broke.
      const pipeline = this.#byTopic.get(record.topic)?.pipeline;
      this.tallies.decodeError(pipeline ? record.topic : UNKNOWN_TOPIC, "internal_error");
      // Whatever it declared went unread with it: unknown use.
      if (pipeline)
        this.#onUnreadable?.(
          pipeline,
          record.topic,
          record.partition,
          "internal_error",
          1,
          this.#clock?.now ?? record.timestamp,
        );
      this.#onInternalError?.(error, record);
    }
  }

  /**
   * A record batch that could not be decoded: its records count for no known version (`unknown`),
   * as `undecodable_batch`, and as evidence of unknown use on their partition.
   */
  undecodableBatch(topic: string, partition: number, records: number): void {
    this.unreadable(topic, partition, "undecodable_batch", records);
  }

  /** Records known only by where they were (a batch, a capture line): `unknown`, and unknown use. */
  unreadable(
    topic: string,
    partition: number,
    reason: "undecodable_batch" | "invalid_capture_line",
    records = 1,
  ): void {
    const pipeline = this.#byTopic.get(topic)?.pipeline;
    if (!pipeline) return this.tallies.decodeError(UNKNOWN_TOPIC, reason, records);
    this.tallies.decodeError(topic, reason, records);
    const series = this.tallies.series(topic, pipeline.subject, UNKNOWN_PRODUCER, UNREADABLE);
    series.count.value += records;
    const at = this.#clock?.now ?? Date.now();
    if (at > series.lastObservedMs) series.lastObservedMs = at;
    this.#onCounted?.(pipeline, series, null, 0, reason, records, undefined);
    this.#onUnreadable?.(pipeline, topic, partition, reason, records, at);
  }

  #process(record: SourceRecord): void {
    const route = this.#byTopic.get(record.topic);
    if (!route) return this.tallies.decodeError(UNKNOWN_TOPIC, "unknown_topic");
    const pipeline = route.pipeline;
    const value = record.value;
    if (value === null || value.length === 0) return this.#tombstone(route, record);
    const writer = this.#writer;
    // The version and producer are read from outside the payload first, whatever the payload holds:
    // a record too large to parse, or not JSON, still counts for the version it declares.
    const complete = pipeline.writer.resolve(record, writer);
    // An id being looked up may be a version registered a moment ago: the record waits for the answer.
    if (
      writer.lookup !== undefined &&
      !this.#releasing &&
      this.#held.hold(record, writer.lookup, writer.lookups!)
    )
      return;
    let unreadable: DecodeReason | undefined = value.length > this.#maxBytes ? "too_large" : undefined;
    let document: unknown;
    let text = "";
    let parsed = false;
    if (unreadable === undefined && writer.error === undefined && (!complete || pipeline.needsPayload)) {
      const result = parsePayload(value, writer.payloadStart);
      if (typeof result === "string") unreadable = result;
      else {
        document = result.document;
        text = result.text;
        parsed = true;
        if (!complete) pipeline.writer.resolve(record, writer, document);
      }
    }
    // A version that cannot be read (an unknown schema id, a version pointer in a payload that does
    // not parse) is unknown, never absent: those records are counted as `unknown`.
    const versionUnknown = writer.error !== undefined || (!complete && !parsed);
    const reason = writer.error ?? unreadable;

    const producer = pipeline.producer.resolve(record, document);
    if (pipeline.producer.keyTooLong) this.tallies.decodeError(record.topic, "key_too_long");
    const subject = pipeline.subject;
    const series = route.series.series(subject, producer, versionUnknown ? UNREADABLE : writer.version);
    series.count.value++;
    // Counted apart while the version is retired (the writer follows reloads): traffic after a prune.
    if (series.writer?.status === "retired") series.retiredRecords++;
    const observedAt = this.#clock?.now ?? record.timestamp;
    if (observedAt > series.lastObservedMs) series.lastObservedMs = observedAt;
    this.#onCounted?.(pipeline, series, value, writer.payloadStart, reason, 1, record.frame);
    if (reason !== undefined) {
      this.tallies.decodeError(record.topic, reason);
      // An undeclared record too large to validate may need a deprecated version nobody could check.
      if (
        versionUnknown ||
        ((reason === "too_large" || reason === "too_deep") && writer.version === undefined)
      ) {
        this.#onUnreadable?.(
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

    if (!pipeline.sampler.sample()) {
      // Only validation tells whether a record that declares no version needs a deprecated one.
      if (writer.version === undefined && pipeline.hasDeprecated)
        this.#onUnreadable?.(pipeline, record.topic, record.partition, "not_validated", 1, observedAt);
      return;
    }
    // A job runs within the time budget, a parsed document's too; the consumer's thread validates at
    // once the subjects whose readers all validate in linear time (no watchdog needed).
    const batches = this.#batches;
    if (batches !== undefined && batches.takes(subject)) {
      batches
        .job()
        .add(
          writer.payloadStart === 0 ? value : value.subarray(writer.payloadStart),
          this.#subjectIndex.get(pipeline)!,
          pipeline,
          series,
          producer,
          writer.version,
          record.topic,
          record.partition,
          record.timestamp,
          observedAt,
          parsed ? document : undefined,
        );
      return;
    }
    if (!parsed) {
      // Decoded once, by the subject's format with the writer's schema, for every reader.
      const result = subject.format.decode(writer.version, value, writer.payloadStart);
      if (typeof result === "string") {
        // What its writer cannot read is unknown use, whatever it declared.
        if ((result === "too_deep" && writer.version === undefined) || subject.format.needsWriter)
          this.#onUnreadable?.(pipeline, record.topic, record.partition, result, 1, observedAt);
        return this.tallies.decodeError(record.topic, result);
      }
      document = result.value;
      text = result.text;
    }
    let results: ReaderResult[];
    try {
      results = evaluateInto(pipeline.results, document, subject, writer.version?.version);
    } catch (error) {
      // Depth is judged when the document is parsed (parsePayload); a schema that recurses so much per
      // level that the stack runs out anyway is counted the same. Anything else is a bug.
      if (isStackOverflow(error)) {
        if (writer.version === undefined)
          this.#onUnreadable?.(pipeline, record.topic, record.partition, "too_deep", 1, observedAt);
        return this.tallies.decodeError(record.topic, "too_deep");
      }
      throw error;
    }
    this.#record(series, results);
    if (pipeline.wants(observedAt))
      pipeline.keep({
        topic: record.topic,
        producer,
        writer: writer.version ? writer.version.version.text : NO_VERSION,
        // A binary format has no text: its reservoir keeps a copy of the body.
        ...(text !== "" ? { text } : { bytes: value.slice(writer.payloadStart) }),
        observedAt,
      });
    const validated = this.#validated.fill(
      pipeline,
      producer,
      writer.version,
      record.topic,
      record.partition,
      record.timestamp,
      observedAt,
      undefined,
    );
    validated.parsed(subject.format.document(document));
    this.#notify(validated);
  }

  /**
   * A record without a value (null or empty): a delete on a compacted topic. It carries no document
   * of any version, whatever a header declares (a consumer on any version reads it alike), so it is
   * counted as writer `none` and as a tombstone, never validated, and never evidence of use of a
   * version, known or unknown. Its headers are not read for a version: an unknown GUID on a tombstone
   * waits for no lookup.
   */
  #tombstone(route: Route, record: SourceRecord): void {
    route.tombstones.value++;
    const producer = route.pipeline.producer.resolve(record);
    if (route.pipeline.producer.keyTooLong) this.tallies.decodeError(record.topic, "key_too_long");
    const series = route.series.series(route.pipeline.subject, producer, undefined);
    series.count.value++;
    const observedAt = this.#clock?.now ?? record.timestamp;
    if (observedAt > series.lastObservedMs) series.lastObservedMs = observedAt;
  }

  /** A validation's results into the series' counters. */
  #record(series: RecordSeries, results: readonly ReaderResult[]): void {
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if (result.passed) {
        series.readers[i]!.pass.value++;
        if (result.lossy === true) this.tallies.lose(series, i, result.keyword!, result.instancePath!);
      } else this.tallies.fail(series, i, result.keyword!, result.instancePath!);
    }
  }

  #notify(validated: ValidatedRecord): void {
    try {
      this.#onValidated?.(validated);
    } catch (error) {
      // The corpus walks the document too; its count and validations stand, the rest is skipped.
      if (isStackOverflow(error)) return this.tallies.decodeError(validated.topic, "too_deep");
      throw error;
    }
    if (validated.shape === null) this.tallies.decodeError(validated.topic, "too_deep");
  }

  /**
   * Counts the records held for a lookup (once it took effect, or their wait ended), then, with
   * workers, has them validate the sampled records collected since the last flush and records the
   * results. Sources await it before they commit, so offsets never run ahead of the tallies.
   */
  async flush(): Promise<void> {
    await this.#held.settle(this.#release);
    await this.#batches?.flush();
  }
}
