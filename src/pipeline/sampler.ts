import type { SamplingConfig } from "../config/types.js";

/**
 * Decides which records are parsed and validated. The ratio is applied by accumulating credit rather
 * than by chance, so a ratio of 0.5 validates exactly every second record and tests can assert exact
 * counts. A token bucket caps validations per second; the effective ratio over the last window is
 * exported so that validation counts can be scaled to traffic. Its clock is the time records are
 * observed: a replayed capture's own (so a fast replay validates what the live monitor would have, the
 * same on every machine and in every run), the wall clock live.
 */
export class Sampler {
  readonly #ratio: number;
  readonly #rate: number;
  readonly #now: () => number;
  #credit = 0;
  #tokens: number;
  /** Set at the first record: a capture's clock has no time before it. */
  #refilledAt: number | undefined;
  #windowStart: number;
  #windowSeen = 0;
  #windowSampled = 0;
  #lastRatio: number;

  constructor(config: SamplingConfig, now: () => number = Date.now) {
    this.#ratio = config.ratio;
    this.#rate = config.maxPerSecond;
    this.#now = now;
    this.#tokens = config.maxPerSecond;
    this.#windowStart = now();
    this.#lastRatio = config.ratio;
  }

  sample(): boolean {
    this.#refilledAt ??= this.#now();
    this.#windowSeen++;
    this.#credit += this.#ratio;
    if (this.#credit < 1) return false;
    this.#credit -= 1;
    if (this.#tokens < 1) {
      const now = this.#now();
      // A clock that went back (a capture's starts where its records do) refills nothing.
      const elapsed = Math.max(0, now - (this.#refilledAt ?? now));
      this.#tokens = Math.min(this.#rate, this.#tokens + (elapsed / 1000) * this.#rate);
      this.#refilledAt = now;
      if (this.#tokens < 1) return false;
    }
    this.#tokens -= 1;
    this.#windowSampled++;
    return true;
  }

  /** Sampled / seen over the last 10 s window (the configured ratio before any traffic). */
  effectiveRatio(): number {
    const now = this.#now();
    if (now - this.#windowStart >= 10_000) {
      if (this.#windowSeen > 0) this.#lastRatio = this.#windowSampled / this.#windowSeen;
      this.#windowStart = now;
      this.#windowSeen = 0;
      this.#windowSampled = 0;
    } else if (this.#windowSeen > 0 && this.#lastRatio === this.#ratio) {
      return this.#windowSampled / this.#windowSeen;
    }
    return this.#lastRatio;
  }
}
