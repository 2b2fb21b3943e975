import type { KafkaMessage, Message } from "kafkajs";
import { UNDECODABLE } from "../kafka/patches/index.js";
import type { PartitionCoverage } from "../lifecycle/coverage.js";
import type { CandidateEvidence, UnreadableEvidence } from "../lifecycle/evidence.js";
import type { Lifecycle, LifecycleState } from "../lifecycle/lifecycle.js";
import type { RenameLedger } from "../fields/rename-ledger.js";
import type { HistoryShare } from "../history/share.js";
import type { StatsShare } from "../stats/share.js";
import { ownerOf, ReplicaKeys, tombstones } from "./forget.js";
import { historyMessages } from "./history-records.js";
import { SharedEvidence, type Outcome } from "./shared.js";
import {
  isCandidateEvidence,
  isUnreadableList,
  isVersionEvidence,
  mergeVersionEvidence,
  readCoverageRecord,
  stateKey,
} from "./records.js";

// What the shared state topic's records mean to this replica, and the records it publishes: no Kafka
// client here, only messages (state-topic.ts connects, reads, sends). Keys in docs/lifecycle.md.

/** A record read from the state topic: what of a kafkajs message this reads. */
export type StateRecord = Pick<KafkaMessage, "key" | "value" | "offset">;

const UNREADABLE = "is unreadable: treated as a coverage gap";

/**
 * A replica's side of the state topic: other replicas' candidate and unreadable records (kept per
 * replica, merged when judged), and what it last published of each version's evidence.
 */
export class StateMessages {
  /** Other replicas' candidate evidence, per `subject\0version` and replica. */
  readonly candidates = new Map<string, Map<string, CandidateEvidence>>();
  /** Other replicas' unreadable records, per subject and replica. */
  readonly unreadable = new Map<string, Map<string, UnreadableEvidence[]>>();
  /** What was last published of each version's (and subject's unreadable) evidence, by key. */
  readonly #sent = new Map<string, string>();
  /** Field evidence, retirement dates and field statistics (shared.ts). */
  readonly shared: SharedEvidence;
  /** Each replica's keys and last heartbeat: what is deleted once it is gone (forget.ts). */
  readonly #keys: ReplicaKeys;

  constructor(
    readonly replica: string,
    /** The state topic's name, for the problems. */
    readonly topic: string,
    /** The field statistics' share, when they are enabled. */
    stats?: StatsShare,
    /** The renames' progress (`fields.replaces`). */
    renames?: RenameLedger,
    /** The traffic history's share. */
    history?: HistoryShare,
    /** After how long without a heartbeat another replica's records are deleted (ms; forget.ts). */
    forgetAfterMs = Number.POSITIVE_INFINITY,
  ) {
    this.shared = new SharedEvidence(replica, stats, renames, history);
    this.#keys = new ReplicaKeys(replica, forgetAfterMs);
  }

