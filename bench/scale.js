#!/usr/bin/env node
// Scale: the same capture size replayed on catalogs of 1, 10, 50 and 200 subjects of five versions
// each (one topic per subject, about 1,000 partitions and 300 producers in all), every measurement in
// a fresh process with the image's heap limits (bench/scale-child.js). Prints a table and each figure
// as a ratio to the 1-subject column. Run `npm run build` first: it measures the built code in dist/.
//
//   npm run bench:scale
//
// Options (environment): BENCH_SCALE_RECORDS (default 200000 records per capture), BENCH_SCALE_SIZES
// (default 1,10,50,200), BENCH_SCALE_ROUNDS (default 3 interleaved rounds: best, median and worst),
// BENCH_SCALE_PROFILE=1 (also a CPU profile of the replay at the smallest and largest size, summarized
// by bench/scale-profile.js), BENCH_SCALE_KEEP=1 (keep the generated folder), BENCH_SCALE_REGISTRY=1
// with SCHEMA_REGISTRY_URL (also start-up with the catalog read from that registry; it registers
// 5 × S schemas under subject names of the run's own and leaves them there), BENCH_SCALE_PRODUCER_DETAIL=0
// (the monitors run with `metrics.producerDetail: false`: validation series summed over producers),
// BENCH_SCALE_DUMP=/tmp/x/metrics (the first ratio-1 scrape of each size, to /tmp/x/metrics-<size>.txt).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { PRODUCT_NODE_OPTIONS } from "./kafka.js";
import {
  PARTITIONS,
  PRODUCERS,
  VERSIONS,
  partitionsPerTopic,
  producersPerSubject,
  writeCluster,
  writeRegistryCluster,
} from "./scale-catalog.js";
import { compareProfiles, summarizeProfile } from "./scale-profile.js";

const RECORDS = Number(process.env.BENCH_SCALE_RECORDS ?? 200_000);
const SIZES = (process.env.BENCH_SCALE_SIZES ?? "1,10,50,200").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_SCALE_ROUNDS ?? 3);
const RATIOS = [1, 0.01];
const PRODUCER_DETAIL = process.env.BENCH_SCALE_PRODUCER_DETAIL !== "0";
/** A path prefix: the first ratio-1 scrape of each size is written to `<prefix>-<subjects>.txt`. */
const DUMP = process.env.BENCH_SCALE_DUMP;

const fmt = (n, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** One measured monitor in a fresh `node` with the image's heap limits; resolves with its JSON line. */
async function child(spec, records = RECORDS) {
  const proc = spawn(process.execPath, ["bench/scale-child.js", JSON.stringify(spec)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NODE_OPTIONS: PRODUCT_NODE_OPTIONS },
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (chunk) => (stdout += chunk));
  proc.stderr.on("data", (chunk) => (stderr += chunk));
  const timer = setTimeout(() => proc.kill("SIGKILL"), 300_000);
  const code = await new Promise((r) => proc.once("exit", r));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`bench/scale-child.js failed (exit ${code}): ${stderr}`);
  const result = JSON.parse(stdout);
  if (result.records !== records || result.counted !== records)
    throw new Error(`replayed ${result.records} and counted ${result.counted} of ${records} records`);
  return result;
}

