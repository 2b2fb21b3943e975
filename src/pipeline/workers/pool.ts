import { Worker } from "node:worker_threads";
import type { Logger } from "pino";
import type { Config } from "../../config/types.js";
import type { SubjectSnapshot } from "../../registry/types.js";
import { SchemawatchError } from "../../errors.js";
import { RepeatLog } from "../../log.js";
import {
  PROGRESS_BUSY,
  PROGRESS_ITEMS,
  ValidationTimeoutError,
  type ResultMessage,
  type SampleJob,
} from "./job.js";
import type { CatalogMessage, WorkerReply } from "./messages.js";

interface Pending {
  readonly resolve: (result: ResultMessage) => void;
  readonly reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** Shared with the worker: `ITEMS` counts the items it started, `BUSY` is 1 while it runs a job. */
  readonly progress: Int32Array;
  /** The watchdog's last look: the item count, and since when it has not moved. */
  seenItems: number;
  since: number;
  /** Terminated by the watchdog: its pending jobs are timeouts, and it is replaced at once. */
  abandoned: boolean;
  /** Exited, and waiting to be replaced: no job goes to it. */
  down: boolean;
  readonly pending: Map<number, Pending>;
  /** The catalog generation this worker last confirmed. */
  generation: number;
  readonly catalogWaiters: Array<(reply: WorkerReply) => void>;
}

const RESPAWN_MS = 1_000;

/**
 * How long a worker may run one item before the watchdog abandons it. Each item has the time budget
 * inside the worker already (a vm timeout); this catches what that cannot stop, with room for a
 * loaded machine: twice the budget, and at least a second more than it.
 */
export function stuckAfterMs(budgetMs: number): number {
  return Math.max(2 * budgetMs, budgetMs + 1_000);
}

/**
 * Validation worker threads (config `workers`): the consumer's thread counts every record and decides
 * the sample; parsing and validating the sampled payloads happens here, a batch per message, with the
 * payloads transferred rather than copied. A worker that dies fails its pending jobs (their records
 * stay counted, as `internal_error`) and is replaced. Each item has its time budget inside the worker;
 * a watchdog here terminates a worker that started no item for far longer (`stuckAfterMs`): its jobs
 * count as `timeout`, so that the batches' deferred commits never wait on it.
 */
export class ValidationPool {
  readonly #size: number;
  readonly #thread: URL;
  readonly #log: Logger;
  readonly #repeats: RepeatLog;
  readonly #slots: Slot[] = [];
  #config: Config | undefined;
  #snapshots: readonly SubjectSnapshot[] = [];
  #shapes = false;
  #generation = 0;
  #next = 0;
  #jobIds = 0;
  #stopped = false;
  #watchdog: NodeJS.Timeout | undefined;

  readonly #stuckAfterMs: number | undefined;

  /** `stuckAfterMs`: the watchdog's limit, when not derived from the config's budget (tests). */
  constructor(
    size: number,
    logger: Logger,
    /** The worker thread's module (`src/monitor/validation-thread.ts`, built): the composition root names it. */
    thread: URL,
    options: { stuckAfterMs?: number } = {},
  ) {
    this.#thread = thread;
    this.#stuckAfterMs = options.stuckAfterMs;
    this.#size = size;
    this.#log = logger;
    this.#repeats = new RepeatLog(logger);
  }

  get generation(): number {
    return this.#generation;
  }

