import { createServer, connect, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { pino } from "pino";
import { Lifecycle } from "../../../src/lifecycle/lifecycle.js";
import { StateTopic } from "../../../src/state/topic.js";
import { freePort } from "../../helpers/ports.js";
import { freshTopic, kafkaBrokers, kafkaClient, withAdmin } from "../../helpers/kafka.js";
import { readStateTopic } from "../../helpers/replicas.js";

// Opening the state topic: it is created by whichever replica comes first, and a replica must not
// stay without shared state because the broker was not ready for it at the moment it started. Seen
// in CI: three replicas started together, one was told "This server does not host this
// topic-partition" right after another created the topic, and it published nothing until restarted.
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

const silent = pino({ level: "silent" });

function stateTopic(brokers: readonly string[], topic: string, replica: string): StateTopic {
  const state = new StateTopic({
    kafka: {
      brokers: [...brokers],
      clientId: `open-${replica}`,
      groupId: `open-${replica}`,
      fromBeginning: false,
      lagInterval: 10_000,
    },
    env: { SCHEMAWATCH_REPLICA_ID: replica },
    logger: silent,
    topic,
    loadTimeoutMs: 60_000,
  });
  cleanups.push(() => state.stop());
  return state;
}

/** Forwards every connection on `port` to the real broker, from the moment it is called. */
async function forward(port: number, broker: string): Promise<Server> {
  const [host, brokerPort] = broker.split(":");
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(brokerPort), host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  await new Promise<void>((done) => server.listen(port, "127.0.0.1", done));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((done) => server.close(done));
  });
  return server;
}

describe("opening the state topic", () => {
  it("a broker that refuses connections for the first 15 s (longer than the client's own 5 retries): start waits for it, then the replica publishes", async () => {
    const [broker] = await kafkaBrokers();
    const topic = freshTopic("sw-state-open");
    cleanups.push(() => withAdmin([broker!], (a) => a.deleteTopics({ topics: [topic] })));
    const port = await freePort();
    const state = stateTopic([`127.0.0.1:${port}`], topic, "late");
    const lifecycle = new Lifecycle([], silent, () => Date.now());
    const started = state.start(lifecycle, () => {});
    const outcome = { settled: false };
    void started.then(
      () => (outcome.settled = true),
      () => (outcome.settled = true),
    );
    await new Promise((done) => setTimeout(done, 15_000));
    // Still trying: nothing answered yet.
    expect(outcome.settled).toBe(false);
    await forward(port, broker!);

    expect(await started).toBe(0);
    await state.publish(lifecycle, []);
    const kafka = kafkaClient([broker!]);
    const admin = kafka.admin();
    await admin.connect();
    cleanups.push(() => admin.disconnect());
    const records = await readStateTopic(kafka, admin, topic);
    expect([...records.keys()].sort()).toEqual(["meta/alive/late", "meta/started/late"]);
  }, 120_000);

  it("three replicas started together on a topic that does not exist yet: each opens it and publishes", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-state-race");
    cleanups.push(() => withAdmin(brokers, (a) => a.deleteTopics({ topics: [topic] })));
    const replicas = ["r0", "r1", "r2"].map((replica) => stateTopic(brokers, topic, replica));
    const lifecycles = replicas.map(() => new Lifecycle([], silent, () => Date.now()));

    const read = await Promise.all(replicas.map((r, i) => r.start(lifecycles[i]!, () => {})));
    expect(read).toEqual([0, 0, 0]);
    await Promise.all(replicas.map((r, i) => r.publish(lifecycles[i]!, [])));

    const kafka = kafkaClient(brokers);
    const admin = kafka.admin();
    await admin.connect();
    cleanups.push(() => admin.disconnect());
    const records = await readStateTopic(kafka, admin, topic);
    expect([...records.keys()].sort()).toEqual([
      "meta/alive/r0",
      "meta/alive/r1",
      "meta/alive/r2",
      "meta/started/r0",
      "meta/started/r1",
      "meta/started/r2",
    ]);
  }, 120_000);
});
