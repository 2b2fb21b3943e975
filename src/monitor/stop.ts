import type { Logger } from "pino";
import { formatDuration } from "../config/duration.js";
import { SchemawatchError } from "../errors.js";

/**
 * Kept out of the deadline for the process itself to end: the entry point exits at most half a
 * second after the command returns, even when kafkajs still holds a socket to a silent broker.
 */
const EXIT_RESERVE_MS = 1_000;

/** The share of a stop kept for the last state save, at most `SAVE_RESERVE_MAX_MS`. */
const SAVE_RESERVE_SHARE = 0.25;
const SAVE_RESERVE_MAX_MS = 5_000;
const SOURCE_SLACK_MS = 100;

/**
 * The time a stop may take, counted from when it was asked for. Every step of the stop races it,
 * so a broker, registry or state topic that accepts connections and never answers holds the stop
 * up to the deadline and no longer; a second signal cuts it short at once.
 */
export class StopDeadline {
  readonly #endsAt: number;
  readonly #cut: Promise<void>;
  #cutNow: () => void = () => {};
  #why: string;

  /** `deadlineMs` is `shutdown.deadline`, from now. */
  constructor(deadlineMs: number) {
    this.#endsAt = Date.now() + Math.max(deadlineMs / 2, deadlineMs - EXIT_RESERVE_MS);
    this.#why = `the deadline (${formatDuration(deadlineMs / 1000)}) passed`;
    this.#cut = new Promise((resolve) => (this.#cutNow = resolve));
  }

  /** Why a step did not finish: the deadline passed, or the stop was cut short. */
  get why(): string {
    return this.#why;
  }

