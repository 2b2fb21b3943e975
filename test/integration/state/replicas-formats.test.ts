// Two replicas sharing state through the state topic (issue 36: "replicas" for every format), as the
// JSON subjects' are in state-topic.test.ts, shared-evidence.test.ts and shared-history.test.ts: an
// Avro and a Protobuf subject of the real registry, each topic of two partitions split between
// replicas A and B. Every record of a deprecated version, and of a deprecated field, goes to A's
// partitions; B learns them from the topic alone and reports A's verdicts, its field evidence and the
// group's traffic history exactly as A does; a restarted A reads its own back from the topic.
import { afterEach, describe, expect, it } from "vitest";

import type { HistoryView } from "../../../src/history/history.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { freshTopic, kafkaBrokers, produce, waitFor, withAdmin } from "../../helpers/kafka.js";
import { countedRecords, startReplica as start } from "../../helpers/live.js";
import {
  AVRO_V1,
  AVRO_V2,
  avroOrder,
  orderSubject,
  protoOrder,
  protoV1,
  protoV2,
  registryConfig,
  money,
  total,
  send,
  times,
} from "../../helpers/order-formats.js";
import { registryUrl } from "../../helpers/registry.js";
import { waitForValue } from "../../helpers/wait.js";

const url = registryUrl();
const topics: string[] = [];

afterEach(async () => {
  const brokers = await kafkaBrokers();
  const created = topics.splice(0);
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: created })).catch(() => undefined);
});

const to = (partition: number) => (producer: string, value: Buffer) => send(producer, value, partition);

/** The one partition of `topic` a replica owns. */
const mine = (m: RunningMonitor, topic: string) => [...(m.health.assigned.get(topic) ?? [])][0];

/** What a replica says of a subject: its v1 verdict and its /note field verdict, the ages left out. */
function verdicts(m: RunningMonitor, subject: string) {
  const s = m.report().subjects.find((x) => x.subject === subject)!;
  const v1 = s.versions.find((v) => v.version === "1")!.verdict!;
  const note = s.fields!.find((f) => f.field === "/note")!;
  const ageless = (r: string) =>
    r
      .replace(/ (just now|\d+[smhd] ago)/g, " …")
      .replace(/ until \S+$/, " until …")
      .replace(/, the last one .*$/, "");
  return { v1: [v1.yes, ...v1.reasons.map(ageless)], note: [note.yes, ...note.reasons.map(ageless)] };
}

const traffic = async (m: RunningMonitor, subject: string): Promise<HistoryView | undefined> =>
  ((await (await fetch(`${m.address}/subjects/${subject}/history`)).json()) as { traffic?: HistoryView })
    .traffic;

/** Each line of a history view as `producer name total`, its buckets summed. */
const lines = (view: HistoryView | undefined) => [
  ...(view?.versions ?? []).map((l) => `${l.producer} ${l.version} ${l.records.reduce((a, b) => a + b, 0)}`),
  ...(view?.fields ?? []).map(
    (l) =>
      `${l.producer} ${l.field} ${l.present.reduce((a, b) => a + b, 0)}/${l.records.reduce((a, b) => a + b, 0)}`,
  ),
];

