import type { CatalogVersion } from "../../catalog/types.js";
import type { SubjectPipeline } from "../subject-pipeline.js";
import type { RecordSeries } from "../tallies.js";

/** What a validation worker is sent: the sampled payloads of one batch, packed into one buffer. */
export interface JobMessage {
  readonly kind: "job";
  readonly id: number;
  /** The payloads back to back; item i is bytes[ends[i-1] .. ends[i]). */
  readonly bytes: Uint8Array;
  readonly ends: Int32Array;
  /** Per item: the index of its subject in the config's subject list. */
  readonly subjects: Uint16Array;
  /** Per item: its writer version as an index into `writerTexts`, or -1 when it declares none. */
  readonly writers: Int16Array;
  readonly writerTexts: readonly string[];
}

/** Per item, what became of it. */
export const ITEM_VALIDATED = 0;
export const ITEM_NOT_UTF8 = 1;
export const ITEM_NOT_JSON = 2;
export const ITEM_TOO_DEEP = 3;
/** Its validation ran past the time budget (`validationTimeout`) and was stopped. */
export const ITEM_TIMEOUT = 4;

/** What a worker answers: per item and reader, pass or fail with the first failure, compactly. */
export interface ResultMessage {
  readonly kind: "result";
  readonly id: number;
  /** The generation of the catalog the worker validated with. */
  readonly generation: number;
  /** Per subject index, the reader versions (texts) in the order of the flat arrays below. */
  readonly readers: Readonly<Record<number, readonly string[]>>;
  readonly status: Uint8Array;
  /** Per item, where its readers start in the flat arrays. */
  readonly firstReader: Int32Array;
  readonly passed: Uint8Array;
  /** Indexes into `strings` (0 for a pass). */
  readonly keywords: Uint32Array;
  readonly paths: Uint32Array;
  readonly strings: readonly string[];
  /** Per item, the document's shape key (null: too deep for one), when the corpus asked for them. */
  readonly shapes: ReadonlyArray<string | null> | undefined;
  /** The job's payloads, handed back (transferred both ways, never copied). */
  readonly bytes: Uint8Array;
}

/** Indexes into the progress a worker shares with the pool's watchdog: items started, and busy (1). */
export const PROGRESS_ITEMS = 0;
export const PROGRESS_BUSY = 1;

/**
 * A job abandoned by the pool's watchdog: its worker made no progress for far longer than the time
 * budget allows, and was terminated with the job. Its records count as `timeout`.
 */
export class ValidationTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`a validation worker made no progress for ${ms} ms and was replaced`);
    this.name = "ValidationTimeoutError";
  }
}

const INITIAL_BYTES = 64 * 1024;

/**
 * The sampled records of one batch on their way to a worker: their payloads packed for transfer, and
 * what the pipeline needs to record the results (series, producer, writer, times), which stays here.
 */
export class SampleJob {
  bytes: Uint8Array = new Uint8Array(INITIAL_BYTES);
  used = 0;
  readonly ends: number[] = [];
  readonly subjectIndexes: number[] = [];
  readonly writerIndexes: number[] = [];
  readonly writerTexts: string[] = [];
  readonly #writerIndex = new Map<string, number>();
  // What stays on this thread, by item.
  readonly pipelines: SubjectPipeline[] = [];
  readonly series: RecordSeries[] = [];
  readonly producers: string[] = [];
  readonly writers: Array<CatalogVersion | undefined> = [];
  readonly topics: string[] = [];
  readonly partitions: number[] = [];
  readonly timestamps: number[] = [];
  readonly observedAt: number[] = [];
  /** Per item, its document when this thread parsed it already (else undefined): never sent. */
  readonly documents: unknown[] = [];

  get size(): number {
    return this.ends.length;
  }

  /**
   * Empties the job for the next batch, with the buffer its payloads came back in: jobs are reused,
   * so that a batch costs neither new arrays nor a new buffer once the first few have grown them.
   */
  reset(bytes: Uint8Array): void {
    this.bytes = new Uint8Array(bytes.buffer);
    this.used = 0;
    for (const list of [
      this.ends,
      this.subjectIndexes,
      this.writerIndexes,
      this.writerTexts,
      this.pipelines,
      this.series,
      this.producers,
      this.writers,
      this.topics,
      this.partitions,
      this.timestamps,
      this.observedAt,
      this.documents,
    ] as unknown[][])
      list.length = 0;
    this.#writerIndex.clear();
  }

  add(
    payload: Uint8Array,
    subjectIndex: number,
    pipeline: SubjectPipeline,
    series: RecordSeries,
    producer: string,
    writer: CatalogVersion | undefined,
    topic: string,
    partition: number,
    timestamp: number,
    observedAt: number,
    document?: unknown,
  ): void {
    const need = this.used + payload.length;
    if (need > this.bytes.length) {
      const grown = new Uint8Array(Math.max(need, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    this.bytes.set(payload, this.used);
    this.used = need;
    this.ends.push(need);
    this.subjectIndexes.push(subjectIndex);
    let writerIndex = -1;
    if (writer) {
      const text = writer.version.text;
      writerIndex = this.#writerIndex.get(text) ?? -1;
      if (writerIndex === -1) {
        writerIndex = this.writerTexts.length;
        this.writerTexts.push(text);
        this.#writerIndex.set(text, writerIndex);
      }
    }
    this.writerIndexes.push(writerIndex);
    this.pipelines.push(pipeline);
    this.series.push(series);
    this.producers.push(producer);
    this.writers.push(writer);
    this.topics.push(topic);
    this.partitions.push(partition);
    this.timestamps.push(timestamp);
    this.observedAt.push(observedAt);
    this.documents.push(document);
  }

  /** The message for a worker. Its buffers are new (or this job's, to be transferred). */
  message(id: number): JobMessage {
    return {
      kind: "job",
      id,
      bytes: this.bytes.subarray(0, this.used),
      ends: Int32Array.from(this.ends),
      subjects: Uint16Array.from(this.subjectIndexes),
      writers: Int16Array.from(this.writerIndexes),
      writerTexts: this.writerTexts,
    };
  }
}
