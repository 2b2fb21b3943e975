// A real Prometheus for the benchmarks (the tests have test/helpers/prometheus.ts): on 127.0.0.1 at a
// free port, its storage in a temporary folder, scraping the given targets every `scrapeSeconds`.
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
