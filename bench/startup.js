#!/usr/bin/env node
// Start-up as the catalog grows: the scale benchmark's catalogs (bench/scale-catalog.js: S subjects
// of five versions) from a folder and, when asked, from a registry, each start in a fresh process
// with the image's heap limits (bench/scale-child.js, replaying one record). Prints start-up to
// ready, its CPU, the first record's replay (which compiles that subject's versions) and peak RSS.
// Run `npm run build` first: it measures the built code in dist/.
//
//   npm run bench:startup
//
// Options (environment): BENCH_STARTUP_SIZES (default 1,10,50,200), BENCH_STARTUP_ROUNDS (default 3,
// interleaved; best of them), BENCH_STARTUP_BASELINE=DIR (a built checkout of another commit,
// measured in the same rounds, for before/after), BENCH_STARTUP_RECORDS=N (also the CPU-seconds per
// million of N records at ratio 1 on the largest catalog: the steady-state cost of a record),
// BENCH_SCALE_REGISTRY=1 with SCHEMA_REGISTRY_URL (also from that registry; it registers 5 × S
// schemas under subject names of the run's own and leaves them there), BENCH_STARTUP_COMPILE_CACHE=1
// (each build also with Node.js's module compile cache, as bin/compile-cache.js and the image use it:
// "cold", a fresh cache folder each start, which the start fills; "warm", a folder an earlier start
// filled; without it, no cache at all), BENCH_STARTUP_SUMMARY=median (the median and range of the
// rounds instead of the best, and each variant's ratio to the first in every round).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PRODUCT_NODE_OPTIONS } from "./kafka.js";
import { writeCluster, writeRegistryCluster } from "./scale-catalog.js";

const SIZES = (process.env.BENCH_STARTUP_SIZES ?? "1,10,50,200").split(",").map(Number);
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 3);
const RECORDS = Number(process.env.BENCH_STARTUP_RECORDS ?? 0);
const BASELINE = process.env.BENCH_STARTUP_BASELINE;
const CACHE = process.env.BENCH_STARTUP_COMPILE_CACHE === "1";
const MEDIAN = process.env.BENCH_STARTUP_SUMMARY === "median";
const builds = [
  ...(BASELINE ? [{ label: "before", dir: resolve(BASELINE) }] : []),
  { label: BASELINE ? "after" : "this build", dir: process.cwd() },
].flatMap((build) =>
  CACHE
    ? [
        { ...build, label: `${build.label}, no cache`, cache: "none" },
        { ...build, label: `${build.label}, cold cache`, cache: "cold" },
        { ...build, label: `${build.label}, warm cache`, cache: "warm" },
      ]
    : [{ ...build, cache: "none" }],
);
let cacheRoot;

