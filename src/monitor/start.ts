import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Catalog } from "../catalog/types.js";
import { loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { messageOf } from "../errors.js";
import { Health } from "../health/health.js";
import type { ConsumerTuning } from "../kafka/options.js";
import { createLogger } from "../log.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { savedSnapshots } from "../registry/saved.js";
import type { Report } from "../report/model.js";
import type { MonitorStatus } from "../report/status.js";
import { checkCapture, type FileSourceSummary } from "../source/file.js";
import { StateFile, type ReadState } from "../state/file.js";
import { CatalogSources, sameSources } from "./catalog-sources.js";
import { buildCore, type Core, type CoreInputs } from "./core.js";
import { captureProcessWarnings } from "./diagnostics.js";
import type { FieldStats } from "../stats/stats.js";
import type { LifecycleRuntime } from "./lifecycle-runtime.js";
import { fieldsRestartProblem, watchCatalog } from "./reload.js";
import { buildHttp, listen } from "./serve.js";
import { startSource, type StartedSource } from "./start-source.js";
import { StopRequest, runStop, type StopOutcome, type StopSignals, type StopSteps } from "./stop.js";

export interface MonitorOptions {
  readonly configPath: string;
  /** `kafka`, or a capture path (`-` for standard input). */
  readonly source: "kafka" | { readonly file: string };
  readonly host?: string;
  readonly port?: number;
  /** Overrides `kafka.brokers`. */
  readonly brokers?: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger?: Logger;
  readonly version: string;
  /** Consumer timings; tests shorten them. */
  readonly tuning?: Partial<ConsumerTuning>;
  /** Turn the process's warnings into log lines (the `run` command; not in tests that share a process). */
  readonly captureWarnings?: boolean;
  /** Overrides `workers` (tests run the integration suite with validation workers on). */
  readonly workers?: number;
  /**
   * The process's signals: the first stops the monitor within `shutdown.deadline`, even during
   * start-up (which then rejects with a STOPPED error); the second cuts the stop short.
   */
  readonly signals?: StopSignals;
}

/** A started monitor: serving HTTP, consuming its source. */
export interface RunningMonitor {
  readonly config: Config;
  /** The catalog in use (it changes with reloads and registered versions). */
  readonly catalog: Catalog;
  readonly pipeline: Pipeline;
  readonly health: Health;
  readonly server: FastifyInstance;
  readonly logger: Logger;
  /** `http://host:port` it listens on. */
  readonly address: string;
  /** For a file source: resolves when the capture has been replayed. For Kafka: never resolves. */
  readonly replayed: Promise<FileSourceSummary>;
  readonly lifecycle: LifecycleRuntime;
  /** Field statistics and their findings; absent with `stats.enabled: false`. */
  readonly stats: FieldStats | undefined;
  status(): MonitorStatus;
  report(): Report;
  /** Reloads the catalog; on failure keeps the old one and says why (also on SIGHUP and file changes). */
  reload(): Promise<{ ok: true } | { ok: false; problem: string }>;
  /** Stops within `shutdown.deadline`, counted from the signal (or from this call). Safe to call twice. */
  stop(): Promise<StopOutcome>;
}

/**
 * The composition root of the live monitor. It reads as the order of start-up: the config, the
 * state (read once), the catalog, the core (pipeline, lifecycle, corpus, metrics), HTTP, and last the
 * source; each part is given what it needs at construction. A bad config or schema throws before
 * anything listens; a stop asked for during start-up stops it within `shutdown.deadline`.
 */
export async function startMonitor(options: MonitorOptions): Promise<RunningMonitor> {
  // A capture that is not there is the user's first mistake to hear about, before anything logs.
  if (options.source !== "kafka") await checkCapture(options.source.file);
  const config = await readConfig(options);
  const logger = options.logger ?? createLogger(config.logLevel);
  const restoreWarnings = options.captureWarnings ? captureProcessWarnings(logger) : () => {};
  const stop = new StopRequest(config.shutdown.deadline, logger, options.signals);
  const health = new Health();
  const live = options.source === "kafka";
  // kafkajs's adaptations, before the state topic or the source builds a client (loaded only then:
  // replaying a capture never loads kafkajs).
  if (live) (await import("../kafka/patches/index.js")).install();
  const state = await openState(config, options, logger, live);
  const sources = await openCatalog(config, options, logger, health, state, stop, restoreWarnings);
  const core = buildCore({
    config,
    logger,
    health,
    sources,
    live,
    state,
    workers: options.workers ?? config.workers,
    version: options.version,
  });
  await stop.step(
    core.lifecycle.load(state.kind === "file" ? state.read : {}),
    `reading the state from ${core.lifecycle.stateAt ?? "nowhere"}`,
    async () => {
      restoreWarnings();
      await sources.stop();
    },
    () => core.lifecycle.close(),
  );
  const reload = reloader(options.configPath, core, sources);
  logCatalog(logger, core.catalog());
  const http = buildHttp(config, core, health, logger);
  let address: string;
  try {
    address = await listen(http.server, options.host ?? config.http.host, options.port ?? config.http.port);
  } catch (error) {
    await sources.stop();
    throw error;
  }
  logger.info({ address }, "serving the status page at /, /metrics, /healthz, /readyz and /api/*");
  const stopWatching = live ? watchCatalog(config, () => void reload(), sources.log) : () => {};
  let source: StartedSource;
  try {
    source = await startSource({
      config,
      core,
      health,
      logger,
      env: options.env,
      source: options.source,
      ...(options.tuning ? { tuning: options.tuning } : {}),
      stopAsked: stop.asked,
    });
  } catch (error) {
    stopWatching();
    await sources.stop();
    await core.pool?.stop();
    await http.server.close();
    throw error;
  }
  // A replayed capture's pace is not the topic's: its rates are not measured.
  if (live) http.rates.start();
  let stopping: Promise<StopOutcome> | undefined;
  const steps: StopSteps = {
    logger,
    stopSource: (ms) => {
      stopWatching();
      return source.stop(ms);
    },
    saveState: () => core.lifecycle.stop(),
    stateAt: core.lifecycle.stateAt,
    stopRegistries: () => sources.stop(),
    close: () =>
      Promise.all([core.lifecycle.close(), http.server.close(), core.pool?.stop()]).then(() => {
        http.rates.stop();
        restoreWarnings();
      }),
  };
  return {
    config,
    get catalog() {
      return core.catalog();
    },
    pipeline: core.pipeline,
    health,
    server: http.server,
    logger,
    address,
    replayed: source.replayed,
    lifecycle: core.lifecycle,
    stats: core.stats,
    status: core.status,
    report: core.report,
    reload,
    stop: () => (stopping ??= runStop(steps, stop.deadline())),
  };
}

/** The config file, with the command line's brokers in place of its own when given. */
async function readConfig(options: MonitorOptions): Promise<Config> {
  const loaded = await loadConfig(options.configPath);
  return options.brokers
    ? Object.freeze({ ...loaded, kafka: Object.freeze({ ...loaded.kafka, brokers: options.brokers }) })
    : loaded;
}

/**
 * Where the evidence is kept, read once: several replicas share the state topic (loaded only then:
 * it needs kafkajs), one process a state file. A replayed capture is judged on its own; it neither
 * reads nor overwrites the live state.
 */
async function openState(
  config: Config,
  options: MonitorOptions,
  logger: Logger,
  live: boolean,
): Promise<CoreInputs["state"]> {
  if (live && config.state.topic) {
    const { StateTopic } = await import("../state/topic.js");
    const topic = new StateTopic({
      kafka: config.kafka,
      env: options.env,
      logger: logger.child({ component: "state-topic" }),
      topic: config.state.topic,
      forgetReplicasAfterMs: config.state.forgetReplicasAfter,
    });
    return { kind: "topic", topic };
  }
  if (!live || !config.state.file) return { kind: "none" };
  const file = new StateFile(config.state.file);
  const read: ReadState = await file.read();
  return { kind: "file", file, read };
}

/** The catalog's sources (files and registries), with the registry snapshots the state kept. */
function openCatalog(
  config: Config,
  options: MonitorOptions,
  logger: Logger,
  health: Health,
  state: CoreInputs["state"],
  stop: StopRequest,
  restoreWarnings: () => void,
): Promise<CatalogSources> {
  const kept = state.kind === "file" ? savedSnapshots(state.read.sections?.registry) : [];
  return stop.step(
    CatalogSources.open({ config, env: options.env, logger, health, kept }),
    "reading the schema registries",
    async () => restoreWarnings(),
    (late) => late.stop(),
  );
}

/** Reloads the catalog; on failure keeps the old one and says why. */
function reloader(
  configPath: string,
  core: Core,
  sources: CatalogSources,
): () => Promise<{ ok: true } | { ok: false; problem: string }> {
  return async () => {
    try {
      await core.updates.update(async (current) => {
        const next = await loadConfig(configPath);
        if (!sameSources(current.config, next)) {
          throw new Error("subjects, topics or registries changed: restart the monitor to apply that");
        }
        const fields = fieldsRestartProblem(current.config, next);
        if (fields !== undefined) throw new Error(fields);
        return sources.build(next);
      });
      return { ok: true };
    } catch (error) {
      const problem = messageOf(error);
      sources.log.error({ problem }, "catalog reload failed; the previous catalog stays in use");
      return { ok: false, problem };
    }
  };
}

function logCatalog(logger: Logger, catalog: Catalog): void {
  logger.info(
    {
      subjects: [...catalog.subjects.values()].map((s) => ({
        subject: s.name,
        topics: s.topics,
        versions: s.versions.map((v) => `${v.version.text}:${v.status}`),
      })),
    },
    "catalog loaded",
  );
}
