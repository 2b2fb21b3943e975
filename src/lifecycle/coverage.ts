// Over 350 lines, kept whole: one partition's coverage moves through every event here (assigned, read past, lag, ends, gaps), and a split would scatter its one invariant: no offset is counted observed twice or skipped unsaid.
import { OpenTransactions, type MeasuredEnds, type OpenTransaction } from "./transactions.js";

export type { MeasuredEnds, OpenTransaction } from "./transactions.js";

/** How long what others said counts: set once, by whoever runs the lifecycle (its intervals). */
export interface CoverageOptions {
  /** See {@link Coverage.sharedSlackMs} (default 25 s). */
  readonly sharedSlackMs?: number;
  /** See {@link Coverage.endsStaleAfterMs} (default: none, a capture). */
  readonly endsStaleAfterMs?: number;
}

/** Why observation of a partition (re)started: each restarts the drain and ready windows. */
export type GapReason =
  | "first-observation"
  | "offsets-skipped"
  | "state-unreadable"
  | "not-assigned"
  | "undecodable-batch"
  | "topic-missing"
  | "partitions-removed"
  | "log-truncated"
  | "offsets-lost";

export interface Gap {
  readonly topic: string;
  readonly partition: number;
  readonly reason: GapReason;
  /** When the gap was noticed, ms; observation is continuous from here on. */
  readonly at: number;
  readonly detail: string;
}

/** What the monitor knows about its observation of one partition. */
export interface PartitionCoverage {
  readonly topic: string;
  readonly partition: number;
  /** Observation has been continuous (no record missed) since this time, ms. */
  coveredSince: number;
  /** The last offset processed, as a decimal string. */
  lastOffset: string | null;
  /** The last time this partition was known to be observed (assigned and read), ms. */
  observedUntil: number;
}

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/** Another replica's published coverage of a partition, as far as judging it needs. */
interface SharedEntry {
  /** The entry's observedUntil as published. */
  readonly published: number;
  /** The replica that published it. */
  readonly owner: string;
  /**
   * The owner reads the partition up to now: false when it published its last word on giving it up
   * (revocation), or while it still catches up on a backlog.
   */
  readonly live: boolean;
}

/**
 * Per-partition coverage: offset continuity and the times it held. Downtime that the monitor caught up
 * on from committed offsets leaves the offsets contiguous, so it is no gap; a record lost to
 * retention, a reset to the latest offset or unreadable state shows up as a jump or as missing
 * history, and restarts the partition's window.
 */
export class Coverage {
  readonly #partitions = new Map<string, PartitionCoverage>();
  readonly #assigned = new Set<string>();
  /**
   * Assigned partitions whose backlog is not known to be read yet: until a batch reaches the high
   * watermark it was fetched at, or the group's lag is measured at 0, the records produced while
   * nobody read them may still hold a version, so the partition counts as observed only up to its
   * last observation before the assignment.
   */
  readonly #catchingUp = new Map<string, number>();
  /** Assigned partitions with a batch processed since the assignment. */
  readonly #batched = new Set<string>();
  /** Transactions found open by the lag measurements, until they are read past. */
  readonly #transactions = new OpenTransactions();
  /** Entries another replica owns, learned from the shared state topic: who published them, and when. */
  readonly #shared = new Map<string, SharedEntry>();
  /** When each other replica was last heard from (its heartbeat in the state topic), ms. */
  readonly #heard = new Map<string, number>();
  /**
   * How long another replica's published entry counts as observed after its last publish (it publishes
   * every judge interval). Past it, the owner is presumed gone and "not observed since" applies.
   */
  readonly sharedSlackMs: number;
  /**
   * How long after its last heartbeat (sent every second) another replica counts as alive, so that
   * the partitions it owns count as observed up to now. A replica killed without a word stops
   * counting within this, not after `sharedSlackMs`: records sent meanwhile to its partitions are read
   * by nobody, and must never pass for absent.
   */
  aliveSlackMs = 5_000;
  /**
   * Live from Kafka: how old the last measurement of a topic's partition ends may be for its
   * partitions to count as free of open transactions. Undefined for a capture, which has none.
   */
  readonly endsStaleAfterMs: number | undefined;
  readonly gaps: Gap[] = [];
  /** Gaps per topic since start, for the metric. */
  readonly gapCounts = new Map<string, number>();

