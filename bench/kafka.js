// The Kafka half of the benchmark: a bare kafkajs consumer that does nothing, against schemawatch's
// own KafkaSource and pipeline, on the same pre-filled topic, each in a fresh consumer group.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Kafka, logLevel } from "kafkajs";
import { KafkaSource } from "../dist/kafka/source.js";
import { Health } from "../dist/monitor/health.js";
import { Pipeline } from "../dist/monitor/pipeline.js";
import { createLogger } from "../dist/log.js";
import { spawn } from "node:child_process";

export const PRODUCT_NODE_OPTIONS = "--max-old-space-size=96 --max-semi-space-size=8";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** Peak resident memory (VmHWM) of the real `schemawatch run` reading the whole topic. */
export async function monitorMemory(brokers, topic) {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-bench-"));
  const config = join(dir, "config.yaml");
  await writeFile(
    config,
    `kafka:\n  brokers: [${brokers.join(", ")}]\n  groupId: bench-run-${randomUUID()}\n  fromBeginning: true\nlogLevel: warn\nhttp:\n  port: 0\nsubjects:\n  - name: event\n    topics: [${topic}]\n    schemas: ${resolve("examples/catalog/event")}\n    sampling:\n      maxPerSecond: 1000000000\n`,
  );
  const port = 19000 + Math.floor(Math.random() * 500);
  const child = spawn(
    process.execPath,
    ["bin/schemawatch.js", "run", "--config", config, "--port", String(port)],
    {
      stdio: ["ignore", "ignore", "inherit"],
      // The heap limits the Dockerfile and the Kubernetes manifests set (BENCHMARKS.md says why).
      env: { ...process.env, NODE_OPTIONS: PRODUCT_NODE_OPTIONS },
    },
  );
  const start = performance.now();
  let peakMb;
  try {
    for (;;) {
      await new Promise((r) => setTimeout(r, 500));
      const status = await readFile(`/proc/${child.pid}/status`, "utf8");
      peakMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
      const body = await fetch(`http://127.0.0.1:${port}/api/status`).then(
        (r) => r.json(),
        () => undefined,
      );
      if (body?.subjects?.[0]?.records >= RECORDS) break;
      if (performance.now() - start > 300_000)
        throw new Error("schemawatch run did not read the topic within 300 s");
    }
    return { peakMb, rate: RECORDS / ((performance.now() - start) / 1000) };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    await rm(dir, { recursive: true, force: true });
  }
}

const RECORDS = Number(process.env.BENCH_KAFKA_RECORDS ?? 1_000_000);
export const PARTITIONS = 4;
export const TUNING = {
  sessionTimeout: 10_000,
  rebalanceTimeout: 10_000,
  heartbeatInterval: 1_000,
  maxWaitTimeInMs: 200,
};

const producers = ["web", "mobile", "billing", "partner-feed"];

/** About 200 bytes a record with key and headers, in the article's shapes. */
export function message(i) {
  const producer = producers[i % 4];
  const v11 = i % 4 !== 0;
  const doc = v11
    ? { id: 1_000_000 + i, event: i % 8 === 1 ? "buy" : "view", amount: (i % 10_000) / 100 }
    : { id: 1_000_000 + i, event: "click" };
  return {
    key: `${producer}:${randomUUID()}`,
    value: JSON.stringify(doc),
    headers: { producer, "schema-version": v11 ? "event/1.1" : "event/1.0", "trace-id": randomUUID() },
  };
}

export async function fill(kafka, topic) {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }], waitForLeaders: true });
  await admin.disconnect();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const start = performance.now();
  let bytes = 0;
  const inFlight = [];
  for (let sent = 0; sent < RECORDS; sent += 5000) {
    const messages = [];
    for (let i = sent; i < Math.min(RECORDS, sent + 5000); i++) {
      const m = message(i);
      bytes +=
        m.key.length +
        m.value.length +
        Object.entries(m.headers).reduce((s, [k, v]) => s + k.length + v.length, 0);
      messages.push(m);
    }
    inFlight.push(producer.send({ topic, messages, acks: 1 }));
    if (inFlight.length >= 8) await inFlight.shift();
  }
  await Promise.all(inFlight);
  await producer.disconnect();
  return { seconds: (performance.now() - start) / 1000, bytesPerRecord: bytes / RECORDS };
}

async function bare(kafka, topic) {
  const consumer = kafka.consumer({ groupId: `bench-bare-${randomUUID()}`, ...TUNING });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  let count = 0;
  let start = 0;
  const done = new Promise((resolve) => {
    void consumer.run({
      eachBatchAutoResolve: true,
      eachBatch: async ({ batch }) => {
        if (start === 0) start = performance.now();
        count += batch.messages.length;
        if (count >= RECORDS) resolve(performance.now());
      },
    });
  });
  const end = await done;
  await consumer.disconnect();
  return { rate: RECORDS / ((end - start) / 1000) };
}

