#!/usr/bin/env node
// Unknown-id flood (issue 16, "Bounded lookups": memory stays flat whatever the number of distinct
// ids). One `schemawatch run` (the image's heap flags) follows a subject read from the real registry
// (SCHEMA_REGISTRY_URL, Apicurio) on a fresh topic of the real broker (KAFKA_BROKERS). First a warm-up
// of records with the subject's own id, then records whose Confluent wire ids are all distinct and
// unregistered, in steps up to 25 000, 50 000, 100 000 and 200 000 distinct ids at ID_FLOOD_RATE
// records a second. After each step, once the monitor has counted every record, it prints what the
// monitor counted, the registry requests its lookups sent (and skipped), the bound the rate allows,
// the monitor's RSS (/proc) and heap used (its /metrics), `schemawatch_registry_up` and the load
// average; at the end, the RSS and heap slopes per 10 000 ids. About 2 minutes; it stops by itself
// within ID_FLOOD_DEADLINE_S and deletes only the topic and subject it made.
//
//   npm run bench:id-flood
//   ID_FLOOD_RATE=5000 ID_FLOOD_STEPS=10000,20000 ID_FLOOD_REGISTRY="lookupsPerSecond: 100" npm run bench:id-flood
import { Buffer } from "node:buffer";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Partitioners } from "kafkajs";
import { DEFAULTS } from "../dist/config/defaults.js";
import {
  brokersFromEnv,
  freePort,
  kafkaFor,
  loadAverages,
  scrape,
  slope,
  startMonitorProcess,
  total,
  waitReady,
} from "./monitor-process.js";
import { PRODUCT_NODE_OPTIONS } from "./kafka.js";

const RATE = Number(process.env.ID_FLOOD_RATE ?? 3000);
const WARMUP = Number(process.env.ID_FLOOD_WARMUP ?? 10_000);
const STEPS = (process.env.ID_FLOOD_STEPS ?? "25000,50000,100000,200000").split(",").map(Number);
// Extra keys of the registry's config (flow mapping body), e.g. "lookupsPerSecond: 100".
const REGISTRY_KEYS = process.env.ID_FLOOD_REGISTRY ?? "";
const DEADLINE_S = Number(process.env.ID_FLOOD_DEADLINE_S ?? 330);
const SETTLE_S = 3;

for (const [name, value] of [
  ["ID_FLOOD_RATE", RATE],
  ["ID_FLOOD_WARMUP", WARMUP],
  ["ID_FLOOD_DEADLINE_S", DEADLINE_S],
  ...STEPS.map((s) => ["ID_FLOOD_STEPS", s]),
])
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name}: a positive whole number, not ${value}`);
if (STEPS.some((s, i) => i > 0 && s <= STEPS[i - 1])) throw new Error("ID_FLOOD_STEPS: increasing counts");

const registryUrl = (process.env.SCHEMA_REGISTRY_URL ?? "").trim().replace(/\/+$/, "");
if (registryUrl === "")
  throw new Error(
    'SCHEMA_REGISTRY_URL is not set: start Apicurio with scripts/registry.sh fetch && export "$(scripts/registry.sh start)"',
  );
// The bounds in effect: the config's defaults unless ID_FLOOD_REGISTRY sets one.
const setting = (key) =>
  Number(new RegExp(`${key}:\\s*(\\d+)`).exec(REGISTRY_KEYS)?.[1] ?? DEFAULTS.registry[key]);
const PER_SECOND = setting("lookupsPerSecond");

async function registry(method, path, body) {
  const response = await fetch(`${registryUrl}${path}`, {
    method,
    headers: { "content-type": "application/vnd.schemaregistry.v1+json", accept: "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status}`);
  return text === "" ? undefined : JSON.parse(text);
}

/** Sends `count` records at `rate` a second, in batches every 100 ms; `message(i)` makes record i. */
async function produceAt(producer, topic, rate, count, message) {
  const start = Date.now();
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.floor(((Date.now() - start) / 1000) * rate));
    const messages = [];
    for (; sent < due; sent++) messages.push(message(sent));
    if (messages.length > 0) await producer.send({ topic, messages, acks: -1 });
    await sleep(100);
  }
}

function wire(id, document) {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, Buffer.from(JSON.stringify(document))]);
}

