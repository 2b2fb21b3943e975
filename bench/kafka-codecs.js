// Consumption of the same records compressed with each codec: the Kafka Java client writes them (its
// own codecs, its default batching), schemawatch's KafkaSource and pipeline read them back, and each
// codec's rate is compared with the uncompressed topic's in the same run.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { kafkaClasspath } from "./codecs.js";
import { PARTITIONS, message, runConsumer } from "./kafka.js";

const CODECS = ["none", "gzip", "snappy", "lz4", "zstd"];
const RECORDS = Number(process.env.BENCH_CODEC_RECORDS ?? 500_000);
const ROUNDS = Number(process.env.BENCH_CODEC_ROUNDS ?? 3);
const JACKSON = ["jackson-core-", "jackson-databind-", "jackson-annotations-"];

/** Writes RECORDS records to the topic with the Java producer, Kafka's default batch.size and linger.ms. */
export async function fill(brokers, topic, codec) {
  const child = spawn("java", ["-cp", kafkaClasspath(JACKSON), "test/helpers/java/ProduceRecords.java"], {
    stdio: ["pipe", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const write = (line) =>
    child.stdin.write(line + "\n") ? undefined : new Promise((resolve) => child.stdin.once("drain", resolve));
  await write(
    JSON.stringify({ bootstrap: brokers.join(","), compression: codec, lingerMs: 5, batchSize: 16384 }),
  );
  for (let i = 0; i < RECORDS; i++) {
    const m = message(i);
    await write(
      JSON.stringify({
        topic,
        partition: i % PARTITIONS,
        key: m.key,
        value: m.value,
        headers: Object.entries(m.headers),
      }),
    );
  }
  child.stdin.end();
  const code = await exited;
  if (code !== 0)
    throw new Error(`the Java producer failed for ${codec} (exit ${code}): ${stderr.slice(-500)}`);
}

/** Consumes each codec's topic with schemawatch at ratio 0.01, in interleaved rounds, best of each. */
export async function codecConsumptionBench(brokers, catalog, config, figures) {
  const kafka = new Kafka({ clientId: "schemawatch-bench", brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const topics = Object.fromEntries(CODECS.map((codec) => [codec, `bench-${codec}-${randomUUID()}`]));
  await admin.createTopics({
    topics: CODECS.map((codec) => ({ topic: topics[codec], numPartitions: PARTITIONS })),
    waitForLeaders: true,
  });
  try {
    for (const codec of CODECS) await fill(brokers, topics[codec], codec);
    const best = Object.fromEntries(CODECS.map((codec) => [codec, 0]));
    const cpu = Object.fromEntries(CODECS.map((codec) => [codec, Infinity]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const codec of CODECS) {
        globalThis.gc?.();
        const run = await runConsumer({
          mode: "schemawatch",
          ratio: 0.01,
          brokers,
          topic: topics[codec],
          records: RECORDS,
        });
        best[codec] = Math.max(best[codec], run.rate);
        cpu[codec] = Math.min(cpu[codec], run.cpuSecondsPerMillion);
      }
    }
    console.log(
      `\nCompression: ${RECORDS.toLocaleString("en-US")} records written by the Java client (batch.size 16384, linger.ms 5) with each codec, read by schemawatch at sample ratio 0.01 (best of ${ROUNDS} interleaved rounds)`,
    );
    console.log("| compression.type | records/s | vs none | CPU-s per 1M records |");
    console.log("| --- | ---: | ---: | ---: |");
    for (const codec of CODECS)
      console.log(
        `| ${codec} | ${Math.round(best[codec]).toLocaleString("en-US")} | ${(best[codec] / best.none).toFixed(2)} | ${cpu[codec].toFixed(2)} |`,
      );
    for (const codec of CODECS.slice(1))
      figures.add(
        `reading ${codec} batches, share of the uncompressed topic's rate`,
        (best[codec] / best.none) * 100,
        {
          target: 80,
          better: "higher",
          unit: "%",
          digits: 0,
        },
      );
    return best;
  } finally {
    await admin.deleteTopics({ topics: Object.values(topics) }).catch(() => undefined);
    await admin.disconnect();
  }
}
