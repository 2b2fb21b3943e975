#!/usr/bin/env node
// One consumer of the Kafka benchmark, in a process of its own: a bare kafkajs consumer that does
// nothing, or the whole schemawatch monitor (startMonitor). Each run gets a fresh process (no JIT, heap or
// patched module of another run) and a fresh consumer group, reads the pre-filled topic once, and
// prints one JSON line: records/s, CPU-seconds per million records (every thread of the process) and
// peak resident memory.
//
//   node bench/consumer.js '{"mode":"bare","brokers":["127.0.0.1:19092"],"topic":"t","records":1000000}'
//   node bench/consumer.js '{"mode":"schemawatch","ratio":0.01,"workers":0,...}'
//   ... '{"mode":"schemawatch",...,"schemas":"/tmp/x/event"}'   # another catalog of 1.0.0 and 1.1.0
//   ... '{"mode":"schemawatch",...,"profile":"/tmp/x/kafka.cpuprofile"}'   # plus a CPU profile of the
//   main thread from startMonitor's return to the last record (start-up left out); `profiledRecords`
//   in the JSON line says how many records it covers
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { URL, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const TUNING = {
  sessionTimeout: 10_000,
  rebalanceTimeout: 10_000,
  heartbeatInterval: 1_000,
  maxWaitTimeInMs: 200,
};

const spec = JSON.parse(process.argv[2] ?? "{}");

/** Resolves with { first, end, cpu } once `records` records were handed over. */
function counter(records) {
  let count = 0;
  let started;
  let resolveDone;
  const done = new Promise((r) => (resolveDone = r));
  return {
    done,
    add(n) {
      if (started === undefined) started = { at: performance.now(), cpu: process.cpuUsage() };
      count += n;
      if (count >= records && resolveDone) {
        const cpu = process.cpuUsage(started.cpu);
        resolveDone({
          ms: performance.now() - started.at,
          cpuMicros: cpu.user + cpu.system,
          systemMicros: cpu.system,
        });
        resolveDone = undefined;
      }
    },
  };
}

async function bare() {
  const { Kafka, logLevel } = await import("kafkajs");
  const kafka = new Kafka({
    clientId: "schemawatch-bench",
    brokers: spec.brokers,
    logLevel: logLevel.NOTHING,
  });
  const consumer = kafka.consumer({ groupId: `bench-bare-${randomUUID()}`, ...TUNING });
  await consumer.connect();
  await consumer.subscribe({ topics: [spec.topic], fromBeginning: true });
  const progress = counter(spec.records);
  void consumer.run({
    eachBatchAutoResolve: true,
    eachBatch: async ({ batch }) => progress.add(batch.messages.length),
  });
  const result = await progress.done;
  await consumer.disconnect();
  return { ...result, validated: 0 };
}

/** The whole monitor (startMonitor: lifecycle, HTTP, state file, workers), as `schemawatch run` runs it. */
async function schemawatch() {
  const { mkdtemp, writeFile, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  // `spec.dist`: another build's folder (inside the checkout, so it finds node_modules), to compare two builds.
  const dist = spec.dist ? pathToFileURL(resolve(spec.dist)).href : new URL("../dist", import.meta.url).href;
  const { startMonitor } = await import(`${dist}/monitor/start.js`);
  const { createLogger } = await import(`${dist}/log.js`);
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-bench-"));
  await writeFile(
    join(dir, "config.yaml"),
    `kafka:
  brokers: [${spec.brokers.join(", ")}]
  groupId: bench-sw-${randomUUID()}
  fromBeginning: true
${spec.workers === undefined ? "" : `workers: ${spec.workers}\n`}logLevel: silent
${spec.config ?? ""}subjects:
  - name: event
    topics: [${spec.topic}]
    schemas: ${spec.schemas ?? resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
${spec.schemas ? "" : '      "2.0.0": { status: candidate }\n'}    producer:
      header: producer
    sampling:
      ratio: ${spec.ratio}
      maxPerSecond: 1000000000
`,
  );
  const monitor = await startMonitor({
    configPath: join(dir, "config.yaml"),
    source: "kafka",
    port: 0,
    host: "127.0.0.1",
    env: {},
    version: "bench",
    logger: createLogger("silent"),
    // `tuning` in the spec overrides the consumer's (fetch sizes, for instance), to compare settings.
    tuning: { ...TUNING, ...spec.tuning },
  });
  const session = spec.profile ? await startProfile() : undefined;
  // `spec.allocations`: a file for the sampling heap profile (every allocation, collected ones too).
  const heap = spec.allocations ? await startAllocations() : undefined;
  const progress = counter(spec.records);
  // The monitor's own tallies tell how far it got: counted, and (with workers) validated too.
  const counted = () => monitor.pipeline.tallies.records.reduce((s, c) => s + c.value, 0);
  let seen = 0;
  const poll = setInterval(() => {
    const now = monitor.pipeline.pendingValidations > 0 ? seen : counted();
    if (now > seen) {
      progress.add(now - seen);
      seen = now;
    }
  }, 5);
  const countedBefore = session ? counted() : 0;
  const result = await progress.done;
  clearInterval(poll);
  if (session) await stopProfile(session, spec.profile);
  if (heap) await stopAllocations(heap, spec.allocations);
  const profiledRecords = session ? counted() - countedBefore : undefined;
  const validated = monitor.pipeline.tallies.validations.reduce((s, c) => s + c.value, 0);
  await monitor.stop();
  await rm(dir, { recursive: true, force: true });
  return { ...result, validated, profiledRecords };
}

async function startProfile() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  return session;
}

async function startAllocations() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 4096,
    includeObjectsCollectedByMinorGC: true,
    includeObjectsCollectedByMajorGC: true,
  });
  return session;
}

async function stopAllocations(session, path) {
  const { writeFile } = await import("node:fs/promises");
  const { profile } = await session.post("HeapProfiler.stopSampling");
  await writeFile(path, JSON.stringify(profile));
  session.disconnect();
}

async function stopProfile(session, path) {
  const { writeFile } = await import("node:fs/promises");
  const { profile } = await session.post("Profiler.stop");
  await writeFile(path, JSON.stringify(profile));
  session.disconnect();
}

// With `spec.gcStats`, the time the garbage collector took by kind (minor, major, incremental, weak).
const gc = {};
if (spec.gcStats) {
  const { PerformanceObserver, constants } = await import("node:perf_hooks");
  const kinds = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "minor",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "major",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak",
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = kinds[entry.detail?.kind] ?? "other";
      gc[kind] ??= { count: 0, ms: 0 };
      gc[kind].count++;
      gc[kind].ms += entry.duration;
    }
  }).observe({ entryTypes: ["gc"] });
}
const result = spec.mode === "bare" ? await bare() : await schemawatch();
process.stdout.write(
  JSON.stringify({
    rate: spec.records / (result.ms / 1000),
    cpuSecondsPerMillion: result.cpuMicros / spec.records,
    systemSecondsPerMillion: result.systemMicros / spec.records,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    validated: result.validated,
    profiledRecords: result.profiledRecords,
    ...(spec.gcStats ? { gc } : {}),
  }) + "\n",
);
process.exit(0);
