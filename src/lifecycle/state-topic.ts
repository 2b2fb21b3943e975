import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { Kafka, type Consumer, type KafkaMessage, type Message, type Producer } from "kafkajs";
import type { Logger } from "pino";
import type { KafkaConfig } from "../config/types.js";
import { SchemawatchError, messageOf } from "../errors.js";
import { buildKafkaConfig, type Env } from "../kafka/connection.js";
import { UNDECODABLE } from "../kafka/decode-guard.js";
import type { PartitionCoverage } from "./coverage.js";
import { mergeUnreadable, type CandidateEvidence, type UnreadableEvidence } from "./evidence.js";
import type { Lifecycle, LifecycleState } from "./lifecycle.js";
import {
  isCandidateEvidence,
  isUnreadableList,
  isVersionEvidence,
  mergeCandidates,
  mergeVersionEvidence,
  readCoverageRecord,
  stateKey,
} from "./state-records.js";

/** Errors that trying again does not change: wrong credentials or missing ACLs. */
function refused(error: unknown): boolean {
  const { name, type } = (error ?? {}) as { name?: unknown; type?: unknown };
  return (
    name === "KafkaJSSASLAuthenticationError" ||
    (typeof type === "string" && type.endsWith("AUTHORIZATION_FAILED"))
  );
}

export interface StateTopicOptions {
  readonly kafka: KafkaConfig;
  readonly env: Env;
  readonly logger: Logger;
  readonly topic: string;
  /** How long opening the topic (created if missing) and its first read to the end may take, ms. */
  readonly loadTimeoutMs?: number;
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
  readonly #candidates = new Map<string, Map<string, CandidateEvidence>>();
  /** Other replicas' unreadable records, per subject and replica. */
  readonly #unreadable = new Map<string, Map<string, UnreadableEvidence[]>>();
  #producer: Producer | undefined;
  #consumer: Consumer | undefined;
  #lifecycle: Lifecycle | undefined;
  #onProblem: (problem: string) => void = () => {};
  #loading = true;
  /** Set by stop(): a start still trying to open the topic gives up. */
  #stopped = false;
  #pending: Promise<void> = Promise.resolve();
  /** What was last published of each version's evidence, to send only what changed in between. */
  readonly #sentVersions = new Map<string, string>();

  constructor(options: StateTopicOptions) {
    this.#options = options;
    this.#log = options.logger;
    this.replica = replicaId(options.env);
  }

  get topic(): string {
    return this.#options.topic;
  }

