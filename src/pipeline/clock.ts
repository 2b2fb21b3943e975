/**
 * When a source observes its records, in milliseconds. Live: a coarse clock that its owner (the
 * monitor's lifecycle tick) advances every 250 ms, so the pipeline never reads the clock per record.
 * A replayed capture: the capture's own clock (`source/capture-clock.ts`), advanced before each record
 * by the rule that decides which record timestamps are believed. Undefined until first advanced.
 */
export class ObservationClock {
  #now: number | undefined;

  get now(): number | undefined {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now = ms;
  }
}

/** Record timestamps before this are not believed: Kafka's -1 for "none", a producer clock at 1970. */
export const EARLIEST_CREDIBLE_MS = Date.UTC(2000, 0, 1);

/**
 * How far a record timestamp may run ahead of a clock before it is doubted: ahead of the time a capture
 * is replayed (a capture holds no record from the future), or ahead of the capture's own clock without
 * the next record to confirm it.
 */
export const MAX_CLOCK_AHEAD_MS = 5 * 60_000;
