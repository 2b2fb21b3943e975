import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { Script, createContext, type Context } from "node:vm";

/** What a validation may cost at most: the default of `validationTimeout`, in milliseconds. */
export const DEFAULT_VALIDATION_TIMEOUT_MS = 100;

/** A share of the budget after which a run of items yields, so that a timeout can only hit one item. */
const SLICE = 10;

/**
 * The most a list may lose to stopped items: past it, the items left are reported as timed out
 * without being run. Records crafted by the hundred would otherwise hold one batch for minutes, past
 * the consumer group's session timeout (30 s by default), and the rejoin would read them again.
 */
export const MAX_STOPPED_MS = 5_000;

/**
 * A time budget for each of a list of validations, enforced from outside the JavaScript that runs them:
 * the items run inside `node:vm` with a timeout, whose watchdog thread terminates the code on this
 * isolate (a backtracking RegExp included) when the budget is spent. A vm run costs a thread's start
 * (tens to hundreds of microseconds), so one run covers many items: it yields after a tenth of the
 * budget, and the next item starts a new run. An item is therefore reported as timed out only when it
 * alone ran for at least nine tenths of the budget.
 */
export class ValidationBudget {
  readonly ms: number;
  readonly #maxStoppedMs: number;
  readonly #slice: number;
  readonly #script = new Script("step()", { filename: "schemawatch-validation-budget" });
  readonly #context: Context;
  #step: () => void = () => undefined;

  constructor(ms: number, maxStoppedMs = MAX_STOPPED_MS) {
    this.ms = Math.max(1, Math.round(ms));
    this.#maxStoppedMs = maxStoppedMs;
    this.#slice = this.ms / SLICE;
    this.#context = createContext({ step: () => this.#step() });
  }

  /**
   * Runs `work(i)` for each i below `count`, in order; `timedOut(i)` hears of each item stopped by the
   * budget (its work may be half done) or left unrun past `maxStoppedMs`, and the items after it go on.
   */
  run(count: number, work: (item: number) => void, timedOut: (item: number) => void): void {
    const runs = this.#runs(count, work, timedOut);
    while (!runs.next().done);
  }

  /** `run`, letting the event loop turn between vm runs (HTTP answers, heartbeats, other batches). */
  async runYielding(
    count: number,
    work: (item: number) => void,
    timedOut: (item: number) => void,
  ): Promise<void> {
    const runs = this.#runs(count, work, timedOut);
    while (!runs.next().done) await yieldToEventLoop();
  }

  *#runs(count: number, work: (item: number) => void, timedOut: (item: number) => void): Generator<void> {
    let next = 0;
    let current = 0;
    let stopped = 0;
    const slice = this.#slice;
    const step = (): void => {
      const start = performance.now();
      while (next < count) {
        current = next;
        work(current);
        next = current + 1;
        if (performance.now() - start >= slice) return;
      }
    };
    let retries = 0;
    while (next < count) {
      // Set before every run: another list may have run on this budget in between.
      this.#step = step;
      const cpu = process.threadCpuUsage();
      const wall = performance.now();
      try {
        this.#script.runInContext(this.#context, { timeout: this.ms });
        retries = 0;
      } catch (error) {
        if (!isTimeout(error)) throw error;
        // The watchdog counts wall time: a thread that hardly ran (a loaded machine, a throttled
        // container) did not spend the budget itself, so its item is tried again, twice at most.
        if (starved(cpu, wall) && retries < MAX_RETRIES) {
          retries++;
          next = current;
          continue;
        }
        retries = 0;
        next = current + 1;
        timedOut(current);
        stopped += this.ms;
        if (stopped >= this.#maxStoppedMs) while (next < count) timedOut(next++);
      } finally {
        this.#step = () => undefined;
      }
      yield;
    }
  }
}

const MAX_RETRIES = 2;

/** Whether this thread had the CPU for less than half of the wall time since `cpu` and `wall`. */
function starved(cpu: NodeJS.CpuUsage, wall: number): boolean {
  const used = process.threadCpuUsage(cpu);
  return (used.user + used.system) / 1000 < (performance.now() - wall) / 2;
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}