  /** Creates the topic if missing, reads it to the end into the lifecycle, then keeps following it. */
  async start(lifecycle: Lifecycle, onProblem: (problem: string) => void): Promise<number> {
    this.#lifecycle = lifecycle;
    this.#onProblem = onProblem;
    lifecycle.candidateView = (subject, version, own) =>
      mergeCandidates([own, ...(this.#candidates.get(`${subject}\u0000${version}`)?.values() ?? [])]);
    lifecycle.unreadableView = (subject, own) =>
      mergeUnreadable([own, ...(this.#unreadable.get(subject)?.values() ?? [])]);
    const { topic } = this.#options;
    const kafka = new Kafka(await buildKafkaConfig(this.#options.kafka, this.#options.env, this.#log));
    const timeout = this.#options.loadTimeoutMs ?? 30_000;
    const deadline = Date.now() + timeout;
    const high = await this.#open(kafka, deadline);
    this.#producer = kafka.producer({ allowAutoTopicCreation: false });
    // A throwaway group: every start reads the topic whole; nothing is committed.
    const consumer = kafka.consumer({
      groupId: `schemawatch-state-${randomUUID()}`,
      // Other replicas' news that a version is still in use must arrive within about a second.
      maxWaitTimeInMs: 500,
      allowAutoTopicCreation: false,
    });
    this.#consumer = consumer;
    let read = 0;
    let caughtUp: () => void = () => {};
    const done = new Promise<void>((resolve) => (caughtUp = resolve));
    if (high === 0n) caughtUp();
    await this.#producer.connect();
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ message }) => {
        read++;
        this.#apply(message);
        if (BigInt(message.offset) + 1n >= high) caughtUp();
      },
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        done,
        new Promise((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new SchemawatchError(
                  "STATE_INVALID",
                  `state topic ${topic}: not read to its end in ${timeout} ms`,
                ),
              ),
            Math.max(0, deadline - Date.now()),
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
      this.#loading = false;
    }
    return read;
  }

  /**
   * Creates the topic if missing and reads its end offset. Replicas started together race to create
   * it, and for a moment after its creation a broker may answer that it does not host it: every
   * failure is tried again (250 ms doubling to 2 s) until the deadline, except a refused
   * authentication or authorization, which no retry changes. Without this a replica that lost the
   * race never opened its producer and shared nothing until it restarted.
   */
  async #open(kafka: Kafka, deadline: number): Promise<bigint> {
    const { topic } = this.#options;
    for (let attempt = 1; ; attempt++) {
      const admin = kafka.admin();
      try {
        await admin.connect();
        if (!(await admin.listTopics()).includes(topic)) {
          // Only the state topic is ever created; the monitored topics never are.
          const created = await admin.createTopics({
            topics: [
              { topic, numPartitions: 1, configEntries: [{ name: "cleanup.policy", value: "compact" }] },
            ],
            waitForLeaders: true,
          });
          if (created) this.#log.info({ topic }, "state topic created");
        }
        const offsets = await admin.fetchTopicOffsets(topic);
        return BigInt(offsets.find((o) => o.partition === 0)?.high ?? "0");
      } catch (error) {
        const wait = Math.min(250 * 2 ** (attempt - 1), 2_000);
        if (this.#stopped || refused(error) || Date.now() + wait >= deadline)
          throw new SchemawatchError("STATE_INVALID", `state topic ${topic}: ${messageOf(error)}`, {
            cause: error,
          });
        this.#log.warn(
          { topic, attempt, problem: messageOf(error) },
          "state topic not open yet: trying again",
        );
        await sleep(wait);
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
    }
  }

  #problem(key: string, what: string, partitions: ReadonlyArray<[string, number]> | "all"): void {
    const lifecycle = this.#lifecycle!;
    const problem = `state topic ${this.#options.topic}: record ${key} ${what}`;
    this.#onProblem(problem);
    const now = lifecycle.now();
    if (partitions === "all") {
      const topics = [...lifecycle.subjects].flatMap((s) => [...s.subject.topics]);
      lifecycle.coverage.invalidateAll(now, problem, topics);
      return;
    }
    for (const [topic, partition] of partitions)
      lifecycle.coverage.unreadable(topic, partition, now, problem);
  }

  /** One record of the topic. Never logs values: they may name producers, and they are not ours to echo. */
  #apply(message: KafkaMessage): void {
    const lifecycle = this.#lifecycle!;
    if ((message as { [UNDECODABLE]?: unknown })[UNDECODABLE] !== undefined) {
      // The decode guard's marker for a batch it could not decode: not a tombstone, lost evidence.
      return this.#problem(
        `batch ending at offset ${message.offset}`,
        "cannot be decoded: every window restarts",
        "all",
      );
    }
    const key = message.key?.toString("utf8") ?? "";
    if (message.value === null) return; // a tombstone
    const parts = key.split("/").map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return "\u0000";
      }
    });
    let value: unknown;
    try {
      value = JSON.parse(message.value.toString("utf8"));
    } catch {
      value = undefined;
    }
    const [kind, a, b, c] = parts;
    if (kind === "coverage" && parts.length === 3 && a && b !== undefined && /^\d+$/.test(b)) {
      const record = readCoverageRecord(value, a, Number(b));
      if (!record) return this.#problem(key, "is unreadable: treated as a coverage gap", [[a, Number(b)]]);
      // Our own publish coming back tells nothing new, except on start (a previous run of this replica).
      if (record.owner === this.replica && !this.#loading) return;
      lifecycle.coverage.shared(record.coverage, lifecycle.now(), record.owner, record.live);
      return;
    }
    if ((kind === "version" && parts.length === 3) || (kind === "candidate" && parts.length === 4)) {
      const subject = [...lifecycle.subjects].find((s) => s.subject.name === a);
      if (!subject || !b) return; // a subject this monitor does not watch
      const topics = subject.subject.topics.flatMap((t): Array<[string, number]> =>
        lifecycle.coverage.partitionsOf(t, lifecycle.knownPartitions.get(t)).map((p) => [t, p]),
      );
      if (kind === "version") {
        if (!isVersionEvidence(value))
          return this.#problem(
            key,
            "is unreadable: treated as a coverage gap",
            topics.length ? topics : "all",
          );
        mergeVersionEvidence(lifecycle.version(a!, b), value);
        return;
      }
      if (!isCandidateEvidence(value) || !c)
        return this.#problem(key, "is unreadable: treated as a coverage gap", topics.length ? topics : "all");
      if (c === this.replica) {
        if (this.#loading) Object.assign(lifecycle.candidate(a!, b), structuredClone(value));
        return;
      }
      const id = `${a!}\u0000${b}`;
      let perReplica = this.#candidates.get(id);
      if (!perReplica) this.#candidates.set(id, (perReplica = new Map()));
      perReplica.set(c, value);
      return;
    }
    if (kind === "unreadable" && parts.length === 3 && a && b) {
      if (!lifecycle.hasSubject(a)) return;
      if (!isUnreadableList(value))
        return this.#problem(key, "is unreadable: treated as a coverage gap", "all");
      if (b === this.replica) {
        // A previous run of this replica: its records still count, as its own.
        if (this.#loading) lifecycle.restoreUnreadable(a, value);
        return;
      }
      let perReplica = this.#unreadable.get(a);
      if (!perReplica) this.#unreadable.set(a, (perReplica = new Map()));
      perReplica.set(b, value);
      return;
    }
    if (kind === "meta") {
      // Another replica's heartbeat, as it arrives. Not those read on start: they tell of the past. Not
      // our own: a previous run of this replica is not this one, and its partitions are read by nobody.
      if (a === "alive" && parts.length === 3 && b && b !== this.replica && !this.#loading)
        lifecycle.coverage.heard(b, lifecycle.now());
      return;
    }
    this.#problem(key || "(no key)", "has a key this version does not know: every window restarts", "all");
  }

  /** This replica's evidence: coverage of the partitions it owns, its version view and its candidates. */
  async publish(lifecycle: Lifecycle, owned: readonly PartitionCoverage[]): Promise<void> {
    const state = lifecycle.toState();
    const messages: Message[] = this.#coverageMessages(owned, (entry) =>
      lifecycle.coverage.isCatchingUp(entry.topic, entry.partition) ? { catchingUp: true } : {},
    );
    messages.push(...this.#versionMessages(state.versions, false));
    for (const [subject, candidates] of Object.entries(state.candidates))
      for (const [version, evidence] of Object.entries(candidates))
        messages.push({
          key: stateKey("candidate", subject, version, this.replica),
          value: JSON.stringify(evidence),
        });
    messages.push(...this.#unreadableMessages(state.unreadable ?? {}, false));
    messages.push({
      key: stateKey("meta", "started", this.replica),
      value: JSON.stringify({ startedAt: state.startedAt }),
    });
    messages.push(this.#heartbeat(lifecycle));
    await this.#send(messages);
  }

  /** This replica is alive: the partitions it owns count as observed by the others (`aliveSlackMs`). */
  #heartbeat(lifecycle: Lifecycle): Message {
    return { key: stateKey("meta", "alive", this.replica), value: JSON.stringify({ at: lifecycle.now() }) };
  }

  /**
   * Between full publishes (every second): the heartbeat, and the versions whose evidence changed, so
   * that a record one replica saw keeps the version in use on every replica within about a second,
   * not only after the next full publish.
   */
  publishVersions(lifecycle: Lifecycle): Promise<void> {
    const state = lifecycle.toState();
    return this.#send([
      ...this.#versionMessages(state.versions, true),
      ...this.#unreadableMessages(state.unreadable ?? {}, true),
      this.#heartbeat(lifecycle),
    ]);
  }

  #unreadableMessages(
    unreadable: NonNullable<LifecycleState["unreadable"]>,
    changedOnly: boolean,
  ): Message[] {
    const messages: Message[] = [];
    for (const [subject, entries] of Object.entries(unreadable)) {
      const key = stateKey("unreadable", subject, this.replica);
      const value = JSON.stringify(entries);
      if (changedOnly && this.#sentVersions.get(key) === value) continue;
      this.#sentVersions.set(key, value);
      messages.push({ key, value });
    }
    return messages;
  }

  #versionMessages(versions: LifecycleState["versions"], changedOnly: boolean): Message[] {
    const messages: Message[] = [];
    for (const [subject, map] of Object.entries(versions))
      for (const [version, evidence] of Object.entries(map)) {
        const key = stateKey("version", subject, version);
        const value = JSON.stringify(evidence);
        if (changedOnly && this.#sentVersions.get(key) === value) continue;
        this.#sentVersions.set(key, value);
        messages.push({ key, value });
      }
    return messages;
  }

  /**
   * On revocation: the last word on the partitions this replica gives up, for the next owner. Marked
   * released: the others count them observed only up to its time, until the next owner publishes.
   */
  publishCoverage(owned: readonly PartitionCoverage[]): Promise<void> {
    return this.#send(this.#coverageMessages(owned, () => ({ released: true })));
  }

  /**
   * Each owned partition's coverage. `flags`: `released` (given up) or `catchingUp` (a backlog not yet
   * read), either of which tells the others the partition is observed only up to `observedUntil`.
   */
  #coverageMessages(
    owned: readonly PartitionCoverage[],
    flags: (entry: PartitionCoverage) => { released?: true; catchingUp?: true },
  ): Message[] {
    return owned.map((entry) => ({
      key: stateKey("coverage", entry.topic, entry.partition),
      value: JSON.stringify({ owner: this.replica, ...flags(entry), coverage: { ...entry } }),
    }));
  }

  #send(messages: Message[]): Promise<void> {
    const producer = this.#producer;
    if (!producer)
      return Promise.reject(new SchemawatchError("STATE_INVALID", "the state topic was never opened"));
    const topic = this.#options.topic;
    const sent = this.#pending.then(async () => {
      if (messages.length > 0) await producer.send({ topic, messages, acks: -1 });
    });
    this.#pending = sent.catch(() => undefined);
    return sent;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await this.#pending;
    await this.#consumer?.disconnect().catch(() => undefined);
    await this.#producer?.disconnect().catch(() => undefined);
  }
}