describe("replicas sharing an Avro and a Protobuf subject through the state topic", () => {
  it("B reports the verdicts, field evidence and history of records only A read, exactly as A does", async () => {
    const brokers = await kafkaBrokers();
    const order = await orderSubject(brokers, url, "AVRO", { partitions: 2, deprecatedNote: true });
    const item = await orderSubject(brokers, url, "PROTOBUF", { name: "item", partitions: 2 });
    const stateTopic = freshTopic("sw-state");
    topics.push(order.topic, item.topic, stateTopic);
    const { configPath } = await registryConfig({
      brokers,
      url,
      subjects: [order, item],
      window: "1h",
      top: `state:\n  topic: ${stateTopic}\nstats:\n  enabled: false\n`,
    });
    const a = await start(configPath, "replica-a");
    const b = await start(configPath, "replica-b");
    await waitFor(
      () => [a, b].every((m) => mine(m, order.topic) !== undefined && mine(m, item.topic) !== undefined),
      "a partition of each topic on each replica",
    );
    const [onA, onB] = [to(mine(a, order.topic)!), to(mine(b, order.topic)!)];
    const [itemA, itemB] = [to(mine(a, item.topic)!), to(mine(b, item.topic)!)];
    await Promise.all([
      produce(brokers, order.topic, [
        ...times(3, (i) => onA("web", avroOrder(order.id1, AVRO_V1, { id: i, kind: "CASH", total: money }))),
        ...times(2, (i) =>
          onA(
            "app",
            avroOrder(order.id2, AVRO_V2, { id: i, kind: "CARD", total: money, note: { string: "n" } }),
          ),
        ),
        ...times(2, (i) =>
          onB("web", avroOrder(order.id2, AVRO_V2, { id: i, kind: "CARD", total: money, note: null })),
        ),
      ]),
      produce(brokers, item.topic, [
        ...times(4, (i) =>
          itemA("batch", protoOrder(item.id1, protoV1, { id: String(i), note: "n", total, qty: "2" })),
        ),
        ...times(3, (i) => itemB("web", protoOrder(item.id2, protoV2, { id: String(i), total, qty: 3 }))),
      ]),
    ]);
    await waitFor(() => countedRecords(a) === 9 && countedRecords(b) === 5, "9 records on A, 5 on B");
    // What A judges from its own records, B learns from the state topic, and A B's web notes (each
    // replica publishes every 10 s): the same verdicts on both, word for word.
    const gaps = (topic: string) => [
      `coverage gap on ${topic}/0 until …`,
      `coverage gap on ${topic}/1 until …`,
    ];
    const expected = [
      {
        v1: [false, "last seen … from producer web", ...gaps(order.topic)],
        note: [
          false,
          "app still sends /note in 100% of its records (2 of 2 in the last 1h; writer 2)",
          "web still sends /note in 40% of its records (2 of 5 in the last 1h; writer 2)",
          ...gaps(order.topic),
        ],
      },
      {
        v1: [false, "last seen … from producer batch", ...gaps(item.topic)],
        note: [
          false,
          "batch still sends /note in 100% of its records (4 of 4 in the last 1h; writer 1)",
          ...gaps(item.topic),
        ],
      },
    ];
    const judged = (m: RunningMonitor) => [verdicts(m, "order"), verdicts(m, "item")];
    await waitFor(
      () => [a, b].every((m) => JSON.stringify(judged(m)) === JSON.stringify(expected)),
      "each replica to judge from the other's records",
      60_000,
    ).catch(() => undefined);
    expect(judged(b)).toEqual(expected);
    expect(judged(a)).toEqual(expected);
    // The traffic history: each replica publishes its buckets, and both draw the group's.
    await waitForValue(
      "the group's history on each",
      async () => {
        const [ha, hb] = [await traffic(a, "order"), await traffic(b, "order")];
        const [ia, ib] = [await traffic(a, "item"), await traffic(b, "item")];
        const whole = lines(ha).length === 5 && lines(ia).length === 4;
        return whole && JSON.stringify([ha, ia]) === JSON.stringify([hb, ib]) ? true : undefined;
      },
      60_000,
    );
    expect(lines(await traffic(b, "order"))).toEqual([
      "app 2 2",
      "web 1 3",
      "web 2 2",
      "app /note 2/2",
      "web /note 2/5",
    ]);
    expect(lines(await traffic(b, "item"))).toEqual([
      "batch 1 4",
      "web 2 3",
      "batch /note 4/4",
      "web /note 0/3",
    ]);

    // A restarts under its id: what it judged from its own records comes back from the topic alone.
    const uses = (m: RunningMonitor) =>
      ["order", "item"].map((subject) => m.lifecycle.lifecycle.fields.usesOf(subject, "/note"));
    const usesBefore = uses(a);
    await a.stop();
    const again = await start(configPath, "replica-a");
    await waitFor(
      () => again.health.ready && JSON.stringify(judged(again)) === JSON.stringify(expected),
      "the restarted A to judge as before",
      60_000,
    ).catch(() => undefined);
    expect(judged(again)).toEqual(expected);
    expect(uses(again)).toEqual(usesBefore);
  }, 240_000);
});
