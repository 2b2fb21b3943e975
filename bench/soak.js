#!/usr/bin/env node
// The soak: one `schemawatch run` (the image's heap flags) on a fresh topic at a steady rate for
// SOAK_MINUTES, with new producer ids every minute so that the per-producer series churn past the
// `producer.maxValues` cap. Every SOAK_SAMPLE_S it reads the monitor's RSS (/proc), heap, series
// count and event-loop lag p99 (prom-client's, over the time since the previous scrape) from
// /metrics. Prints the RSS and heap slope after warm-up (least squares, MB/hour), the series range and
// the event-loop lag of the first and last 5 minutes after warm-up.
//
//   npm run bench:soak                                  # 30 minutes at 800 records/s
//   SOAK_MINUTES=5 SOAK_WARMUP_MINUTES=1 npm run bench:soak
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import {
  brokersFromEnv,
  freePort,
  kafkaFor,
  loadAverages,
  quantile,
  rssMb,
  scrape,
  slope,
  startMonitorProcess,
  steadyProducer,
  total,
  waitReady,
} from "./monitor-process.js";

const MINUTES = Number(process.env.SOAK_MINUTES ?? 30);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES ?? 5);
const RATE = Number(process.env.SOAK_RATE ?? 800);
const PRODUCERS_PER_MINUTE = Number(process.env.SOAK_PRODUCERS_PER_MINUTE ?? 20);
const SAMPLE_S = Number(process.env.SOAK_SAMPLE_S ?? 10);
const MAX_PRODUCERS = 50; // producer.maxValues, its default: the cap the churn runs into
const PARTITIONS = 4;

const brokers = brokersFromEnv();
const kafka = kafkaFor(brokers);
const topic = `bench-soak-${randomUUID().slice(0, 8)}`;
const dir = await mkdtemp(join(tmpdir(), "schemawatch-soak-"));
const config = join(dir, "config.yaml");
await writeFile(
  config,
  `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: bench-soak-${randomUUID()}
  lagInterval: 5s
logLevel: warn
state:
  file: ${join(dir, "state.json")}
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    producer:
      maxValues: ${MAX_PRODUCERS}
`,
);

const admin = kafka.admin();
await admin.connect();
await admin.createTopics({ topics: [{ topic, numPartitions: PARTITIONS }], waitForLeaders: true });

console.log(
  `Soak: ${MINUTES} min at ${RATE} records/s on ${PARTITIONS} partitions, ${PRODUCERS_PER_MINUTE} new producer ids a minute (cap ${MAX_PRODUCERS}), a sample every ${SAMPLE_S} s, warm-up ${WARMUP_MINUTES} min`,
);
console.log(`start: ${loadAverages()}`);

const monitor = startMonitorProcess(config, await freePort());
await waitReady(monitor);
const started = Date.now();
const minute = () => Math.floor((Date.now() - started) / 60_000);
// Producer ids of the current minute: a fresh set every minute, never seen before.
const ids = new Set();
const producer = await steadyProducer(kafka, topic, RATE, (i) => {
  const id = `svc-${minute()}-${i % PRODUCERS_PER_MINUTE}`;
  ids.add(id);
  const v11 = i % 4 !== 0;
  return {
    key: String(i),
    value: JSON.stringify(v11 ? { id: i, event: "buy", amount: i % 100 } : { id: i, event: "view" }),
    headers: { producer: id, "schema-version": v11 ? "event/1.1" : "event/1.0" },
  };
});

