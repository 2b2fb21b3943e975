// Replicas of the monitor checked against Kafka and Prometheus: the group's lag, which member owns
// which partition, the shared state topic read whole and checked against both, and a counter summed
// over the lives of restarted processes. Imports only kafkajs and node: bench/replicas.js loads this
// file as it is (Node strips the types), so the benchmark and the test check the same way.
import { randomUUID } from "node:crypto";
import { AssignerProtocol, type Admin, type Kafka } from "kafkajs";

export interface PartitionEnd {
  readonly partition: number;
  readonly high: string;
}

/** Records not yet committed by the group over every partition of the topic, and each log end. */
export async function groupLag(
  admin: Admin,
  groupId: string,
  topic: string,
): Promise<{ lag: number; high: PartitionEnd[] }> {
  const [ends, fetched] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const committed = new Map((fetched[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
  let lag = 0n;
  for (const p of ends) {
    const done = committed.get(p.partition) ?? -1n;
    lag += BigInt(p.high) - (done < 0n ? BigInt(p.low) : done);
  }
  return { lag: Number(lag), high: ends.map((p) => ({ partition: p.partition, high: p.high })) };
}

/** partition → the clientId of the group member it is assigned to. */
export async function owners(admin: Admin, groupId: string, topic: string): Promise<Map<number, string>> {
  const { groups } = await admin.describeGroups([groupId]);
  const owner = new Map<number, string>();
  for (const member of groups[0]?.members ?? []) {
    if (member.memberAssignment.length === 0) continue;
    const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
    for (const p of decoded?.assignment[topic] ?? []) owner.set(p, member.clientId);
  }
  return owner;
}

/** The state topic read whole: the latest value of each key (a tombstone removes it). */
export async function readStateTopic(
  kafka: Kafka,
  admin: Admin,
  stateTopic: string,
): Promise<Map<string, unknown>> {
  const high = (await admin.fetchTopicOffsets(stateTopic)).find((p) => p.partition === 0)?.high ?? "0";
  const latest = new Map<string, unknown>();
  if (high === "0") return latest;
  const consumer = kafka.consumer({ groupId: `state-reader-${randomUUID()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [stateTopic], fromBeginning: true });
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`state topic ${stateTopic} not read in 60 s`)), 60_000);
      void consumer.run({
        autoCommit: false,
        eachMessage: async ({ message }) => {
          const key = message.key?.toString("utf8") ?? "";
          if (message.value === null) latest.delete(key);
          else latest.set(key, JSON.parse(message.value.toString("utf8")));
          if (BigInt(message.offset) + 1n >= BigInt(high)) {
            clearTimeout(timer);
            done();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return latest;
}

interface CoverageRecord {
  owner: string;
  coverage: { lastOffset: string | null; coveredSince: number; observedUntil: number };
}

/**
 * Every partition's coverage record names the replica whose member owns the partition now
 * (`replicaOf` maps a member's clientId to its replica id) and has read it to its log end; no record
 * names a partition the topic does not have. Returns each problem as a sentence, and how many
 * partitions are accounted for.
 */
export function checkCoverage(
  state: ReadonlyMap<string, unknown>,
  topic: string,
  ends: readonly PartitionEnd[],
  owner: ReadonlyMap<number, string>,
  replicaOf: (clientId: string | undefined) => string,
): { problems: string[]; accounted: number } {
  const problems: string[] = [];
  let accounted = 0;
  const prefix = `coverage/${encodeURIComponent(topic)}/`;
  for (const { partition, high } of ends) {
    const record = state.get(`${prefix}${partition}`) as CoverageRecord | undefined;
    if (record === undefined) {
      problems.push(`${topic}/${partition}: no coverage record`);
      continue;
    }
    const expected = replicaOf(owner.get(partition));
    const lastOffset = high === "0" ? null : String(BigInt(high) - 1n);
    const c = record.coverage;
    if (record.owner !== expected)
      problems.push(`${topic}/${partition}: published by ${record.owner}, assigned to ${expected}`);
    else if (c.lastOffset !== lastOffset)
      problems.push(`${topic}/${partition}: last offset ${c.lastOffset}, log end ${high}`);
    else if (!(c.coveredSince <= c.observedUntil))
      problems.push(`${topic}/${partition}: covered since after observed until`);
    else accounted++;
  }
  for (const key of state.keys())
    if (key.startsWith(prefix) && Number(key.slice(prefix.length)) >= ends.length)
      problems.push(`${key}: a partition the topic does not have`);
  return { problems, accounted };
}

/** Raw samples of a range selector, as Prometheus's query API returns a matrix. */
interface RawSeries {
  readonly metric: Readonly<Record<string, string>>;
  readonly values: ReadonlyArray<readonly [number, string]>;
}

export interface Life {
  readonly instance: string;
  readonly start: number;
  /** The counter's sum over its series at the life's last scrape, and when that was (s). */
  readonly last: number;
  readonly lastAt: number;
}

/**
 * A counter summed over every life of every instance: per instance and scrape the sum of the
 * counter's series; per process life (told apart by `process_start_time_seconds`: a restarted
 * process counts from 0 again) its last scraped sum.
 */
export function sumOverLives(
  counter: readonly RawSeries[],
  starts: readonly RawSeries[],
): { total: number; lives: Life[] } {
  const startAt = new Map<string, Map<number, string>>();
  for (const s of starts) {
    const map = startAt.get(s.metric["instance"]!) ?? new Map<number, string>();
    for (const [t, v] of s.values) map.set(t, v);
    startAt.set(s.metric["instance"]!, map);
  }
  const sums = new Map<string, Map<number, number>>();
  for (const s of counter) {
    const map = sums.get(s.metric["instance"]!) ?? new Map<number, number>();
    for (const [t, v] of s.values) map.set(t, (map.get(t) ?? 0) + Number(v));
    sums.set(s.metric["instance"]!, map);
  }
  const lives = new Map<string, Life>();
  for (const [instance, map] of sums)
    for (const [t, sum] of map) {
      const start = startAt.get(instance)?.get(t);
      if (start === undefined) throw new Error(`no process_start_time_seconds for ${instance} at ${t}`);
      const key = `${instance} ${start}`;
      const life = lives.get(key);
      if (!life || t > life.lastAt) lives.set(key, { instance, start: Number(start), last: sum, lastAt: t });
    }
  const all = [...lives.values()].sort((a, b) => a.instance.localeCompare(b.instance) || a.start - b.start);
  return { total: all.reduce((s, l) => s + l.last, 0), lives: all };
}
