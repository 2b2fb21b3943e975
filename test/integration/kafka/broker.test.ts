// Proves the broker + client combination schemawatch depends on: kafkajs 2.2.4 against the test broker
// (Apache Kafka 4.x from scripts/kafka-broker.sh, or a container). Every capability the monitor uses is
// exercised with exact assertions: headers, consumer groups with eachBatch and manual commits, resuming
// from the committed offset, topic and group offsets for lag, and partitions split between two members.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Consumer, ConsumerConfig, KafkaMessage } from "kafkajs";

import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  produce,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";

const TEST_TIMEOUT = 60_000;

let brokers: string[] = [];
const consumers: Consumer[] = [];

let noBroker: unknown;

beforeAll(async () => {
  // A container start (Docker only) may take a while; a broker from KAFKA_BROKERS answers at once.
  // Without a broker every test below fails with the reason (a failed beforeAll would report them skipped).
  try {
    brokers = await kafkaBrokers();
  } catch (error) {
    noBroker = error;
  }
}, 180_000);

beforeEach(() => {
  if (noBroker !== undefined) throw noBroker;
});

afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.disconnect().catch(() => undefined)));
});

function testConsumer(groupId: string, config: Partial<ConsumerConfig> = {}): Consumer {
  const consumer = kafkaClient(brokers).consumer({
    groupId,
    sessionTimeout: 10_000,
    rebalanceTimeout: 10_000,
    heartbeatInterval: 500,
    maxWaitTimeInMs: 200,
    ...config,
  });
  consumers.push(consumer);
  return consumer;
}

function text(value: Buffer | string | (Buffer | string)[] | null | undefined): string | string[] | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => v.toString());
  return value.toString();
}

interface Received {
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string | string[] | null>;
}

function received(partition: number, message: KafkaMessage): Received {
  const headers: Record<string, string | string[] | null> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = text(value);
  return {
    partition,
    offset: message.offset,
    key: text(message.key) as string | null,
    value: text(message.value) as string | null,
    headers,
  };
}

interface Sent {
  key: string;
  value: string;
  headers: Record<string, string | string[]>;
}

/** high watermark minus committed offset, per partition, as the monitor computes consumer lag. */
async function groupLag(groupId: string, topic: string): Promise<Record<number, number>> {
  return withAdmin(brokers, async (admin) => {
    const [committed, ends] = await Promise.all([
      admin.fetchOffsets({ groupId, topics: [topic] }),
      admin.fetchTopicOffsets(topic),
    ]);
    const lag: Record<number, number> = {};
    for (const end of ends) {
      const c = committed[0]?.partitions.find((p) => p.partition === end.partition);
      const done = c === undefined || c.offset === "-1" ? 0 : Number(c.offset);
      lag[end.partition] = Number(end.high) - done;
    }
    return lag;
  });
}

