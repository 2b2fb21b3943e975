/**
 * When a live source observes its records, in milliseconds: a coarse clock that its owner (the
 * monitor's lifecycle tick) advances every 250 ms, so the pipeline never reads the clock per record.
 * Undefined until the first tick.
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
