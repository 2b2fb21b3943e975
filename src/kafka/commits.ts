import type { ConsumerRunConfig } from "kafkajs";
import type { Logger } from "pino";

import type { RecordSink } from "../pipeline/record.js";
import { batchHandler } from "./batch.js";
import type { BatchEndHook, UndecodableHook } from "./options.js";

/** An offset to commit: the next record to read of a partition. */
export interface CommitOffset {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
}

interface Pending {
  readonly next: string;
  settled: boolean;
}

/**
 * Which offsets may be committed when a batch's tallies are finished later than the batch is read
 * (validation on worker threads): per partition, the batches in the order they were read, each with
 * the promise of its tallies. An offset becomes committable when every batch up to it is tallied, so a
 * commit never runs ahead of the tallies even when batches finish out of order.
 */
export class CommitTracker {
  readonly #queues = new Map<string, { topic: string; partition: number; pending: Pending[] }>();
  /** The committable offset of each partition, and the last one the group took. */
  readonly #ready = new Map<string, CommitOffset>();
  readonly #committed = new Map<string, string>();
  readonly #inFlight = new Set<Promise<unknown>>();

  /** A batch of the partition was read up to `next` (exclusive); its tallies are finished when `done` is. */
  track(topic: string, partition: number, next: string, done: Promise<unknown>): void {
    const key = `${topic}\u0000${partition}`;
    let queue = this.#queues.get(key);
    if (!queue) this.#queues.set(key, (queue = { topic, partition, pending: [] }));
    const entry: Pending = { next, settled: false };
    queue.pending.push(entry);
    const settle = (): void => {
      entry.settled = true;
      this.#advance(key);
    };
    // A batch whose validation failed is still tallied (its records counted, the loss counted).
    const tracked = done.then(settle, settle);
    this.#inFlight.add(tracked);
    void tracked.finally(() => this.#inFlight.delete(tracked));
  }

  #advance(key: string): void {
    const queue = this.#queues.get(key);
    if (!queue) return;
    let last: Pending | undefined;
    while (queue.pending.length > 0 && queue.pending[0]!.settled) last = queue.pending.shift();
    if (last) this.#ready.set(key, { topic: queue.topic, partition: queue.partition, offset: last.next });
  }

