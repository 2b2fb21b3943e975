// Waiting in tests: always for a condition, never for a fixed time. The machine that runs the suite
// may be loaded (other builds, two cores shared by many processes), so the deadlines are generous:
// they bound a test that hangs, they do not measure speed (bench/ does that).
import { setTimeout as sleep } from "node:timers/promises";

/** The default deadline of a wait: long enough for a loaded machine, short of the test timeouts. */
export const WAIT_MS = 60_000;

/** Polls check() every intervalMs until it returns true; throws, naming `what`, after timeoutMs. */
export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = WAIT_MS,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

/**
 * Polls probe() until it returns something other than undefined and returns that; a probe that
 * throws is asked again (a service still starting), and the last error is the timeout's cause.
 */
export async function waitForValue<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = WAIT_MS,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}`, { cause: lastError });
    }
    await sleep(intervalMs);
  }
}
