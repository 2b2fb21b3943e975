import { resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Partitioners, type Producer } from "kafkajs";
import { afterEach, describe, expect, it } from "vitest";
import { writeTree } from "../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  waitFor,
  withAdmin,
} from "../helpers/kafka.js";
import { TEST_WORKERS } from "../helpers/live.js";
import { freePort } from "../helpers/ports.js";
import { spawnCli, type CliProcess } from "../helpers/process.js";
import { startPrometheus, type RunningPrometheus } from "../helpers/prometheus.js";
import { checkCoverage, groupLag, owners, readStateTopic, sumOverLives } from "../helpers/replicas.js";

// Three `schemawatch run` processes in one group on 120 partitions, sharing a state topic, scraped
// by a real Prometheus (every 1 s). The processes keep the product's consumer timings, so a member
// that was SIGKILLed holds its partitions until its 30 s session expires. bench/replicas.js runs the
// same for ten minutes on 1 000 partitions (BENCHMARKS.md).
const PARTITIONS = 120;
const REPLICAS = 3;

const children: CliProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
});

async function scrapeCount(port: number, topic: string): Promise<number | undefined> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
    (r) => (r.ok ? r.text() : undefined),
    () => undefined,
  );
  if (text === undefined) return undefined;
  let sum = 0;
  for (const line of text.split("\n"))
    if (line.startsWith(`schemawatch_records_total{topic="${topic}"`)) sum += Number(line.split(" ").pop());
  return sum;
}