  /** The committable offsets not committed yet. */
  uncommitted(): CommitOffset[] {
    const out: CommitOffset[] = [];
    for (const [key, offset] of this.#ready) if (this.#committed.get(key) !== offset.offset) out.push(offset);
    return out;
  }

  /** The group took these offsets. */
  committed(offsets: readonly CommitOffset[]): void {
    for (const o of offsets) this.#committed.set(`${o.topic}\u0000${o.partition}`, o.offset);
  }

  /** Waits until every tracked batch is tallied. */
  async drain(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all([...this.#inFlight]);
  }

  /** Forgets everything: a new assignment starts from the offsets the group committed. */
  reset(): void {
    this.#queues.clear();
    this.#ready.clear();
    this.#committed.clear();
  }
}

/** What kafkajs's COMMIT_OFFSETS event says: the offsets the group coordinator took. */
export interface CommitEvent {
  readonly payload: {
    readonly topics: ReadonlyArray<{
      readonly topic: string;
      /** kafkajs sends a Long here, whatever its types say: read with String(). */
      readonly partitions: ReadonlyArray<{ readonly partition: number; readonly offset: unknown }>;
    }>;
  };
}

/** The part of a kafkajs consumer that deferred commits use. */
export interface CommittingConsumer {
  commitOffsets(offsets: CommitOffset[]): Promise<void>;
  pause(topics: Array<{ topic: string }>): void;
  on(eventName: "consumer.commit_offsets", listener: (event: CommitEvent) => void): () => void;
  readonly events: { readonly COMMIT_OFFSETS: "consumer.commit_offsets" };
}

/** A commit call that returned without an error, but for offsets the group never took. */
export class CommitNotTaken extends Error {
  constructor(readonly offsets: readonly CommitOffset[]) {
    super(
      `kafkajs returned without committing ${offsets.length} offset(s) (its consumer was not running: ` +
        "stopping or crashed); they stay pending",
    );
    this.name = "CommitNotTaken";
  }
}

/**
 * Commits for a consumer run with kafkajs's autoCommit off: every `intervalMs`, on a rebalance, and
 * when the source stops (after the last batch's tallies), each partition's committable offset. Not
 * after every batch, as kafkajs's autoCommit would; with validation workers a batch's tallies also
 * finish after kafkajs has moved on.
 */
export class DeferredCommits {
  readonly tracker = new CommitTracker();
  /** Per partition, the last offset read here (counted, tallies maybe pending) and the next committed. */
  readonly #read = new Map<string, bigint>();
  readonly #committedNext = new Map<string, bigint>();
  readonly #consumer: CommittingConsumer;
  readonly #onError: (error: unknown) => void;
  #timer: NodeJS.Timeout | undefined;
  #active = 0;
  #idle: Array<() => void> = [];
  #committing: Promise<void> = Promise.resolve();
  /** Per partition, the offsets kafkajs said the coordinator took during the commit under way. */
  readonly #taken = new Map<string, Set<string>>();
  readonly #unlisten: () => void;

  /**
   * `previous`: the commits of the consumer this one replaces (a reconnect in the same process). What
   * it read and committed carries over, so that the new consumer, resuming at the group's committed
   * offsets, skips the records the old one counted rather than counting them twice.
   */
  constructor(
    consumer: CommittingConsumer,
    intervalMs: number,
    onError: (error: unknown) => void,
    previous?: DeferredCommits,
  ) {
    if (previous !== undefined) {
      for (const [key, offset] of previous.#read) this.#read.set(key, offset);
      for (const [key, offset] of previous.#committedNext) this.#committedNext.set(key, offset);
    }
    this.#consumer = consumer;
    this.#onError = onError;
    // Why the event and not a check that the consumer runs, or a read of the group's offsets: kafkajs
    // 2.2.4's Runner#commitOffsets resolves without committing whenever its runner is not running
    // (from the first step of a stop or a crash until the runner is dropped, and when a failed attempt
    // finds it stopped), and `running` turns false before any event says so, so a check before and
    // after would miss a stop that began in between. A read back (admin.fetchOffsets) costs a request
    // per commit. COMMIT_OFFSETS is sent by kafkajs only after the coordinator answered the
    // OffsetCommit without an error (any partition's error fails the whole request), synchronously,
    // before commitOffsets resolves: it is the proof, and it is free.
    this.#unlisten = consumer.on(consumer.events.COMMIT_OFFSETS, ({ payload }) => {
      for (const { topic, partitions } of payload.topics)
        for (const p of partitions) {
          const key = `${topic}\u0000${p.partition}`;
          let taken = this.#taken.get(key);
          if (!taken) this.#taken.set(key, (taken = new Set()));
          taken.add(String(p.offset));
        }
    });
    this.#timer = setInterval(() => void this.commit(), intervalMs);
    this.#timer.unref();
  }

  /** Wraps the eachBatch handler to know when no batch is being read. */
  wrap<P>(handler: (payload: P) => Promise<void>): (payload: P) => Promise<void> {
    return async (payload) => {
      this.#active++;
      try {
        await handler(payload);
      } finally {
        if (--this.#active === 0) for (const resolve of this.#idle.splice(0)) resolve();
      }
    };
  }

  /** A batch of the partition was read up to `next` (exclusive); its tallies finish with `done`. */
  track(topic: string, partition: number, next: string, done: Promise<unknown>): void {
    this.#read.set(`${topic}\u0000${partition}`, BigInt(next) - 1n);
    this.tracker.track(topic, partition, next, done);
  }

  /**
   * A new group's start offset, seeked on the first assignment: committable at once, and nothing
   * before it was read here.
   */
  start(topic: string, partition: number, offset: string): void {
    this.tracker.track(topic, partition, offset, Promise.resolve());
  }

  /**
   * The last offset of the partition already counted here, when a batch starting at `first` re-reads
   * it: after a rejoin kafkajs resumes at the group's committed offset, and the batches read since the
   * last commit come again. Records up to it are skipped rather than counted twice. Only a resumption
   * at or past this member's own last commit qualifies, so offsets that truly start over (a topic
   * recreated) are never skipped.
   */
  alreadyCounted(topic: string, partition: number, first: string): bigint | undefined {
    const key = `${topic}\u0000${partition}`;
    const read = this.#read.get(key);
    if (read === undefined) return undefined;
    const offset = BigInt(first);
    const committed = this.#committedNext.get(key) ?? 0n;
    return offset <= read && offset >= committed ? read : undefined;
  }

  /** A topic went away: offsets read of it mean nothing for a topic of the same name created later. */
  forget(topic: string): void {
    for (const key of [...this.#read.keys()]) if (key.startsWith(`${topic}\u0000`)) this.#read.delete(key);
  }

  /**
   * Commits what is committable now; one commit at a time. Only offsets the coordinator is known to
   * have taken (kafkajs's COMMIT_OFFSETS) count as committed; the others stay pending, for the next
   * commit to carry, or for the next consumer, resuming at the group's real commit, to skip as
   * already counted.
   */
  commit(): Promise<void> {
    this.#committing = this.#committing.then(async () => {
      const offsets = this.tracker.uncommitted();
      if (offsets.length === 0) return;
      this.#taken.clear();
      let failed = false;
      try {
        await this.#consumer.commitOffsets(offsets);
      } catch (error) {
        // The next commit carries them again; a rebalance that wins the race re-reads them instead.
        failed = true;
        this.#onError(error);
      }
      // One pass, taken or not: a commit may carry every assigned partition, once a second.
      const taken: CommitOffset[] = [];
      const missing: CommitOffset[] = [];
      for (const o of offsets)
        (this.#taken.get(`${o.topic}\u0000${o.partition}`)?.has(o.offset) ? taken : missing).push(o);
      this.#taken.clear();
      this.tracker.committed(taken);
      for (const o of taken) this.#committedNext.set(`${o.topic}\u0000${o.partition}`, BigInt(o.offset));
      if (!failed && missing.length > 0) this.#onError(new CommitNotTaken(missing));
    });
    return this.#committing;
  }

  /** Per partition, the offset this member knows the group took last (what a restart resumes at). */
  committedOffsets(): CommitOffset[] {
    return [...this.#committedNext].map(([key, next]) => {
      const at = key.lastIndexOf("\u0000");
      return { topic: key.slice(0, at), partition: Number(key.slice(at + 1)), offset: next.toString() };
    });
  }

  /** A new assignment: kafkajs fetches from what the group committed, so older batches are moot. */
  assigned(): void {
    this.tracker.reset();
  }

  /**
   * Before the consumer leaves: no more fetches, the batch being read finished, every tally recorded,
   * and their offsets committed. Bounded by the caller.
   */
  async finish(topics: readonly string[]): Promise<void> {
    try {
      this.#consumer.pause(topics.map((topic) => ({ topic })));
    } catch {
      // Not running (the broker was never reached): nothing to pause, nothing to commit.
    }
    if (this.#active > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
    await this.tracker.drain();
    await this.commit();
    this.stop();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#unlisten();
  }
}

/**
 * How the consumer runs its batches, and who commits: `commits`, always, with kafkajs's autoCommit off.
 * kafkajs's autoCommit commits after every partition batch whatever its interval says (Runner#handleBatch
 * forces it), some 800 commits per million records and a tenth of the CPU per record at ratio 0.01
 * (BENCHMARKS.md); commits every `commitIntervalMs`, on a rebalance and at stop carry the same offsets.
 * With eachBatchAutoResolve off, an offset is committable only after the sink has tallied its record.
 * Without workers the handler awaits the sink's flush (a record held for a lookup holds its partition),
 * so a batch's offsets are committable when it ends; with `talliesLater` (validation workers) tallies
 * finish after kafkajs moved on, and a batch's offsets wait for them.
 */
export function runConfig(
  sink: RecordSink,
  log: Logger,
  hooks: {
    readonly onBatchEnd?: BatchEndHook | undefined;
    readonly onUndecodable: UndecodableHook;
    readonly talliesLater?: boolean | undefined;
  },
  commits: DeferredCommits,
): ConsumerRunConfig {
  const { talliesLater, ...rest } = hooks;
  const tallied = Promise.resolve();
  const handler = batchHandler(sink, log, {
    ...rest,
    onDeferred: talliesLater
      ? (topic, partition, next, done) => commits.track(topic, partition, next, done)
      : undefined,
    onTallied: talliesLater
      ? undefined
      : (topic, partition, next) => commits.track(topic, partition, next, tallied),
    alreadyCounted: (topic, partition, first) => commits.alreadyCounted(topic, partition, first),
  });
  return { autoCommit: false, eachBatchAutoResolve: false, eachBatch: commits.wrap(handler) };
}