const samples = [];
try {
  while (Date.now() - started < MINUTES * 60_000) {
    await sleep(SAMPLE_S * 1000 - ((Date.now() - started) % (SAMPLE_S * 1000)));
    if (monitor.child.exitCode !== null) throw new Error(`monitor exited: ${monitor.stderr()}`);
    const metrics = await scrape(monitor.url);
    const sample = {
      minutes: (Date.now() - started) / 60_000,
      rssMb: await rssMb(monitor.child.pid),
      heapMb: total(metrics, "nodejs_heap_size_used_bytes") / 2 ** 20,
      series: metrics.length,
      swSeries: metrics.filter((s) => s.name.startsWith("schemawatch_")).length,
      lagP99Ms: total(metrics, "nodejs_eventloop_lag_p99_seconds") * 1000,
      records: total(metrics, "schemawatch_records_total"),
      overflow: total(metrics, "schemawatch_label_overflow_total"),
      produced: producer.state.produced,
    };
    samples.push(sample);
    console.log(
      `${sample.minutes.toFixed(1).padStart(5)} min  RSS ${sample.rssMb.toFixed(1)} MB  heap ${sample.heapMb.toFixed(1)} MB  series ${sample.series} (schemawatch_* ${sample.swSeries})  loop p99 ${sample.lagP99Ms.toFixed(1)} ms  records ${sample.records}/${sample.produced}  other ${sample.overflow}`,
    );
  }
} finally {
  await producer.stop();
}
// The monitor reads the rest; then its count must equal what was produced (one process, no kill).
const deadline = Date.now() + 120_000;
let counted = 0;
while (Date.now() < deadline) {
  counted = total(await scrape(monitor.url), "schemawatch_records_total");
  if (counted >= producer.state.produced) break;
  await sleep(1000);
}
const end = loadAverages();
await monitor.kill("SIGTERM");
await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
await admin.disconnect();
await rm(dir, { recursive: true, force: true });

const after = samples.filter((s) => s.minutes >= WARMUP_MINUTES);
const perHour = (key, rows = after) => slope(rows.map((s) => ({ x: s.minutes / 60, y: s[key] })));
// A slope that falls from the whole span to its second half is memory settling, not a leak.
const secondHalf = samples.filter((s) => s.minutes >= MINUTES / 2);
const window = (from, to) => after.filter((s) => s.minutes >= from && s.minutes < to).map((s) => s.lagP99Ms);
const first = window(WARMUP_MINUTES, WARMUP_MINUTES + 5);
const last = window(MINUTES - 5, MINUTES + 1);
const range = (key, rows = after) =>
  `${Math.min(...rows.map((s) => s[key]))}–${Math.max(...rows.map((s) => s[key]))}`;
const mb = (v) => v.toFixed(1);

console.log(`end: ${end}`);
console.log(`\n| figure | value |`);
console.log(`| --- | ---: |`);
console.log(
  `| records produced / counted by the monitor | ${producer.state.produced} / ${counted} (${producer.state.failed} sends failed) |`,
);
console.log(
  `| producer ids used / label cap | ${ids.size} / ${MAX_PRODUCERS} (${samples.at(-1)?.overflow ?? 0} records as \`other\`) |`,
);
console.log(
  `| RSS after warm-up: first / last / max | ${mb(after[0].rssMb)} / ${mb(after.at(-1).rssMb)} / ${mb(Math.max(...after.map((s) => s.rssMb)))} MB |`,
);
console.log(
  `| RSS slope after warm-up (least squares, ${after.length} samples) | ${perHour("rssMb").toFixed(2)} MB/hour |`,
);
console.log(
  `| RSS slope over the second half (${secondHalf.length} samples) | ${perHour("rssMb", secondHalf).toFixed(2)} MB/hour |`,
);
console.log(
  `| heap used slope after warm-up / over the second half | ${perHour("heapMb").toFixed(2)} / ${perHour("heapMb", secondHalf).toFixed(2)} MB/hour |`,
);
console.log(
  `| series on /metrics after warm-up: min–max (schemawatch_* only) | ${range("series")} (${range("swSeries")}) |`,
);
console.log(
  `| series before warm-up ended: min–max | ${range(
    "series",
    samples.filter((s) => s.minutes < WARMUP_MINUTES),
  )} |`,
);
console.log(
  `| event-loop lag p99, first 5 min after warm-up: median / max of ${SAMPLE_S} s windows | ${quantile(first, 0.5).toFixed(1)} / ${Math.max(...first).toFixed(1)} ms |`,
);
console.log(
  `| event-loop lag p99, last 5 min: median / max | ${quantile(last, 0.5).toFixed(1)} / ${Math.max(...last).toFixed(1)} ms |`,
);
console.log(`| event-loop lag p99 slope after warm-up | ${perHour("lagP99Ms").toFixed(2)} ms/hour |`);
if (counted !== producer.state.produced) {
  console.error(`MISMATCH: counted ${counted}, produced ${producer.state.produced}`);
  process.exitCode = 1;
}
