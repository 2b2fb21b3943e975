import type { CatalogSubject } from "../catalog/types.js";
import type { SubjectConfig } from "../config/types.js";
import { createResults, type ReaderResult } from "../engine/evaluate.js";
import { ProducerResolver } from "./producer.js";
import { Sampler } from "./sampler.js";
import { WriterResolver, type IdLookups } from "./writer.js";

/**
 * A recent sampled record, kept so that a candidate added by a reload is judged at once. In-thread
 * validation keeps the parsed document; worker validation keeps the payload's bytes (a copy), parsed
 * only if a reload needs them.
 */
export interface ReservoirEntry {
  readonly topic: string;
  readonly producer: string;
  readonly writer: string;
  readonly observedAt: number;
  readonly document?: unknown;
  readonly bytes?: Uint8Array;
}

const RESERVOIR_SIZE = 500;
/**
 * Once the reservoir is full, a sampled record is kept only this long after the last one kept: the
 * reservoir then spans the last minutes of traffic rather than the last burst, and a record that is not
 * kept costs no entry (with validation workers, no copy of its payload either).
 */
const RESERVOIR_SPACING_MS = 20;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The document of a reservoir entry; undefined when its bytes do not parse (they did in the worker). */
export function reservoirDocument(entry: ReservoirEntry): unknown {
  if (entry.bytes === undefined) return entry.document;
  try {
    return JSON.parse(utf8.decode(entry.bytes));
  } catch {
    return undefined;
  }
}

/** Per-subject machinery: resolvers, sampler and reusable result objects. */
export class SubjectPipeline {
  subject: CatalogSubject;
  readonly config: SubjectConfig;
  writer: WriterResolver;
  readonly producer: ProducerResolver;
  readonly sampler: Sampler;
  results: ReaderResult[];
  readonly needsPayload: boolean;
  /** The last RESERVOIR_SIZE sampled records, oldest overwritten first. */
  readonly reservoir: ReservoirEntry[] = [];
  #next = 0;
  #lastKept = Number.NEGATIVE_INFINITY;
  #lookups: IdLookups | undefined;
  #deprecatedOf: CatalogSubject | undefined;
  #hasDeprecated = false;

  constructor(subject: CatalogSubject, config: SubjectConfig, now: () => number) {
    this.subject = subject;
    this.config = config;
    this.writer = new WriterResolver(subject, config.writer);
    this.producer = new ProducerResolver(config.producer);
    this.sampler = new Sampler(config.sampling, now);
    this.results = createResults(subject);
    this.needsPayload = this.producer.needsPayload;
  }

  /**
   * Whether the subject has a deprecated version, the only kind a drained verdict judges: then a record
   * that declares no version and is not validated is unknown use. Follows reloads of `subject`.
   */
  get hasDeprecated(): boolean {
    if (this.#deprecatedOf !== this.subject) {
      this.#deprecatedOf = this.subject;
      this.#hasDeprecated = this.subject.readers.some((reader) => reader.status === "deprecated");
    }
    return this.#hasDeprecated;
  }

  /** Whether a sampled record observed at `observedAt` (ms) goes into the reservoir. */
  wants(observedAt: number): boolean {
    return (
      this.reservoir.length < RESERVOIR_SIZE ||
      observedAt - this.#lastKept >= RESERVOIR_SPACING_MS ||
      observedAt < this.#lastKept
    );
  }

  keep(entry: ReservoirEntry): void {
    if (this.reservoir.length < RESERVOIR_SIZE) this.reservoir.push(entry);
    else this.reservoir[this.#next] = entry;
    this.#next = (this.#next + 1) % RESERVOIR_SIZE;
    this.#lastKept = entry.observedAt;
  }

  /** Where wire ids and GUIDs this subject does not know are looked up (its registry). */
  useIdLookups(lookups: IdLookups): void {
    this.#lookups = lookups;
    this.writer = new WriterResolver(this.subject, this.config.writer, lookups);
  }

  /** Takes a reloaded catalog's version of this subject; producers, sampler and reservoir stay. */
  rebind(subject: CatalogSubject): void {
    this.subject = subject;
    this.writer = new WriterResolver(subject, this.config.writer, this.#lookups);
    this.results = createResults(subject);
  }
}
