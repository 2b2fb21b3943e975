// KafkaSource's topic watch against its own connect, on a real broker. Seen in the replica test on
// loaded cores: a watch that ran while the first connect was still under way (nothing subscribed
// yet) took the topics for changed, connected a second consumer, and the first connect went on to
// join the group as well. The process then had two members: the one it listened to, and one that
// read and committed its share of the partitions with nobody counting them as observed, so their
// coverage was never published and nothing could drain.
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { KafkaSource } from "../../../src/kafka/source.js";
import { Health } from "../../../src/health/health.js";
import type { RecordSink } from "../../../src/pipeline/record.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";

const sources: KafkaSource[] = [];
const topics: string[] = [];

afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.stop()));
  const brokers = await kafkaBrokers();
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: topics.splice(0) })).catch(
    () => undefined,
  );
});

const sink: RecordSink = { process: () => {} };

describe("KafkaSource's topic watch", () => {
  it("a watch that runs while the first connect is under way leaves one member in the group, holding every partition", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-watch");
    topics.push(topic);
    await createTopic(brokers, topic, 4);
    const groupId = freshGroupId();
    const health = new Health();
    const assigned: string[] = [];
    const source = new KafkaSource({
      // The watch every millisecond: it runs many times before the first connect has subscribed.
      kafka: { brokers, clientId: "sw-watch", groupId, fromBeginning: true, lagInterval: 1 },
      topics: [topic],
      sink,
      health,
      logger: pino({ level: "silent" }),
      env: {},
      tuning: {
        sessionTimeout: 10_000,
        rebalanceTimeout: 10_000,
        heartbeatInterval: 500,
        maxWaitTimeInMs: 200,
      },
      onAssigned: (assignment) => assigned.push(JSON.stringify(Object.fromEntries(assignment))),
    });
    sources.push(source);
    await source.start();
    await waitFor(() => health.assigned.get(topic)?.size === 4, "every partition assigned to the source");

    const members = await withAdmin(brokers, async (admin) => {
      const { groups } = await admin.describeGroups([groupId]);
      return groups[0]!.members.map((m) => m.clientId);
    });
    expect(members).toEqual(["sw-watch"]);
    expect(assigned.at(-1)).toBe(JSON.stringify({ [topic]: [0, 1, 2, 3] }));
  }, 120_000);
});
