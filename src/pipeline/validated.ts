import type { CatalogVersion } from "../catalog/types.js";
import type { SubjectPipeline } from "./subject-pipeline.js";

/**
 * A validated record, as the pipeline's `onValidated` hook hears of it (the lifecycle, the corpus),
 * after its tallies are recorded. The subject's `results` hold its outcome against every reader. One
 * object is reused for every record: a hook must not keep it.
 */
export interface Validated {
  readonly subject: SubjectPipeline;
  readonly producer: string;
  readonly writer: CatalogVersion | undefined;
  readonly topic: string;
  readonly partition: number;
  /** The record's own timestamp (ms). */
  readonly timestamp: number;
  /** When the monitor observed it (ms): the live clock, or the record's timestamp in a replay. */
  readonly observedAt: number;
  /**
   * The document's shape key when a validation worker computed it; null when the document nests too
   * deep to have one; undefined when the caller should compute it from the document.
   */
  readonly shape: string | null | undefined;
  /** The parsed document (parsed on first call when a worker validated it). */
  document(): unknown;
}

/** The hook itself. */
export type ValidatedHook = (record: Validated) => void;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The one Validated object a pipeline hands its hook, refilled per record. */
export class ValidatedRecord implements Validated {
  subject!: SubjectPipeline;
  producer = "";
  writer: CatalogVersion | undefined;
  topic = "";
  partition = 0;
  timestamp = 0;
  observedAt = 0;
  shape: string | null | undefined;
  #document: unknown;
  #bytes: Uint8Array | undefined;
  #from = 0;
  #end = 0;

  fill(
    subject: SubjectPipeline,
    producer: string,
    writer: CatalogVersion | undefined,
    topic: string,
    partition: number,
    timestamp: number,
    observedAt: number,
    shape: string | null | undefined,
  ): this {
    this.subject = subject;
    this.producer = producer;
    this.writer = writer;
    this.topic = topic;
    this.partition = partition;
    this.timestamp = timestamp;
    this.observedAt = observedAt;
    this.shape = shape;
    return this;
  }

  parsed(document: unknown): void {
    this.#document = document;
    this.#bytes = undefined;
  }

  /** The document is the UTF-8 JSON in bytes[from..end): parsed only if a hook asks for it. */
  unparsed(bytes: Uint8Array, from: number, end: number): void {
    this.#document = undefined;
    this.#bytes = bytes;
    this.#from = from;
    this.#end = end;
  }

  document(): unknown {
    if (this.#bytes !== undefined) {
      // Parsed here only when a hook needs the document itself: the corpus keeping a new shape.
      this.#document = JSON.parse(utf8.decode(this.#bytes.subarray(this.#from, this.#end)));
      this.#bytes = undefined;
    }
    return this.#document;
  }
}
