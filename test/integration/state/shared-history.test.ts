import { afterEach, describe, expect, it } from "vitest";
import type { HistoryView } from "../../../src/history/history.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { freshTopic, kafkaBrokers, produce, waitFor, withAdmin } from "../../helpers/kafka.js";
import { waitForValue } from "../../helpers/wait.js";
import { countedRecords, startReplica as start } from "../../helpers/live.js";
import { paySend as send, payTopic } from "../../helpers/pay-topic.js";

// Two replicas sharing a state topic through a real broker draw the group's traffic history: billing
// sends to replica A's partition only, web to B's, and both pages show both producers' lines, the
// same on each. A window of 1 h: buckets of 75 s.

const topics: string[] = [];

afterEach(async () => {
  const brokers = await kafkaBrokers();
  const created = topics.splice(0);
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: created })).catch(() => undefined);
});

const traffic = async (m: RunningMonitor): Promise<HistoryView | undefined> =>
  ((await (await fetch(`${m.address}/subjects/pay/history`)).json()) as { traffic?: HistoryView }).traffic;

/** The subject page's charts: every inline SVG, in order. */
const charts = async (m: RunningMonitor): Promise<string[]> =>
  (await (await fetch(`${m.address}/subjects/pay`)).text()).match(/<svg[\s\S]*?<\/svg>/g) ?? [];

/** Each line of a view as `producer name total`, the counts of its buckets summed. */
const lines = (view: HistoryView | undefined) => [
  ...(view?.versions ?? []).map((l) => `${l.producer} ${l.version} ${l.records.reduce((a, b) => a + b, 0)}`),
  ...(view?.fields ?? []).map(
    (l) =>
      `${l.producer} ${l.field} ${l.present.reduce((a, b) => a + b, 0)}/${l.records.reduce((a, b) => a + b, 0)}`,
  ),
];

const GROUP = [
  "billing 1.1.0 6",
  "web 1.1.0 4",
  "billing /amount 6/6",
  "billing /total 6/6",
  "web /amount 0/4",
  "web /total 4/4",
];

describe("replicas sharing the traffic history", () => {
  it("A's and B's pages draw the same charts, of both replicas' records", async () => {
    const stateTopic = freshTopic("sw-state");
    const { brokers, topic, configPath } = await payTopic({
      prefix: "sw-shared-history",
      window: "1h",
      deprecated: true,
      top: `state:\n  topic: ${stateTopic}\nstats:\n  enabled: false\n`,
    });
    topics.push(topic, stateTopic);
    const a = await start(configPath, "replica-a");
    const b = await start(configPath, "replica-b");
    await waitFor(
      () => a.health.assignedPartitions === 1 && b.health.assignedPartitions === 1,
      "one partition each",
    );
    const partitionA = [...a.health.assigned.get(topic)!][0]!;
    const partitionB = [...b.health.assigned.get(topic)!][0]!;
    await produce(brokers, topic, [
      ...send("billing", 6, `"amount":3,"total":3`, partitionA),
      ...send("web", 4, `"total":1`, partitionB),
    ]);
    await waitFor(() => countedRecords(a) === 6 && countedRecords(b) === 4, "6 records on A, 4 on B");

    // Each replica publishes its buckets with its state (every 10 s); the other's arrive within a second.
    const both = await waitForValue(
      "both replicas' history on each",
      async () => {
        const [ta, tb] = [await traffic(a), await traffic(b)];
        const whole = JSON.stringify([...lines(ta)].sort()) === JSON.stringify([...GROUP].sort());
        return whole && JSON.stringify(ta) === JSON.stringify(tb) ? ta : undefined;
      },
      60_000,
    );
    expect(lines(both)).toEqual(GROUP);
    expect(both.buckets).toBe(48);
    expect(both.bucketMs).toBe(75_000);

    // The pages draw them alike, the versions' chart and one per field (asked again if a bucket
    // ended between the two).
    await waitForValue(
      "the same three charts on both pages",
      async () => {
        const [ca, cb] = [await charts(a), await charts(b)];
        return ca.length === 3 && JSON.stringify(ca) === JSON.stringify(cb) ? true : undefined;
      },
      30_000,
    );
    const drawn = (await charts(b)).join("\n");
    expect(drawn).toContain("billing");
    expect(drawn).toContain("web");

    // A restarts under its id (its graceful stop published its buckets): it reads them back as its
    // own, and both replicas still draw the group's traffic, nothing counted twice.
    await a.stop();
    const again = await start(configPath, "replica-a");
    await waitFor(() => again.health.ready, "A to be ready again");
    const after = await waitForValue(
      "both replicas' history on each after A's restart",
      async () => {
        const [ta, tb] = [await traffic(again), await traffic(b)];
        return JSON.stringify(ta) === JSON.stringify(tb) && lines(ta).length === GROUP.length
          ? ta
          : undefined;
      },
      60_000,
    );
    expect(lines(after)).toEqual(GROUP);
  });
});
