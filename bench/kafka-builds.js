#!/usr/bin/env node
// Two builds of schemawatch side by side on one Kafka topic: CPU per record of each, in fresh
// processes, the order alternating every round, and the first build's over the second's per round.
// For a change whose effect is a few percent: a round's consumers run seconds apart, so load on the
// machine hits both; the median of many rounds is the figure, its range the noise.
//
//   npm run build && KAFKA_BROKERS=127.0.0.1:19092 BENCH_BUILDS_BASE=../base/dist node bench/kafka-builds.js
//
// Options (environment): BENCH_BUILDS_BASE (required: the other build's dist folder, in a checkout or
// worktree that finds node_modules), BENCH_BUILDS_NEW (this checkout's dist by default),
// BENCH_BUILDS_RATIO (0.01), BENCH_BUILDS_ROUNDS (10), BENCH_KAFKA_RECORDS (1000000).
import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";
import { fill, loadAverage, runConsumer } from "./kafka.js";

const base = process.env.BENCH_BUILDS_BASE;
if (!process.env.KAFKA_BROKERS || !base) {
  console.error("KAFKA_BROKERS and BENCH_BUILDS_BASE must be set (see the head of bench/kafka-builds.js)");
  process.exit(2);
}
const brokers = process.env.KAFKA_BROKERS.split(",");
const records = Number(process.env.BENCH_KAFKA_RECORDS ?? 1_000_000);
const rounds = Number(process.env.BENCH_BUILDS_ROUNDS ?? 10);
const ratio = Number(process.env.BENCH_BUILDS_RATIO ?? 0.01);
const builds = [
  { name: "new", dist: process.env.BENCH_BUILDS_NEW },
  { name: "base", dist: base },
];

const kafka = new Kafka({ clientId: "schemawatch-bench", brokers, logLevel: logLevel.NOTHING });
const topic = `bench-builds-${randomUUID()}`;
await fill(kafka, topic);
console.log(`sample ratio ${ratio}, ${records.toLocaleString("en-US")} records, ${rounds} rounds`);
const ratios = [];
try {
  for (let round = 0; round < rounds; round++) {
    const cpu = new Map();
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const spec = { mode: "schemawatch", ratio, workers: 0, brokers, topic, records };
      if (build.dist) spec.dist = build.dist;
      cpu.set(build.name, (await runConsumer(spec)).cpuSecondsPerMillion);
    }
    ratios.push(cpu.get("new") / cpu.get("base"));
    console.log(
      `round ${round + 1}: new ${cpu.get("new").toFixed(2)}, base ${cpu.get("base").toFixed(2)} CPU-s per 1M records, ` +
        `new/base ${ratios.at(-1).toFixed(3)}; load average ${loadAverage()}`,
    );
  }
} finally {
  const admin = kafka.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => {});
  await admin.disconnect();
}
const sorted = [...ratios].sort((a, b) => a - b);
const mid = sorted.length / 2;
const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
console.log(
  `new/base: median ${median.toFixed(3)}, range ${sorted[0].toFixed(3)}–${sorted.at(-1).toFixed(3)}, ` +
    `above 1 in ${ratios.filter((r) => r > 1).length} of ${ratios.length} rounds`,
);