async function memory(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 };
}

const brokers = brokersFromEnv();
const kafka = kafkaFor(brokers);
const run = randomUUID().slice(0, 8);
const topic = `bench-id-flood-${run}`;
const subject = `bench-id-flood-${run}-value`;
const dir = await mkdtemp(join(tmpdir(), "schemawatch-id-flood-"));
const admin = kafka.admin();
const producer = kafka.producer({
  createPartitioner: Partitioners.DefaultPartitioner,
  allowAutoTopicCreation: false,
  idempotent: true,
  maxInFlightRequests: 1,
});
let monitor;
let registered = false;
let topicMade = false;

async function cleanUp() {
  if (monitor) await monitor.kill("SIGTERM");
  await producer.disconnect().catch(() => undefined);
  if (topicMade) await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
  await admin.disconnect().catch(() => undefined);
  // Only the subject this run registered: soft delete, then for good, as the Confluent API wants.
  if (registered) {
    const path = `/subjects/${encodeURIComponent(subject)}`;
    await registry("DELETE", path).catch(() => undefined);
    await registry("DELETE", `${path}?permanent=true`).catch(() => undefined);
  }
  await rm(dir, { recursive: true, force: true });
}

// Stops by itself whatever hangs: the monitor is killed, and the run fails.
const watchdog = setTimeout(() => {
  console.error(`id-flood: not done in ${DEADLINE_S} s; stopping`);
  monitor?.child.kill("SIGKILL");
  process.exit(1);
}, DEADLINE_S * 1000);
watchdog.unref();

const rows = [];
try {
  const id = (
    await registry("POST", `/subjects/${encodeURIComponent(subject)}/versions`, {
      schemaType: "JSON",
      schema: JSON.stringify({ title: subject, type: "object", properties: { id: { type: "integer" } } }),
    })
  ).id;
  registered = true;
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  topicMade = true;
  await producer.connect();

  const config = join(dir, "config.yaml");
  await writeFile(
    config,
    `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: bench-id-flood-${randomUUID()}
logLevel: warn
state:
  file: ${join(dir, "state.json")}
registries:
  main: { url: "${registryUrl}"${REGISTRY_KEYS !== "" ? `, ${REGISTRY_KEYS}` : ""} }
subjects:
  - name: order
    topics: [${topic}]
    registry: { name: main, subject: ${subject} }
`,
  );
  console.log(
    `Unknown-id flood: subject ${subject} (wire id ${id}) on ${topic}, ${WARMUP} warm-up records with that id, then distinct unregistered ids up to ${STEPS.at(-1)} at ${RATE} records/s; monitor with NODE_OPTIONS=${PRODUCT_NODE_OPTIONS}, lookupsInFlight ${setting("lookupsInFlight")}, lookupsPerSecond ${PER_SECOND}, lookupCache ${setting("lookupCache")}`,
  );
  console.log(`start: ${loadAverages()}`);
  monitor = startMonitorProcess(config, await freePort());
  await waitReady(monitor);

  // Far above any id a registry hands out, and new on each run.
  const base = 1_500_000_000 + Math.floor(Math.random() * 400_000_000);
  let produced = 0;
  let distinct = 0;
  let floodStarted;

  async function step(label, count, message) {
    await produceAt(producer, topic, RATE, count, message);
    produced += count;
    const deadline = Date.now() + 90_000;
    let metrics = await scrape(monitor.url);
    while (total(metrics, "schemawatch_records_total") < produced) {
      if (monitor.child.exitCode !== null) throw new Error(`monitor exited: ${monitor.stderr()}`);
      if (Date.now() > deadline)
        throw new Error(
          `${label}: ${total(metrics, "schemawatch_records_total")} of ${produced} counted in 90 s`,
        );
      await sleep(250);
      metrics = await scrape(monitor.url);
    }
    // The last records' garbage settles a moment before memory is read.
    await sleep(SETTLE_S * 1000);
    metrics = await scrape(monitor.url);
    const lookups = (result) =>
      total(metrics, "schemawatch_registry_id_lookups_total", { registry: "main", result });
    const requests = ["found", "missing", "failed", "unsupported"].reduce((sum, r) => sum + lookups(r), 0);
    const floodSeconds = floodStarted === undefined ? 0 : (Date.now() - floodStarted) / 1000;
    rows.push({
      label,
      counted: total(metrics, "schemawatch_records_total"),
      unknown: total(metrics, "schemawatch_decode_errors_total", { reason: "unknown_schema_id" }),
      distinct,
      missing: lookups("missing"),
      failed: lookups("failed"),
      requests,
      skipped: total(metrics, "schemawatch_registry_id_lookups_skipped_total", { registry: "main" }),
      // A bucket of one second's worth, refilled at the rate: never more than this many started.
      bound: floodSeconds === 0 ? 0 : Math.floor(PER_SECOND + PER_SECOND * floodSeconds),
      floodSeconds,
      ...(await memory(monitor.child.pid)),
      heapMb: total(metrics, "nodejs_heap_size_used_bytes") / 2 ** 20,
      up: total(metrics, "schemawatch_registry_up", { registry: "main" }),
      load: loadAverages().replace(/.*load average:\s*/, ""),
    });
    const r = rows.at(-1);
    console.log(
      `${label}: counted ${r.counted}, distinct ids ${r.distinct}, requests ${r.requests}, skipped ${r.skipped}, RSS ${r.rssMb.toFixed(1)} MB, heap ${r.heapMb.toFixed(1)} MB, up ${r.up}`,
    );
  }

  await step("warm-up (known id)", WARMUP, (i) => ({
    value: wire(id, { id: i }),
    headers: { producer: "bench" },
  }));
  floodStarted = Date.now();
  for (const target of STEPS) {
    const from = distinct;
    // Counted in the step's row, which is read once all of its records were sent.
    distinct = target;
    await step(`${target.toLocaleString("en-US")} ids`, target - from, (i) => ({
      value: wire(base + from + i, { id: from + i }),
      headers: { producer: "bench" },
    }));
  }
} finally {
  console.log(`end: ${loadAverages()}`);
  await cleanUp();
  clearTimeout(watchdog);
}

