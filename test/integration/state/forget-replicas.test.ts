import { afterEach, describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import {
  createTopic,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  produce,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";
import { countedRecords, startReplica as start } from "../../helpers/live.js";
import { paySend as send, payTopic } from "../../helpers/pay-topic.js";
import { readStateTopic } from "../../helpers/replicas.js";
import { waitForValue } from "../../helpers/wait.js";

// Records of replicas that are gone, through a real broker: a replica not heard of for
// `state.forgetReplicasAfter` has every record deleted by one still running, and a replica's graceful
// stop deletes those of its own records that no window reaches any more, and only those.

const DAY = 86_400_000;
const topics: string[] = [];

afterEach(async () => {
  const brokers = await kafkaBrokers();
  const created = topics.splice(0);
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: created })).catch(() => undefined);
});

async function setup(window: string, forget?: string) {
  const stateTopic = freshTopic("sw-state");
  const made = await payTopic({
    prefix: "sw-forget",
    window,
    deprecated: true,
    top: `state:\n  topic: ${stateTopic}\n${forget ? `  forgetReplicasAfter: ${forget}\n` : ""}stats:\n  enabled: false\n`,
  });
  topics.push(made.topic, stateTopic);
  return { ...made, stateTopic };
}

async function latest(brokers: string[], stateTopic: string): Promise<Map<string, unknown>> {
  const kafka = kafkaClient(brokers);
  return withAdmin(brokers, (admin) => readStateTopic(kafka, admin, stateTopic));
}

const keysOf = (state: Map<string, unknown>, replica: string) =>
  [...state.keys()].filter((k) => k.endsWith(`/${replica}`)).sort();

describe("records of replicas that are gone", () => {
  it("a replica not heard of for 14 days (the default) has every record deleted; one heard of a minute ago keeps its own", async () => {
    const { brokers, stateTopic, configPath } = await setup("1h");
    await createTopic(brokers, stateTopic);
    const now = Date.now();
    const use = { producer: "web", writer: "1.1.0", lastPresentAt: 0, lastAbsentAt: 0, lastUnknownAt: 0 };
    const records = (replica: string, heard: number) => [
      { key: `meta/alive/${replica}`, value: JSON.stringify({ at: heard }) },
      { key: `meta/started/${replica}`, value: JSON.stringify({ startedAt: heard - DAY, fields: true }) },
      {
        key: `field/pay/%2Famount/${replica}`,
        value: JSON.stringify({ uses: [{ ...use, presentSinceMissing: 0, buckets: [] }] }),
      },
      {
        key: `candidate/pay/1.1.0/${replica}`,
        value: JSON.stringify({
          samples: 3,
          failures: 0,
          samplesSinceFailure: 3,
          lastFailureAt: 0,
          producers: {},
        }),
      },
      {
        key: `history/pay/4/${replica}`,
        value: JSON.stringify({ bucketMs: 75_000, versions: [["web", "1.1.0", 2]], fields: [] }),
      },
    ];
    await produce(brokers, stateTopic, [
      ...records("ghost", now - 15 * DAY),
      ...records("recent", now - 60_000),
    ]);
    expect(keysOf(await latest(brokers, stateTopic), "ghost")).toHaveLength(5);

    const a = await start(configPath, "replica-a");
    await waitFor(() => a.health.ready, "replica A to be ready");
    // Its first publish (within 10 s of its start) deletes the ghost's records.
    const state = await waitForValue("the ghost's records deleted", async () => {
      const read = await latest(brokers, stateTopic);
      return keysOf(read, "ghost").length === 0 ? read : undefined;
    });
    expect(keysOf(state, "recent")).toEqual([
      "candidate/pay/1.1.0/recent",
      "field/pay/%2Famount/recent",
      "history/pay/4/recent",
      "meta/alive/recent",
      "meta/started/recent",
    ]);
    expect(keysOf(state, "replica-a")).toContain("meta/alive/replica-a");
  });

  it("a graceful stop deletes the replica's field records whose every use is older than the window, and keeps those within it", async () => {
    const { brokers, topic, stateTopic, configPath } = await setup("3s");
    const a = await start(configPath, "replica-a");
    await waitFor(
      () => a.health.ready && a.health.assignedPartitions === 2,
      "replica A to read both partitions",
    );
    await produce(brokers, topic, send("billing", 4, `"amount":3`));
    await waitFor(() => countedRecords(a) === 4, "4 records counted");
    const fieldKeys = ["field/pay/%2Famount/replica-a", "field/pay/%2Ftotal/replica-a"];
    await waitFor(async () => {
      const read = await latest(brokers, stateTopic);
      return fieldKeys.every((k) => read.has(k));
    }, "A's field records published");
    // Every use last seen more than the window (3 s) and the clock's tick (1 s) ago: wait for it.
    const lastSeen = (m: RunningMonitor) =>
      Math.max(
        ...["/amount", "/total"].flatMap((f) =>
          m.lifecycle.lifecycle.fields
            .usesOf("pay", f)
            .map((u) => Math.max(u.lastPresentAt, u.lastAbsentAt, u.lastUnknownAt)),
        ),
      );
    const seen = lastSeen(a);
    expect(seen).toBeGreaterThan(0);
    await waitFor(
      () => a.lifecycle.lifecycle.now() > seen + 3_000 + 1_000,
      "the uses to leave the window",
      30_000,
    );
    await a.stop();
    const afterA = await latest(brokers, stateTopic);
    expect(fieldKeys.filter((k) => afterA.has(k))).toEqual([]);
    expect(afterA.has("meta/alive/replica-a")).toBe(true);

    // B stops right after its records: its field records stay (a verdict's window still reaches them).
    const b = await start(configPath, "replica-b");
    await waitFor(
      () => b.health.ready && b.health.assignedPartitions === 2,
      "replica B to read both partitions",
    );
    await produce(brokers, topic, send("billing", 2, `"amount":3`));
    await waitFor(() => countedRecords(b) === 2, "2 records counted");
    await b.stop();
    const afterB = await latest(brokers, stateTopic);
    expect(keysOf(afterB, "replica-b").filter((k) => k.startsWith("field/"))).toEqual([
      "field/pay/%2Famount/replica-b",
      "field/pay/%2Ftotal/replica-b",
    ]);
  });
});
