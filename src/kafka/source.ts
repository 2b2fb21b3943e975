import { Kafka } from "kafkajs";
import type { Consumer } from "kafkajs";
import type { Logger } from "pino";

import { messageOf } from "../errors.js";
import { SharedAdmin, connectAdmin } from "./admin.js";
import { batchHandler } from "./batch.js";
import { buildKafkaConfig } from "./connection.js";
import {
  measureGroupLag,
  uncommittedStarts,
  type PartitionCounts,
  type PartitionOffsets,
} from "./offsets.js";
import { DEFAULT_TUNING, type ConsumerTuning, type KafkaSourceOptions } from "./options.js";

export { DEFAULT_TUNING, type ConsumerTuning, type KafkaSourceOptions } from "./options.js";

const RECONNECT_INITIAL_MS = 300;

/** One start() to stop() span; a late kafkajs callback of an earlier session sees `closing`. */
interface Session {
  readonly kafka: Kafka;
  readonly admin: SharedAdmin;
  closing: boolean;
}

/**
 * Reads the configured topics in the monitor's own consumer group and hands every record to the
 * sink. Offsets are committed only for records the sink has processed. Connection problems never
 * surface as errors: they set `health.brokerUp` and `health.lastError` and are retried with backoff.
 */
export class KafkaSource {
  readonly #options: KafkaSourceOptions;
  readonly #tuning: ConsumerTuning;
  readonly #log: Logger;
  #session: Session | undefined;
  #starting: Promise<void> | undefined;
  #stopping: Promise<void> | undefined;
  #consumer: Consumer | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #lagTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  #cancelStart = false;
  #pendingStarts: PartitionOffsets = new Map();

  constructor(options: KafkaSourceOptions) {
    this.#options = options;
    this.#tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.#log = options.logger;
  }

