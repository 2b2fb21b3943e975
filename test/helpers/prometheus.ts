import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { stringify } from "yaml";
import { freePort } from "./ports.js";
import { WAIT_MS, waitForValue } from "./wait.js";

/**
 * A real Prometheus for integration tests: started on 127.0.0.1 with a generated configuration that
 * scrapes the given targets and evaluates the given rule files every second, with its storage in a
 * temporary folder that `stop()` removes. Prometheus and promtool come from scripts/prometheus.sh.
 */

const INSTALL_HINT =
  "run scripts/prometheus.sh (installs Debian's prometheus package: prometheus and promtool)";

/**
 * The path of a tool on PATH, or an error that says how to install it. Tests call this instead of
 * skipping: a CI without Prometheus must fail, not go green having checked nothing.
 */
export function requireTool(name: "prometheus" | "promtool"): string {
  const probe = spawnSync(name, ["--version"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(`${name} is not on PATH: ${INSTALL_HINT}`, { cause: probe.error });
  }
  return name;
}

export interface PrometheusOptions {
  /** host:port of every target of the scrape job */
  readonly targets: readonly string[];
  /** rule files to load, relative to the working directory or absolute */
  readonly ruleFiles?: readonly string[];
  /** defaults to `schemawatch`, the job name the project's rules expect */
  readonly jobName?: string;
  readonly metricsPath?: string;
  readonly startTimeoutMs?: number;
}

export interface Sample {
  readonly metric: Readonly<Record<string, string>>;
  /** the sample's value; NaN and ±Inf come through as such */
  readonly value: number;
}

export interface RawSeries {
  readonly metric: Readonly<Record<string, string>>;
  readonly values: ReadonlyArray<readonly [number, string]>;
}

export interface Alert {
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations: Readonly<Record<string, string>>;
  readonly state: "pending" | "firing" | "inactive";
  readonly activeAt?: string;
  readonly value: string;
}

export interface Target {
  readonly scrapeUrl: string;
  readonly health: "up" | "down" | "unknown";
  readonly lastError: string;
  readonly labels: Readonly<Record<string, string>>;
}

export interface Rule {
  readonly name: string;
  /** the rule's expression as Prometheus parsed it */
  readonly query: string;
  readonly type: "alerting" | "recording";
  /** "err" when the last evaluation failed: such an alert can never fire */
  readonly health: "ok" | "err" | "unknown";
  readonly lastError?: string;
  /** alerting rules: the `for:` duration in seconds */
  readonly duration?: number;
}

export interface RuleGroup {
  readonly name: string;
  readonly file: string;
  readonly rules: readonly Rule[];
}

export interface RunningPrometheus {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  /**
   * Instant query, at `at` (Unix seconds) or now; a scalar comes back as one sample without labels.
   * Throws on a query error.
   */
  query(promql: string, at?: number): Promise<Sample[]>;
  /** The raw samples a range selector (`metric{…}[5m]`) picks, each series with its [time, value]s. */
  raw(selector: string): Promise<RawSeries[]>;
  /** Pending and firing alerts. */
  alerts(): Promise<Alert[]>;
  targets(): Promise<Target[]>;
  /** The loaded rule groups with each rule's health, as /api/v1/rules reports them. */
  rules(): Promise<RuleGroup[]>;
  /** Values of one label over the series that `match` selects, as Grafana's label_values() asks. */
  labelValues(label: string, match?: string): Promise<string[]>;
  /** The type each scraped metric declared (`# TYPE`), by metric name. */
  metricTypes(): Promise<Record<string, string>>;
  /** Polls `probe` until it returns something other than undefined, or fails naming `what`. */
  waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs?: number): Promise<T>;
  stop(): Promise<void>;
}

interface ApiResponse<T> {
  status: "success" | "error";
  data: T;
  errorType?: string;
  error?: string;
}

function configYaml(options: PrometheusOptions): string {
  return stringify({
    global: { scrape_interval: "1s", scrape_timeout: "1s", evaluation_interval: "1s" },
    rule_files: (options.ruleFiles ?? []).map((file) => resolve(file)),
    scrape_configs: [
      {
        job_name: options.jobName ?? "schemawatch",
        metrics_path: options.metricsPath ?? "/metrics",
        static_configs: [{ targets: [...options.targets] }],
      },
    ],
  });
}

