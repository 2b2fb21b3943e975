// What bench/replicas.js checks against Kafka itself: the group's lag, which member owns which
// partition, and whether the shared state topic agrees with both.
import { randomUUID } from "node:crypto";
import { AssignerProtocol } from "kafkajs";

/** Records not yet committed by the group, over every partition of the topic. */
export async function groupLag(admin, groupId, topic) {
  const [high, [committed]] = await Promise.all([
    admin.fetchTopicOffsets(topic),
    admin.fetchOffsets({ groupId, topics: [topic] }),
  ]);
  const at = new Map(committed.partitions.map((p) => [p.partition, BigInt(p.offset)]));
  let lag = 0n;
  for (const p of high) {
    const done = at.get(p.partition) ?? -1n;
    lag += BigInt(p.high) - (done < 0n ? BigInt(p.low) : done);
  }
  return { lag: Number(lag), high };
}

/** partition → the clientId of the member the group assigned it to. */
export async function owners(admin, groupId, topic) {
  const { groups } = await admin.describeGroups([groupId]);
  const owner = new Map();
  for (const member of groups[0]?.members ?? []) {
    if (member.memberAssignment.length === 0) continue;
    const decoded = AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
    for (const p of decoded?.assignment[topic] ?? []) owner.set(p, member.clientId);
  }
  return { state: groups[0]?.state, owner };
}

/** The state topic read whole: the latest value of each key (tombstones remove it). */
export async function readStateTopic(kafka, admin, stateTopic) {
  const [{ high }] = await admin.fetchTopicOffsets(stateTopic);
  const latest = new Map();
  if (high === "0") return latest;
  const consumer = kafka.consumer({ groupId: `bench-state-reader-${randomUUID()}` });
  await consumer.connect();
  await consumer.subscribe({ topics: [stateTopic], fromBeginning: true });
  await new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error("state topic not read in 60 s")), 60_000);
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
  await consumer.disconnect();
  return latest;
}

/**
 * Every partition's coverage record names the member that owns the partition now (`replicaOf` maps
 * a clientId to its replica id) and has read it to its end; no record names a partition that does
 * not exist. Returns the problems found, each a sentence, and counts.
 */
export function checkCoverage(state, topic, high, owner, replicaOf) {
  const problems = [];
  let accounted = 0;
  for (const { partition, high: end } of high) {
    const record = state.get(`coverage/${encodeURIComponent(topic)}/${partition}`);
    if (record === undefined) {
      problems.push(`${topic}/${partition}: no coverage record`);
      continue;
    }
    const expected = replicaOf(owner.get(partition));
    const lastOffset = end === "0" ? null : String(BigInt(end) - 1n);
    const c = record.coverage;
    if (record.owner !== expected)
      problems.push(`${topic}/${partition}: owner ${record.owner}, assigned to ${expected}`);
    else if (c.lastOffset !== lastOffset && !(lastOffset === null && c.lastOffset === null))
      problems.push(`${topic}/${partition}: last offset ${c.lastOffset}, log end ${end}`);
    else if (!(c.coveredSince <= c.observedUntil))
      problems.push(`${topic}/${partition}: covered after observed`);
    else accounted++;
  }
  const prefix = `coverage/${encodeURIComponent(topic)}/`;
  const extra = [...state.keys()].filter(
    (k) => k.startsWith(prefix) && Number(k.slice(prefix.length)) >= high.length,
  );
  for (const k of extra) problems.push(`${k}: a partition the topic does not have`);
  return { problems, accounted };
}
