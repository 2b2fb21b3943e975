import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Kafka, type Consumer, type KafkaMessage, type Message, type Producer } from "kafkajs";
import type { Logger } from "pino";
import type { KafkaConfig } from "../config/types.js";
import { SchemawatchError } from "../errors.js";
import { buildKafkaConfig, type Env } from "../kafka/connection.js";
import type { PartitionCoverage } from "../lifecycle/coverage.js";
import { mergeUnreadable } from "../lifecycle/evidence.js";
import type { World } from "../lifecycle/observation.js";
import type { Lifecycle } from "../lifecycle/lifecycle.js";
import { StateMessages } from "./messages.js";
import { SerialSender } from "./sender.js";
import { Load, openTopic, withRetries } from "./open.js";
import type { RenameLedger } from "../fields/rename-ledger.js";
import type { HistoryShare } from "../history/share.js";
import type { StatsShare } from "../stats/share.js";
import { mergeCandidates } from "./records.js";

export interface StateTopicOptions {
  readonly kafka: KafkaConfig;
  readonly env: Env;
  readonly logger: Logger;
  readonly topic: string;
  /** How long opening the topic (created if missing) and its first read to the end may take, ms. */
  readonly loadTimeoutMs?: number;
  /** After how long without a heartbeat a replica's records are deleted, ms (`state.forgetReplicasAfter`). */
  readonly forgetReplicasAfterMs?: number;
}

/**
 * The replica id names this replica's candidate records. `SCHEMAWATCH_REPLICA_ID`, else the host
 * name: stable across restarts of a pod or host, so a restarted replica resumes its own records.
 */
export function replicaId(env: Env): string {
  return env["SCHEMAWATCH_REPLICA_ID"] || hostname();
}

/**
 * Evidence shared by replicas in a compacted topic (keys in docs/lifecycle.md). Coverage is published
 * by the partition's current owner only; version evidence merges by max, so a record any replica saw
 * keeps the version in use; candidate evidence is kept per replica and merged conservatively.
 */