describe("replicas at scale", () => {
  it("three replicas, one SIGKILLed under load and one while idle: Prometheus sums every life to what was produced, never calls a still-sent version drained, and the state topic names each partition's owner", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-replicas");
    const stateTopic = freshTopic("sw-replicas-state");
    const groupId = freshGroupId();
    const kafka = kafkaClient(brokers);
    const admin = kafka.admin();
    await admin.connect();
    cleanups.push(() => admin.disconnect());
    cleanups.unshift(() => withAdmin(brokers, (a) => a.deleteTopics({ topics: [topic, stateTopic] })));
    await createTopic(brokers, topic, PARTITIONS);

    const clientId = (slot: number) => `${groupId}-client-${slot}`;
    const replicaOf = (client: string | undefined) =>
      client === undefined ? "nobody" : `replica-${client.split("-").pop()}`;
    const files: Record<string, string> = {};
    for (let slot = 0; slot < REPLICAS; slot++)
      files[`config-${slot}.yaml`] = `kafka:
  brokers: [${brokers.join(", ")}]
  clientId: ${clientId(slot)}
  groupId: ${groupId}
  lagInterval: 1s
logLevel: warn
workers: ${TEST_WORKERS}
state:
  file: state-${slot}.json
  topic: ${stateTopic}
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: deprecated }
      "2.0.0": { status: active }
    drainWindow: 20s
`;
    // Each replica's state file sits beside its config, kept across its restarts as a volume would be.
    const dir = await writeTree(files);

    const ports: number[] = [];
    for (let slot = 0; slot < REPLICAS; slot++) ports.push(await freePort());
    const monitors: CliProcess[] = [];
    const start = (slot: number) => {
      const child = spawnCli(
        ["run", "--config", `${dir}/config-${slot}.yaml`, "--port", String(ports[slot])],
        { SCHEMAWATCH_REPLICA_ID: `replica-${slot}` },
      );
      children.push(child);
      monitors[slot] = child;
    };
    for (let slot = 0; slot < REPLICAS; slot++) start(slot);
    const prometheus: RunningPrometheus = await startPrometheus({
      targets: ports.map((p) => `127.0.0.1:${p}`),
    });
    cleanups.push(() => prometheus.stop());
    const assigned = async () => {
      let sum = 0;
      for (const port of ports) {
        const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
        const line = text
          .split("\n")
          .find((l) => l.startsWith(`schemawatch_assigned_partitions{topic="${topic}"}`));
        sum += Number(line?.split(" ").pop() ?? 0);
      }
      return sum;
    };
    await waitFor(
      async () => (await assigned().catch(() => 0)) === PARTITIONS,
      "every partition assigned",
      120_000,
    );

    const producer: Producer = kafka.producer({
      createPartitioner: Partitioners.DefaultPartitioner,
      idempotent: true,
      maxInFlightRequests: 1,
    });
    await producer.connect();
    cleanups.unshift(() => producer.disconnect());
    // One record in 50 declares the deprecated 1.1.0: about 4 a second, sparse against the 20 s window.
    let produced = 0;
    const sent: Array<{ at: number; records: number }> = [];
    const send = async (records: number) => {
      const messages = Array.from({ length: records }, (_, k) => {
        const i = produced + k;
        return {
          key: String(i),
          value: JSON.stringify({ id: i, event: "buy", amount: 1 }),
          headers: { producer: `svc-${i % 4}`, "schema-version": i % 50 === 0 ? "event/1.1" : "event/2.0" },
        };
      });
      await producer.send({ topic, messages, acks: -1 });
      produced += records;
      sent.push({ at: Date.now(), records });
    };
    const settled = async (what: string) => {
      await waitFor(
        async () => (await groupLag(admin, groupId, topic)).lag === 0,
        `${what}: lag 0`,
        120_000,
        500,
      );
      // Prometheus's newest sample of each replica is the replica's own count: nothing is unscraped.
      await waitFor(
        async () => {
          const latest = await prometheus.query(
            `sum by (instance) (schemawatch_records_total{topic="${topic}"})`,
          );
          for (const port of ports) {
            const own = await scrapeCount(port, topic);
            const seen = latest.find((s) => s.metric["instance"] === `127.0.0.1:${port}`)?.value;
            if (own === undefined || own !== seen) return false;
          }
          return true;
        },
        `${what}: Prometheus to have scraped every replica's final count`,
        60_000,
        500,
      );
    };
    const overLives = async () => {
      const window = "10m";
      return sumOverLives(
        await prometheus.raw(`schemawatch_records_total{topic="${topic}"}[${window}]`),
        await prometheus.raw(`process_start_time_seconds[${window}]`),
      );
    };

    // Under load: 200 records/s for 30 s, replica-0 SIGKILLed and started again after 15 s.
    let killedAt = 0;
    for (let batch = 0; batch < 300; batch++) {
      await send(20);
      if (batch === 150) {
        monitors[0]!.kill("SIGKILL");
        killedAt = Date.now();
        await monitors[0]!.exited;
        start(0);
      }
      await sleep(100);
    }
    await settled("after the kill under load");
    const first = await overLives();
    expect(first.lives.length).toBe(REPLICAS + 1);
    // A SIGKILL re-reads what its process counted and had not committed (it commits after every
    // batch, or once a second with workers), and Prometheus missed what it counted since its last
    // scrape (1 s): both are within the records produced in the 10 s before the kill.
    const bound = sent
      .filter((s) => s.at > killedAt - 10_000 && s.at <= killedAt)
      .reduce((n, s) => n + s.records, 0);
    expect(first.total).toBeGreaterThanOrEqual(produced - bound);
    expect(first.total).toBeLessThanOrEqual(produced + bound);

    // Idle: every count scraped and every offset committed, so a SIGKILL neither loses nor repeats.
    const producedBefore = produced;
    monitors[1]!.kill("SIGKILL");
    await monitors[1]!.exited;
    start(1);
    for (let batch = 0; batch < 30; batch++) await send(20);
    await settled("after the idle kill");
    const second = await overLives();
    expect(second.lives.length).toBe(REPLICAS + 2);
    expect(second.total - first.total).toBe(produced - producedBefore);

    const stillSent = (await prometheus.raw(`schemawatch_version_removable{version="1.1.0"}[10m]`)).flatMap(
      (s) => s.values.map(([, v]) => Number(v)),
    );
    expect(stillSent.length).toBeGreaterThan(100);
    expect(stillSent.filter((v) => v !== 0)).toEqual([]);

    // Each replica publishes its partitions' coverage every 10 s.
    let check: ReturnType<typeof checkCoverage> = { problems: ["not read"], accounted: 0 };
    let state = new Map<string, unknown>();
    await waitFor(
      async () => {
        const owner = await owners(admin, groupId, topic);
        const { high } = await groupLag(admin, groupId, topic);
        state = await readStateTopic(kafka, admin, stateTopic);
        check = checkCoverage(state, topic, high, owner, replicaOf);
        return check.problems.length === 0;
      },
      "the state topic to name every partition's owner",
      // A replica started a moment ago publishes once it has caught up with the state topic and been
      // assigned (after the killed one's 30 s session timeout). A third of the partitions once had no
      // record here: the replica that lost the race to create the state topic never opened it
      // (test/kafka/state-topic-open.test.ts).
      180_000,
      2_000,
    ).catch(() => undefined);
    if (check.problems.length > 0)
      // What each replica said at warn and above (never payloads), to tell a replica that stopped
      // publishing from one that never started to.
      for (const [slot, child] of children.entries())
        console.error(`life ${slot} of the replicas:\n${child.lines.map((l) => l.text).join("\n")}`);
    expect(check.problems).toEqual([]);
    expect(check.accounted).toBe(PARTITIONS);
    expect(state.get("version/event/1.0.0")).toMatchObject({ lastDeclaredAt: 0 });
    expect((state.get("version/event/1.1.0") as { lastDeclaredAt: number }).lastDeclaredAt).toBeGreaterThan(
      killedAt,
    );
  }, 400_000);
});
