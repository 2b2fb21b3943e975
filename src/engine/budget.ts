import { performance } from "node:perf_hooks";
import { Script, createContext, type Context } from "node:vm";

/** What a validation may cost at most: the default of `validationTimeout`, in milliseconds. */
export const DEFAULT_VALIDATION_TIMEOUT_MS = 100;

/** A share of the budget after which a run of items yields, so that a timeout can only hit one item. */
const SLICE = 10;

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
  readonly #slice: number;
  readonly #script = new Script("step()", { filename: "schemawatch-validation-budget" });
  readonly #context: Context;
  #step: () => void = () => undefined;

  constructor(ms: number) {
    this.ms = Math.max(1, Math.round(ms));
    this.#slice = this.ms / SLICE;
    this.#context = createContext({ step: () => this.#step() });
  }

  /**
   * Runs `work(i)` for each i below `count`, in order; `timedOut(i)` hears of each item stopped by the
   * budget (its work may be half done), and the items after it go on.
   */
  run(count: number, work: (item: number) => void, timedOut: (item: number) => void): void {
    let next = 0;
    let current = 0;
    const slice = this.#slice;
    this.#step = () => {
      const start = performance.now();
      while (next < count) {
        current = next;
        work(current);
        next = current + 1;
        if (performance.now() - start >= slice) return;
      }
    };
    try {
      while (next < count) {
        try {
          this.#script.runInContext(this.#context, { timeout: this.ms });
        } catch (error) {
          if (!isTimeout(error)) throw error;
          next = current + 1;
          timedOut(current);
        }
      }
    } finally {
      this.#step = () => undefined;
    }
  }
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
}