const best = (runs, pick) => Math.min(...runs.map(pick));
const worst = (runs, pick) => Math.max(...runs.map(pick));
const median = (runs, pick) => {
  const sorted = runs.map(pick).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-scale-"));
  console.log(
    `Scale: ${fmt(RECORDS)} records per capture, ${PRODUCERS} producers and ~${fmt(PARTITIONS)} partitions in all, ` +
      `${VERSIONS.length} versions a subject, producer detail of validations ${PRODUCER_DETAIL ? "on" : "off"}; each run a fresh process with NODE_OPTIONS=${PRODUCT_NODE_OPTIONS}; ` +
      `${ROUNDS} interleaved round(s), best of them unless said. Load average at the start: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
  );
  const clusters = new Map();
  for (const subjects of SIZES) {
    const folder = join(dir, `s${subjects}`);
    const cluster = await writeCluster(folder, subjects, RECORDS);
    const configs = {};
    for (const ratio of RATIOS) {
      configs[ratio] = join(folder, `config-${ratio}.yaml`);
      const metrics = PRODUCER_DETAIL ? "" : "metrics:\n  producerDetail: false\n";
      await writeFile(configs[ratio], cluster.config(ratio) + metrics);
    }
    clusters.set(subjects, { capture: cluster.capture, configs });
  }
  const runs = new Map(SIZES.map((s) => [s, { 1: [], 0.01: [] }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const subjects of SIZES) {
      const { capture, configs } = clusters.get(subjects);
      for (const ratio of RATIOS)
        runs.get(subjects)[ratio].push(
          await child({
            config: configs[ratio],
            capture,
            ...(DUMP && round === 0 && ratio === 1 ? { dump: `${DUMP}-${subjects}.txt` } : {}),
          }),
        );
    }
  }

  const rows = [];
  for (const subjects of SIZES) {
    const at1 = runs.get(subjects)[1];
    const at001 = runs.get(subjects)[0.01];
    const all = [...at1, ...at001];
    const series = at1[0].metrics.series;
    const own = Object.entries(series).filter(([name]) => name.startsWith("schemawatch_"));
    rows.push({
      subjects,
      schemas: subjects * VERSIONS.length,
      partitions: partitionsPerTopic(subjects) * subjects,
      producersPerSubject: producersPerSubject(subjects),
      startupMs: best(all, (r) => r.startupMs),
      startupCpuMs: best(all, (r) => r.startupCpuMs),
      cpu1: best(at1, (r) => r.cpuSecondsPerMillion),
      cpu001: best(at001, (r) => r.cpuSecondsPerMillion),
      cpu1Median: median(at1, (r) => r.cpuSecondsPerMillion),
      cpu001Median: median(at001, (r) => r.cpuSecondsPerMillion),
      cpu1Worst: worst(at1, (r) => r.cpuSecondsPerMillion),
      main1: median(at1, (r) => r.mainThreadCpuSecondsPerMillion),
      main001: median(at001, (r) => r.mainThreadCpuSecondsPerMillion),
      cpu001Worst: worst(at001, (r) => r.cpuSecondsPerMillion),
      peakRssMb: worst(all, (r) => r.peakRssMb),
      metricsBytes: at1[0].metrics.bytes,
      seriesAll: Object.values(series).reduce((a, b) => a + b, 0),
      seriesOwn: own.reduce((a, [, n]) => a + n, 0),
      seriesValidations: series.schemawatch_validations_total ?? 0,
      series,
      metricsFirstMs: best(at1, (r) => r.metrics.firstMs),
      metricsBestMs: best(at1, (r) => r.metrics.bestMs),
      pageBytes: at1[0].page.bytes,
      pageFirstMs: best(at1, (r) => r.page.firstMs),
      pageBestMs: best(at1, (r) => r.page.bestMs),
    });
  }
  printTable(rows);

  if (process.env.BENCH_SCALE_PROFILE === "1") {
    const profiles = [];
    for (const subjects of [SIZES[0], SIZES.at(-1)]) {
      const { capture, configs } = clusters.get(subjects);
      const profile = join(dir, `replay-${subjects}.cpuprofile`);
      const result = await child({ config: configs[1], capture, profile });
      console.log(
        `\nCPU profile of the replay at ratio 1, ${subjects} subject(s) (${fmt(result.cpuSecondsPerMillion, 2)} CPU-s per 1M records in this profiled run): top self time, µs per record`,
      );
      console.log(await summarizeProfile(profile, RECORDS, 15));
      profiles.push({ path: profile, label: `${subjects} subj.` });
    }
    console.log(`\nWhere the difference goes (self time, µs per record, largest differences first):`);
    console.log(await compareProfiles(profiles[0], profiles[1], RECORDS, 15));
  }
  if (process.env.SCHEMA_REGISTRY_URL && process.env.BENCH_SCALE_REGISTRY === "1") {
    await registryStartup(dir, process.env.SCHEMA_REGISTRY_URL);
  }
  if (process.env.BENCH_SCALE_KEEP === "1") console.log(`\nkept ${dir}`);
  else await rm(dir, { recursive: true, force: true });
  console.log(
    `\nLoad average at the end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
}

/**
 * Start-up with the catalog read from a registry: every subject's five versions registered under
 * names of this run's own, then a fresh monitor per round that reads them all before it is ready.
 */
async function registryStartup(dir, url) {
  const prefix = `scale-${randomUUID().slice(0, 8)}-`;
  console.log(
    `\nStart-up with the catalog from ${url} (subjects registered as ${prefix}…; best of ${ROUNDS}):`,
  );
  console.log("| subjects | registered in, s | start-up to ready, ms | start-up CPU, ms |");
  console.log("| ---: | ---: | ---: | ---: |");
  for (const subjects of SIZES) {
    const started = performance.now();
    const { config, capture } = await writeRegistryCluster(join(dir, `r${subjects}`), subjects, url, prefix);
    const registered = (performance.now() - started) / 1000;
    const runs = [];
    for (let round = 0; round < ROUNDS; round++) runs.push(await child({ config, capture }, 1));
    console.log(
      `| ${subjects} | ${fmt(registered, 1)} | ${fmt(best(runs, (r) => r.startupMs))} | ${fmt(best(runs, (r) => r.startupCpuMs))} |`,
    );
  }
}

function printTable(rows) {
  const base = rows[0];
  const line = (label, pick, digits = 0, ratio = true) =>
    `| ${label} | ${rows.map((r) => fmt(pick(r), digits)).join(" | ")} |` +
    (ratio ? ` ${fmt(pick(rows.at(-1)) / pick(base), 2)}× |` : " |");
  console.log(
    `\n| measure | ${rows.map((r) => `${r.subjects} subj.`).join(" | ")} | ${rows.at(-1).subjects} vs ${base.subjects} |`,
  );
  console.log(`| --- | ${rows.map(() => "---:").join(" | ")} | ---: |`);
  console.log(line("schemas (subjects × 5 versions)", (r) => r.schemas, 0, false));
  console.log(line("partitions (one topic a subject)", (r) => r.partitions, 0, false));
  console.log(line("producers a subject (300 in all)", (r) => r.producersPerSubject, 0, false));
  console.log(line("start-up to ready, ms", (r) => r.startupMs));
  console.log(line("start-up CPU, ms", (r) => r.startupCpuMs));
  console.log(line("CPU-s per 1M records, ratio 1, best", (r) => r.cpu1, 2));
  console.log(line("CPU-s per 1M records, ratio 1, median", (r) => r.cpu1Median, 2));
  console.log(line("CPU-s per 1M records, ratio 1, worst", (r) => r.cpu1Worst, 2));
  console.log(line("CPU-s per 1M records, ratio 0.01, best", (r) => r.cpu001, 2));
  console.log(line("CPU-s per 1M records, ratio 0.01, median", (r) => r.cpu001Median, 2));
  console.log(line("CPU-s per 1M records, ratio 0.01, worst", (r) => r.cpu001Worst, 2));
  console.log(line("main thread CPU-s per 1M, ratio 1, median", (r) => r.main1, 2));
  console.log(line("main thread CPU-s per 1M, ratio 0.01, median", (r) => r.main001, 2));
  console.log(line("peak RSS, MB", (r) => r.peakRssMb));
  console.log(line("/metrics bytes", (r) => r.metricsBytes));
  console.log(line("/metrics series, all", (r) => r.seriesAll));
  console.log(line("/metrics series, schemawatch_*", (r) => r.seriesOwn));
  console.log(line("  of them schemawatch_validations_total", (r) => r.seriesValidations));
  console.log(line("/metrics first scrape, ms", (r) => r.metricsFirstMs));
  console.log(line("/metrics best of 3, ms", (r) => r.metricsBestMs));
  console.log(line("status page / bytes", (r) => r.pageBytes));
  console.log(line("status page / first, ms", (r) => r.pageFirstMs));
  console.log(line("status page / best of 3, ms", (r) => r.pageBestMs));
  console.log("\nschemawatch_* series per metric (ratio 1 run):");
  const names = Object.keys(rows.at(-1).series).filter((n) => n.startsWith("schemawatch_"));
  console.log(`| metric | ${rows.map((r) => `${r.subjects} subj.`).join(" | ")} |`);
  console.log(`| --- | ${rows.map(() => "---:").join(" | ")} |`);
  for (const name of names)
    console.log(`| ${name} | ${rows.map((r) => fmt(r.series[name] ?? 0)).join(" | ")} |`);
}

await main();
