import type { Consumer } from "kafkajs";
import type { Logger } from "pino";

import { messageOf } from "../errors.js";
import { backoffDelay } from "../retry.js";
import { finishesWithin } from "../timing.js";
import { KafkaReporter } from "./reporting.js";
import { DeferredCommits, runConfig } from "./commits.js";
import type { UndecodableBatch } from "./patches/index.js";
import { sameTopics } from "./topics.js";
import type { PartitionCounts, PartitionOffsets } from "./offsets.js";
import { SourceQueries, callHook, type Session } from "./queries.js";
import { DEFAULT_TUNING, consumerConfig, type ConsumerTuning, type KafkaSourceOptions } from "./options.js";

export { DEFAULT_TUNING, type ConsumerTuning, type KafkaSourceOptions } from "./options.js";

const RECONNECT_INITIAL_MS = 300;

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
  /** With validation workers: the commits kafkajs's autoCommit cannot make. */
  #deferred: DeferredCommits | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #lagTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  /** Connects under way (#connect from its first step to its last). */
  #connecting = 0;
  #cancelStart = false;
  #pendingStarts: PartitionOffsets = new Map();
  /** The topics the current consumer is subscribed to: those of the monitored topics that exist. */
  #subscribed: readonly string[] = [];
  readonly #report: KafkaReporter;
  readonly #queries: SourceQueries;

  constructor(options: KafkaSourceOptions) {
    this.#options = options;
    this.#tuning = { ...DEFAULT_TUNING, ...options.tuning };
    this.#log = options.logger;
    this.#report = new KafkaReporter({
      health: options.health,
      logger: options.logger,
      brokers: options.kafka.brokers,
      logRepeatMs: this.#tuning.logRepeatMs,
      reconnectMaxMs: this.#tuning.reconnectMaxMs,
    });
    this.#queries = new SourceQueries(options, this.#report);
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

  /**
   * Leaves the group and disconnects; bounded by `tuning.stopTimeoutMs`, or by `timeoutMs` when
   * shorter (what is left of the monitor's shutdown deadline). Safe to call twice.
   */
  stop(timeoutMs = this.#tuning.stopTimeoutMs): Promise<void> {
    if (this.#session === undefined && this.#starting !== undefined) {
      // start() is still building the client: tell it not to connect, then wait for it.
      this.#cancelStart = true;
      return this.#starting.catch(() => undefined);
    }
    if (this.#session === undefined) return this.#stopping ?? Promise.resolve();
    this.#stopping ??= this.#stop(this.#session, Math.min(timeoutMs, this.#tuning.stopTimeoutMs));
    return this.#stopping;
  }

  /**
   * Measures the group's lag on every partition of the topics (not only this member's) into
   * `health.lag` and returns it. Works outside start()/stop() too, with a short-lived admin client.
   */
  measureLag(): Promise<PartitionCounts> {
    return this.#queries.measureLag(this.#session);
  }

  async #start(): Promise<void> {
    await this.#stopping;
    this.#stopping = undefined;
    this.#cancelStart = false;
    const kafka = await this.#queries.client(this.#session);
    if (this.#cancelStart) {
      this.#starting = undefined;
      return;
    }
    const session = this.#queries.newSession(kafka);
    this.#session = session;
    this.#failures = 0;
    this.#scheduleWatch(session, this.#options.kafka.lagInterval);
    await this.#connect(session);
  }

  async #connect(session: Session): Promise<void> {
    const { groupId } = this.#options.kafka;
    const consumer = session.kafka.consumer(consumerConfig(groupId, this.#tuning));
    this.#consumer = consumer;
    const previous = this.#deferred;
    previous?.stop();
    const commits = new DeferredCommits(
      consumer,
      this.#tuning.commitIntervalMs,
      (error) => this.#log.debug({ error: messageOf(error) }, "commit not made; its offsets stay pending"),
      previous,
    );
    this.#deferred = commits;
    this.#listen(session, consumer);
    // After every await: a stop() during it has already disconnected, and a topic watch may have
    // replaced this consumer; either way undo what the await opened, or the group gets a member that
    // reads partitions this source never hears of.
    const abandoned = async (): Promise<boolean> => {
      const gone = session.closing || consumer !== this.#consumer;
      if (gone) await consumer.disconnect().catch(() => undefined);
      return gone;
    };
    // Names the step in health.lastError: "subscribing to events: This server does not host ...".
    let step = `connecting to ${this.#options.kafka.brokers.join(", ")}`;
    this.#connecting++;
    try {
      await consumer.connect();
      if (await abandoned()) return;
      const topics = await this.#presentTopics(session);
      if (await abandoned()) return;
      if (topics.length === 0) {
        // Nothing to read yet; the topic watch reconnects when a monitored topic appears.
        this.#subscribed = [];
        await consumer.disconnect().catch(() => undefined);
        return;
      }
      this.#pendingStarts = await this.#queries.startOffsets(session, topics);
      if (await abandoned()) return;
      step = `subscribing to ${topics.join(", ")}`;
      // Where a group has no offset yet, the start is seeked explicitly (latest, or earliest with
      // fromBeginning). kafkajs applies this flag only when a committed offset fell off retention:
      // resuming at the earliest retained record then observes all that is left, and the skipped
      // offsets show up as a coverage gap, whereas "latest" would silently skip the survivors too.
      await consumer.subscribe({ topics: [...topics], fromBeginning: true });
      this.#subscribed = topics;
      step = `joining group ${groupId}`;
      const hooks = {
        onBatchEnd: this.#options.onBatchEnd,
        onUndecodable: (topic: string, partition: number, batch: UndecodableBatch) => {
          this.#report.undecodable(topic, partition, batch);
          this.#options.onUndecodable?.(topic, partition, batch);
        },
        talliesLater: this.#options.talliesLater,
      };
      await consumer.run(runConfig(this.#options.sink, this.#log, hooks, commits));
      if (await abandoned()) return;
      // A new group's seeked start, committed now: kafkajs commits a seek only with autoCommit.
      void commits.commit();
    } catch (error) {
      if (session.closing) return;
      this.#report.down(error, step);
      await consumer.disconnect().catch(() => undefined);
      this.#reconnectLater(session, consumer);
    } finally {
      this.#connecting--;
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
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      // Only batches of aborted records or transaction markers have no message: kafkajs resolved past
      // them without eachBatch. Committed here, behind the batches still being tallied, or an aborted
      // transaction at the end of a partition would keep the group's offset before it, as if unread.
      if (!mine() || payload.batchSize !== 0) return;
      const { topic, partition, lastOffset, highWatermark } = payload;
      this.#deferred?.track(topic, partition, (BigInt(lastOffset) + 1n).toString(), Promise.resolve());
      this.#hook("onReadPast", () => this.#options.onReadPast?.(topic, partition, lastOffset, highWatermark));
    });
    consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
      if (!mine()) return;
      health.brokerUp = true;
      health.lastError = undefined;
      this.#report.reachable(this.#failures);
      this.#failures = 0;
      this.#deferred?.assigned();
      this.#assign(consumer, payload.memberAssignment);
      // The lag lists every partition of the topics, which verdicts wait for: at once, not in a lagInterval.
      void this.measureLag().catch((error: unknown) =>
        this.#log.debug({ error: messageOf(error) }, "lag measurement failed"),
      );
    });
    consumer.on(consumer.events.REBALANCING, () => {
      if (!mine()) return;
      // Sent before kafkajs's JoinGroup, on the same connection: the group takes it in this generation.
      void this.#deferred?.commit();
      this.#revoke();
    });
    consumer.on(consumer.events.DISCONNECT, () => {
      if (mine()) this.#revoke();
    });
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!mine()) return;
      this.#revoke();
      this.#report.down(payload.error);
      // kafkajs never restarts by itself (restartOnFailure), so every crash comes back here.
      this.#reconnectLater(session, consumer);
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
      // seek() is only recorded here and applied by kafkajs before its first fetch (committed by
      // #connect), so this listener must stay synchronous: the fetch loop starts right after GROUP_JOIN.
      for (const partition of partitions) {
        const offset = this.#pendingStarts.get(topic)?.get(partition);
        if (offset === undefined) continue;
        try {
          consumer.seek({ topic, partition, offset });
          this.#deferred?.start(topic, partition, offset);
        } catch (error) {
          // A throw here would propagate into kafkajs's join; kafkajs then picks the start itself.
          this.#log.warn({ topic, partition, error: messageOf(error) }, "cannot record the start offset");
        }
        this.#hook("onStartOffset", () => this.#options.onStartOffset?.(topic, partition, offset));
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

  #reconnectLater(session: Session, consumer: Consumer): void {
    if (session.closing || consumer !== this.#consumer || this.#reconnectTimer !== undefined) return;
    this.#failures++;
    // Spread ±20%, so that replicas that lost the broker together do not come back together.
    const delay = backoffDelay(
      { first: RECONNECT_INITIAL_MS, max: this.#tuning.reconnectMaxMs, jitter: 0.2 },
      this.#failures,
    );
    // One clear line when Kafka goes away, then a summary a minute, not a line per retry.
    this.#report.unreachable(this.#failures, delay);
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      void this.#connect(session);
    }, delay);
  }

  /**
   * Every lag interval: notices monitored topics that appeared or disappeared (the consumer is then
   * restarted on the topics that exist) and measures the lag.
   */
  #scheduleWatch(session: Session, delay: number): void {
    if (session.closing) return;
    this.#lagTimer = setTimeout(() => {
      void this.#watch(session).finally(() => this.#scheduleWatch(session, this.#options.kafka.lagInterval));
    }, delay);
  }

  #presentTopics(session: Session): Promise<string[]> {
    return this.#queries.presentTopics(session, (topic) => this.#deferred?.forget(topic));
  }

  #hook(name: string, call: () => void): void {
    callHook(this.#log, name, call);
  }

  async #watch(session: Session): Promise<void> {
    try {
      const present = await this.#presentTopics(session);
      const consumer = this.#consumer;
      // While a connect is under way nothing is subscribed yet: that is no change of topics.
      const waiting = this.#reconnectTimer !== undefined || this.#connecting > 0;
      if (!session.closing && !waiting && !sameTopics(present, this.#subscribed)) {
        this.#log.info(
          { topics: present, before: this.#subscribed },
          "the monitored topics changed: resubscribing",
        );
        this.#subscribed = present;
        await consumer?.disconnect().catch(() => undefined);
        if (!session.closing && consumer === this.#consumer) await this.#connect(session);
      }
      await this.measureLag();
    } catch (error) {
      this.#log.debug({ error: messageOf(error) }, "lag measurement failed");
    }
  }

  async #stop(session: Session, timeoutMs: number): Promise<void> {
    session.closing = true;
    clearTimeout(this.#reconnectTimer);
    clearTimeout(this.#lagTimer);
    this.#reconnectTimer = undefined;
    const consumer = this.#consumer;
    const deferred = this.#deferred;
    const work = (async () => {
      // The last batches' tallies first, and their offsets, while the consumer is still in the group.
      await deferred
        ?.finish(this.#subscribed)
        .catch((e: unknown) => this.#log.debug({ error: messageOf(e) }, "final commit"));
      await consumer
        ?.disconnect()
        .catch((e: unknown) => this.#log.debug({ error: messageOf(e) }, "disconnect"));
      // A lag measurement in flight is not waited for: with the broker down it could retry for long.
      await Promise.all([session.admin.close(), session.logEndAdmin.close()]);
    })();
    if (!(await finishesWithin(work, timeoutMs)))
      this.#log.warn({ timeoutMs }, "Kafka did not close in time");
    this.#revoke();
    this.#options.health.brokerUp = false;
    deferred?.stop();
    this.#consumer = undefined;
    this.#session = undefined;
    this.#starting = undefined;
  }
}