  /** Milliseconds left before the deadline less `reserveMs`; never negative. */
  remaining(reserveMs = 0): number {
    return Math.max(0, this.#endsAt - reserveMs - Date.now());
  }

  /** What to keep for the last state save after the steps before it (leaving the Kafka group). */
  get saveReserveMs(): number {
    return Math.min(SAVE_RESERVE_MAX_MS, this.remaining() * SAVE_RESERVE_SHARE);
  }

  /** Ends every step now (a second signal). */
  cutShort(why: string): void {
    this.#why = why;
    this.#cutNow();
  }

  /** Whether `work` finished before the deadline less `reserveMs`. Past that it is not waited for. */
  async within(work: Promise<unknown>, reserveMs = 0): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), this.remaining(reserveMs));
    });
    try {
      return await Promise.race([
        work.then(
          () => true,
          () => true,
        ),
        timeout,
        this.#cut.then(() => false),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}

export interface StopSignals {
  /** Aborted by the first SIGINT or SIGTERM. */
  readonly stop?: AbortSignal;
  /** Aborted by a second one: stop at once. */
  readonly now?: AbortSignal;
}

/**
 * A monitor's one stop, from the signal on: logs "stopping" the moment it is asked for (even while
 * start-up still waits on a silent broker), starts the deadline then, and lets start-up give up
 * steps that wait on the network.
 */
export class StopRequest {
  readonly #deadlineMs: number;
  readonly #log: Logger;
  #deadline: StopDeadline | undefined;
  #announce: () => void = () => {};
  /** Resolves when the stop is asked for. */
  readonly asked: Promise<void>;

  constructor(deadlineMs: number, logger: Logger, signals: StopSignals = {}) {
    this.#deadlineMs = deadlineMs;
    this.#log = logger;
    this.asked = new Promise((resolve) => (this.#announce = resolve));
    onAbort(signals.stop, () => this.deadline());
    onAbort(signals.now, () => {
      this.#log.warn("a second signal: stopping at once");
      this.deadline().cutShort("a second signal came");
    });
  }

  /** The deadline of the stop, started (and "stopping" logged) by the first call. */
  deadline(): StopDeadline {
    if (!this.#deadline) {
      this.#deadline = new StopDeadline(this.#deadlineMs);
      this.#log.info({ deadline: formatDuration(this.#deadlineMs / 1000) }, "stopping");
      this.#announce();
    }
    return this.#deadline;
  }

  /**
   * A start-up step that waits on the network, given up when the stop is asked for: then `undo`
   * releases what came before it (within the deadline), the log says the state was left as it was,
   * and a STOPPED error ends start-up. What the step opens later is closed by `late`.
   */
  async step<T>(
    work: Promise<T>,
    doing: string,
    undo: () => Promise<unknown>,
    late: (value: T) => unknown = () => undefined,
  ): Promise<T> {
    const stopped = Symbol("stopped");
    const result = await Promise.race([work, this.asked.then(() => stopped)]);
    if (result !== stopped) return result as T;
    void work.then(late).catch(() => undefined);
    await this.deadline().within(undo());
    this.#log.warn(
      { while: doing },
      `state not saved: the stop came while ${doing}, before the state was read; the saved state is left as it was`,
    );
    return Promise.reject(new SchemawatchError("STOPPED", `stopped while ${doing}`));
  }
}

function onAbort(signal: AbortSignal | undefined, act: () => void): void {
  if (!signal) return;
  if (signal.aborted) act();
  else signal.addEventListener("abort", act, { once: true });
}

/** What a monitor's stop has to do, in the order it does it. */
export interface StopSteps {
  readonly logger: Logger;
  /** Ends the source: a replay stops reading; Kafka finishes the batch and leaves the group within `ms`. */
  stopSource(ms: number): Promise<void>;
  /** Stops judging and saves the state a last time: the problem when it could not, else undefined. */
  saveState(): Promise<string | undefined>;
  /** Where the state goes, for the log; undefined when this monitor keeps none (a replay). */
  readonly stateAt: string | undefined;
  /** Started first, waited for last: the registries' polls, which hold nothing the state needs. */
  stopRegistries(): Promise<unknown>;
  /** The rest, once the state is saved: the state topic's clients, HTTP, the validation workers. */
  close(): Promise<unknown>;
}

/** How a stop ended. */
export interface StopOutcome {
  /** `saved`, `not saved`, or `none` (nothing to save). */
  readonly state: "saved" | "not saved" | "none";
  /** Whether every step finished before the deadline. */
  readonly inTime: boolean;
}

/**
 * Stops a monitor within its deadline: the source first (its last batch's offsets are committed,
 * so the saved coverage matches them), then the state, then the rest. A step that does not finish
 * in its time is left behind, and the log says what was given up and why.
 */
export async function runStop(steps: StopSteps, deadline: StopDeadline): Promise<StopOutcome> {
  const { logger } = steps;
  const startedAt = Date.now();
  const registries = steps.stopRegistries();
  const saveReserve = steps.stateAt === undefined ? 0 : deadline.saveReserveMs;
  // The source is given a little less than its share, so that it says itself what it gave up.
  const sourceMs = Math.max(0, Math.floor(deadline.remaining(saveReserve)) - SOURCE_SLACK_MS);
  let inTime = await deadline.within(steps.stopSource(sourceMs), saveReserve);
  if (!inTime) logger.warn(`Kafka did not close: ${deadline.why} while leaving the consumer group`);
  let state: StopOutcome["state"] = "none";
  const saving = steps.saveState();
  const saved = await deadline.within(saving);
  if (steps.stateAt === undefined) {
    // A replay keeps no state: nothing to report.
  } else if (!saved) {
    inTime = false;
    state = "not saved";
    logger.warn(
      { to: steps.stateAt },
      `state not saved: ${deadline.why} while saving it to ${steps.stateAt}`,
    );
  } else {
    const problem = await saving;
    state = problem === undefined ? "saved" : "not saved";
    if (problem !== undefined) logger.warn({ to: steps.stateAt, problem }, `state not saved: ${problem}`);
  }
  if (!(await deadline.within(Promise.all([steps.close(), registries])))) {
    inTime = false;
    logger.warn(`${deadline.why} while closing the HTTP server, the registries and the state topic`);
  }
  logger.info({ state, elapsedMs: Date.now() - startedAt }, "stopped");
  return { state, inTime };
}
