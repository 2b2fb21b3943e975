import { setTimeout as wait } from "node:timers/promises";

/**
 * One way to try again, for the registry's requests, the state topic's opening and the Kafka
 * source's reconnects: a doubling wait with a cap, a bound on attempts or a deadline, and a stop.
 */

/** A wait of `first` ms after the first failure, doubled after each further one, at most `max`. */
export interface Backoff {
  readonly first: number;
  readonly max: number;
  /** Spreads each wait by ± this share (0.2: 80% to 120%), so that clients failing together do not retry together. */
  readonly jitter?: number;
}

/** The wait after failure number `failures` (1 for the first). */
export function backoffDelay(backoff: Backoff, failures: number, random: () => number = Math.random): number {
  const base = Math.min(backoff.max, backoff.first * 2 ** (failures - 1));
  const jitter = backoff.jitter ?? 0;
  return jitter === 0 ? base : Math.round(base * (1 - jitter + random() * 2 * jitter));
}

/** A failure that will be tried again, as onRetry hears of it. */
export interface RetryNotice {
  /** The attempt that failed, 1 for the first. */
  readonly attempt: number;
  readonly error: unknown;
  /** How long before the next attempt, ms. */
  readonly delay: number;
}

export interface RetryOptions {
  readonly backoff: Backoff;
  /** Attempts in all, the first included; no bound when absent. */
  readonly attempts?: number;
  /** Epoch ms: no attempt starts at or after it. */
  readonly deadline?: number;
  /** Whether a failure is worth another attempt; every failure is when absent. */
  readonly retryable?: (error: unknown) => boolean;
  /** The wait before the next attempt when the failure says better than the backoff (a Retry-After). */
  readonly delay?: (error: unknown, backoff: number) => number;
  /** Once aborted, no further attempt starts and a wait under way ends: the last failure is thrown. */
  readonly signal?: AbortSignal;
  /** Told of each failure that will be tried again, before the wait (for a log line). */
  readonly onRetry?: (notice: RetryNotice) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
}

/**
 * Runs `attempt` (given its number, 1 for the first) until it resolves, and resolves with it. After a
 * failure it waits and tries again unless the failure is not retryable, the attempts are spent, the
 * next attempt would start at or after the deadline, or the signal is aborted; then it throws that
 * failure as it was, for the caller to say what was being tried.
 */
export async function retry<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? sleepUnlessAborted;
  const attempts = options.attempts ?? Infinity;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (n >= attempts || options.signal?.aborted || options.retryable?.(error) === false) throw error;
      const backoff = backoffDelay(options.backoff, n, options.random);
      const delay = options.delay ? options.delay(error, backoff) : backoff;
      if (options.deadline !== undefined && now() + delay >= options.deadline) throw error;
      options.onRetry?.({ attempt: n, error, delay });
      await sleep(delay, options.signal);
      if (options.signal?.aborted) throw error;
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (the caller then sees it aborted). */
async function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  await wait(ms, undefined, signal ? { signal } : undefined).catch(() => undefined);
}
