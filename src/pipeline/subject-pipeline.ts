import type { CatalogSubject } from "../catalog/types.js";
import type { SubjectConfig } from "../config/types.js";
import { createResults, type ReaderResult } from "../engine/evaluate.js";
import { ProducerResolver } from "./producer.js";
import { Sampler } from "./sampler.js";
import type { IdLookups } from "../catalog/lookups.js";
import { WriterResolver } from "./writer.js";

/**
 * A recent sampled record, kept so that a candidate added by a reload is judged at once. In-thread
 * validation keeps the payload's JSON text (already decoded: one flat string, where a parsed document
 * is a tree of objects the garbage collector walks and copies); worker validation keeps the payload's
 * bytes (a copy). Either is parsed only if a reload needs it.
 */
export interface ReservoirEntry {
  readonly topic: string;
  readonly producer: string;
  readonly writer: string;
  readonly observedAt: number;
  readonly text?: string;
  readonly bytes?: Uint8Array;
}

/** Recent samples held by all subjects' reservoirs together: memory that does not grow with subjects. */
export const RESERVOIR_BUDGET = 10_000;
/** A subject's reservoir holds at most this many (the whole budget up to 20 subjects)... */
const RESERVOIR_MAX = 500;
/** ...and at least this many, however many subjects share the budget. */
const RESERVOIR_MIN = 50;
/**
 * Once a reservoir is full, a sampled record is kept only `RESERVOIR_SPAN_MS / size` after the last
 * one kept (20 ms for 500): every reservoir then spans at least the last 10 s of its traffic rather
 * than the last burst, all of them together take at most `RESERVOIR_BUDGET` records per 10 s, and a
 * record that is not kept costs no entry (with validation workers, no copy of its payload either).
 */
const RESERVOIR_SPAN_MS = 10_000;

/** How many recent samples each of `subjects` subjects keeps: their share of the budget, within bounds. */
export function reservoirSize(subjects: number): number {
  const share = Math.floor(RESERVOIR_BUDGET / Math.max(1, subjects));
  return Math.min(RESERVOIR_MAX, Math.max(RESERVOIR_MIN, share));
}

/**
 * What a reservoir entry decodes to for `evaluateInto` (JSON: its document; another format: its
 * decoded value, read with the entry's writer); undefined when it does not decode (it did when it was
 * validated).
 */
export function reservoirDocument(entry: ReservoirEntry, subject: CatalogSubject): unknown {
  if (entry.bytes === undefined) {
    try {
      return JSON.parse(entry.text!);
    } catch {
      return undefined;
    }
  }
  const decoded = subject.format.decode(subject.byVersion.get(entry.writer), entry.bytes, 0);
  return typeof decoded === "string" ? undefined : decoded.value;
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
  /** The last `reservoirSize` sampled records (spaced in time once full), oldest overwritten first. */
  readonly reservoir: ReservoirEntry[] = [];
  readonly reservoirSize: number;
  readonly #spacingMs: number;
  #next = 0;
  #lastKept = Number.NEGATIVE_INFINITY;
  readonly #lookups: IdLookups | undefined;
  #deprecatedOf: CatalogSubject | undefined;
  #hasDeprecated = false;

  /**
   * `reservoir`: how many recent samples it keeps (`reservoirSize` of the monitor's subject count);
   * `lookups`: where wire ids and GUIDs this subject does not know are looked up (its registry).
   */
  constructor(
    subject: CatalogSubject,
    config: SubjectConfig,
    now: () => number,
    reservoir: number = RESERVOIR_MAX,
    lookups?: IdLookups,
  ) {
    this.subject = subject;
    this.#lookups = lookups;
    this.reservoirSize = reservoir;
    this.#spacingMs = RESERVOIR_SPAN_MS / reservoir;
    this.config = config;
    this.writer = new WriterResolver(subject, config.writer, lookups);
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
      this.reservoir.length < this.reservoirSize ||
      observedAt - this.#lastKept >= this.#spacingMs ||
      observedAt < this.#lastKept
    );
  }

  keep(entry: ReservoirEntry): void {
    if (this.reservoir.length < this.reservoirSize) this.reservoir.push(entry);
    else this.reservoir[this.#next] = entry;
    this.#next = (this.#next + 1) % this.reservoirSize;
    this.#lastKept = entry.observedAt;
  }

  /** Takes a reloaded catalog's version of this subject; producers, sampler and reservoir stay. */
  rebind(subject: CatalogSubject): void {
    this.subject = subject;
    this.writer = new WriterResolver(subject, this.config.writer, this.#lookups);
    this.results = createResults(subject);
  }
}