/** schemawatch's own KafkaSource and pipeline reading `records` records of the topic, in a fresh group. */
export async function schemawatch(brokers, topic, catalog, baseConfig, ratio, records = RECORDS) {
  const subjects = baseConfig.subjects.map((s) => ({
    ...s,
    topics: [topic],
    sampling: { ratio, maxPerSecond: 1e9 },
  }));
  const config = {
    ...baseConfig,
    subjects,
    kafka: { ...baseConfig.kafka, brokers, groupId: `bench-sw-${randomUUID()}`, fromBeginning: true },
  };
  const subject = catalog.subjects.get("event");
  const benchCatalog = {
    ...catalog,
    subjects: new Map([["event", { ...subject, topics: [topic] }]]),
    subjectByTopic: new Map([[topic, { ...subject, topics: [topic] }]]),
  };
  const pipeline = new Pipeline(benchCatalog, config);
  let count = 0;
  let start = 0;
  let resolveDone;
  const done = new Promise((resolve) => (resolveDone = resolve));
  const sink = {
    process(record) {
      if (start === 0) start = performance.now();
      pipeline.process(record);
      if (++count === records) resolveDone(performance.now());
    },
  };
  const source = new KafkaSource({
    kafka: config.kafka,
    topics: [topic],
    sink,
    health: new Health(),
    logger: createLogger("silent"),
    env: {},
    tuning: TUNING,
  });
  await source.start();
  const end = await done;
  await source.stop();
  const validated = pipeline.tallies.validations.reduce((s, c) => s + c.value, 0);
  return { rate: records / ((end - start) / 1000), validated };
}

export async function kafkaBench(brokers, catalog, config, figures) {
  const kafka = new Kafka({ clientId: "schemawatch-bench", brokers, logLevel: logLevel.NOTHING });
  const topic = `bench-${randomUUID()}`;
  const filled = await fill(kafka, topic);
  console.log(
    `\nKafka: ${RECORDS.toLocaleString("en-US")} records of ${filled.bytesPerRecord.toFixed(0)} bytes (key + value + headers) on ${PARTITIONS} partitions, filled in ${filled.seconds.toFixed(1)} s`,
  );
  // Two interleaved rounds, best of each: the broker's page cache and the JIT warm up during the
  // first consumer, which would otherwise flatter whichever runs later.
  const best = { bare: 0, full: 0, sampled: 0 };
  let validations = { full: 0, sampled: 0 };
  for (let round = 0; round < 2; round++) {
    // Collect the previous consumer's garbage first, so that no run pays for another's.
    globalThis.gc?.();
    best.bare = Math.max(best.bare, (await bare(kafka, topic)).rate);
    globalThis.gc?.();
    const full = await schemawatch(brokers, topic, catalog, config, 1);
    best.full = Math.max(best.full, full.rate);
    globalThis.gc?.();
    const sampled = await schemawatch(brokers, topic, catalog, config, 0.01);
    best.sampled = Math.max(best.sampled, sampled.rate);
    validations = { full: full.validated, sampled: sampled.validated };
  }
  const rows = [
    ["bare kafkajs consumer (eachBatch, does nothing)", best.bare, 1],
    [
      `schemawatch, sample ratio 1 (${validations.full.toLocaleString("en-US")} validations)`,
      best.full,
      best.full / best.bare,
    ],
    [
      `schemawatch, sample ratio 0.01 (${validations.sampled.toLocaleString("en-US")} validations)`,
      best.sampled,
      best.sampled / best.bare,
    ],
  ];
  console.log("| consumer | records/s | vs bare |");
  console.log("| --- | ---: | ---: |");
  for (const [name, rate, ratio] of rows)
    console.log(`| ${name} | ${Math.round(rate).toLocaleString("en-US")} | ${ratio.toFixed(2)} |`);
  const r1 = best.full / best.bare;
  const r2 = best.sampled / best.bare;
  figures.add("schemawatch at sample ratio 1, share of the bare consumer's rate", r1 * 100, {
    target: 80,
    better: "higher",
    unit: "%",
    digits: 0,
  });
  figures.add("schemawatch at sample ratio 0.01, share of the bare consumer's rate", r2 * 100, {
    target: 95,
    better: "higher",
    unit: "%",
    digits: 0,
  });
  const memory = await monitorMemory(brokers, topic);
  figures.add(
    `schemawatch run (its own process, NODE_OPTIONS=${PRODUCT_NODE_OPTIONS}, ratio 1, ${RECORDS.toLocaleString("en-US")} records from Kafka), peak resident memory`,
    memory.peakMb,
    {
      target: 200,
      better: "lower",
      unit: " MB",
      digits: 0,
      note: `${Math.round(memory.rate).toLocaleString("en-US")} records/s including start-up`,
    },
  );
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] });
  await admin.disconnect();
  return best;
}
