import type { CatalogSubject } from "../../catalog/types.js";
import type { JobRunner, UnreadableHook } from "../hooks.js";
import type { SourceRecord, UnreadableReason } from "../record.js";
import type { Tallies } from "../tallies.js";
import type { ValidatedRecord } from "../validated.js";
import { applyJobResult } from "./apply.js";
import { SampleJob, ValidationTimeoutError, type ResultMessage } from "./job.js";

/** Jobs kept for reuse: as many as batches are in flight at once (kafkajs's partition concurrency). */
const SPARE_JOBS = 8;

/** What the batches need of the pipeline that owns them. */
export interface BatchesContext {
  readonly tallies: Tallies;
  /** The one validated record the pipeline fills for its hooks, and how it tells them. */
  readonly validated: ValidatedRecord;
  readonly notify: (validated: ValidatedRecord) => void;
  readonly onUnreadable: UnreadableHook | undefined;
  readonly onInternalError: ((error: unknown, record: SourceRecord) => void) | undefined;
  /** The pipeline's current subjects by config index (they change with reloads). */
  readonly subjects: () => Array<CatalogSubject | undefined>;
}

/**
 * The sampled records of the batch being read, sent to the validation workers at the end of each
 * batch (`flush`), and their results recorded as the in-thread path records them. A job that a worker
 * loses (it died, or was stuck past the time budget) leaves its records counted and their validations
 * counted as lost.
 */
export class WorkerBatches {
  readonly #pool: JobRunner;
  readonly #context: BatchesContext;
  /** The sampled records of the batch being read. */
  #job = new SampleJob();
  /** Jobs whose results are recorded, for the next batches. */
  readonly #spareJobs: SampleJob[] = [];
  #pending = 0;

  constructor(pool: JobRunner, context: BatchesContext) {
    this.#pool = pool;
    this.#context = context;
  }

  /** Sampled records collected or being validated, not yet recorded. */
  get pending(): number {
    return this.#pending;
  }

  /** Whether a sampled record of this subject goes to a worker (else it is validated at once, here). */
  takes(subject: CatalogSubject): boolean {
    // A format that decodes with the writer's schema (Avro) decodes and checks in linear time: its
    // samples stay on this thread, where the reservoir and the hooks read them (formats/format.ts).
    if (subject.format.needsWriter) return false;
    return this.#pool.validatesHere?.(subject) !== true;
  }

  /** The batch's job, to add a sampled record to (`SampleJob.add`); counted as pending. */
  job(): SampleJob {
    this.#pending++;
    return this.#job;
  }

  /** Validates the records collected since the last flush and records the results. */
  async flush(): Promise<void> {
    const job = this.#job;
    if (job.size === 0) return;
    this.#job = this.#spareJobs.pop() ?? new SampleJob();
    let returned: Uint8Array | undefined;
    try {
      returned = await this.#validate(job);
    } finally {
      this.#pending -= job.size;
    }
    if (returned !== undefined && this.#spareJobs.length < SPARE_JOBS) {
      job.reset(returned);
      this.#spareJobs.push(job);
    }
  }

  /** A job whose validations are lost: `internal_error` for each record (`timeout`: abandoned as stuck). */
  #lost(job: SampleJob, reason: "internal_error" | "timeout" = "internal_error"): void {
    for (let i = 0; i < job.size; i++) {
      this.#context.tallies.decodeError(job.topics[i]!, reason);
      this.#unvalidated(job, i, reason);
    }
  }

  /** A job's record that was not validated: unknown use when it declares no version. */
  #unvalidated(job: SampleJob, i: number, reason: UnreadableReason): void {
    if (job.writers[i] !== undefined) return;
    this.#context.onUnreadable?.(
      job.pipelines[i]!,
      job.topics[i]!,
      job.partitions[i]!,
      reason,
      1,
      job.observedAt[i]!,
    );
  }

  /** Validates the job and records the results; the job's payload buffer, when it came back. */
  async #validate(job: SampleJob): Promise<Uint8Array | undefined> {
    const context = this.#context;
    let result: ResultMessage;
    try {
      result = await this.#pool.validate(job, context.subjects());
    } catch (error) {
      // The worker died with the job (its payloads went with it): the records stay counted, their
      // validation is lost, and the loss is counted where an operator sees it.
      this.#lost(job, error instanceof ValidationTimeoutError ? "timeout" : "internal_error");
      return undefined;
    }
    try {
      applyJobResult(job, result, context.tallies, context.validated, context.notify, (i, reason) =>
        this.#unvalidated(job, i, reason),
      );
    } catch (error) {
      this.#lost(job);
      context.onInternalError?.(error, {
        topic: job.topics[0]!,
        partition: job.partitions[0]!,
        offset: "",
        timestamp: 0,
        key: null,
        headers: undefined,
        value: null,
      });
      return undefined;
    }
    return result.bytes;
  }
}
