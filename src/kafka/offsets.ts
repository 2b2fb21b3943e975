import type { Admin } from "kafkajs";

/** Records per partition, per topic. */
export type PartitionCounts = Map<string, Map<number, number>>;

/** Offsets per partition, per topic, as kafkajs spells them (decimal strings). */
export type PartitionOffsets = Map<string, Map<number, string>>;

interface TopicOffsets {
  readonly topic: string;
  /** partition → [low, high] */
  readonly ends: Map<number, readonly [bigint, bigint]>;
  /** partition → committed offset, -1n when the group committed nothing */
  readonly committed: Map<number, bigint>;
}

async function topicOffsets(admin: Admin, groupId: string, topic: string): Promise<TopicOffsets> {
  const [ends, committed] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const result: TopicOffsets = { topic, ends: new Map(), committed: new Map() };
  for (const end of ends) result.ends.set(end.partition, [BigInt(end.low), BigInt(end.high)]);
  for (const p of committed.find((c) => c.topic === topic)?.partitions ?? []) {
    result.committed.set(p.partition, BigInt(p.offset));
  }
  return result;
}

/**
 * The group's lag on every partition of `topics`: high watermark minus committed offset; where the
 * group committed nothing, every retained record (high minus low). A topic whose offsets cannot be
 * read is left out and reported through `onTopicError`, so one missing topic hides no other.
 */
export async function measureGroupLag(
  admin: Admin,
  groupId: string,
  topics: readonly string[],
  onTopicError: (topic: string, error: unknown) => void,
): Promise<PartitionCounts> {
  const lag: PartitionCounts = new Map();
  const results = await Promise.allSettled(topics.map((topic) => topicOffsets(admin, groupId, topic)));
  results.forEach((result, i) => {
    if (result.status === "rejected") {
      onTopicError(topics[i]!, result.reason);
      return;
    }
    const partitions = new Map<number, number>();
    for (const [partition, [low, high]] of result.value.ends) {
      const committed = result.value.committed.get(partition) ?? -1n;
      const from = committed < 0n ? low : committed;
      // A committed offset past the high watermark (a truncated log) is no negative lag.
      partitions.set(partition, Number(high > from ? high - from : 0n));
    }
    lag.set(result.value.topic, partitions);
  });
  return lag;
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