  constructor(options: CoverageOptions = {}) {
    this.sharedSlackMs = options.sharedSlackMs ?? 25_000;
    this.endsStaleAfterMs = options.endsStaleAfterMs;
  }

  get partitions(): IterableIterator<PartitionCoverage> {
    return this.#partitions.values();
  }

  get(topic: string, partition: number): PartitionCoverage | undefined {
    return this.#partitions.get(key(topic, partition));
  }

  restore(entries: readonly PartitionCoverage[]): void {
    for (const entry of entries) this.#partitions.set(key(entry.topic, entry.partition), { ...entry });
  }

  #gap(topic: string, partition: number, reason: GapReason, at: number, detail: string): PartitionCoverage {
    const gap = { topic, partition, reason, at, detail };
    this.gaps.push(gap);
    if (this.gaps.length > 1000) this.gaps.shift();
    this.gapCounts.set(topic, (this.gapCounts.get(topic) ?? 0) + 1);
    const entry = this.#partitions.get(key(topic, partition));
    if (entry) {
      entry.coveredSince = at;
      entry.observedUntil = at;
      return entry;
    }
    const created = { topic, partition, coveredSince: at, lastOffset: null, observedUntil: at };
    this.#partitions.set(key(topic, partition), created);
    return created;
  }

  /**
   * This member now reads these partitions. One never observed before starts its window now. `backlog`
   * false: there is nothing unread before them (a capture, read whole).
   */
  assigned(assignment: ReadonlyMap<string, readonly number[]>, now: number, backlog = true): void {
    this.#assigned.clear();
    for (const [topic, partitions] of assignment) {
      for (const partition of partitions) this.alsoAssigned(topic, partition, now, backlog);
    }
  }

  /**
   * One more partition this member reads, beside those it reads already: a capture's partition seen
   * for the first time (`backlog` false), without going over the others again.
   */
  alsoAssigned(topic: string, partition: number, now: number, backlog = true): void {
    const k = key(topic, partition);
    this.#assigned.add(k);
    this.#shared.delete(k);
    const entry = this.#partitions.get(k);
    if (!entry)
      this.#gap(topic, partition, "first-observation", now, "no earlier observation of this partition");
    // Unobserved time is covered only if the offsets turn out contiguous (checked on the first
    // batch) and once the backlog is read (see #catchingUp).
    if (backlog) this.#catchingUp.set(k, now);
  }

  revoked(now: number): void {
    for (const k of this.#assigned) {
      const entry = this.#partitions.get(k);
      if (entry && !this.#catchingUp.has(k)) entry.observedUntil = now;
    }
    this.#assigned.clear();
    this.#catchingUp.clear();
    this.#batched.clear();
  }

  /** The entries of the partitions this member reads: the ones it publishes to the shared state topic. */
  owned(): PartitionCoverage[] {
    return [...this.#assigned].flatMap((k) => {
      const entry = this.#partitions.get(k);
      return entry ? [entry] : [];
    });
  }

  /**
   * Another replica's published coverage of a partition. A gap this member noticed is kept (coveredSince
   * only moves forward). For a partition just assigned here, a previous owner's last publish may arrive
   * after the handover: until the first batch here, a later offset from it is still the better history.
   * Not `live` (the owner gave the partition up, or still catches up): observed only up to its time.
   */
  shared(entry: PartitionCoverage, now: number, owner: string, live = true): void {
    const k = key(entry.topic, entry.partition);
    const existing = this.#partitions.get(k);
    if (this.#assigned.has(k)) {
      if (!existing || this.#batched.has(k) || entry.lastOffset === null) return;
      if (existing.lastOffset !== null && BigInt(entry.lastOffset) <= BigInt(existing.lastOffset)) return;
      existing.lastOffset = entry.lastOffset;
      existing.coveredSince = Math.max(existing.coveredSince, entry.coveredSince);
      return;
    }
    this.#partitions.set(k, {
      topic: entry.topic,
      partition: entry.partition,
      coveredSince: Math.max(existing?.coveredSince ?? 0, entry.coveredSince),
      lastOffset: entry.lastOffset,
      observedUntil: Math.min(entry.observedUntil, now),
    });
    this.#shared.set(k, { published: entry.observedUntil, owner, live });
  }

  /** Another replica's heartbeat arrived: it is alive now. */
  heard(replica: string, now: number): void {
    this.#heard.set(replica, now);
  }

  /** A partition whose state could not be read (a corrupt record in the state topic) restarts its window. */
  unreadable(topic: string, partition: number, now: number, detail: string): void {
    this.#gap(topic, partition, "state-unreadable", now, detail);
  }

  /** Whether another replica's published entry stands for this partition (it owns it). */
  isShared(topic: string, partition: number): boolean {
    return this.#shared.has(key(topic, partition));
  }

  /**
   * Until when a partition counts as observed: now while this member reads it, or while another
   * replica owns it, keeps publishing (within `sharedSlackMs`) and is heard from (within
   * `aliveSlackMs`); otherwise its last observation. A partition its owner gave up, or still catches
   * up on, counts only up to its last observation, until the owner says it reads it up to now.
   */
  observedThrough(entry: PartitionCoverage, now: number): number {
    const k = key(entry.topic, entry.partition);
    if (this.#assigned.has(k)) return this.#catchingUp.has(k) ? entry.observedUntil : now;
    const shared = this.#shared.get(k);
    if (shared === undefined || !shared.live || now - shared.published > this.sharedSlackMs)
      return entry.observedUntil;
    const heard = this.#heard.get(shared.owner);
    return heard !== undefined && now - heard <= this.aliveSlackMs ? now : entry.observedUntil;
  }

  /** The partitions of a topic this coverage knows of, beside those the brokers report. */
  partitionsOf(topic: string, reported: Iterable<number> = []): number[] {
    const known = new Set(reported);
    for (const entry of this.#partitions.values()) if (entry.topic === topic) known.add(entry.partition);
    return [...known].sort((a, b) => a - b);
  }

  isAssigned(topic: string, partition: number): boolean {
    return this.#assigned.has(key(topic, partition));
  }

  /**
   * A batch of offsets first..last was processed, fetched when the partition's high watermark was
   * `highWatermark` (when known). A jump over unprocessed offsets is a gap, and so is a log that
   * ends before the offset read last.
   */
  processed(
    topic: string,
    partition: number,
    first: string,
    last: string,
    now: number,
    highWatermark?: string,
  ): void {
    const k = key(topic, partition);
    let entry = this.#partitions.get(k);
    if (!entry)
      entry = this.#gap(
        topic,
        partition,
        "first-observation",
        now,
        "no earlier observation of this partition",
      );
    else if (
      entry.lastOffset !== null &&
      highWatermark !== undefined &&
      BigInt(highWatermark) <= BigInt(entry.lastOffset)
    ) {
      // The log ends before the offset read last: it is not the log that was read. The topic was
      // deleted and created again under its name while nobody looked (same partitions, fresh offsets)
      // or the log was truncated; what the old log held past the last read was never read.
      entry = this.#gap(
        topic,
        partition,
        "log-truncated",
        now,
        `the log ends at offset ${highWatermark}, before offset ${entry.lastOffset} read earlier (the topic was created again, or its log truncated)`,
      );
    } else if (entry.lastOffset !== null && BigInt(first) > BigInt(entry.lastOffset) + 1n) {
      entry = this.#gap(
        topic,
        partition,
        "offsets-skipped",
        now,
        `offsets ${BigInt(entry.lastOffset) + 1n}..${BigInt(first) - 1n} were never processed (retention, or a reset to the latest offset)`,
      );
    }
    entry.lastOffset = last;
    this.#transactions.readTo(topic, partition, last);
    if (this.#catchingUp.has(k) && highWatermark !== undefined && BigInt(last) + 1n >= BigInt(highWatermark))
      this.#catchingUp.delete(k);
    if (!this.#catchingUp.has(k)) entry.observedUntil = now;
    this.#batched.add(k);
  }

  /**
   * The consumer moved past offsets up to `last` that hold nothing a committed reader sees: an aborted
   * transaction's records and transaction markers. They are no gap and carry no version; a transaction
   * that aborted there is over, and a partition read to its high watermark has caught up.
   */
  readPast(topic: string, partition: number, last: string, now: number, highWatermark?: string): void {
    const k = key(topic, partition);
    const entry = this.#partitions.get(k);
    if (entry === undefined) return;
    if (entry.lastOffset === null || BigInt(last) > BigInt(entry.lastOffset)) entry.lastOffset = last;
    this.#transactions.readTo(topic, partition, last);
    if (this.#catchingUp.has(k) && highWatermark !== undefined && BigInt(last) + 1n >= BigInt(highWatermark))
      this.#catchingUp.delete(k);
    if (!this.#catchingUp.has(k)) entry.observedUntil = now;
  }

  /**
   * The group's lag on an assigned partition was measured at `measuredAt`: at 0, every record before
   * that is read, so a partition assigned before then has caught up (a quiet one has nothing to read).
   */
  lagMeasured(topic: string, partition: number, lag: number, measuredAt: number, now: number): void {
    const k = key(topic, partition);
    const since = this.#catchingUp.get(k);
    if (since === undefined || lag > 0 || measuredAt < since) return;
    this.#catchingUp.delete(k);
    const entry = this.#partitions.get(k);
    if (entry) entry.observedUntil = now;
  }

  /**
   * A lag measurement started at `measuredAt` found the partition's ends, with `lag` records between
   * the group's committed offset and the last stable offset. A log end past the stable offset is a
   * transaction still open: its records are unknown use until the group reads past where the log
   * ended, whether the transaction commits (its records are then counted) or aborts (never counted).
   */
  endsMeasured(topic: string, partition: number, ends: MeasuredEnds, lag: number, measuredAt: number): void {
    this.#transactions.measured(topic, partition, ends, lag, measuredAt);
  }

  /** The transaction open on a partition (not yet read past), if any. */
  openTransaction(topic: string, partition: number): OpenTransaction | undefined {
    return this.#transactions.get(topic, partition);
  }

  /** Every partition with a transaction open (not yet read past). */
  get openTransactions(): IterableIterator<OpenTransaction> {
    return this.#transactions.all();
  }

  /** When the ends of a topic's partitions were last measured (undefined: never, or a capture). */
  endsMeasuredAt(topic: string): number | undefined {
    return this.#transactions.measuredAt(topic);
  }

  /** Whether an assigned partition's backlog is not known to be read yet. */
  isCatchingUp(topic: string, partition: number): boolean {
    return this.#catchingUp.has(key(topic, partition));
  }

  /**
   * A batch of offsets first..last could not be decoded: its records were not seen, so the partition's
   * window restarts, and observation continues after the batch.
   */
  undecodable(
    topic: string,
    partition: number,
    first: string,
    last: string,
    now: number,
    detail: string,
  ): void {
    const entry = this.#gap(
      topic,
      partition,
      "undecodable-batch",
      now,
      `offsets ${first}..${last}: ${detail}`,
    );
    entry.lastOffset = last;
    this.#batched.add(key(topic, partition));
  }

  /** Assigned partitions that have caught up are observed up to now. */
  tick(now: number): void {
    for (const k of this.#assigned) {
      if (this.#catchingUp.has(k)) continue;
      const entry = this.#partitions.get(k);
      if (entry && entry.observedUntil < now) entry.observedUntil = now;
    }
  }

  /**
   * The group has no committed offset for a partition read here before, so reading starts at `offset`
   * (the log's end, or its start with `fromBeginning`): the topic was created again under its name
   * while the monitor was down, or the group's offsets expired. What the log held before `offset`, and
   * what the old log held past the last read, was never read: a gap, and the offsets are forgotten so
   * the new log's are never compared with the old one's.
   */
  startsAnew(topic: string, partition: number, offset: string, now: number): void {
    const entry = this.#partitions.get(key(topic, partition));
    if (entry === undefined || entry.lastOffset === null) return;
    this.#anotherLog(
      topic,
      partition,
      "offsets-lost",
      now,
      `the group has no committed offset for it, so reading starts at offset ${offset} (the topic was created again, or the group's offsets expired)`,
    );
  }

  /**
   * What is read next on the partition is another log than the one read before: a gap, and the old
   * log's offsets and open transaction are forgotten, never compared with the new log's.
   */
  #anotherLog(topic: string, partition: number, reason: GapReason, now: number, detail: string): void {
    this.#gap(topic, partition, reason, now, detail).lastOffset = null;
    this.#transactions.forget(topic, partition);
  }

  /**
   * A monitored topic is missing (deleted): what it held after the last batch read here is gone unseen,
   * and a topic created again under its name starts its offsets anew. Each partition read before gets
   * one gap and forgets its offsets, so the new topic's are never compared with the old one's.
   */
  topicMissing(topic: string, now: number): void {
    for (const entry of [...this.#partitions.values()]) {
      if (entry.topic !== topic || entry.lastOffset === null) continue;
      this.#anotherLog(topic, entry.partition, "topic-missing", now, `topic ${topic} is missing`);
    }
    // A transaction open in the old topic can never be read past in the new one: the gap stands for it
    // (on a partition with no offset read, too).
    this.#transactions.forget(topic);
  }

  /**
   * The brokers list a monitored topic with only these partitions: one known here that is not among
   * them went away with its topic (deleted and created again with fewer partitions). It is forgotten,
   * so it is no longer required for a verdict, and every remaining partition of the topic restarts its
   * window: what the gone ones held last was never read, so their going is a gap, never a shortcut to
   * drained. Returns the partitions forgotten.
   */
  partitionsListed(topic: string, listed: Iterable<number>, now: number): number[] {
    const present = new Set(listed);
    const gone = this.partitionsOf(topic).filter((p) => !present.has(p));
    if (gone.length === 0) return gone;
    for (const partition of gone) {
      const k = key(topic, partition);
      this.#partitions.delete(k);
      this.#catchingUp.delete(k);
      this.#transactions.forget(topic, partition);
      this.#shared.delete(k);
      this.#batched.delete(k);
      this.#assigned.delete(k);
    }
    const detail = `partition${gone.length === 1 ? "" : "s"} ${gone.map((p) => `${topic}/${p}`).join(", ")} no longer exist${gone.length === 1 ? "s" : ""} (topic ${topic} was recreated with fewer partitions)`;
    for (const entry of [...this.#partitions.values()]) {
      if (entry.topic === topic) this.#gap(topic, entry.partition, "partitions-removed", now, detail);
    }
    return gone;
  }

  /** Every known partition restarts its window (state that could not be read). */
  invalidateAll(now: number, detail: string, topics: readonly string[]): void {
    const known = [...this.#partitions.values()];
    for (const entry of known) this.#gap(entry.topic, entry.partition, "state-unreadable", now, detail);
    if (known.length === 0) {
      for (const topic of topics) this.gapCounts.set(topic, (this.gapCounts.get(topic) ?? 0) + 1);
    }
  }
}
