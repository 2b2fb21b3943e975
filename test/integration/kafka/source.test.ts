// KafkaSource against a real broker: exact records with keys and headers, commits that let a restart
// resume without loss or duplicates, partitions split between replicas, lag, and an unreachable broker.
import { createServer, connect, type Server, type Socket } from "node:net";

import { pino } from "pino";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { KafkaConfig } from "../../../src/config/types.js";
import { KafkaSource, type KafkaSourceOptions } from "../../../src/kafka/source.js";
import { Health } from "../../../src/health/health.js";
import type { RecordSink } from "../../../src/pipeline/record.js";
import type { SourceRecord } from "../../../src/pipeline/record.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";
import { freePort } from "../../helpers/ports.js";

// Bounds a test that hangs; every step inside waits for a condition (test/helpers/wait.ts).
const TEST_TIMEOUT = 180_000;
const TUNING = {
  sessionTimeout: 10_000,
  rebalanceTimeout: 10_000,
  heartbeatInterval: 500,
  maxWaitTimeInMs: 200,
  reconnectMaxMs: 1_000,
  stopTimeoutMs: 10_000,
};

let brokers: string[] = [];
let noBroker: unknown;
const sources: KafkaSource[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  // Without a broker every test fails with the reason (a failed beforeAll would report them skipped).
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
  await Promise.all(sources.splice(0).map((s) => s.stop()));
  for (const server of servers.splice(0)) server.close();
});

class RecordingSink implements RecordSink {
  readonly records: SourceRecord[] = [];
  process(record: SourceRecord): void {
    // Sources reuse the record object (the RecordSink contract): keep a copy.
    this.records.push({ ...record });
  }
}

interface Harness {
  readonly source: KafkaSource;
  readonly sink: RecordingSink;
  readonly health: Health;
  readonly events: string[];
}

function harness(
  kafka: Partial<KafkaConfig> & { groupId: string },
  extra: Partial<KafkaSourceOptions> = {},
  tuning: Partial<typeof TUNING> = {},
): Harness {
  const sink = new RecordingSink();
  const health = new Health();
  const events: string[] = [];
  const source = new KafkaSource({
    kafka: { brokers, clientId: "schemawatch-test", fromBeginning: true, lagInterval: 60_000, ...kafka },
    topics: [],
    sink,
    health,
    logger: pino({ level: "silent" }),
    env: {},
    tuning: { ...TUNING, ...tuning },
    onAssigned: (assignment) => events.push(`assigned ${JSON.stringify(Object.fromEntries(assignment))}`),
    onRevoked: () => events.push("revoked"),
    onBatchEnd: (topic, partition, first, last) =>
      events.push(`batch ${topic}/${partition} ${first}-${last}`),
    ...extra,
  });
  sources.push(source);
  return { source, sink, health, events };
}

/** topic/partition/offset key=value, in a stable order, to compare received records exactly. */
function lines(records: readonly SourceRecord[]): string[] {
  return records
    .map(
      (r) =>
        `${r.topic}/${r.partition}/${r.offset} ${r.key?.toString() ?? "-"}=${r.value?.toString() ?? "-"}`,
    )
    .sort();
}

function assigned(health: Health, topic: string): number[] {
  return [...(health.assigned.get(topic) ?? [])].sort((a, b) => a - b);
}

async function committed(groupId: string, topic: string): Promise<Record<number, string>> {
  const offsets = await withAdmin(brokers, (admin) => admin.fetchOffsets({ groupId, topics: [topic] }));
  return Object.fromEntries((offsets[0]?.partitions ?? []).map((p) => [p.partition, p.offset]));
}

function perPartition(lag: ReadonlyMap<string, ReadonlyMap<number, number>>, topic: string): object {
  return Object.fromEntries([...(lag.get(topic) ?? [])].sort(([a], [b]) => a - b));
}

const SENTINEL = "sentinel";