describe("Kafka broker with kafkajs", () => {
  it(
    "describes the cluster, creates a multi-partition topic and reports its offsets",
    async () => {
      const topic = freshTopic("sw-admin");
      const cluster = await withAdmin(brokers, (admin) => admin.describeCluster());
      expect(cluster.brokers).toHaveLength(1);
      expect(typeof cluster.controller).toBe("number");
      const nodeId = cluster.brokers[0]?.nodeId;

      await createTopic(brokers, topic, 3);
      const metadata = await withAdmin(brokers, (admin) => admin.fetchTopicMetadata({ topics: [topic] }));
      expect(metadata.topics).toHaveLength(1);
      const partitions = [...(metadata.topics[0]?.partitions ?? [])].sort(
        (a, b) => a.partitionId - b.partitionId,
      );
      expect(partitions.map((p) => [p.partitionId, p.leader, p.replicas])).toEqual([
        [0, nodeId, [nodeId]],
        [1, nodeId, [nodeId]],
        [2, nodeId, [nodeId]],
      ]);
      expect(await withAdmin(brokers, (admin) => admin.listTopics())).toContain(topic);

      const before = await withAdmin(brokers, (admin) => admin.fetchTopicOffsets(topic));
      expect(before.map((o) => [o.partition, o.low, o.high]).sort()).toEqual([
        [0, "0", "0"],
        [1, "0", "0"],
        [2, "0", "0"],
      ]);

      const sent = await produce(brokers, topic, [
        { value: "a", partition: 0 },
        { value: "b", partition: 0 },
        { value: "c", partition: 0 },
        { value: "d", partition: 1 },
        { value: "e", partition: 1 },
        { value: "f", partition: 2 },
      ]);
      expect(sent.map((r) => [r.partition, r.errorCode, r.baseOffset]).sort()).toEqual([
        [0, 0, "0"],
        [1, 0, "0"],
        [2, 0, "0"],
      ]);

      const after = await withAdmin(brokers, (admin) => admin.fetchTopicOffsets(topic));
      expect(after.map((o) => [o.partition, o.low, o.high]).sort()).toEqual([
        [0, "0", "3"],
        [1, "0", "2"],
        [2, "0", "1"],
      ]);
    },
    TEST_TIMEOUT,
  );

  it(
    "creates a topic on first produce (auto.create.topics.enable) with one partition",
    async () => {
      const topic = freshTopic("sw-auto");
      const producer = kafkaClient(brokers).producer({ allowAutoTopicCreation: true });
      await producer.connect();
      try {
        const sent = await producer.send({ topic, messages: [{ value: "x" }] });
        expect(sent.map((r) => [r.partition, r.errorCode, r.baseOffset])).toEqual([[0, 0, "0"]]);
      } finally {
        await producer.disconnect();
      }
      const metadata = await withAdmin(brokers, (admin) => admin.fetchTopicMetadata({ topics: [topic] }));
      expect(metadata.topics[0]?.partitions).toHaveLength(1);
    },
    TEST_TIMEOUT,
  );

  it(
    "keeps headers, commits after eachBatch, resumes from the committed offset and reports lag",
    async () => {
      const topic = freshTopic("sw-resume");
      const groupId = freshGroupId("sw-resume");
      await createTopic(brokers, topic, 1);

      const record = (i: number): Sent => ({
        key: `k${i}`,
        value: JSON.stringify({ id: i, name: `order-${i}` }),
        headers: { "schema-version": `1.${i}.0`, producer: "svc-a", trace: ["t1", `t${i}`] },
      });
      await produce(
        brokers,
        topic,
        [0, 1, 2, 3, 4].map((i) => ({
          ...record(i),
          headers: { ...record(i).headers, bin: Buffer.from([0, 255]) },
        })),
      );

      // First member: processes every batch, then commits the offset after the last record itself.
      const first: Received[] = [];
      let binHeader: Buffer | undefined;
      const c1 = testConsumer(groupId);
      await c1.connect();
      await c1.subscribe({ topics: [topic], fromBeginning: true });
      await c1.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset, heartbeat }) => {
          for (const message of batch.messages) {
            first.push(received(batch.partition, message));
            const bin = message.headers?.["bin"];
            if (Buffer.isBuffer(bin)) binHeader = bin;
            resolveOffset(message.offset);
          }
          const last = batch.lastOffset();
          await c1.commitOffsets([
            { topic, partition: batch.partition, offset: (BigInt(last) + 1n).toString() },
          ]);
          await heartbeat();
        },
      });
      await waitFor(() => first.length >= 5, "the first consumer to read 5 records");
      expect(first).toEqual(
        [0, 1, 2, 3, 4].map((i) => ({
          partition: 0,
          offset: String(i),
          ...record(i),
          // 0xff is no UTF-8: the decoded text shows U+FFFD, the raw Buffer is checked below
          headers: { ...record(i).headers, bin: "\u0000\ufffd" },
        })),
      );
      expect(binHeader).toEqual(Buffer.from([0, 255]));
      await waitFor(async () => (await groupLag(groupId, topic))[0] === 0, "the commit of offset 5");
      expect(await withAdmin(brokers, (admin) => admin.fetchOffsets({ groupId, topics: [topic] }))).toEqual([
        { topic, partitions: [{ partition: 0, offset: "5", metadata: null }] },
      ]);
      await c1.disconnect();

      await produce(brokers, topic, [5, 6, 7].map(record));
      expect(await groupLag(groupId, topic)).toEqual({ 0: 3 });

      // Second member of the same group, fromBeginning again: it must start at the committed offset 5.
      const second: Received[] = [];
      const c2 = testConsumer(groupId);
      await c2.connect();
      await c2.subscribe({ topics: [topic], fromBeginning: true });
      await c2.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        eachBatch: async ({ batch, resolveOffset }) => {
          for (const message of batch.messages) {
            second.push(received(batch.partition, message));
            resolveOffset(message.offset);
          }
          await c2.commitOffsets([
            { topic, partition: batch.partition, offset: (BigInt(batch.lastOffset()) + 1n).toString() },
          ]);
        },
      });
      await waitFor(() => second.length >= 3, "the second consumer to read 3 records");
      await waitFor(async () => (await groupLag(groupId, topic))[0] === 0, "the commit of offset 8");
      expect(second).toEqual([5, 6, 7].map((i) => ({ partition: 0, offset: String(i), ...record(i) })));
      expect(await withAdmin(brokers, (admin) => admin.fetchOffsets({ groupId, topics: [topic] }))).toEqual([
        { topic, partitions: [{ partition: 0, offset: "8", metadata: null }] },
      ]);
    },
    TEST_TIMEOUT,
  );

  it(
    "splits the partitions of a topic between two consumers of one group",
    async () => {
      const topic = freshTopic("sw-split");
      const groupId = freshGroupId("sw-split");
      await createTopic(brokers, topic, 4);

      const members = ["a", "b"] as const;
      const assigned: Record<(typeof members)[number], number[]> = { a: [], b: [] };
      const got: Record<(typeof members)[number], Received[]> = { a: [], b: [] };
      const start = async (name: (typeof members)[number]): Promise<void> => {
        const consumer = testConsumer(groupId);
        consumer.on(consumer.events.GROUP_JOIN, (event) => {
          assigned[name] = [...(event.payload.memberAssignment[topic] ?? [])].sort();
        });
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning: true });
        await consumer.run({
          eachBatch: async ({ batch }) => {
            for (const message of batch.messages) got[name].push(received(batch.partition, message));
          },
        });
      };

      await start("a");
      await waitFor(() => assigned.a.length === 4, "the first member to own all 4 partitions");
      expect(assigned.a).toEqual([0, 1, 2, 3]);
      await start("b");
      await waitFor(
        () => assigned.a.length === 2 && assigned.b.length === 2,
        "the group to rebalance to 2 partitions per member",
      );
      expect([...assigned.a, ...assigned.b].sort()).toEqual([0, 1, 2, 3]);

      const group = await withAdmin(brokers, (admin) => admin.describeGroups([groupId]));
      expect(group.groups).toHaveLength(1);
      expect(group.groups[0]?.state).toBe("Stable");
      expect(group.groups[0]?.protocolType).toBe("consumer");
      expect(group.groups[0]?.members).toHaveLength(2);

      await produce(
        brokers,
        topic,
        [0, 1, 2, 3].flatMap((p) => [
          { key: `p${p}-1`, value: `v${p}-1`, partition: p },
          { key: `p${p}-2`, value: `v${p}-2`, partition: p },
        ]),
      );
      await waitFor(() => got.a.length + got.b.length >= 8, "both members to read 8 records together");
      for (const name of members) {
        expect([...new Set(got[name].map((r) => r.partition))].sort()).toEqual(assigned[name]);
        expect(got[name]).toHaveLength(4);
      }
      const all = [...got.a, ...got.b].map((r) => `${r.partition}:${r.offset}:${r.key}:${r.value}`).sort();
      expect(all).toEqual([0, 1, 2, 3].flatMap((p) => [`${p}:0:p${p}-1:v${p}-1`, `${p}:1:p${p}-2:v${p}-2`]));
    },
    TEST_TIMEOUT,
  );
});