const n = (v) => v.toLocaleString("en-US");
console.log(
  `\n| step | records counted | as unknown_schema_id | distinct ids | requests (missing / failed) | skipped | bound: ${PER_SECOND}/s × s + ${PER_SECOND} | RSS MB | peak RSS MB | heap used MB | registry_up | load 1/5/15 min |`,
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
for (const r of rows)
  console.log(
    `| ${r.label} | ${n(r.counted)} | ${n(r.unknown)} | ${n(r.distinct)} | ${n(r.requests)} (${n(r.missing)} / ${n(r.failed)}) | ${n(r.skipped)} | ${r.floodSeconds === 0 ? "" : `${n(r.bound)} (${r.floodSeconds.toFixed(0)} s)`} | ${r.rssMb.toFixed(1)} | ${r.peakMb.toFixed(1)} | ${r.heapMb.toFixed(1)} | ${r.up} | ${r.load} |`,
  );
const flood = rows.slice(1);
const per10k = (key, from) => slope(from.map((r) => ({ x: r.distinct / 10_000, y: r[key] }))).toFixed(2);
console.log(
  `\nRSS slope per 10,000 distinct ids (least squares): ${per10k("rssMb", rows)} MB from the warm-up on, ${per10k("rssMb", flood)} MB over the flood steps; heap used: ${per10k("heapMb", rows)} / ${per10k("heapMb", flood)} MB`,
);
const last = rows.at(-1);
const problems = [];
if (last.counted !== WARMUP + last.distinct)
  problems.push(`counted ${last.counted}, sent ${WARMUP + last.distinct}`);
if (last.unknown !== last.distinct) problems.push(`unknown ${last.unknown} for ${last.distinct} unknown ids`);
// Each distinct id was either looked up once or skipped at a bound: never both, never twice.
if (last.requests + last.skipped !== last.distinct)
  problems.push(`requests + skipped ${last.requests + last.skipped} for ${last.distinct} ids`);
if (rows.some((r) => r.requests > r.bound && r.floodSeconds > 0))
  problems.push("requests above the rate's bound");
if (rows.some((r) => r.up !== 1)) problems.push("registry_up not 1 at every step");
if (problems.length > 0) {
  console.error(`MISMATCH: ${problems.join("; ")}`);
  process.exitCode = 1;
}
