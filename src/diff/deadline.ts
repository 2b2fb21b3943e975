import { performance } from "node:perf_hooks";

/** Thrown where the comparison checks its time budget and finds it spent; caught by `diffSchemas`. */
export class OutOfTime extends Error {
  constructor(readonly seconds: number) {
    super(`the time budget of ${seconds} s ran out`);
  }
}

/**
 * The time budget of one comparison. The recursive comparison (compare.ts), the witness generator
 * and the witness check (witness/) call `check()` at every step, each of which is short, so a pair
 * stops within milliseconds of its deadline however large its schemas are.
 */
export class Deadline {
  readonly #at: number;
  readonly #now: () => number;

  constructor(
    readonly seconds: number,
    now: () => number = () => performance.now(),
  ) {
    this.#now = now;
    this.#at = now() + seconds * 1000;
  }

  /** Throws OutOfTime once the budget is spent. */
  check(): void {
    if (this.#now() >= this.#at) throw new OutOfTime(this.seconds);
  }
}

/** A deadline that never passes: a comparison without a budget. */
export const NO_DEADLINE: Pick<Deadline, "check"> = { check: () => undefined };
