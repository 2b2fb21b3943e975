// What the long benchmarks (bench/replicas.js, bench/soak.js) share: `schemawatch run` as an operator
// starts it, in its own process with the image's heap flags; its /metrics read as numbers; a producer
// that writes at a steady rate; and the small statistics their figures need.
import { spawn, execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Kafka, Partitioners, logLevel } from "kafkajs";
import { PRODUCT_NODE_OPTIONS } from "./kafka.js";

export const brokersFromEnv = () => (process.env.KAFKA_BROKERS ?? "127.0.0.1:19092").split(",");

export const kafkaFor = (brokers) =>
  new Kafka({ clientId: "schemawatch-bench", brokers, logLevel: logLevel.NOTHING });

export const loadAverages = () => execFileSync("uptime", { encoding: "utf8" }).trim();

/** A loopback port the kernel had free a moment ago. */
export async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}

/** `node bin/schemawatch.js run --config CONFIG --port PORT` with the image's heap flags. */
export function startMonitorProcess(config, port, env = {}) {
  const child = spawn(
    process.execPath,
    ["bin/schemawatch.js", "run", "--config", config, "--port", String(port)],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, NODE_OPTIONS: PRODUCT_NODE_OPTIONS, ...env },
    },
  );
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const exited = new Promise((done) => child.once("exit", (code, signal) => done({ code, signal })));
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    exited,
    stderr: () => stderr,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Waits until the monitor's /readyz answers 200 (its partitions assigned). */
export async function waitReady(monitor, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (monitor.child.exitCode !== null) throw new Error(`monitor exited: ${monitor.stderr()}`);
    const ok = await fetch(`${monitor.url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`monitor on ${monitor.url} not ready in ${timeoutMs} ms: ${monitor.stderr()}`);
}

/** One exposition parsed: every sample as { name, labels, value }. */
export function parseMetrics(text) {
  const samples = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)/.exec(line);
    if (!m) continue;
    const labels = {};
    for (const [, k, v] of (m[3] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    samples.push({ name: m[1], labels, value: Number(m[4]) });
  }
  return samples;
}

export async function scrape(url) {
  const response = await fetch(`${url}/metrics`);
  if (!response.ok) throw new Error(`${url}/metrics: ${response.status}`);
  return parseMetrics(await response.text());
}

/** The sum of a metric's samples whose labels include `match`. */
export const total = (samples, name, match = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);

/** Resident memory of a process, MB, from /proc. */
export async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * A producer writing `ratePerSecond` records in batches every 100 ms until stop(); `message(i, at)`
 * makes record i. `produced` counts the records the broker acknowledged (acks all).
 */
export async function steadyProducer(kafka, topic, ratePerSecond, message) {
  const producer = kafka.producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  const state = { produced: 0, failed: 0, running: true };
  const start = Date.now();
  let sent = 0;
  const loop = (async () => {
    while (state.running) {
      const due = Math.floor(((Date.now() - start) / 1000) * ratePerSecond);
      const messages = [];
      for (; sent < due; sent++) messages.push(message(sent, Date.now()));
      if (messages.length > 0) {
        try {
          await producer.send({ topic, messages, acks: -1 });
          state.produced += messages.length;
        } catch {
          // Idempotent and retried by kafkajs; a send that still failed was not written.
          state.failed += messages.length;
        }
      }
      await sleep(100);
    }
  })();
  return {
    state,
    async stop() {
      state.running = false;
      await loop;
      await producer.disconnect();
    },
  };
}

/** Least-squares slope of y over x. */
export function slope(points) {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
  return sxy / sxx;
}

export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