/**
 * Proves the sources read past every record produced so far, so that a record delivered twice would
 * be in the sinks already: produces one sentinel record on each partition and waits until the sinks
 * hold all of them (a partition is read in order). `real()` leaves the sentinels out again.
 */
async function pastSentinels(topic: string, partitions: number, ...sinks: RecordingSink[]): Promise<void> {
  await produce(
    brokers,
    topic,
    Array.from({ length: partitions }, (_, partition) => ({ value: SENTINEL, partition })),
  );
  const seen = () =>
    sinks.flatMap((sink) => sink.records).filter((r) => r.value?.toString() === SENTINEL).length;
  await waitFor(() => seen() >= partitions, `the ${partitions} sentinel records`);
  expect(seen()).toBe(partitions);
}

/** The records a sink received, without the sentinels of pastSentinels(). */
function real(records: readonly SourceRecord[]): SourceRecord[] {
  return records.filter((r) => r.value?.toString() !== SENTINEL);
}

describe("KafkaSource", () => {
  it(
    "delivers exactly the produced records with keys, headers and timestamps, and commits them",
    async () => {
      const topic = freshTopic("sw-src");
      const groupId = freshGroupId("sw-src");
      await createTopic(brokers, topic, 2);
      await produce(brokers, topic, [
        {
          key: "k0",
          value: '{"a":0}',
          partition: 0,
          headers: { producer: "svc-a", "schema-version": "1.0.0" },
        },
        { key: null, value: '{"a":1}', partition: 0, timestamp: "1700000000123" },
        {
          key: "k2",
          value: Buffer.from([0, 0, 0, 0, 17, 123]),
          partition: 1,
          headers: { trace: ["t1", "t2"] },
        },
        { key: "k3", value: "not json", partition: 1, headers: { bin: Buffer.from([0, 255]) } },
      ]);
      const { source, sink, health, events } = harness({ groupId }, { topics: [topic] });
      await source.start();
      await waitFor(() => sink.records.length >= 4, "4 records");
      await pastSentinels(topic, 2, sink);

      expect(lines(real(sink.records))).toEqual([
        `${topic}/0/0 k0={"a":0}`,
        `${topic}/0/1 -={"a":1}`,
        `${topic}/1/0 k2=\u0000\u0000\u0000\u0000\u0011{`,
        `${topic}/1/1 k3=not json`,
      ]);
      const byOffset = new Map(sink.records.map((r) => [`${r.partition}/${r.offset}`, r]));
      const header = (id: string, name: string): unknown => {
        const value = byOffset.get(id)?.headers?.[name];
        return Array.isArray(value) ? value.map((v) => v?.toString()) : value?.toString();
      };
      expect(header("0/0", "producer")).toBe("svc-a");
      expect(header("0/0", "schema-version")).toBe("1.0.0");
      expect(header("1/0", "trace")).toEqual(["t1", "t2"]);
      expect(byOffset.get("1/1")?.headers?.["bin"]).toEqual(Buffer.from([0, 255]));
      expect(byOffset.get("0/1")?.key).toBeNull();
      expect(byOffset.get("0/1")?.timestamp).toBe(1700000000123);
      expect(byOffset.get("0/0")?.value).toEqual(Buffer.from('{"a":0}'));

      expect(health.brokerUp).toBe(true);
      expect(health.lastError).toBeUndefined();
      expect(assigned(health, topic)).toEqual([0, 1]);
      expect(events[0]).toBe(`assigned {"${topic}":[0,1]}`);
      // the sentinels came after the first records had arrived: a batch of their own
      expect(events.slice(1).sort()).toEqual([
        `batch ${topic}/0 0-1`,
        `batch ${topic}/0 2-2`,
        `batch ${topic}/1 0-1`,
        `batch ${topic}/1 2-2`,
      ]);
      await waitFor(async () => {
        const c = await committed(groupId, topic);
        return c[0] === "3" && c[1] === "3";
      }, "offsets 3 and 3 committed");

      await Promise.all([source.stop(), source.stop()]);
      expect(health.assigned.size).toBe(0);
      expect(health.brokerUp).toBe(false);
      expect(events.at(-1)).toBe("revoked");
    },
    TEST_TIMEOUT,
  );

  it(
    "resumes after a graceful restart with exactly the records produced while it was stopped",
    async () => {
      const topic = freshTopic("sw-restart");
      const groupId = freshGroupId("sw-restart");
      await createTopic(brokers, topic, 2);
      const batch = (from: number, to: number): { key: string; value: string; partition: number }[] =>
        Array.from({ length: to - from }, (_, i) => ({
          key: `k${from + i}`,
          value: `v${from + i}`,
          partition: (from + i) % 2,
        }));
      await produce(brokers, topic, batch(0, 4)); // before the group exists: skipped (latest)

      const first = harness({ groupId, fromBeginning: false }, { topics: [topic] });
      await first.source.start();
      await waitFor(() => first.health.assignedPartitions === 2, "the first source's assignment");
      await produce(brokers, topic, batch(4, 10));
      await waitFor(() => first.sink.records.length >= 6, "6 records");
      await first.source.stop();

      await produce(brokers, topic, batch(10, 17)); // while no member runs
      const second = harness({ groupId, fromBeginning: false }, { topics: [topic] });
      await second.source.start();
      await waitFor(() => second.sink.records.length >= 7, "7 records");
      await pastSentinels(topic, 2, second.sink);

      const expected = (from: number, to: number): string[] =>
        lines(batch(from, to).map((m, i) => record(topic, m.partition, from + i, m.key, m.value)));
      // Offsets per partition: the first four records took 0-1 on each partition.
      expect(lines(first.sink.records)).toEqual(expected(4, 10));
      expect(lines(real(second.sink.records))).toEqual(expected(10, 17));
      // the sentinels took offset 9 on partition 0 and 8 on partition 1
      await waitFor(
        async () => JSON.stringify(await committed(groupId, topic)) === JSON.stringify({ 0: "10", 1: "9" }),
        "offsets 10 and 9 committed",
      );
    },
    TEST_TIMEOUT,
  );

  it(
    "commits on its interval and at stop, not after every batch; the stop's commit leaves a restart nothing to count twice",
    async () => {
      const topic = freshTopic("sw-interval");
      const groupId = freshGroupId("sw-interval");
      await createTopic(brokers, topic, 1);
      const records = (from: number): { value: string }[] =>
        Array.from({ length: 5 }, (_, i) => ({ value: `v${from + i}` }));

      // An interval no test reaches: every commit seen below is the start's or the stop's.
      const first = harness(
        { groupId, fromBeginning: false },
        { topics: [topic], tuning: { ...TUNING, commitIntervalMs: 3_600_000 } },
      );
      await first.source.start();
      await waitFor(() => first.health.assignedPartitions === 1, "the assignment");
      await waitFor(async () => (await committed(groupId, topic))[0] === "0", "the start offset committed");
      for (const from of [0, 5, 10]) {
        await produce(brokers, topic, records(from));
        await waitFor(() => first.sink.records.length >= from + 5, `${from + 5} records`);
      }
      // Three batches read and tallied, and the group's offset still where the run started: kafkajs's
      // autoCommit would have committed after each of them.
      expect(first.events.filter((e) => e.startsWith("batch "))).toEqual([
        `batch ${topic}/0 0-4`,
        `batch ${topic}/0 5-9`,
        `batch ${topic}/0 10-14`,
      ]);
      expect(await committed(groupId, topic)).toEqual({ 0: "0" });
      await first.source.stop();
      expect(await committed(groupId, topic)).toEqual({ 0: "15" });

      await produce(brokers, topic, [{ value: "v15" }, { value: "v16" }]);
      const second = harness({ groupId, fromBeginning: false }, { topics: [topic] });
      await second.source.start();
      await waitFor(() => second.sink.records.length >= 2, "2 records");
      await pastSentinels(topic, 1, second.sink);
      expect(lines(real(second.sink.records))).toEqual([15, 16].map((i) => `${topic}/0/${i} -=v${i}`));
      // On its interval (1 s by default), without a stop: past the sentinel at offset 17.
      await waitFor(async () => (await committed(groupId, topic))[0] === "18", "offset 18 committed");
    },
    TEST_TIMEOUT,
  );

  it(
    "commits its start on a first run without traffic, so the next run misses nothing",
    async () => {
      const topic = freshTopic("sw-idle");
      const groupId = freshGroupId("sw-idle");
      await createTopic(brokers, topic, 1);
      await produce(brokers, topic, [{ value: "old-0" }, { value: "old-1" }]);

      const idle = harness({ groupId, fromBeginning: false }, { topics: [topic] });
      await idle.source.start();
      await waitFor(() => idle.health.assignedPartitions === 1, "the assignment");
      await waitFor(async () => (await committed(groupId, topic))[0] === "2", "the start offset committed");
      await idle.source.stop();
      expect(idle.sink.records).toEqual([]);

      await produce(brokers, topic, [{ value: "new-2" }, { value: "new-3" }, { value: "new-4" }]);
      const next = harness({ groupId, fromBeginning: false }, { topics: [topic] });
      await next.source.start();
      await waitFor(() => next.sink.records.length >= 3, "3 records");
      await pastSentinels(topic, 1, next.sink);
      expect(lines(real(next.sink.records))).toEqual([2, 3, 4].map((i) => `${topic}/0/${i} -=new-${i}`));
    },
    TEST_TIMEOUT,
  );

  it(
    "splits the partitions between two sources of one group",
    async () => {
      const topic = freshTopic("sw-split");
      const groupId = freshGroupId("sw-split");
      await createTopic(brokers, topic, 4);
      const a = harness({ groupId }, { topics: [topic] });
      const b = harness({ groupId }, { topics: [topic] });
      await a.source.start();
      await waitFor(() => a.health.assignedPartitions === 4, "a to own 4 partitions");
      await b.source.start();
      await waitFor(
        () => a.health.assignedPartitions === 2 && b.health.assignedPartitions === 2,
        "2 partitions each",
      );
      const [pa, pb] = [assigned(a.health, topic), assigned(b.health, topic)];
      expect([...pa, ...pb].sort()).toEqual([0, 1, 2, 3]);
      expect(a.events).toContain("revoked");

      await produce(
        brokers,
        topic,
        [0, 1, 2, 3].flatMap((p) => [0, 1, 2].map((i) => ({ key: `p${p}`, value: `${i}`, partition: p }))),
      );
      await waitFor(() => a.sink.records.length + b.sink.records.length >= 12, "12 records between them");
      await pastSentinels(topic, 4, a.sink, b.sink);
      expect([...new Set(a.sink.records.map((r) => r.partition))].sort()).toEqual(pa);
      expect([...new Set(b.sink.records.map((r) => r.partition))].sort()).toEqual(pb);
      expect(lines(real([...a.sink.records, ...b.sink.records]))).toEqual(
        [0, 1, 2, 3].flatMap((p) => [0, 1, 2].map((i) => `${topic}/${p}/${i} p${p}=${i}`)).sort(),
      );
    },
    TEST_TIMEOUT,
  );

  it(
    "measures the lag of its group: records produced and not yet consumed",
    async () => {
      const topic = freshTopic("sw-lag");
      const groupId = freshGroupId("sw-lag");
      await createTopic(brokers, topic, 3);
      await produce(
        brokers,
        topic,
        [0, 0, 1, 2].map((partition) => ({ value: "x", partition })),
      );
      const { source, sink, health } = harness({ groupId, lagInterval: 200 }, { topics: [topic] });

      // Before the group committed anything, every retained record is lag.
      expect(perPartition(await source.measureLag(), topic)).toEqual({ 0: 2, 1: 1, 2: 1 });

      await source.start();
      await waitFor(() => sink.records.length >= 4, "4 records");
      // The periodic measurement reaches 0 once the batch's offsets are committed.
      const zero = JSON.stringify({ 0: 0, 1: 0, 2: 0 });
      await waitFor(
        () => JSON.stringify(perPartition(health.lag, topic)) === zero,
        "lag 0 on every partition",
      );
      await source.stop();

      await produce(
        brokers,
        topic,
        [0, 0, 0, 2].map((partition) => ({ value: "y", partition })),
      );
      const lag = await source.measureLag();
      expect([...lag.keys()]).toEqual([topic]);
      expect(perPartition(lag, topic)).toEqual({ 0: 3, 1: 0, 2: 1 });
      expect(perPartition(health.lag, topic)).toEqual({ 0: 3, 1: 0, 2: 1 });
    },
    TEST_TIMEOUT,
  );

  it(
    "skips a record the sink throws on and keeps consuming",
    async () => {
      const topic = freshTopic("sw-throw");
      const groupId = freshGroupId("sw-throw");
      await createTopic(brokers, topic, 1);
      const seen: string[] = [];
      const sink: RecordSink = {
        process(record) {
          seen.push(record.offset);
          if (record.offset === "1") throw new Error("bug in the pipeline");
        },
      };
      const { source } = harness({ groupId }, { topics: [topic], sink });
      await source.start();
      await produce(
        brokers,
        topic,
        [0, 1, 2, 3].map((i) => ({ value: `${i}` })),
      );
      await waitFor(() => seen.length >= 4, "4 records");
      await waitFor(async () => (await committed(groupId, topic))[0] === "4", "offset 4 committed");
      expect(seen).toEqual(["0", "1", "2", "3"]);
    },
    TEST_TIMEOUT,
  );

  it(
    "names a topic that does not exist, never creates it, reads the others meanwhile, and reads it once it exists",
    async () => {
      const missing = freshTopic("sw-missing");
      const present = freshTopic("sw-present");
      await createTopic(brokers, present, 1);
      await produce(brokers, present, [{ value: "early" }]);
      const { source, sink, health } = harness(
        { groupId: freshGroupId("sw-missing"), lagInterval: 1_000 },
        { topics: [missing, present] },
      );
      await source.start();
      await waitFor(() => sink.records.length >= 1, "the record of the topic that exists");
      expect(lines(sink.records)).toEqual([`${present}/0/0 -=early`]);
      expect(health.brokerUp).toBe(true);
      expect(health.lastError).toBeUndefined();
      expect(health.problems().map((p) => p.message)).toEqual([
        `topic ${missing} does not exist (never created, or deleted); it is read once it exists`,
      ]);
      expect(await withAdmin(brokers, (admin) => admin.listTopics())).not.toContain(missing);

      await createTopic(brokers, missing, 1);
      await waitFor(() => health.assignedPartitions === 2, "the assignment once the topic exists");
      await produce(brokers, missing, [{ value: "first" }]);
      await waitFor(() => sink.records.length >= 2, "2 records");
      expect(lines(sink.records)).toEqual([`${missing}/0/0 -=first`, `${present}/0/0 -=early`]);
      expect(health.problems()).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "keeps reading the other topics when a monitored topic is deleted, and says which one",
    async () => {
      const doomed = freshTopic("sw-doomed");
      const kept = freshTopic("sw-kept");
      await createTopic(brokers, doomed, 2);
      await createTopic(brokers, kept, 2);
      const missing = new Set<string>();
      const { source, sink, health } = harness(
        { groupId: freshGroupId("sw-deleted"), lagInterval: 1_000 },
        { topics: [doomed, kept], onTopicMissing: (topic) => missing.add(topic) },
      );
      await source.start();
      await waitFor(() => health.assignedPartitions === 4, "4 partitions assigned");
      await produce(brokers, kept, [{ value: "before", partition: 0 }]);
      await waitFor(() => sink.records.length === 1, "the first record");

      await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: [doomed], timeout: 15_000 }));
      await waitFor(
        () => health.problems().some((p) => p.key === `topic-missing:${doomed}`),
        "the deleted topic to be named",
      );
      await waitFor(() => health.assignedPartitions === 2, "only the kept topic's partitions");
      await produce(brokers, kept, [
        { value: "after-0", partition: 0 },
        { value: "after-1", partition: 1 },
      ]);
      await waitFor(() => sink.records.length === 3, "the records produced after the deletion");
      expect(lines(sink.records)).toEqual([
        `${kept}/0/0 -=before`,
        `${kept}/0/1 -=after-0`,
        `${kept}/1/0 -=after-1`,
      ]);
      expect(health.brokerUp).toBe(true);
      expect(health.lastError).toBeUndefined();
      expect(health.assignedPartitions).toBe(2);
      // the lifecycle hears of it, to restart the windows of the deleted topic's partitions
      expect([...missing]).toEqual([doomed]);
    },
    TEST_TIMEOUT,
  );

  it(
    "reports an unreachable broker without rejecting, and stops without waiting for it",
    async () => {
      // A stop that waited for Kafka would wait out stopTimeoutMs: an hour here, far past the test's
      // timeout, so the test fails if stop() waits for the broker rather than for a clock.
      const { source, health, events } = harness(
        { groupId: freshGroupId("sw-down"), brokers: ["127.0.0.1:1"] },
        { topics: [freshTopic("sw-down")] },
        { stopTimeoutMs: 3_600_000 },
      );
      await expect(source.start()).resolves.toBeUndefined();
      expect(health.brokerUp).toBe(false);
      expect(health.lastError).toMatch(/^connecting to 127\.0\.0\.1:1: .*ECONNREFUSED/);
      expect(health.assignedPartitions).toBe(0);
      await expect(source.measureLag()).rejects.toThrow();
      await expect(source.stop()).resolves.toBeUndefined();
      // stopped cleanly: nothing assigned, nothing delivered, no batch ever ended
      expect([health.brokerUp, health.assigned.size, health.assignedPartitions]).toEqual([false, 0, 0]);
      expect(events.filter((e) => !e.startsWith("revoked"))).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  it(
    "reconnects when the broker becomes reachable after a failed start",
    async () => {
      const topic = freshTopic("sw-later");
      await createTopic(brokers, topic, 1);
      const port = await freePort();
      const { source, sink, health } = harness(
        { groupId: freshGroupId("sw-later"), brokers: [`127.0.0.1:${port}`] },
        { topics: [topic] },
      );
      await source.start();
      expect(health.brokerUp).toBe(false);
      // Only the bootstrap goes through this port: kafkajs then talks to the advertised listener.
      servers.push(await forward(port, brokers[0]!));
      await waitFor(() => health.brokerUp && health.assignedPartitions === 1, "the reconnect");
      expect(health.lastError).toBeUndefined();
      await produce(brokers, topic, [{ value: "after" }]);
      await waitFor(() => sink.records.length >= 1, "1 record");
      expect(lines(sink.records)).toEqual([`${topic}/0/0 -=after`]);
    },
    TEST_TIMEOUT,
  );
});

function record(topic: string, partition: number, n: number, key: string, value: string): SourceRecord {
  // Offsets follow from the round-robin in batch(): record n is the (n div 2)th on partition n mod 2.
  return {
    topic,
    partition,
    offset: String(Math.floor(n / 2)),
    timestamp: 0,
    key: Buffer.from(key),
    headers: undefined,
    value: Buffer.from(value),
  };
}

/** A TCP forwarder from 127.0.0.1:port to host:port, to make a closed bootstrap address answer. */
async function forward(port: number, target: string): Promise<Server> {
  const [host, targetPort] = target.split(":") as [string, string];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", () => s.destroy());
      s.on("close", () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  server.on("close", () => sockets.forEach((s) => s.destroy()));
  const close = server.close.bind(server);
  server.close = (callback) => {
    sockets.forEach((s) => s.destroy());
    return close(callback);
  };
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return server;
}
