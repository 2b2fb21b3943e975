#!/usr/bin/env node
// Where the series are: one monitor of the scale benchmark's 200-subject cluster (bench/scale-catalog.js,
// 200,000 records at ratio 1) in a fresh process (bench/scale-child.js), its /metrics counted per metric
// family: series, series at 0, and the bytes of their sample lines. Run `npm run build` first.
//
//   node bench/series.js            # this checkout's dist/
//   node bench/series.js DIR        # a built checkout of another commit, for before/after
//
// Options (environment): BENCH_SERIES_SUBJECTS (200), BENCH_SERIES_RECORDS (200000), BENCH_SERIES_METRICS
// (YAML appended to the config's `metrics:`, e.g. "  seriesBudget: 100000000" for no folding).
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeCluster } from "./scale-catalog.js";

const build = resolve(process.argv[2] ?? ".");
const subjects = Number(process.env.BENCH_SERIES_SUBJECTS ?? 200);
const records = Number(process.env.BENCH_SERIES_RECORDS ?? 200_000);
const dir = await mkdtemp(join(tmpdir(), "schemawatch-series-"));
const cluster = await writeCluster(dir, subjects, records);
const config = join(dir, "config.yaml");
const metrics = process.env.BENCH_SERIES_METRICS;
await writeFile(config, cluster.config(1) + (metrics ? `metrics:\n${metrics}\n` : ""));
const dump = join(dir, "metrics.txt");
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
console.log(`${build}: ${subjects} subjects, ${records} records; load average ${load()}`);
const proc = spawn(
  process.execPath,
  [join(build, "bench/scale-child.js"), JSON.stringify({ config, capture: cluster.capture, dump })],
  {
    cwd: build,
    stdio: ["ignore", "pipe", "inherit"],
  },
);
let out = "";
proc.stdout.on("data", (chunk) => (out += chunk));
const code = await new Promise((done) => proc.once("exit", done));
if (code !== 0) throw new Error(`bench/scale-child.js failed (exit ${code})`);
const result = JSON.parse(out);
const families = new Map();
for (const line of (await readFile(dump, "utf8")).split("\n")) {
  if (line === "" || line.startsWith("#")) continue;
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)[0];
  const family = families.get(name) ?? { series: 0, zero: 0, bytes: 0 };
  family.series++;
  if (/ 0$/.test(line)) family.zero++;
  family.bytes += line.length + 1;
  families.set(name, family);
}
const total = { series: 0, zero: 0, bytes: 0 };
console.log("| metric | series | at 0 | bytes |\n| --- | ---: | ---: | ---: |");
for (const [name, f] of [...families].sort((a, b) => b[1].series - a[1].series)) {
  console.log(`| ${name} | ${f.series} | ${f.zero} | ${f.bytes} |`);
  for (const k of Object.keys(total)) total[k] += f[k];
}
console.log(`| all | ${total.series} | ${total.zero} | ${total.bytes} |`);
console.log(`/metrics body ${result.metrics.bytes} bytes; load average at the end ${load()}`);
await rm(dir, { recursive: true, force: true });
