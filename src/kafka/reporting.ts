import type { Logger } from "pino";
import { RepeatLog } from "../log.js";
import type { Health } from "../health/health.js";
import type { UndecodableBatch } from "./patches/index.js";
import { messageOf } from "../errors.js";
import { isMissingTopicError, type TopicPresence } from "./topics.js";

/**
 * What the Kafka source tells an operator, and how often: the health that /readyz and the status show,
 * and log lines said once with a summary a minute rather than once per retry or per batch. The source
 * decides what happened; this says it.
 */
export class KafkaReporter {
  readonly #health: Health;
  readonly #log: Logger;
  readonly #repeats: RepeatLog;
  readonly #brokers: readonly string[];
  readonly #reconnectMaxMs: number;
  /** Topics last found missing, reported once each until they appear. */
  #missing = new Set<string>();

  constructor(options: {
    readonly health: Health;
    readonly logger: Logger;
    readonly brokers: readonly string[];
    readonly logRepeatMs: number;
    readonly reconnectMaxMs: number;
  }) {
    this.#health = options.health;
    this.#log = options.logger;
    this.#repeats = new RepeatLog(options.logger, options.logRepeatMs);
    this.#brokers = options.brokers;
    this.#reconnectMaxMs = options.reconnectMaxMs;
  }

  /** An attempt failed at `step` (named in health.lastError: "subscribing to events: ..."). */
  down(error: unknown, step?: string): void {
    const message = step === undefined ? messageOf(error) : `${step}: ${messageOf(error)}`;
    if (isMissingTopicError(error)) {
      // A topic (or partition) went away, not the broker: the reconnect subscribes to what is left.
      this.#health.lastError = undefined;
      this.#health.problem("topic-changed", `a monitored topic or partition is gone: ${message}`);
      return;
    }
    // Every other failed attempt counts as unreachable, whatever failed, so that /readyz shows why.
    this.#health.brokerUp = false;
    this.#health.lastError = message;
  }

  /** A failed attempt is about to be retried after `delayMs`; `attempts` failed in a row so far. */
  unreachable(attempts: number, delayMs: number): void {
    const error = this.#health.lastError;
    if (error === undefined) return;
    this.#repeats.log(
      "warn",
      "unreachable",
      { brokers: this.#brokers, error, attempts, nextAttemptMs: delayMs },
      `Kafka unreachable (${error}); retrying with backoff, up to every ${Math.round(this.#reconnectMaxMs / 1000)} s`,
    );
  }

  /** The group was joined after `failedAttempts` failed attempts. */
  reachable(failedAttempts: number): void {
    if (failedAttempts === 0) return;
    const suppressed = this.#repeats.reset("unreachable");
    this.#log.info({ failedAttempts, suppressedLines: suppressed }, "Kafka reachable again: consuming");
  }

  /** A batch the decode guard could not decode: said once per partition and problem, then summarised. */
  undecodable(topic: string, partition: number, batch: UndecodableBatch): void {
    const where = `${topic}/${partition}`;
    const problem = this.#health.problem(
      `undecodable:${where}`,
      `${where}: a batch of ${batch.records} records at offsets ${batch.firstOffset}..${batch.lastOffset} could not be decoded (${batch.problem}); its records count as unknown and the partition's coverage restarts`,
    );
    this.#repeats.log(
      "error",
      `undecodable:${where}:${batch.codec}`,
      {
        topic,
        partition,
        firstOffset: batch.firstOffset,
        lastOffset: batch.lastOffset,
        records: batch.records,
        codec: batch.codec,
        problem: batch.problem,
        batches: problem.count,
      },
      "record batch could not be decoded: skipped, counted as undecodable_batch, coverage restarted",
    );
  }

  /** Which monitored topics exist now: the missing ones are named once, and again when they appear. */
  topics(presence: TopicPresence): void {
    for (const topic of presence.missing) {
      this.#health.problem(
        `topic-missing:${topic}`,
        `topic ${topic} does not exist (never created, or deleted); it is read once it exists`,
      );
      if (!this.#missing.has(topic))
        this.#log.error({ topic }, "a monitored topic does not exist: the other topics are read meanwhile");
    }
    for (const topic of this.#missing) {
      if (presence.missing.includes(topic)) continue;
      this.#health.resolve(`topic-missing:${topic}`);
      this.#log.info({ topic }, "a monitored topic exists again: reading it");
    }
    this.#missing = new Set(presence.missing);
    if (presence.missing.length === 0) this.#health.resolve("topic-changed");
  }
}