  /**
   * One record of the topic, into `lifecycle`. `loading`: the first read to the end on start, when
   * this replica's own records are a previous run's and still count. Never logs values: they may
   * name producers, and they are not ours to echo.
   */
  apply(
    lifecycle: Lifecycle,
    message: StateRecord,
    loading: boolean,
    onProblem: (problem: string) => void,
  ): void {
    const problem = (key: string, what: string, partitions: ReadonlyArray<[string, number]> | "all") =>
      this.#problem(lifecycle, onProblem, key, what, partitions);
    if ((message as { [UNDECODABLE]?: unknown })[UNDECODABLE] !== undefined) {
      // The decode guard's marker for a batch it could not decode: not a tombstone, lost evidence.
      return problem(
        `batch ending at offset ${message.offset}`,
        "cannot be decoded: every window restarts",
        "all",
      );
    }
    const key = message.key?.toString("utf8") ?? "";
    const parts = key.split("/").map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return "\u0000";
      }
    });
    const [kind, a, b, c] = parts;
    const owner = ownerOf(parts);
    if (owner !== undefined) this.#keys.read(owner, key, message.value === null);
    // A tombstone: a retirement date withdrawn, a statistics bucket gone, a rename's record dropped;
    // of other kinds, nothing.
    let value: unknown = null;
    if (message.value !== null) {
      try {
        value = JSON.parse(message.value.toString("utf8"));
      } catch {
        value = undefined; // not JSON, which no kind of record reads
      }
    } else if (kind !== "retired" && kind !== "stats" && kind !== "rename" && kind !== "history") return;
    const outcome = (result: Outcome, partitions: ReadonlyArray<[string, number]> | "all") => {
      if (!result) return;
      if (result.restartsWindows) return problem(key, result.what, partitions);
      onProblem(`state topic ${this.topic}: record ${key} ${result.what}`);
    };
    if (kind === "field" && parts.length === 4 && a && b && c) {
      const partitions = this.#partitionsOf(lifecycle, a);
      return outcome(
        this.shared.field(lifecycle, parts, value, loading),
        partitions.length ? partitions : "all",
      );
    }
    if (kind === "rename" && parts.length === 5 && parts.every((p) => p !== "" && p !== "\u0000"))
      return outcome(this.shared.rename(parts, value, loading), "all");
    if (kind === "history" && parts.length === 4 && parts.every((p) => p !== "" && p !== "\u0000"))
      return outcome(this.shared.historyBucket(parts, value, loading), "all");
    if (kind === "retired" && parts.length === 3 && a && b)
      return outcome(this.shared.retired(lifecycle, parts, value), "all");
    if (kind === "stats" && parts.length === 7 && parts.every((p) => p !== "" && p !== "\u0000"))
      return outcome(this.shared.statistics(parts, value, loading, lifecycle.now()), "all");
    // Three parts: b is there.
    if (kind === "coverage" && parts.length === 3 && a && /^\d+$/.test(b!)) {
      const record = readCoverageRecord(value, a, Number(b));
      if (!record) return problem(key, UNREADABLE, [[a, Number(b)]]);
      // Our own publish coming back tells nothing new, except on start (a previous run of this replica).
      if (record.owner === this.replica && !loading) return;
      lifecycle.coverage.shared(record.coverage, lifecycle.now(), record.owner, record.live);
      return;
    }
    if ((kind === "version" && parts.length === 3) || (kind === "candidate" && parts.length === 4)) {
      const subject = [...lifecycle.subjects].find((s) => s.subject.name === a);
      if (!subject || !b) return; // a subject this monitor does not watch
      const topics = this.#partitionsOf(lifecycle, a!);
      if (kind === "version") {
        if (!isVersionEvidence(value)) return problem(key, UNREADABLE, topics.length ? topics : "all");
        mergeVersionEvidence(lifecycle.version(a!, b), value);
        return;
      }
      if (!isCandidateEvidence(value) || !c) return problem(key, UNREADABLE, topics.length ? topics : "all");
      if (c === this.replica) {
        if (loading) Object.assign(lifecycle.candidate(a!, b), structuredClone(value));
        return;
      }
      const id = `${a!}\u0000${b}`;
      let perReplica = this.candidates.get(id);
      if (!perReplica) this.candidates.set(id, (perReplica = new Map()));
      perReplica.set(c, value);
      return;
    }
    if (kind === "unreadable" && parts.length === 3 && a && b) {
      if (!lifecycle.hasSubject(a)) return;
      if (!isUnreadableList(value)) return problem(key, UNREADABLE, "all");
      if (b === this.replica) {
        // A previous run of this replica: its records still count, as its own.
        if (loading) lifecycle.restoreUnreadable(a, value);
        return;
      }
      let perReplica = this.unreadable.get(a);
      if (!perReplica) this.unreadable.set(a, (perReplica = new Map()));
      perReplica.set(b, value);
      return;
    }
    if (kind === "meta") {
      // Which replicas share field evidence, from every run's records (their past is what matters).
      if (a === "started" && parts.length === 3 && b) this.shared.started(b, value);
      // Heartbeats bound when a replica that does not share it last read records (a previous run of
      // this one's too, read on start).
      if (a === "alive" && parts.length === 3 && b && (b !== this.replica || loading)) {
        const at = loading ? readAt(value) : lifecycle.now();
        this.shared.alive(b, at);
        this.#keys.heard(b, at);
      }
      // Another replica's heartbeat, as it arrives. Not those read on start: they tell of the past. Not
      // our own: a previous run of this replica is not this one, and its partitions are read by nobody.
      if (a === "alive" && parts.length === 3 && b && b !== this.replica && !loading)
        lifecycle.coverage.heard(b, lifecycle.now());
      return;
    }
    problem(key || "(no key)", "has a key this version does not know: every window restarts", "all");
  }

  /** Every partition of a subject's topics, as far as known. */
  #partitionsOf(lifecycle: Lifecycle, subject: string): Array<[string, number]> {
    const s = [...lifecycle.subjects].find((x) => x.subject.name === subject);
    return (s?.subject.topics ?? []).flatMap((t): Array<[string, number]> =>
      lifecycle.coverage.partitionsOf(t, lifecycle.knownPartitions.get(t)).map((p) => [t, p]),
    );
  }

  /** A record that cannot be read: reported, and the partitions it stood for restart their windows. */
  #problem(
    lifecycle: Lifecycle,
    onProblem: (problem: string) => void,
    key: string,
    what: string,
    partitions: ReadonlyArray<[string, number]> | "all",
  ): void {
    const problem = `state topic ${this.topic}: record ${key} ${what}`;
    onProblem(problem);
    const now = lifecycle.now();
    if (partitions === "all") {
      const topics = [...lifecycle.subjects].flatMap((s) => [...s.subject.topics]);
      lifecycle.coverage.invalidateAll(now, problem, topics);
      return;
    }
    for (const [topic, partition] of partitions)
      lifecycle.coverage.unreadable(topic, partition, now, problem);
  }

  /**
   * A full publish: coverage of the partitions this replica owns, its view of every version, its
   * candidates, its unreadable records, its renames' counts, its traffic history's changed buckets,
   * and when it started.
   */
  publishMessages(
    lifecycle: Lifecycle,
    owned: readonly PartitionCoverage[],
    stats: { readonly everyMs: number; readonly final: boolean } = { everyMs: 60_000, final: false },
  ): Message[] {
    const state = lifecycle.toState();
    // Field evidence before the coverage it goes with (earlier in the topic): a replica that reads
    // this coverage has read the fields of every record it vouches for.
    const messages: Message[] = this.shared.fieldMessages(lifecycle, false);
    messages.push(
      ...this.coverageMessages(owned, (entry) =>
        lifecycle.coverage.isCatchingUp(entry.topic, entry.partition) ? { catchingUp: true } : {},
      ),
    );
    messages.push(...this.#versionMessages(state.versions, false));
    for (const [subject, candidates] of Object.entries(state.candidates))
      for (const [version, evidence] of Object.entries(candidates))
        messages.push({
          key: stateKey("candidate", subject, version, this.replica),
          value: JSON.stringify(evidence),
        });
    messages.push(...this.#unreadableMessages(state.unreadable ?? {}, false));
    messages.push(...this.shared.retiredMessages(lifecycle));
    messages.push(...this.shared.statsMessages(lifecycle.now(), stats.everyMs, stats.final));
    messages.push(...this.shared.renameMessages());
    messages.push(...historyMessages(this.shared.history, this.replica));
    messages.push({
      key: stateKey("meta", "started", this.replica),
      // `fields`: this replica shares its field evidence (a version before it did not).
      value: JSON.stringify({ startedAt: state.startedAt, fields: true }),
    });
    messages.push(this.heartbeat(lifecycle));
    messages.push(...tombstones(this.#keys, lifecycle, this, stats.final));
    return messages;
  }

  /** This replica is alive: the partitions it owns count as observed by the others (`aliveSlackMs`). */
  heartbeat(lifecycle: Lifecycle): Message {
    return { key: stateKey("meta", "alive", this.replica), value: JSON.stringify({ at: lifecycle.now() }) };
  }

  /**
   * Between full publishes: the version and unreadable records whose value changed since last sent,
   * and the heartbeat.
   */
  changedMessages(lifecycle: Lifecycle): Message[] {
    const state = lifecycle.toState();
    return [
      ...this.#versionMessages(state.versions, true),
      ...this.#unreadableMessages(state.unreadable ?? {}, true),
      ...this.shared.fieldMessages(lifecycle, true),
      ...this.shared.retiredMessages(lifecycle),
      this.heartbeat(lifecycle),
    ];
  }

  /**
   * The coverage records of the partitions this replica owns (or gives up), each naming it owner.
   * `flags`: `released` (given up) or `catchingUp` (a backlog not yet read), either of which tells the
   * others the partition is observed only up to its `observedUntil`.
   */
  coverageMessages(
    owned: readonly PartitionCoverage[],
    flags: (entry: PartitionCoverage) => { released?: true; catchingUp?: true } = () => ({}),
  ): Message[] {
    return owned.map((entry) => ({
      key: stateKey("coverage", entry.topic, entry.partition),
      value: JSON.stringify({ owner: this.replica, ...flags(entry), coverage: { ...entry } }),
    }));
  }

  #unreadableMessages(
    unreadable: NonNullable<LifecycleState["unreadable"]>,
    changedOnly: boolean,
  ): Message[] {
    const messages: Message[] = [];
    for (const [subject, entries] of Object.entries(unreadable)) {
      const key = stateKey("unreadable", subject, this.replica);
      const value = JSON.stringify(entries);
      if (changedOnly && this.#sent.get(key) === value) continue;
      this.#sent.set(key, value);
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
        if (changedOnly && this.#sent.get(key) === value) continue;
        this.#sent.set(key, value);
        messages.push({ key, value });
      }
    return messages;
  }
}

/** A heartbeat's time (ms), or -Infinity when it has none. */
function readAt(value: unknown): number {
  const at = (value as { at?: unknown } | null)?.at;
  return typeof at === "number" && Number.isFinite(at) ? at : Number.NEGATIVE_INFINITY;
}

export { MAX_SEND_BYTES, SerialSender, chunks } from "./sender.js";