  /**
   * Connects, joins the group and starts consuming. Resolves once the first attempt has joined the
   * group or failed; a failure is retried in the background. Rejects only for a configuration
   * problem (an unreadable TLS file, a missing secret), as a `CONFIG_INVALID` SchemawatchError.
   */
  start(): Promise<void> {
    this.#starting ??= this.#start().catch((error: unknown) => {
      this.#starting = undefined;
      throw error;
    });
    return this.#starting;
  }

  /** Leaves the group and disconnects; bounded by `tuning.stopTimeoutMs`. Safe to call twice. */
  stop(): Promise<void> {
    if (this.#session === undefined && this.#starting !== undefined) {
      // start() is still building the client: tell it not to connect, then wait for it.
      this.#cancelStart = true;
      return this.#starting.catch(() => undefined);
    }
    if (this.#session === undefined) return this.#stopping ?? Promise.resolve();
    this.#stopping ??= this.#stop(this.#session);
    return this.#stopping;
  }

  /**
   * Measures the group's lag on every partition of the topics (not only this member's) into
   * `health.lag` and returns it. Works outside start()/stop() too, with a short-lived admin client.
   */
  async measureLag(): Promise<PartitionCounts> {
    const session = this.#session;
    const shared = session !== undefined && !session.closing;
    const admin = shared ? await session.admin.get() : await connectAdmin(await this.#client());
    try {
      const lag = await measureGroupLag(
        admin,
        this.#options.kafka.groupId,
        this.#options.topics,
        (topic, e) => this.#log.debug({ topic, error: messageOf(e) }, "cannot measure the lag of a topic"),
      );
      for (const [topic, partitions] of lag) this.#options.health.lag.set(topic, partitions);
      return lag;
    } catch (error) {
      if (shared) session.admin.drop();
      throw error;
    } finally {
      if (!shared) await admin.disconnect().catch(() => undefined);
    }
  }

  async #client(): Promise<Kafka> {
    const { kafka, env } = this.#options;
    return this.#session?.kafka ?? new Kafka(await buildKafkaConfig(kafka, env, this.#log));
  }

  async #start(): Promise<void> {
    await this.#stopping;
    this.#stopping = undefined;
    this.#cancelStart = false;
    const kafka = await this.#client();
    if (this.#cancelStart) {
      this.#starting = undefined;
      return;
    }
    const session: Session = { kafka, admin: new SharedAdmin(kafka), closing: false };
    this.#session = session;
    this.#failures = 0;
    this.#scheduleLag(session, 0);
    await this.#connect(session);
  }

  async #connect(session: Session): Promise<void> {
    const { groupId } = this.#options.kafka;
    const t = this.#tuning;
    const consumer = session.kafka.consumer({
      groupId,
      sessionTimeout: t.sessionTimeout,
      rebalanceTimeout: t.rebalanceTimeout,
      heartbeatInterval: t.heartbeatInterval,
      maxWaitTimeInMs: t.maxWaitTimeInMs,
      // A monitor must never create the topics it watches.
      allowAutoTopicCreation: false,
    });
    this.#consumer = consumer;
    this.#listen(session, consumer);
    // After every await: a stop() during it has already disconnected, so undo what the await opened.
    const abandoned = async (): Promise<boolean> => {
      if (session.closing) await consumer.disconnect().catch(() => undefined);
      return session.closing;
    };
    // Names the step in health.lastError: "subscribing to events: This server does not host ...".
    let step = `connecting to ${this.#options.kafka.brokers.join(", ")}`;
    try {
      await consumer.connect();
      if (await abandoned()) return;
      this.#pendingStarts = await this.#startOffsets(session);
      if (await abandoned()) return;
      step = `subscribing to ${this.#options.topics.join(", ")}`;
      // Where a group has no offset yet, the start is seeked explicitly (latest, or earliest with
      // fromBeginning). kafkajs applies this flag only when a committed offset fell off retention:
      // resuming at the earliest retained record then observes all that is left, and the skipped
      // offsets show up as a coverage gap, whereas "latest" would silently skip the survivors too.
      await consumer.subscribe({ topics: [...this.#options.topics], fromBeginning: true });
      // Commits: autoCommit makes kafkajs commit the *resolved* offsets after every batch, before a
      // rebalance and on an eachBatch error. With eachBatchAutoResolve off, an offset is resolved
      // only after the sink has tallied its record, so a commit never runs ahead of the tallies. The
      // interval lets commitOffsetsIfNecessary() also commit inside very long batches.
      step = `joining group ${groupId}`;
      await consumer.run({
        autoCommit: true,
        autoCommitInterval: 5_000,
        eachBatchAutoResolve: false,
        eachBatch: batchHandler(this.#options.sink, this.#log, this.#options.onBatchEnd),
      });
      await abandoned();
    } catch (error) {
      if (session.closing) return;
      this.#down(error, step);
      await consumer.disconnect().catch(() => undefined);
      this.#reconnectLater(session, consumer);
    }
  }

  #listen(session: Session, consumer: Consumer): void {
    const { health } = this.#options;
    const mine = (): boolean => consumer === this.#consumer;
    consumer.on(consumer.events.CONNECT, () => {
      if (mine()) health.brokerUp = true;
    });
    consumer.on(consumer.events.FETCH, () => {
      if (mine()) health.brokerUp = true;
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      if (!mine()) return;
      health.brokerUp = true;
      health.lastError = undefined;
      this.#failures = 0;
      this.#assign(consumer, payload.memberAssignment);
    });
    consumer.on(consumer.events.REBALANCING, () => {
      if (mine()) this.#revoke();
    });
    consumer.on(consumer.events.DISCONNECT, () => {
      if (mine()) this.#revoke();
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!mine()) return;
      this.#revoke();
      this.#down(payload.error);
      // restart: true means kafkajs rejoins by itself; otherwise it gave up and disconnected.
      if (!payload.restart) this.#reconnectLater(session, consumer);
    });
  }

  #assign(consumer: Consumer, memberAssignment: Record<string, number[] | undefined>): void {
    const { health, topics } = this.#options;
    const assignment = new Map<string, number[]>();
    health.assigned.clear();
    for (const topic of topics) {
      const partitions = [...(memberAssignment[topic] ?? [])].sort((a, b) => a - b);
      if (partitions.length === 0) continue;
      assignment.set(topic, partitions);
      health.assigned.set(topic, new Set(partitions));
      // seek() is only recorded here and committed by kafkajs before its first fetch, so this
      // listener must stay synchronous: the fetch loop starts right after GROUP_JOIN.
      for (const partition of partitions) {
        const offset = this.#pendingStarts.get(topic)?.get(partition);
        if (offset === undefined) continue;
        try {
          consumer.seek({ topic, partition, offset });
        } catch (error) {
          // A throw here would propagate into kafkajs's join; kafkajs then picks the start itself.
          this.#log.warn({ topic, partition, error: messageOf(error) }, "cannot record the start offset");
        }
      }
    }
    // Only the first assignment after the lookup may use it; later ones find committed offsets.
    this.#pendingStarts = new Map();
    this.#log.info({ assignment: Object.fromEntries(assignment) }, "partitions assigned");
    this.#hook("onAssigned", () => this.#options.onAssigned?.(assignment));
  }

  #revoke(): void {
    const { health } = this.#options;
    if (health.assigned.size === 0) return;
    health.assigned.clear();
    this.#hook("onRevoked", () => this.#options.onRevoked?.());
  }

  #down(error: unknown, step?: string): void {
    // Every failed attempt counts as unreachable, whatever failed, so that /readyz shows the reason.
    this.#options.health.brokerUp = false;
    this.#options.health.lastError = step === undefined ? messageOf(error) : `${step}: ${messageOf(error)}`;
  }

  #reconnectLater(session: Session, consumer: Consumer): void {
    if (session.closing || consumer !== this.#consumer || this.#reconnectTimer !== undefined) return;
    const base = Math.min(this.#tuning.reconnectMaxMs, RECONNECT_INITIAL_MS * 2 ** this.#failures);
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.#failures++;
    this.#log.warn(
      { delayMs: delay, error: this.#options.health.lastError },
      "Kafka unavailable; reconnecting",
    );
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      void this.#connect(session);
    }, delay);
  }

  #hook(name: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#log.error({ hook: name, error: messageOf(error) }, "a KafkaSource hook threw");
    }
  }

  async #startOffsets(session: Session): Promise<PartitionOffsets> {
    const { groupId, fromBeginning } = this.#options.kafka;
    try {
      const admin = await session.admin.get();
      return await uncommittedStarts(admin, groupId, this.#options.topics, fromBeginning, (topic, e) =>
        this.#log.debug({ topic, error: messageOf(e) }, "cannot read the offsets of a topic"),
      );
    } catch (error) {
      session.admin.drop();
      this.#log.warn({ error: messageOf(error) }, "cannot read the group's offsets; kafkajs picks the start");
      return new Map();
    }
  }

  #scheduleLag(session: Session, delay: number): void {
    if (session.closing) return;
    this.#lagTimer = setTimeout(() => {
      void this.measureLag()
        .then(
          () => undefined,
          (error: unknown) => this.#log.debug({ error: messageOf(error) }, "lag measurement failed"),
        )
        .finally(() => this.#scheduleLag(session, this.#options.kafka.lagInterval));
    }, delay);
  }

  async #stop(session: Session): Promise<void> {
    session.closing = true;
    clearTimeout(this.#reconnectTimer);
    clearTimeout(this.#lagTimer);
    this.#reconnectTimer = undefined;
    const consumer = this.#consumer;
    const work = (async () => {
      await consumer
        ?.disconnect()
        .catch((e: unknown) => this.#log.debug({ error: messageOf(e) }, "disconnect"));
      // A lag measurement in flight is not waited for: with the broker down it could retry for long.
      await session.admin.close();
    })();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), this.#tuning.stopTimeoutMs);
    });
    const timedOut = await Promise.race([work.then(() => false), timeout]);
    clearTimeout(timer);
    if (timedOut) this.#log.warn({ timeoutMs: this.#tuning.stopTimeoutMs }, "Kafka did not close in time");
    this.#revoke();
    this.#options.health.brokerUp = false;
    this.#consumer = undefined;
    this.#session = undefined;
    this.#starting = undefined;
  }
}
