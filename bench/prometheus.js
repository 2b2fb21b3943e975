// A real Prometheus for the benchmarks (the tests have test/helpers/prometheus.ts): on 127.0.0.1 at a
// free port, its storage in a temporary folder, scraping the given targets every `scrapeSeconds`.
// Also: counters summed over the lives of restarted processes, from the raw samples Prometheus kept.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "./monitor-process.js";

export async function startPrometheus(targets, scrapeSeconds) {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-bench-prometheus-"));
  const config = join(dir, "prometheus.yml");
  await writeFile(
    config,
    `global:\n  scrape_interval: ${scrapeSeconds}s\n  scrape_timeout: ${scrapeSeconds}s\nscrape_configs:\n  - job_name: schemawatch\n    static_configs:\n      - targets: [${targets.join(", ")}]\n`,
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    "prometheus",
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: "ignore" },
  );
  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error("prometheus did not start (scripts/prometheus.sh installs it)");
    await sleep(200);
  }
  const api = async (path) => {
    const body = await (await fetch(`${url}${path}`)).json();
    if (body.status !== "success") throw new Error(`prometheus ${path}: ${body.error}`);
    return body.data;
  };
  return {
    url,
    /** The raw samples of a range selector (`metric{…}[10m]`): [{ metric, values: [[t, "v"], …] }]. */
    raw: async (selector) => (await api(`/api/v1/query?query=${encodeURIComponent(selector)}`)).result,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((done) => (child.exitCode !== null ? done() : child.once("exit", done)));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A counter summed over every life of every instance: per instance and scrape, the sum of the
 * counter's series; per process life (told apart by `process_start_time_seconds`, since a
 * restarted process's counters start again at 0) its last scraped sum. Returns the total and each
 * life's { instance, start, last, lastAt }.
 */
export function sumOverLives(counterSeries, startSeries) {
  const startAt = new Map(); // instance → (timestamp → process start)
  for (const s of startSeries) {
    const map = startAt.get(s.metric.instance) ?? new Map();
    for (const [t, v] of s.values) map.set(t, v);
    startAt.set(s.metric.instance, map);
  }
  const sums = new Map(); // instance → (timestamp → sum)
  for (const s of counterSeries) {
    const map = sums.get(s.metric.instance) ?? new Map();
    for (const [t, v] of s.values) map.set(t, (map.get(t) ?? 0) + Number(v));
    sums.set(s.metric.instance, map);
  }
  const lives = new Map();
  for (const [instance, map] of sums)
    for (const [t, sum] of map) {
      const start = startAt.get(instance)?.get(t);
      if (start === undefined) throw new Error(`no process_start_time_seconds for ${instance} at ${t}`);
      const key = `${instance} ${start}`;
      const life = lives.get(key);
      if (!life || t > life.lastAt) lives.set(key, { instance, start: Number(start), last: sum, lastAt: t });
    }
  const all = [...lives.values()].sort((a, b) => a.instance.localeCompare(b.instance) || a.start - b.start);
  return { total: all.reduce((s, l) => s + l.last, 0), lives: all };
}
