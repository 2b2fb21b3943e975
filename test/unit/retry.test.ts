import { describe, expect, it } from "vitest";
import { backoffDelay, retry, type RetryNotice, type RetryOptions } from "../../src/retry.js";

describe("backoffDelay", () => {
  it("doubles from the first wait up to the cap", () => {
    const backoff = { first: 250, max: 2_000 };
    expect([1, 2, 3, 4, 5, 30].map((n) => backoffDelay(backoff, n))).toEqual([
      250, 500, 1_000, 2_000, 2_000, 2_000,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay({ first: 300, max: 5_000 }, n))).toEqual([
      300, 600, 1_200, 2_400, 4_800,
    ]);
  });

  it("spreads each wait by the jitter's share either way, rounded to a millisecond", () => {
    const backoff = { first: 300, max: 30_000, jitter: 0.2 };
    expect(backoffDelay(backoff, 1, () => 0)).toBe(240);
    expect(backoffDelay(backoff, 1, () => 0.5)).toBe(300);
    expect(backoffDelay(backoff, 1, () => 0.999)).toBe(360);
    expect(backoffDelay(backoff, 3, () => 0.25)).toBe(1_080);
    // The cap applies before the spread, as the source's reconnects always did.
    expect(backoffDelay(backoff, 20, () => 0)).toBe(24_000);
  });

  it("leaves a wait without jitter as it is, fractions included", () => {
    expect(backoffDelay({ first: 0.5, max: 10 }, 2)).toBe(1);
    expect(backoffDelay({ first: 1.5, max: 10 }, 1, () => 0)).toBe(1.5);
  });
});

/** A clock that the sleeps move forward, so that nothing waits for real. */
function fake(overrides: Partial<RetryOptions> = {}) {
  let now = 1_000;
  const slept: number[] = [];
  const notices: RetryNotice[] = [];
  const options: RetryOptions = {
    backoff: { first: 250, max: 2_000 },
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    onRetry: (notice) => void notices.push(notice),
    ...overrides,
  };
  return { options, slept, notices };
}

/** An attempt that fails with `errors`, one per call, then answers `value`; it records the numbers it is given. */
function failing<T>(errors: unknown[], value: T) {
  const calls: number[] = [];
  return {
    calls,
    attempt: (n: number) => {
      calls.push(n);
      const error = errors.shift();
      return error === undefined ? Promise.resolve(value) : Promise.reject(error);
    },
  };
}

describe("retry", () => {
  it("answers the first success without waiting", async () => {
    const { options, slept, notices } = fake();
    const run = failing([], "ok");
    await expect(retry(run.attempt, options)).resolves.toBe("ok");
    expect([run.calls, slept, notices]).toEqual([[1], [], []]);
  });

  it("tries again after each failure, with the backoff's waits, telling onRetry before each wait", async () => {
    const { options, slept, notices } = fake();
    const [a, b, c] = [new Error("a"), new Error("b"), new Error("c")];
    const run = failing([a, b, c], 42);
    await expect(retry(run.attempt, options)).resolves.toBe(42);
    expect(run.calls).toEqual([1, 2, 3, 4]);
    expect(slept).toEqual([250, 500, 1_000]);
    expect(notices).toEqual([
      { attempt: 1, error: a, delay: 250 },
      { attempt: 2, error: b, delay: 500 },
      { attempt: 3, error: c, delay: 1_000 },
    ]);
  });

  it("throws the last failure, as it was, once the attempts are spent", async () => {
    const { options, slept, notices } = fake({ attempts: 3 });
    const last = new Error("third");
    const run = failing([new Error("first"), new Error("second"), last, new Error("never")], 1);
    await expect(retry(run.attempt, options)).rejects.toBe(last);
    expect([run.calls, slept, notices.length]).toEqual([[1, 2, 3], [250, 500], 2]);
  });

  it("makes one attempt and no wait with attempts: 1", async () => {
    const { options, slept } = fake({ attempts: 1 });
    const only = new Error("only");
    const run = failing([only], 1);
    await expect(retry(run.attempt, options)).rejects.toBe(only);
    expect([run.calls, slept]).toEqual([[1], []]);
  });

  it("throws at once a failure that is not retryable", async () => {
    const refused = new Error("refused");
    const { options, slept, notices } = fake({ retryable: (e) => e !== refused });
    const run = failing([new Error("flaky"), refused, new Error("never")], 1);
    await expect(retry(run.attempt, options)).rejects.toBe(refused);
    expect([run.calls, slept, notices.length]).toEqual([[1, 2], [250], 1]);
  });

  it("starts no attempt at or after the deadline", async () => {
    // Failures at 1 000 (next at 1 250), 1 250 (next at 1 750), 1 750 (next at 2 750 ≥ 2 750: give up).
    const { options, slept } = fake({ deadline: 2_750 });
    const last = new Error("c");
    const run = failing([new Error("a"), new Error("b"), last, new Error("never")], 1);
    await expect(retry(run.attempt, options)).rejects.toBe(last);
    expect([run.calls, slept]).toEqual([
      [1, 2, 3],
      [250, 500],
    ]);
  });

  it("waits what delay() says instead of the backoff, given the backoff", async () => {
    const told: number[] = [];
    const slow = new Error("slow down");
    const { options, slept, notices } = fake({
      delay: (error, backoff) => {
        told.push(backoff);
        return error === slow ? 3_000 : backoff;
      },
    });
    const run = failing([slow, new Error("other")], 1);
    await expect(retry(run.attempt, options)).resolves.toBe(1);
    expect([told, slept, notices.map((n) => n.delay)]).toEqual([
      [250, 500],
      [3_000, 500],
      [3_000, 500],
    ]);
  });

  it("tries nothing more once the signal is aborted", async () => {
    const abort = new AbortController();
    const first = new Error("first");
    const { options, slept } = fake({ signal: abort.signal });
    const run = failing([first, new Error("never")], 1);
    abort.abort();
    await expect(retry(run.attempt, options)).rejects.toBe(first);
    expect([run.calls, slept]).toEqual([[1], []]);
  });

  it("ends a wait under way when the signal aborts, and throws the failure it was waiting after", async () => {
    const abort = new AbortController();
    const failure = new Error("down");
    const run = failing([failure, new Error("never")], 1);
    const started = performance.now();
    const result = retry(run.attempt, {
      backoff: { first: 60_000, max: 60_000 },
      signal: abort.signal,
      onRetry: () => abort.abort(),
    });
    await expect(result).rejects.toBe(failure);
    expect(run.calls).toEqual([1]);
    // The minute's wait was not waited out (a generous bound for a loaded machine).
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});
