#!/usr/bin/env node
// What kafkajs's commit after every batch costs schemawatch (issue 37): with `autoCommit`, kafkajs's
// runner commits the resolved offsets after each partition's batch (`Runner#autoCommitOffsets` after
// `eachBatch`), on top of the 5 s interval (`autoCommitInterval`) that schemawatch sets and that the
// Java consumer's default auto-commit uses alone. Runs schemawatch at ratio 0.01 (workers 0) on one
// pre-filled topic in interleaved rounds, each in a fresh process: as it is, and with that after-batch
// commit made "if the interval has passed" by a preload of this bench only. Prints CPU-s per 1M records
// of each round, how many after-batch commits each process made, and the ratio per round.
// A measurement, not a change: the product still commits after every batch (BENCHMARKS.md says why).
//
//   npm run build && KAFKA_BROKERS=127.0.0.1:19092 node bench/commit-per-batch.js
//
// Options (environment): BENCH_KAFKA_RECORDS (500000), BENCH_KAFKA_ROUNDS (6).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { PRODUCT_NODE_OPTIONS, fill, loadAverage } from "./kafka.js";

const RECORDS = Number(process.env.BENCH_KAFKA_RECORDS ?? 500_000);
const ROUNDS = Number(process.env.BENCH_KAFKA_ROUNDS ?? 6);
if (!process.env.KAFKA_BROKERS) {
  console.error("KAFKA_BROKERS is not set (for example from scripts/kafka-broker.sh start)");
  process.exit(2);
}
const brokers = process.env.KAFKA_BROKERS.split(",");
const runner = createRequire(import.meta.url).resolve("kafkajs/src/consumer/runner.js");

/** A preload that counts the after-batch commits and, when `interval`, makes them wait for the interval. */
const preload = (interval) => `
const Runner = require(${JSON.stringify(runner)});
const commit = Runner.prototype.autoCommitOffsets;
let calls = 0;
Runner.prototype.autoCommitOffsets = function () {
  calls++;
  return ${interval ? "this.autoCommitOffsetsIfNecessary()" : "commit.call(this)"};
};
process.on("exit", () => process.stderr.write("afterBatchCommits=" + calls + "\\n"));
`;

async function run(spec, pre) {
  const child = spawn(
    process.execPath,
    ["--expose-gc", "-r", pre, "bench/consumer.js", JSON.stringify(spec)],
    {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_OPTIONS: PRODUCT_NODE_OPTIONS },
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((r) => child.once("exit", r));
  if (code !== 0) throw new Error(`bench/consumer.js failed (exit ${code}): ${stderr}`);
  const result = JSON.parse(stdout.trim().split("\n").pop());
  return { cpu: result.cpuSecondsPerMillion, commits: Number(/afterBatchCommits=(\d+)/.exec(stderr)?.[1]) };
}

const kafka = new Kafka({ clientId: "schemawatch-bench", brokers, logLevel: logLevel.NOTHING });
const topic = `bench-commit-${randomUUID()}`;
const dir = await mkdtemp(join(tmpdir(), "schemawatch-commit-"));
try {
  const variants = [
    ["after every batch (as shipped)", join(dir, "every.cjs"), false],
    ["after a batch once the 5 s interval passed", join(dir, "interval.cjs"), true],
  ];
  for (const [, path, interval] of variants) await writeFile(path, preload(interval));
  const filled = await fill(kafka, topic);
  console.log(
    `${RECORDS.toLocaleString("en-US")} records of ${filled.bytesPerRecord.toFixed(0)} bytes, schemawatch at ratio 0.01, workers 0, ${ROUNDS} interleaved rounds; load average ${loadAverage()}`,
  );
  const spec = { mode: "schemawatch", ratio: 0.01, workers: 0, brokers, topic, records: RECORDS };
  const results = variants.map(() => []);
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, [, path]] of variants.entries()) results[i].push(await run(spec, path));
  for (const [i, [name]] of variants.entries())
    console.log(
      `- ${name}: CPU-s per 1M ${results[i].map((r) => r.cpu.toFixed(2)).join(", ")}; after-batch commits ${results[i].map((r) => r.commits).join(", ")}`,
    );
  const ratios = results[1].map((r, i) => r.cpu / results[0][i].cpu);
  const sorted = [...ratios].sort((a, b) => a - b);
  const median =
    sorted.length % 2
      ? sorted[(sorted.length - 1) / 2]
      : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(
    `interval / every batch, per round: median ${median.toFixed(2)}, range ${sorted[0].toFixed(2)}–${sorted.at(-1).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(", ")}); load average ${loadAverage()}`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect();
}
