export interface LookupLimiterOptions {
  /** Lookups in flight at once. */
  readonly inFlight: number;
  /** Lookups started per second, on average; as many may start at once after a quiet second. */
  readonly perSecond: number;
  readonly now?: () => number;
}

/**
 * Bounds the lookups one registry gets from the records: at most `inFlight` at once and `perSecond`
 * started (a token bucket holding one second's worth). A lookup it refuses is not queued: a queue in
 * the monitor is where a flood of ids used to wait out the request timeout and call the registry down.
 */
export class LookupLimiter {
  readonly #inFlight: number;
  readonly #perSecond: number;
  readonly #now: () => number;
  #running = 0;
  /** Tokens in thousandths, so that refills by whole milliseconds add up exactly. */
  #milli: number;
  #refilledAt: number;

  constructor(options: LookupLimiterOptions) {
    this.#inFlight = Math.max(1, options.inFlight);
    this.#perSecond = Math.max(0, options.perSecond);
    this.#now = options.now ?? Date.now;
    this.#milli = this.#capacity;
    this.#refilledAt = this.#now();
  }

  /** Lookups started and not yet released. */
  get running(): number {
    return this.#running;
  }

  /** Whether `tryAcquire` would take a slot now; takes nothing. */
  available(): boolean {
    if (this.#running >= this.#inFlight) return false;
    this.#refill();
    return this.#milli >= 1000;
  }

  /** Takes a slot for one lookup; false (and nothing taken) when the bound or the rate is reached. */
  tryAcquire(): boolean {
    if (!this.available()) return false;
    this.#milli -= 1000;
    this.#running++;
    return true;
  }

  /** A lookup taken with `tryAcquire` ended. */
  release(): void {
    if (this.#running > 0) this.#running--;
  }

  #refill(): void {
    const now = this.#now();
    const elapsed = now - this.#refilledAt;
    // A clock that went back refills nothing, rather than draining the bucket.
    if (elapsed <= 0) {
      if (elapsed < 0) this.#refilledAt = now;
      return;
    }
    this.#milli = Math.min(this.#capacity, this.#milli + elapsed * this.#perSecond);
    this.#refilledAt = now;
  }

  /** One second's worth, and at least one lookup. */
  get #capacity(): number {
    return Math.max(1, this.#perSecond) * 1000;
  }
}
