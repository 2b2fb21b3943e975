import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";

/**
 * Paths pino blanks out wherever they appear in a log object: secrets, and anything that could carry
 * a payload. Payloads are never passed to the logger in the first place; this is the second line.
 */
export const REDACT_PATHS = [
  "password",
  "*.password",
  "*.*.password",
  "sasl",
  "*.sasl",
  "*.*.sasl",
  "ssl.key",
  "*.ssl.key",
  "value",
  "*.value",
  "payload",
  "*.payload",
];

/** The process logger: JSON lines on stderr (stdout carries reports), one child per component. */
export function createLogger(level: LevelWithSilent, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "schemawatch" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

type Level = "error" | "warn" | "info" | "debug";

interface Repeat {
  suppressed: number;
  lastLoggedAt: number;
}

const MAX_REPEAT_KEYS = 500;

/**
 * Logs the first of a run of like events at once, then at most one line per interval saying how many
 * more there were: a broker that stays down, or a batch that keeps failing, gives a few lines an hour
 * rather than hundreds a minute. Events are alike when they share a key.
 */
export class RepeatLog {
  readonly #logger: Logger;
  readonly #intervalMs: number;
  readonly #now: () => number;
  readonly #repeats = new Map<string, Repeat>();

  constructor(logger: Logger, intervalMs = 60_000, now: () => number = Date.now) {
    this.#logger = logger;
    this.#intervalMs = intervalMs;
    this.#now = now;
  }

  /** Logs now, or counts it for the next summary of the same key. Returns whether it logged. */
  log(level: Level, key: string, fields: Record<string, unknown>, message: string): boolean {
    const now = this.#now();
    const repeat = this.#repeats.get(key);
    if (repeat === undefined) {
      if (this.#repeats.size >= MAX_REPEAT_KEYS) this.#repeats.delete(this.#repeats.keys().next().value!);
      this.#repeats.set(key, { suppressed: 0, lastLoggedAt: now });
      this.#logger[level](fields, message);
      return true;
    }
    if (now - repeat.lastLoggedAt < this.#intervalMs) {
      repeat.suppressed++;
      return false;
    }
    const suppressed = repeat.suppressed;
    const seconds = Math.round((now - repeat.lastLoggedAt) / 1000);
    repeat.suppressed = 0;
    repeat.lastLoggedAt = now;
    this.#logger[level](
      suppressed > 0 ? { ...fields, repeated: suppressed } : fields,
      suppressed > 0 ? `${message} (and ${suppressed} more like it in the last ${seconds} s)` : message,
    );
    return true;
  }

  /** Forgets a key: the next event of it is logged at once (the condition ended and may begin anew). */
  reset(key: string): number {
    const suppressed = this.#repeats.get(key)?.suppressed ?? 0;
    this.#repeats.delete(key);
    return suppressed;
  }
}