export async function startPrometheus(options: PrometheusOptions): Promise<RunningPrometheus> {
  const binary = requireTool("prometheus");
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-prometheus-"));
  const configFile = join(dir, "prometheus.yml");
  await writeFile(configFile, configYaml(options));
  const timeoutMs = options.startTimeoutMs ?? WAIT_MS;

  let log = "";
  let child: ChildProcess | undefined;
  let url = "";
  // The port is free when asked for and taken a moment later; another process can win that race, so
  // a start that fails on the address is tried again on a new port.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    log = "";
    const started = spawn(
      binary,
      [
        `--config.file=${configFile}`,
        `--storage.tsdb.path=${join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
        "--log.level=warn",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const keep = (chunk: Buffer) => {
      log = (log + chunk.toString("utf8")).slice(-20_000);
    };
    started.stdout?.on("data", keep);
    started.stderr?.on("data", keep);
    const exited = new Promise<number | null>((done) => started.once("exit", (code) => done(code)));
    const ready = await waitReady(url, exited, timeoutMs);
    if (ready === "ready") {
      child = started;
      break;
    }
    started.kill("SIGKILL");
    if (ready === "exited" && /address already in use/.test(log) && attempt < 3) continue;
    await rm(dir, { recursive: true, force: true });
    throw new Error(`prometheus did not become ready (${ready}) at ${url}:\n${log}`);
  }

  const running = child;
  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${url}${path}`);
    const body = (await response.json()) as ApiResponse<T>;
    if (body.status !== "success") {
      throw new Error(
        `prometheus ${path}: ${body.errorType ?? "error"}: ${body.error ?? response.statusText}`,
      );
    }
    return body.data;
  }

  return {
    url,
    async query(promql, at) {
      const time = at === undefined ? "" : `&time=${at}`;
      const data = await api<{ resultType: string; result: unknown }>(
        `/api/v1/query?query=${encodeURIComponent(promql)}${time}`,
      );
      if (data.resultType === "scalar") {
        const [, value] = data.result as [number, string];
        return [{ metric: {}, value: Number(value) }];
      }
      if (data.resultType !== "vector") throw new Error(`query returned a ${data.resultType}: ${promql}`);
      return (data.result as { metric: Record<string, string>; value: [number, string] }[]).map((s) => ({
        metric: s.metric,
        value: Number(s.value[1]),
      }));
    },
    async raw(selector) {
      const data = await api<{ resultType: string; result: RawSeries[] }>(
        `/api/v1/query?query=${encodeURIComponent(selector)}`,
      );
      if (data.resultType !== "matrix") throw new Error(`not a range selector: ${selector}`);
      return data.result;
    },
    async alerts() {
      return (await api<{ alerts: Alert[] }>("/api/v1/alerts")).alerts;
    },
    async targets() {
      return (await api<{ activeTargets: Target[] }>("/api/v1/targets?state=active")).activeTargets;
    },
    async rules() {
      return (await api<{ groups: RuleGroup[] }>("/api/v1/rules")).groups;
    },
    async labelValues(label, match) {
      const query = match === undefined ? "" : `?match[]=${encodeURIComponent(match)}`;
      return api<string[]>(`/api/v1/label/${encodeURIComponent(label)}/values${query}`);
    },
    async metricTypes() {
      const metadata = await api<Record<string, { type: string }[]>>("/api/v1/metadata");
      return Object.fromEntries(Object.entries(metadata).map(([name, [first]]) => [name, first?.type ?? ""]));
    },
    waitFor: (what, probe, waitMs = WAIT_MS) => waitForValue(what, probe, waitMs),
    async stop() {
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise<void>((done) => running.once("exit", () => done()));
        running.kill("SIGTERM");
        const late = setTimeout(() => running.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(late);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitReady(
  url: string,
  exited: Promise<number | null>,
  timeoutMs: number,
): Promise<"ready" | "exited" | "timeout"> {
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone) return "exited";
    try {
      const response = await fetch(`${url}/-/ready`);
      if (response.ok) return "ready";
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  return "timeout";
}
