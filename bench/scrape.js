// The concurrent-scrape half of the benchmark: the real `schemawatch run` in its own process, replaying
// the bundled traffic, and 2,000 scrapes of /metrics sent at once over loopback, each on its own
// connection (as many Prometheus servers, or a misbehaving one, would). Bounded in count and time.
import { spawn } from "node:child_process";
import { request, Agent } from "node:http";
import { performance } from "node:perf_hooks";

const SCRAPES = Number(process.env.BENCH_SCRAPES ?? 2000);
const TIMEOUT_MS = 60_000;

/** Starts `schemawatch run` on the bundled traffic and resolves with its address once it replayed. */
async function startMonitor() {
  const child = spawn(
    process.execPath,
    [
      "bin/schemawatch.js",
      "run",
      "--config",
      "examples/config.yaml",
      "--source",
      "file:examples/traffic/events.ndjson",
      "--port",
      "0",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const address = await new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("schemawatch run did not listen within 30 s"));
    }, 30_000);
    child.stderr.on("data", (chunk) => {
      buffered += chunk;
      const match = /"address":"(http:\/\/[^"]+)"/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`schemawatch run exited with ${code}`)));
  });
  child.stderr.resume();
  try {
    await replayed(address);
  } catch (error) {
    // A monitor that did not get ready must not outlive the benchmark.
    child.kill("SIGKILL");
    throw error;
  }
  return { child, address };
}

async function replayed(address) {
  for (const deadline = performance.now() + 30_000; performance.now() < deadline;) {
    const status = await fetch(`${address}/api/status`).then((r) => r.json());
    // The bundled traffic: 204 records on the configured topic (2 of them with an unreadable version).
    if (status.subjects[0].records === 204) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("schemawatch run did not replay the bundled traffic within 30 s");
}

function scrape(url, agent) {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = request(url, { agent, timeout: TIMEOUT_MS }, (res) => {
      let bytes = 0;
      res.on("data", (chunk) => (bytes += chunk.length));
      res.on("end", () =>
        resolve({ ms: performance.now() - start, ok: res.statusCode === 200 && bytes > 0 }),
      );
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ ms: performance.now() - start, ok: false }));
    req.end();
  });
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

/** SCRAPES concurrent GETs of one path, each on its own connection: p50, p99, max (ms), failures. */
async function burst(address, path) {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const url = `${address}${path}`;
  await scrape(url, agent); // one warm-up request, so that the figure is not the JIT's
  const results = await Promise.all(Array.from({ length: SCRAPES }, () => scrape(url, agent)));
  agent.destroy();
  const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    failed: results.filter((r) => !r.ok).length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1],
  };
}

/**
 * SCRAPES concurrent GET /metrics, and as many GET /healthz (a constant answer: what the connections
 * alone cost on this machine, client included), alternated twice, the better round of each kept.
 */
export async function scrapeBench() {
  const { child, address } = await startMonitor();
  try {
    let metrics;
    let healthz;
    for (let round = 0; round < 2; round++) {
      const h = await burst(address, "/healthz");
      const m = await burst(address, "/metrics");
      if (!healthz || h.max < healthz.max) healthz = h;
      if (!metrics || m.max < metrics.max)
        metrics = { ...m, failed: Math.max(m.failed, metrics?.failed ?? 0) };
    }
    return { scrapes: SCRAPES, metrics, healthz };
  } finally {
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await scrapeBench());