const fmt = (n, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

/** One monitor of `build` on `config` and `capture`, in a fresh process; its JSON line. */
async function child(build, spec) {
  // NODE_COMPILE_CACHE is read by Node.js itself before any module loads: the same cache that
  // bin/compile-cache.js turns on, for a child that starts the monitor without the CLI.
  const env = { ...process.env, NODE_OPTIONS: PRODUCT_NODE_OPTIONS };
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  if (build.cache === "none") env.NODE_DISABLE_COMPILE_CACHE = "1";
  else if (build.cache === "cold") env.NODE_COMPILE_CACHE = await mkdtemp(join(cacheRoot, "cold-"));
  else env.NODE_COMPILE_CACHE = join(cacheRoot, `warm-${builds.indexOf(build)}`);
  const proc = spawn(process.execPath, [join(build.dir, "bench/scale-child.js"), JSON.stringify(spec)], {
    stdio: ["ignore", "pipe", "pipe"],
    env,
  });
  let stdout = "";
  let stderr = "";
  proc.stdout.on("data", (chunk) => (stdout += chunk));
  proc.stderr.on("data", (chunk) => (stderr += chunk));
  const code = await new Promise((r) => proc.once("exit", r));
  if (code !== 0) throw new Error(`${build.label}: bench/scale-child.js failed (exit ${code}): ${stderr}`);
  return JSON.parse(stdout);
}

/** Every build on every catalog, `ROUNDS` interleaved rounds; the best figures of each. */
async function measure(catalogs) {
  const runs = new Map();
  // A warm cache is one an earlier start filled: one start of each such variant, not counted.
  for (const build of builds) if (build.cache === "warm") await child(build, catalogs[0][1]);
  for (let round = 0; round < ROUNDS; round++)
    for (const [size, spec] of catalogs)
      for (const build of builds) {
        const key = `${build.label} ${size}`;
        runs.set(key, [...(runs.get(key) ?? []), await child(build, spec)]);
      }
  const best = (key, pick) => (MEDIAN ? median : Math.min)(...runs.get(key).map(pick));
  if (MEDIAN) printRatios(catalogs, runs);
  const rows = [];
  for (const [size] of catalogs) {
    const cells = builds.map((build) => {
      const key = `${build.label} ${size}`;
      return {
        startup: best(key, (r) => r.startupMs),
        cpu: best(key, (r) => r.startupCpuMs),
        first: best(key, (r) => r.replayMs),
        rss: best(key, (r) => r.peakRssMb),
      };
    });
    rows.push({ size, cells });
  }
  return rows;
}

function median(...values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Each variant's start-up to ready and CPU over the first variant's in the same round: median, range. */
function printRatios(catalogs, runs) {
  for (const [size] of catalogs) {
    const first = runs.get(`${builds[0].label} ${size}`);
    console.log(
      `${size} subjects, against ${builds[0].label} in the same round (median, range; every round):`,
    );
    for (const build of builds.slice(1)) {
      const these = runs.get(`${build.label} ${size}`);
      for (const [name, pick] of [
        ["ready", (r) => r.startupMs],
        ["CPU", (r) => r.startupCpuMs],
      ]) {
        const ratios = these.map((r, i) => pick(r) / pick(first[i]));
        console.log(
          `- ${build.label}, ${name}: ${median(...ratios).toFixed(2)}, ` +
            `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)} ` +
            `(${ratios.map((r) => r.toFixed(2)).join(", ")}); ms ${these.map((r) => fmt(pick(r))).join(", ")}`,
        );
      }
    }
  }
}

function printTable(rows) {
  const labels = builds.map((b) => b.label);
  const columns = [
    ["start-up to ready, ms", (c) => fmt(c.startup)],
    ["start-up CPU, ms", (c) => fmt(c.cpu)],
    ["first record (compiles its subject), ms", (c) => fmt(c.first, 1)],
    ["peak RSS, MB", (c) => fmt(c.rss)],
  ];
  const head = columns.flatMap(([name]) => labels.map((l) => (labels.length > 1 ? `${name} ${l}` : name)));
  console.log(`| subjects | versions | ${head.join(" | ")} |`);
  console.log(`| ---: | ---: | ${head.map(() => "---:").join(" | ")} |`);
  for (const { size, cells } of rows) {
    const values = columns.flatMap(([, pick]) => cells.map(pick));
    console.log(`| ${size} | ${fmt(size * 5)} | ${values.join(" | ")} |`);
  }
}

/**
 * The CPU a record costs once every version is compiled: the replay's CPU of all RECORDS minus that
 * of their first fifth, over the records between, so start-up and first compilations cancel out.
 */
async function steadyState([size, spec], dir) {
  const lines = (await readFile(spec.full, "utf8")).split("\n").filter((l) => l !== "");
  const few = Math.floor(RECORDS / 5);
  const short = join(dir, "short.ndjson");
  await writeFile(short, lines.slice(0, few).join("\n") + "\n");
  console.log(
    `\nSteady state on ${size} subjects at ratio 1: replay CPU of ${fmt(RECORDS)} records minus that of ` +
      `${fmt(few)}, per 1M records between (median of ${ROUNDS}):`,
  );
  const seconds = (result) => (result.cpuSecondsPerMillion * result.records) / 1e6;
  const per = new Map(builds.map((b) => [b.label, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const build of builds) {
      const all = await child(build, { config: spec.config, capture: spec.full });
      const part = await child(build, { config: spec.config, capture: short });
      if (all.records !== RECORDS || part.records !== few) throw new Error("a replay lost records");
      per.get(build.label).push(((seconds(all) - seconds(part)) / (RECORDS - few)) * 1e6);
    }
  for (const [label, values] of per) {
    const sorted = [...values].sort((a, b) => a - b);
    console.log(
      `- ${label}: median ${fmt(sorted[Math.floor(sorted.length / 2)], 2)} CPU-s per 1M records ` +
        `(all: ${values.map((v) => fmt(v, 2)).join(", ")})`,
    );
  }
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-startup-"));
  cacheRoot = join(dir, "compile-cache");
  await mkdir(cacheRoot);
  console.log(
    `Start-up: ${builds.map((b) => `${b.label} = ${b.dir}`).join(", ")}; NODE_OPTIONS=${PRODUCT_NODE_OPTIONS}; ` +
      `${MEDIAN ? "median" : "best"} of ${ROUNDS} interleaved round(s). Load average at the start: ${load()}`,
  );
  const folders = [];
  for (const size of SIZES) {
    const folder = join(dir, `s${size}`);
    const cluster = await writeCluster(folder, size, Math.max(1, RECORDS));
    const config = join(folder, "config.yaml");
    await writeFile(config, cluster.config(1));
    const one = join(folder, "one.ndjson");
    await writeFile(one, (await readFile(cluster.capture, "utf8")).split("\n")[0] + "\n");
    folders.push([size, { config, capture: one, full: cluster.capture }]);
  }
  console.log("\nFrom a folder:");
  printTable(
    await measure(folders.map(([size, spec]) => [size, { config: spec.config, capture: spec.capture }])),
  );

  if (process.env.SCHEMA_REGISTRY_URL && process.env.BENCH_SCALE_REGISTRY === "1") {
    const url = process.env.SCHEMA_REGISTRY_URL;
    const prefix = `startup-${randomUUID().slice(0, 8)}-`;
    const registries = [];
    for (const size of SIZES)
      registries.push([size, await writeRegistryCluster(join(dir, `r${size}`), size, url, prefix)]);
    console.log(`\nFrom the registry ${url} (subjects ${prefix}…):`);
    printTable(await measure(registries));
  }

  if (RECORDS > 0) await steadyState(folders.at(-1), dir);
  await rm(dir, { recursive: true, force: true });
  console.log(`\nLoad average at the end: ${load()}`);
}

await main();