  /**
   * Starts the workers with the catalog of `config` and the registry `snapshots`; rejects when a
   * worker cannot build it.
   */
  async start(config: Config, shapes: boolean, snapshots: readonly SubjectSnapshot[]): Promise<void> {
    this.#config = config;
    this.#snapshots = snapshots;
    this.#shapes = shapes;
    this.#generation = 1;
    const url = this.#thread;
    for (let i = 0; i < this.#size; i++) this.#slots.push(this.#spawn(url));
    const tick = Math.min(Math.max(this.#limit() / 4, 10), 500);
    this.#watchdog = setInterval(() => this.#watch(), tick).unref();
    const replies = await Promise.all(this.#slots.map((slot) => this.#sendCatalog(slot)));
    const failed = replies.find((r) => r.kind === "catalog-failed");
    if (failed && failed.kind === "catalog-failed") {
      await this.stop();
      throw new SchemawatchError(
        "CONFIG_INVALID",
        `a validation worker could not load the catalog: ${failed.problem}`,
      );
    }
  }

  /** Gives every worker the reloaded catalog; jobs sent after this are validated with it. */
  async reload(config: Config, snapshots: readonly SubjectSnapshot[]): Promise<void> {
    this.#config = config;
    this.#snapshots = snapshots;
    this.#generation++;
    const replies = await Promise.all(this.#slots.map((slot) => this.#sendCatalog(slot)));
    for (const reply of replies)
      if (reply.kind === "catalog-failed")
        this.#log.error({ problem: reply.problem }, "a validation worker could not reload the catalog");
  }

  /** Validates a job on the next worker; rejects when that worker dies first. */
  validate(job: SampleJob): Promise<ResultMessage> {
    if (this.#stopped || this.#slots.length === 0)
      return Promise.reject(new Error("the validation workers are stopped"));
    let slot = this.#slots[this.#next]!;
    for (let tries = 0; slot.down && tries < this.#slots.length; tries++) {
      this.#next = (this.#next + 1) % this.#slots.length;
      slot = this.#slots[this.#next]!;
    }
    // A job posted to an exited worker would never be answered, and its batch's commit would wait.
    if (slot.down) return Promise.reject(new Error("every validation worker is being replaced"));
    this.#next = (this.#next + 1) % this.#slots.length;
    const id = ++this.#jobIds;
    const message = job.message(id);
    return new Promise<ResultMessage>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.worker.postMessage(message, [
        message.bytes.buffer as ArrayBuffer,
        message.ends.buffer as ArrayBuffer,
        message.subjects.buffer as ArrayBuffer,
        message.writers.buffer as ArrayBuffer,
      ]);
    });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#watchdog);
    const slots = this.#slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
    for (const slot of slots) this.#fail(slot, new Error("the validation workers stopped"));
  }

  #limit(): number {
    return this.#stuckAfterMs ?? stuckAfterMs(this.#config?.validationTimeout ?? 0);
  }

  /** Abandons a worker whose job has started no item for longer than `stuckAfterMs`. */
  #watch(): void {
    const now = Date.now();
    const limit = this.#limit();
    for (const slot of this.#slots) {
      const items = Atomics.load(slot.progress, PROGRESS_ITEMS);
      const busy = Atomics.load(slot.progress, PROGRESS_BUSY) === 1;
      if (!busy || slot.pending.size === 0 || items !== slot.seenItems || slot.abandoned) {
        slot.seenItems = items;
        slot.since = now;
      } else if (now - slot.since > limit) {
        slot.abandoned = true;
        this.#repeats.log(
          "warn",
          "worker-stuck",
          { stuckMs: now - slot.since, jobs: slot.pending.size },
          "a validation worker made no progress past its time budget: its batches count as timeout, and it is replaced",
        );
        void slot.worker.terminate();
      }
    }
  }

  #spawn(url: URL): Slot {
    const progress = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    const slot: Slot = {
      worker: new Worker(url, { workerData: { progress } }),
      progress,
      seenItems: 0,
      since: Date.now(),
      abandoned: false,
      down: false,
      pending: new Map(),
      generation: 0,
      catalogWaiters: [],
    };
    this.#attach(slot, url);
    return slot;
  }

  #attach(slot: Slot, url: URL): void {
    const worker = slot.worker;
    worker.on("message", (message: ResultMessage | WorkerReply) => {
      if (message.kind === "result") {
        const pending = slot.pending.get(message.id);
        slot.pending.delete(message.id);
        pending?.resolve(message);
        return;
      }
      if (message.kind === "catalog") slot.generation = message.generation;
      slot.catalogWaiters.shift()?.(message);
    });
    worker.on("error", (error) => {
      this.#repeats.log(
        "error",
        "worker-error",
        { error: error.name, problem: error.message.slice(0, 200) },
        "a validation worker failed: its pending batches are validated on the consumer's thread, and it is replaced",
      );
    });
    worker.on("exit", () => {
      if (worker !== slot.worker) return;
      const abandoned = slot.abandoned;
      this.#fail(
        slot,
        abandoned ? new ValidationTimeoutError(this.#limit()) : new Error("a validation worker exited"),
      );
      if (this.#stopped) return;
      const respawn = (): void => {
        if (this.#stopped) return;
        Atomics.store(slot.progress, PROGRESS_ITEMS, 0);
        Atomics.store(slot.progress, PROGRESS_BUSY, 0);
        slot.seenItems = 0;
        slot.abandoned = false;
        slot.down = false;
        slot.worker = new Worker(url, { workerData: { progress: slot.progress } });
        this.#attach(slot, url);
        void this.#sendCatalog(slot);
      };
      // A stuck worker is replaced at once (its catalog message goes first, so jobs may follow it);
      // a crashed one after a pause, and no job is sent to it meanwhile.
      if (abandoned) return respawn();
      slot.down = true;
      setTimeout(respawn, RESPAWN_MS).unref();
    });
  }

  #fail(slot: Slot, error: Error): void {
    for (const pending of slot.pending.values()) pending.reject(error);
    slot.pending.clear();
    for (const waiter of slot.catalogWaiters.splice(0))
      waiter({ kind: "catalog-failed", generation: this.#generation, problem: error.message });
  }

  #sendCatalog(slot: Slot): Promise<WorkerReply> {
    const message: CatalogMessage = {
      kind: "catalog",
      generation: this.#generation,
      config: this.#config!,
      snapshots: this.#snapshots,
      shapes: this.#shapes,
    };
    return new Promise((resolve) => {
      slot.catalogWaiters.push(resolve);
      slot.worker.postMessage(message);
    });
  }
}
