import type { CatalogSubject } from "../catalog/types.js";
import type { IdLookups } from "../catalog/lookups.js";
import type { SubjectConfig } from "../config/types.js";
import type { ObservationClock } from "./clock.js";
import type { DecodeReason, RecordFrame, SourceRecord, UnreadableReason } from "./record.js";
import type { SubjectPipeline } from "./subject-pipeline.js";
import type { RecordSeries } from "./tallies.js";
import type { ValidatedHook } from "./validated.js";
import type { ResultMessage, SampleJob } from "./workers/job.js";

// What a pipeline tells and whom, and where it has records validated: the constructor's third
// argument, apart from the record's path itself.

/** Validates a job somewhere else: the validation workers (`ValidationPool`). */
export interface JobRunner {
  /** `subjects`: the pipeline's current subjects by config index (they change with reloads). */
  validate(job: SampleJob, subjects: ReadonlyArray<CatalogSubject | undefined>): Promise<ResultMessage>;
  /** Whether a record of this subject is validated at once on this thread instead (no job needed). */
  validatesHere?(subject: CatalogSubject): boolean;
}

/** A record (or undecodable batch) whose writer version could not be read: unknown use on its partition. */
export type UnreadableHook = (
  subject: SubjectPipeline,
  topic: string,
  partition: number,
  reason: UnreadableReason,
  records: number,
  at: number,
) => void;

/**
 * Every record counted, with its payload's bytes from `start` (past a wire prefix): the field checks.
 * `series` names its topic, producer and writer version; `reason` is why its payload or version could
 * not be read, if so. `records` is more than 1 only for an undecodable batch (`value` null). `frame`
 * is the record's `SourceRecord.frame`, where its source gives one. The listener must not keep
 * `value`: sources reuse it.
 */
export type CountedHook = (
  subject: SubjectPipeline,
  series: RecordSeries,
  value: Uint8Array | null,
  start: number,
  reason: DecodeReason | undefined,
  records: number,
  frame: RecordFrame | undefined,
) => void;

/**
 * What a pipeline tells, and whom: given at construction, never assigned later. Listeners of one kind
 * hear each record in the order given.
 */
export interface PipelineHooks {
  /**
   * Each validated record, after its tallies are recorded (the lifecycle, the corpus). The subject's
   * `results` hold that record's outcome against every reader until the next record.
   */
  readonly validated?: readonly ValidatedHook[];
  /**
   * Each record (or undecodable batch) whose writer version could not be read: evidence of unknown use
   * on that partition, which the lifecycle keeps against the subject's deprecated versions.
   */
  readonly unreadable?: readonly UnreadableHook[];
  /** Every record, once counted, sampled or not (see `CountedHook`). */
  readonly counted?: readonly CountedHook[];
  /** A bug's error (a record landed in `internal_error`); never with the record's contents. */
  readonly internalError?: (error: unknown, record: SourceRecord) => void;
  /**
   * When records are observed. A live source's coarse clock (a timestamp per record would cost a
   * clock read each); without it, a record's own timestamp, which is what a replayed capture wants.
   */
  readonly clock?: ObservationClock;
  /**
   * Where sampled records are parsed and validated: the validation workers, or the consumer's thread
   * within the time budget. `process` then only counts and collects the sample, and `flush` (which
   * every source awaits before it commits or moves on) has them validate it and records the results.
   * Without one, records are validated at once in `process`, with no time budget (tests, tools).
   */
  readonly runner?: JobRunner;
  /** Where each subject looks up the wire ids and GUIDs its catalog does not know (its registry). */
  readonly lookups?: (subject: SubjectConfig) => IdLookups | undefined;
  /** The clock of held records and reservoirs (tests set it). */
  readonly now?: () => number;
}

/** A hook of at most seven arguments: what `inOrder` forwards (an eighth would not be). */
type UpToSeven = (a: never, b: never, c: never, d: never, e: never, f: never, g: never) => void;
type Forward = (a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown) => void;

/** One function that calls each listener in order, or none for none (the hot path checks once). */
export function inOrder<F extends UpToSeven>(listeners: readonly F[]): F | undefined {
  // Stryker disable next-line ConditionalExpression: the general case calls no listener alike; this spares the hot path a call
  if (listeners.length === 0) return undefined;
  // Stryker disable next-line ConditionalExpression: the general case calls the one listener alike, through one more call
  if (listeners.length === 1) return listeners[0];
  // Named arguments, and two listeners called without a loop: a rest array spread into a loop of
  // calls cost the per-record path about 5% with two `counted` listeners (measured, issue 28's charts).
  const all = listeners as unknown as readonly Forward[];
  // Stryker disable next-line ConditionalExpression: the general case calls both listeners alike, through a loop
  if (all.length === 2) {
    const first = all[0]!;
    const second = all[1]!;
    return ((a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown) => {
      first(a, b, c, d, e, f, g);
      second(a, b, c, d, e, f, g);
    }) as unknown as F;
  }
  return ((a: unknown, b: unknown, c: unknown, d: unknown, e: unknown, f: unknown, g: unknown) => {
    for (let i = 0; i < all.length; i++) all[i]!(a, b, c, d, e, f, g);
  }) as unknown as F;
}
