// The Kafka half of the benchmark: the Kafka project's Java consumer (bench/java-consumer.js) and a
// bare kafkajs consumer, both doing nothing, against schemawatch's own KafkaSource and pipeline, on the
// same pre-filled topic, each in its own process (bench/consumer.js) and consumer group.
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { Kafka, logLevel } from "kafkajs";
import { spawn } from "node:child_process";
import { buildJavaConsumer } from "./java-consumer.js";

export const PRODUCT_NODE_OPTIONS = "--max-old-space-size=96 --max-semi-space-size=8";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
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
const ROUNDS = Number(process.env.BENCH_KAFKA_ROUNDS ?? 3);
export const PARTITIONS = 4;
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

/** Runs one consumer of bench/consumer.js in its own process and returns what it printed. */
export async function runConsumer(spec) {
  const child = spawn(process.execPath, ["--expose-gc", "bench/consumer.js", JSON.stringify(spec)], {
    stdio: ["ignore", "pipe", "pipe"],
    // The heap limits the Dockerfile and the Kubernetes manifests set, for every consumer alike
    // (`spec.nodeOptions` replaces them, to compare settings).
    env: { ...process.env, NODE_OPTIONS: spec.nodeOptions ?? PRODUCT_NODE_OPTIONS },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
  const code = await new Promise((r) => child.once("exit", r));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`bench consumer ${JSON.stringify(spec)} failed (exit ${code}): ${stderr}`);
  return JSON.parse(stdout.trim().split("\n").pop());
}

/**
 * Runs every consumer of `runs` on the topic in interleaved rounds, each in a fresh process, and
 * prints the table: the Kafka project's Java consumer first when it builds, then the others. Returns
 * the best round of each (by rate) and every round's CPU-seconds per million records, by name.
 */
export async function compareConsumers(brokers, topic, runs, rounds = ROUNDS, records = RECORDS) {
  const java = await buildJavaConsumer();
  if (java.unavailable) console.log(`Java consumer: not measured: ${java.unavailable}`);
  let all = [
    ...(java.unavailable
      ? []
      : [
          {
            name: `Kafka's Java consumer (kafka-clients ${java.client}, read_committed, does nothing)`,
            java: true,
          },
        ]),
    ...runs,
  ];
  // Interleaved rounds, each consumer in a fresh process, best of each: the broker's page cache warms
  // during the first run, and noise on the machine then hits every consumer rather than one.
  const best = new Map();
  const cpu = new Map(all.map((run) => [run.name, []]));
  try {
    for (let round = 0; round < rounds; round++) {
      for (const run of all) {
        const spec = { ...run.spec, brokers, topic, records };
        let result;
        try {
          result = run.java ? await java.run(spec) : await runConsumer(spec);
        } catch (error) {
          if (!run.java) throw error;
          // The JVM failed (out of memory, a broken JDK): the table goes on without it.
          java.unavailable = error.message.slice(0, 300);
          console.log(`Java consumer: not measured: ${java.unavailable}`);
          all = all.filter((r) => !r.java);
          continue;
        }
        cpu.get(run.name).push(result.cpuSecondsPerMillion);
        const kept = best.get(run.name);
        if (!kept || result.rate > kept.rate) best.set(run.name, result);
      }
    }
  } finally {
    await java.close?.();
  }
  const bareRate = best.get(runs[0].name).rate;
  const javaCpu = java.unavailable ? undefined : best.get(all[0].name).cpuSecondsPerMillion;
  console.log(`load average (uptime) after the runs: ${loadAverage()}`);
  console.log(`| consumer | records/s | vs bare | CPU-s per 1M records | CPU vs Java | peak RSS |`);
  console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const run of all) {
    const r = best.get(run.name);
    const validations =
      run.spec?.mode === "schemawatch" ? ` (${r.validated.toLocaleString("en-US")} validations)` : "";
    const vsJava = javaCpu === undefined ? "—" : (r.cpuSecondsPerMillion / javaCpu).toFixed(2);
    console.log(
      `| ${run.name}${validations} | ${Math.round(r.rate).toLocaleString("en-US")} | ${(r.rate / bareRate).toFixed(2)} | ${r.cpuSecondsPerMillion.toFixed(2)} | ${vsJava} | ${r.peakRssMb.toFixed(0)} MB |`,
    );
  }
  console.log(
    `CPU-s per 1M records, every round: ${all
      .map(
        (run) =>
          `${run.name.split(" (")[0]} ${cpu
            .get(run.name)
            .map((c) => c.toFixed(2))
            .join(", ")}`,
      )
      .join("; ")}`,
  );
  return { best, cpu, javaName: java.unavailable ? undefined : all[0].name };
}

/** `uptime`'s three load averages, as printed beside every figure of a shared machine. */
export function loadAverage() {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(", ");
}

export async function kafkaBench(brokers, catalog, config, figures) {
  const kafka = new Kafka({ clientId: "schemawatch-bench", brokers, logLevel: logLevel.NOTHING });
  const topic = `bench-${randomUUID()}`;
  const filled = await fill(kafka, topic);
  console.log(
    `\nKafka: ${RECORDS.toLocaleString("en-US")} records of ${filled.bytesPerRecord.toFixed(0)} bytes (key + value + headers) on ${PARTITIONS} partitions, filled in ${filled.seconds.toFixed(1)} s; load average ${loadAverage()}`,
  );
  const runs = [
    { name: "bare kafkajs consumer (eachBatch, does nothing)", spec: { mode: "bare" } },
    ...[0, 1].flatMap((workers) =>
      [1, 0.1, 0.01].map((ratio) => ({
        name: `schemawatch, sample ratio ${ratio}, workers ${workers}`,
        spec: { mode: "schemawatch", ratio, workers },
      })),
    ),
  ];
  const { best, javaName } = await compareConsumers(brokers, topic, runs);
  const bareRate = best.get(runs[0].name).rate;
  const of = (ratio, workers) => best.get(`schemawatch, sample ratio ${ratio}, workers ${workers}`);
  const share = (ratio, workers) => (of(ratio, workers).rate / bareRate) * 100;
  figures.add(
    "schemawatch at sample ratio 0.01 (workers 0), share of the bare consumer's rate",
    share(0.01, 0),
    {
      target: 97,
      better: "higher",
      unit: "%",
      digits: 0,
    },
  );
  figures.add(
    "schemawatch at sample ratio 1 with a validation worker, share of the bare consumer's rate",
    share(1, 1),
    {
      target: 90,
      better: "higher",
      unit: "%",
      digits: 0,
    },
  );
  // What a sidecar must be given: CPU per record from this run, at the default sampling (at most
  // 5,000 validations a second, so at high rates most records are only counted, as at ratio 0.01).
  const cpuPerRecord = of(0.01, 0).cpuSecondsPerMillion / 1e6;
  const validationCpu = (of(1, 0).cpuSecondsPerMillion - of(0.01, 0).cpuSecondsPerMillion) / 0.99 / 1e6;
  for (const rate of [10_000, 50_000])
    console.log(
      `sizing: ${rate.toLocaleString("en-US")} records/s with the default sampling (5,000 validations/s) needs about ${Math.round((rate * cpuPerRecord + 5_000 * validationCpu) * 1000)}m of CPU`,
    );
  if (javaName !== undefined)
    figures.add(
      "schemawatch at sample ratio 0.01 (workers 0), CPU-seconds per million records / the Java consumer's",
      of(0.01, 0).cpuSecondsPerMillion / best.get(javaName).cpuSecondsPerMillion,
      { target: 2, better: "lower" },
    );
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
