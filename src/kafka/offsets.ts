import type { Admin } from "kafkajs";
import type { PartitionEnds } from "../health/health.js";

/** Records per partition, per topic. */
export type PartitionCounts = Map<string, Map<number, number>>;

/** Offsets per partition, per topic, as kafkajs spells them (decimal strings). */
export type PartitionOffsets = Map<string, Map<number, string>>;

/** The ends of every partition, per topic. */
export type PartitionEndOffsets = Map<string, Map<number, PartitionEnds>>;

/** What one lag measurement found. */
export interface GroupLag {
  /** Records the group has not read yet, up to the last stable offset. */
  readonly lag: PartitionCounts;
  /** Each partition's ends; only where the log end could be read too. */
  readonly ends: PartitionEndOffsets;
}

interface TopicOffsets {
  readonly topic: string;
  /** partition → [low, high]; high is the last stable offset (kafkajs lists offsets read_committed) */
  readonly ends: Map<number, readonly [bigint, bigint]>;
  /** partition → committed offset, -1n when the group committed nothing */
  readonly committed: Map<number, bigint>;
  /** partition → log end offset, when asked for */
  readonly logEnds: Map<number, bigint> | undefined;
}

async function topicOffsets(
  admin: Admin,
  groupId: string,
  topic: string,
  logEndAdmin?: Admin,
): Promise<TopicOffsets> {
  // The log end first, the stable offset after it: a record appended between the two then moves the
  // stable offset past the log end read before it (no open transaction seen where there is none),
  // while a transaction still open keeps the stable offset at its first record.
  const logEnds = await logEndAdmin?.fetchTopicOffsets(topic);
  const [ends, committed] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const result: TopicOffsets = {
    topic,
    ends: new Map(),
    committed: new Map(),
    logEnds: logEnds === undefined ? undefined : new Map(),
  };
  for (const end of ends) result.ends.set(end.partition, [BigInt(end.low), BigInt(end.high)]);
  for (const p of committed.find((c) => c.topic === topic)?.partitions ?? []) {
    result.committed.set(p.partition, BigInt(p.offset));
  }
  for (const end of logEnds ?? []) result.logEnds!.set(end.partition, BigInt(end.high));
  return result;
}

/**
 * The group's lag on every partition of `topics`: the last stable offset minus the committed offset;
 * where the group committed nothing, every retained record (high minus low). With `logEndAdmin`
 * (see log-end.ts), also each partition's log end, which lies past the last stable offset while a
 * transaction is open. A topic whose offsets cannot be read is left out and reported through
 * `onTopicError`, so one missing topic hides no other.
 */
export async function measureGroupLag(
  admin: Admin,
  groupId: string,
  topics: readonly string[],
  onTopicError: (topic: string, error: unknown) => void,
  logEndAdmin?: Admin,
): Promise<GroupLag> {
  const lag: PartitionCounts = new Map();
  const ends: PartitionEndOffsets = new Map();
  const results = await Promise.allSettled(
    topics.map((topic) => topicOffsets(admin, groupId, topic, logEndAdmin)),
  );
  results.forEach((result, i) => {
    if (result.status === "rejected") {
      onTopicError(topics[i]!, result.reason);
      return;
    }
    const partitions = new Map<number, number>();
    const topicEnds = new Map<number, PartitionEnds>();
    for (const [partition, [low, high]] of result.value.ends) {
      const committed = result.value.committed.get(partition) ?? -1n;
      const from = committed < 0n ? low : committed;
      // A committed offset past the high watermark (a truncated log) is no negative lag.
      partitions.set(partition, Number(high > from ? high - from : 0n));
      const logEnd = result.value.logEnds?.get(partition);
      // Listed before the stable offset, the log end can lie below it (records appended, or a
      // transaction committed, in between): never below the stable offset.
      if (logEnd !== undefined)
        topicEnds.set(partition, { stable: high, logEnd: logEnd > high ? logEnd : high });
    }
    lag.set(result.value.topic, partitions);
    if (result.value.logEnds !== undefined) ends.set(result.value.topic, topicEnds);
  });
  return { lag, ends };
}

/**
 * Where the group starts on the partitions it has never committed: the high watermark (or the low
 * one with `fromBeginning`), read now. Committing these at the first assignment makes a restart
 * resume from here even when no record arrived in between; kafkajs alone would look up "latest"
 * again on the next start and skip what was produced while the monitor was down. A topic whose
 * offsets cannot be read is left to kafkajs and reported through `onTopicError`.
 */
export async function uncommittedStarts(
  admin: Admin,
  groupId: string,
  topics: readonly string[],
  fromBeginning: boolean,
  onTopicError: (topic: string, error: unknown) => void,
): Promise<PartitionOffsets> {
  const starts: PartitionOffsets = new Map();
  const results = await Promise.allSettled(topics.map((topic) => topicOffsets(admin, groupId, topic)));
  for (const [i, result] of results.entries()) {
    if (result.status === "rejected") {
      onTopicError(topics[i]!, result.reason);
      continue;
    }
    const offsets = result.value;
    const partitions = new Map<number, string>();
    for (const [partition, [low, high]] of offsets.ends) {
      if ((offsets.committed.get(partition) ?? -1n) >= 0n) continue;
      partitions.set(partition, (fromBeginning ? low : high).toString());
    }
    if (partitions.size > 0) starts.set(offsets.topic, partitions);
  }
  return starts;
}
