#!/usr/bin/env node
// One measured monitor of the scale benchmark, in a fresh process with the image's heap limits
// (bench/scale.js spawns it): startMonitor on a generated catalog folder and capture, as
// `schemawatch run --source file:` runs it, then a few scrapes of its own /metrics and status page.
// Prints one JSON line.
//
//   node bench/scale-child.js '{"config":"/tmp/x/config.yaml","capture":"/tmp/x/capture.ndjson"}'
//   ... '{"...","profile":"/tmp/x/replay.cpuprofile"}'   # a CPU profile of the replay alone
//   ... '{"...","scrapeProfile":"/tmp/x/scrape.cpuprofile"}'   # of the three /metrics scrapes alone
import { Buffer } from "node:buffer";
import { writeFile } from "node:fs/promises";
import { performance } from "node:perf_hooks";

const spec = JSON.parse(process.argv[2] ?? "{}");
const { startMonitor } = await import("../dist/monitor/start.js");
const { createLogger } = await import("../dist/log.js");

const cpuMicros = (usage) => usage.user + usage.system;

const monitor = await startMonitor({
  configPath: spec.config,
  source: { file: spec.capture },
  port: 0,
  host: "127.0.0.1",
  env: {},
  version: "bench",
  logger: createLogger("silent"),
});
// performance.now() counts from the process's start: module loading, config, catalog compilation,
// metrics and HTTP server included.
const startupMs = performance.now();
const startupCpu = process.cpuUsage();
// The main thread's own share: V8's helper threads (concurrent marking, compilation) are left out.
const startupThreadCpu = process.threadCpuUsage();

async function startProfile() {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  return session;
}

async function stopProfile(session, path) {
  const { profile } = await session.post("Profiler.stop");
  await writeFile(path, JSON.stringify(profile));
  session.disconnect();
}

// The inspector starts after start-up, so the profile holds the replay and nothing else.
const session = spec.profile ? await startProfile() : undefined;
const replayStart = performance.now();
const summary = await monitor.replayed;
const replayMs = performance.now() - replayStart;
const replayCpu = cpuMicros(process.cpuUsage(startupCpu));
const replayThreadCpu = cpuMicros(process.threadCpuUsage(startupThreadCpu));
if (session) await stopProfile(session, spec.profile);

/** Best and first of `rounds` GETs of one path: time, bytes and the text. */
async function scrape(path, rounds) {
  let first;
  let best = Infinity;
  let text = "";
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    const response = await fetch(`${monitor.address}${path}`);
    text = await response.text();
    const ms = performance.now() - start;
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
    first ??= ms;
    best = Math.min(best, ms);
  }
  return { firstMs: first, bestMs: best, bytes: Buffer.byteLength(text), text };
}

// A separate profile of the scrapes alone, when asked (`"scrapeProfile": PATH`).
const scrapeSession = spec.scrapeProfile ? await startProfile() : undefined;
const metrics = await scrape("/metrics", 3);
if (scrapeSession) await stopProfile(scrapeSession, spec.scrapeProfile);
if (spec.dump) await writeFile(spec.dump, metrics.text);
const series = {};
for (const line of metrics.text.split("\n")) {
  if (line === "" || line.startsWith("#")) continue;
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)[0];
  series[name] = (series[name] ?? 0) + 1;
}
const page = await scrape("/", 3);
const tallies = monitor.pipeline.tallies;
const result = {
  records: summary.records,
  invalidLines: summary.invalid,
  counted: tallies.records.reduce((s, c) => s + c.value, 0),
  validated: tallies.validations.reduce((s, c) => s + c.value, 0),
  startupMs,
  startupCpuMs: cpuMicros(startupCpu) / 1000,
  replayMs,
  cpuSecondsPerMillion: replayCpu / summary.records,
  mainThreadCpuSecondsPerMillion: replayThreadCpu / summary.records,
  metrics: { bytes: metrics.bytes, firstMs: metrics.firstMs, bestMs: metrics.bestMs, series },
  page: { bytes: page.bytes, firstMs: page.firstMs, bestMs: page.bestMs },
  peakRssMb: process.resourceUsage().maxRSS / 1024,
};
process.stdout.write(JSON.stringify(result) + "\n");
process.exit(0);