export class StateTopic {
  readonly replica: string;
  readonly #options: StateTopicOptions;
  readonly #log: Logger;
  /** What the records mean and which to publish (messages.ts); this class does the I/O. Made at start. */
  #messages: StateMessages;
  readonly #sender = new SerialSender((messages) =>
    this.#producer!.send({ topic: this.#options.topic, messages, acks: -1 }),
  );
  #producer: Producer | undefined;
  #consumer: Consumer | undefined;
  #lifecycle: Lifecycle | undefined;
  #onProblem: (problem: string) => void = () => {};
  #loading = true;
  /** Set by stop(): a start still trying to open the topic gives up. */
  #stopped = false;

  constructor(options: StateTopicOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.replica = replicaId(options.env);
    this.#messages = new StateMessages(this.replica, options.topic);
  }

  /** What the other replicas saw, merged with this one's own evidence when the lifecycle judges. */
  readonly world: Pick<World, "candidates" | "unreadable" | "fieldUses" | "fieldsSince"> = {
    candidates: (subject, version, own) =>
      mergeCandidates([
        own,
        ...(this.#messages.candidates.get(`${subject}\u0000${version}`)?.values() ?? []),
      ]),
    unreadable: (subject, own) =>
      mergeUnreadable([own, ...(this.#messages.unreadable.get(subject)?.values() ?? [])]),
    fieldUses: (subject, pointer, own) => this.#messages.shared.world.fieldUses!(subject, pointer, own),
    fieldsSince: () => this.#messages.shared.world.fieldsSince!(),
  };

  get topic(): string {
    return this.#options.topic;
  }

  /**
   * Creates the topic if missing, reads it to the end into the lifecycle (and the field statistics'
   * share, when they are enabled, the renames' ledger and the traffic history's share), then keeps
   * following it.
   */
  async start(
    lifecycle: Lifecycle,
    onProblem: (problem: string) => void,
    stats?: StatsShare,
    renames?: RenameLedger,
    history?: HistoryShare,
  ): Promise<number> {
    this.#lifecycle = lifecycle;
    this.#messages = new StateMessages(
      this.replica,
      this.#options.topic,
      stats,
      renames,
      history,
      this.#options.forgetReplicasAfterMs,
    );
    this.#onProblem = onProblem;
    const { topic } = this.#options;
    const kafka = new Kafka(await buildKafkaConfig(this.#options.kafka, this.#options.env, this.#log));
    const timeout = this.#options.loadTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeout;
    const load = new Load(await this.#open(kafka, deadline));
    this.#producer = kafka.producer({ allowAutoTopicCreation: false });
    // A throwaway group: every start reads the topic whole; nothing is committed.
    const consumer = kafka.consumer({
      groupId: `schemawatch-state-${randomUUID()}`,
      // Other replicas' news that a version is still in use must arrive within about a second.
      maxWaitTimeInMs: 500,
      allowAutoTopicCreation: false,
    });
    this.#consumer = consumer;
    await this.#producer.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ message }) => {
        load.record(message.offset);
        this.#apply(message);
      },
    });
    try {
      await load.done(topic, deadline, timeout);
    } finally {
      this.#loading = false;
    }
    // Every replica that shares field evidence keeps its own here, and the world says from when the
    // group's is whole: this replica's own is not younger than the coverage it read.
    lifecycle.fieldEvidenceShared();
    this.#messages.shared.loaded();
    return load.read;
  }

  /**
   * Creates the topic if missing and reads its end offset, tried again until the deadline
   * (state-open.ts says when). Without the retries a replica that lost the race to create the topic
   * never opened its producer and shared nothing until it restarted.
   */
  async #open(kafka: Kafka, deadline: number): Promise<bigint> {
    const { topic } = this.#options;
    return withRetries(
      async () => {
        const admin = kafka.admin();
        try {
          await admin.connect();
          return await openTopic(admin, topic, () => this.#log.info({ topic }, "state topic created"));
        } finally {
          await admin.disconnect().catch(() => undefined);
        }
      },
      {
        topic,
        deadline,
        stopped: () => this.#stopped,
        sleep: (ms) => sleep(ms),
        retrying: (attempt, problem) =>
          this.#log.warn({ topic, attempt, problem }, "state topic not open yet: trying again"),
      },
    );
  }

  /** One record of the topic, read by the consumer. */
  #apply(message: KafkaMessage): void {
    this.#messages.apply(this.#lifecycle!, message, this.#loading, this.#onProblem);
  }

  /** This replica's evidence: coverage of the partitions it owns, its version view and its candidates. */
  async publish(
    lifecycle: Lifecycle,
    owned: readonly PartitionCoverage[],
    stats?: { readonly everyMs: number; readonly final: boolean },
  ): Promise<void> {
    await this.#send(this.#messages.publishMessages(lifecycle, owned, stats));
  }

  /**
   * Between full publishes (every second): the heartbeat, and the versions whose evidence changed, so
   * that a record one replica saw keeps the version in use on every replica within about a second,
   * not only after the next full publish.
   */
  publishVersions(lifecycle: Lifecycle): Promise<void> {
    return this.#send(this.#messages.changedMessages(lifecycle));
  }

  /**
   * On revocation: the last word on the partitions this replica gives up, for the next owner. Marked
   * released: the others count them observed only up to its time, until the next owner publishes.
   */
  publishCoverage(owned: readonly PartitionCoverage[]): Promise<void> {
    return this.#send(this.#messages.coverageMessages(owned, () => ({ released: true })));
  }

  /** One send after the other, each with every in-sync replica's acknowledgement. */
  #send(messages: Message[]): Promise<void> {
    if (!this.#producer)
      return Promise.reject(new SchemawatchError("STATE_INVALID", "the state topic was never opened"));
    return this.#sender.enqueue(messages);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#sender.settled();
    await this.#consumer?.disconnect().catch(() => undefined);
    await this.#producer?.disconnect().catch(() => undefined);
  }
}
