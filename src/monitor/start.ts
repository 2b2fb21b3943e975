import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Catalog } from "../catalog/types.js";
import { loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { SchemawatchError, messageOf } from "../errors.js";
import { ValidationBudget } from "../engine/budget.js";
import { buildServer } from "../http/server.js";
import type { ConsumerTuning } from "../kafka/options.js";
import { createLogger } from "../log.js";
import { createRegistry } from "../metrics/exporter.js";
import { checkCapture, replayFile, type FileSourceSummary } from "../source/file.js";
import { LifecycleRuntime } from "./lifecycle-runtime.js";
import { buildReport, type Report } from "../report/model.js";
import { CatalogSources, sameSources } from "./catalog-sources.js";
import { CatalogUpdates } from "./catalog-updates.js";
import { watchCatalog } from "./reload.js";
import { Corpus } from "../corpus/corpus.js";
import { attachCorpus, fallbackVersion } from "../corpus/feed.js";
import { captureProcessWarnings, internalErrorLogger } from "./diagnostics.js";
import { Health } from "../health/health.js";
import { InThreadValidation } from "../pipeline/workers/in-thread.js";
import { ValidationPool } from "../pipeline/workers/pool.js";
import { validationThreadUrl } from "./validation-thread-url.js";
import { Pipeline } from "../pipeline/pipeline.js";
import { statusPages } from "./page-routes.js";
import { TopicRates, recordsPerTopic } from "./rates.js";
import { buildStatus, type MonitorStatus } from "../report/status.js";
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
  status(): MonitorStatus;
  report(): Report;
  /** Reloads the catalog; on failure keeps the old one and says why (also on SIGHUP and file changes). */
  reload(): Promise<{ ok: true } | { ok: false; problem: string }>;
  /** Stops within `shutdown.deadline`, counted from the signal (or from this call). Safe to call twice. */
  stop(): Promise<StopOutcome>;
}

/**
 * The composition root of the live monitor: config, catalog, pipeline, metrics, HTTP and the source,
 * in that order, each given what it needs. A bad config or schema throws before anything listens.
 */
export async function startMonitor(options: MonitorOptions): Promise<RunningMonitor> {
  // A capture that is not there is the user's first mistake to hear about, before anything logs.
  if (options.source !== "kafka") await checkCapture(options.source.file);
  const loaded = await loadConfig(options.configPath);
  const config: Config = options.brokers
    ? Object.freeze({ ...loaded, kafka: Object.freeze({ ...loaded.kafka, brokers: options.brokers }) })
    : loaded;
  const logger = options.logger ?? createLogger(config.logLevel);
  const restoreWarnings = options.captureWarnings ? captureProcessWarnings(logger) : () => {};
  const stop = new StopRequest(config.shutdown.deadline, logger, options.signals);
  const health = new Health();
  const live = options.source === "kafka";
  const sources = await stop.step(
    CatalogSources.open({ config, env: options.env, logger, health, live }),
    "reading the schema registries",
    async () => restoreWarnings(),
    (late) => late.stop(),
  );
  const catalogLog = sources.log;
  const initial = sources.initial;
  let updates: CatalogUpdates | undefined;
  const catalog = () => updates?.current.catalog ?? initial.catalog;
  const pipeline = new Pipeline(initial.catalog, config);
  pipeline.onInternalError = internalErrorLogger(logger.child({ component: "pipeline" }));
  const workers = options.workers ?? config.workers;
  const pool =
    workers > 0
      ? new ValidationPool(workers, logger.child({ component: "workers" }), validationThreadUrl())
      : undefined;
  // Several replicas share the evidence through the state topic (loaded only then: it needs kafkajs).
  const stateTopic =
    live && config.state.topic
      ? new (await import("../state/topic.js")).StateTopic({
          kafka: config.kafka,
          env: options.env,
          logger: logger.child({ component: "state-topic" }),
          topic: config.state.topic,
        })
      : undefined;
  const lifecycle = new LifecycleRuntime({
    pipeline,
    health,
    logger: logger.child({ component: "lifecycle" }),
    clock: live ? "live" : "records",
    ...(live ? { lagInterval: config.kafka.lagInterval } : {}),
    // A replayed capture is judged on its own; it neither reads nor overwrites the live evidence.
    ...(stateTopic ? { stateTopic } : live && config.state.file ? { statePath: config.state.file } : {}),
  });
  await stop.step(
    lifecycle.load(),
    `reading the state from ${lifecycle.stateAt ?? "nowhere"}`,
    async () => {
      restoreWarnings();
      await sources.stop();
    },
    () => lifecycle.close(),
  );
  const catalogUpdates = (updates = new CatalogUpdates({
    initial,
    pipeline,
    pool,
    lifecycle,
    logger: catalogLog,
    onApplied: () => sources.complete(),
  }));
  sources.attach(pipeline, lifecycle, catalogUpdates, live);
  const corpus = config.corpus.enabled
    ? restoreCorpus(config, catalog, lifecycle.restoredExtra, logger)
    : undefined;
  if (corpus) {
    attachCorpus(pipeline, corpus);
    lifecycle.extraState = () => corpus.toJSON();
  }
  const registry = createRegistry({
    pipeline,
    health,
    catalog,
    version: options.version,
    lifecycle,
    producerDetail: config.metrics.producerDetail,
  });
  const status = () => buildStatus(catalog(), pipeline, health);
  const report = () => buildReport(status(), pipeline.tallies, lifecycle);
  const rates = new TopicRates(() => recordsPerTopic(pipeline.tallies));
  const pages = statusPages({ config, report, catalog, health, rates, corpus });
  const server = buildServer({
    registry,
    health,
    // The attention summary rests on the verdicts, which only the report joins to the status.
    status: () => {
      const current = status();
      return { attention: buildReport(current, pipeline.tallies, lifecycle).attention, ...current };
    },
    routes: {
      "/api/report": report,
      // Kept examples are redacted, but they are still real documents: served only when asked for.
      "/api/corpus": () => {
        if (!corpus) throw httpError(404, "the corpus is off: set corpus.enabled in the config");
        if (!config.corpus.serve)
          throw httpError(404, "the corpus is not served: set corpus.serve in the config");
        return corpus.toJSON();
      },
      ...pages.routes,
    },
    pages: pages.pages,
    logger: logger.child({ component: "http" }),
  });
  const reload = async (): Promise<{ ok: true } | { ok: false; problem: string }> => {
    try {
      await catalogUpdates.update(async (current) => {
        const next = await loadConfig(options.configPath);
        if (!sameSources(current.config, next)) {
          throw new Error("subjects, topics or registries changed: restart the monitor to apply that");
        }
        return sources.build(next);
      });
      return { ok: true };
    } catch (error) {
      const problem = messageOf(error);
      catalogLog.error({ problem }, "catalog reload failed; the previous catalog stays in use");
      return { ok: false, problem };
    }
  };
  logger.info(
    {
      subjects: [...initial.catalog.subjects.values()].map((s) => ({
        subject: s.name,
        topics: s.topics,
        versions: s.versions.map((v) => `${v.version.text}:${v.status}`),
      })),
    },
    "catalog loaded",
  );

  const host = options.host ?? config.http.host;
  const port = options.port ?? config.http.port;
  let address: string;
  try {
    // Node's default backlog (511) makes connections past it wait a second for a SYN retry when
    // many scrapers arrive at once; the kernel caps this at its somaxconn.
    address = await server.listen({ host, port, backlog: 4096 });
  } catch (error) {
    await sources.stop();
    throw listenError(host, port, error);
  }
  logger.info({ address }, "serving the status page at /, /metrics, /healthz, /readyz and /api/*");

  const topics = [...initial.catalog.subjectByTopic.keys()];
  const stopWatching = live ? watchCatalog(config, () => void reload(), catalogLog) : () => {};
  const abort = new AbortController();
  let stopSource: (ms: number) => Promise<void> = async () => {};
  let replayed: Promise<FileSourceSummary>;
  try {
    // Started last, so that a failed start-up before it leaves no thread running.
    if (pool) {
      await pool.start(config, config.corpus.enabled, initial.snapshots);
      pipeline.useWorkers(pool);
    } else {
      // On the consumer's thread too, every validation has its time budget: a batch's at the flush.
      const budget = new ValidationBudget(config.validationTimeout);
      pipeline.useWorkers(
        new InThreadValidation(
          () => pipeline.catalogSubjects(),
          config.corpus.enabled,
          budget,
          config.assertFormats,
        ),
      );
    }
    if (options.source === "kafka") {
      // Loaded only here, so replaying a file never loads kafkajs.
      const { KafkaSource } = await import("../kafka/source.js");
      const source = new KafkaSource({
        kafka: config.kafka,
        topics,
        sink: pipeline,
        health,
        logger: logger.child({ component: "kafka" }),
        env: options.env,
        ...lifecycle.hooks,
        deferredCommits: pool !== undefined,
        ...(options.tuning ? { tuning: options.tuning } : {}),
      });
      lifecycle.startTicking();
      stopSource = (ms) => source.stop(ms);
      // A broker that accepts connections and never answers holds the first attempt for as long as
      // kafkajs's timeouts: a stop asked for meanwhile does not wait for it.
      await Promise.race([source.start(), stop.asked]);
      replayed = new Promise(() => {});
    } else {
      const log = logger.child({ component: "file-source" });
      replayed = replayFile(
        {
          path: options.source.file,
          sink: lifecycle.replaySink(),
          health,
          tallies: pipeline.tallies,
          topics,
          logger: log,
        },
        abort.signal,
      ).then((summary) => {
        log.info(summary, "capture replayed");
        return summary;
      });
      // Surface an unreadable capture before start-up returns.
      await Promise.race([replayed, new Promise((resolve) => setImmediate(resolve))]);
    }
  } catch (error) {
    stopWatching();
    await sources.stop();
    await pool?.stop();
    await server.close();
    throw error;
  }
  // A replayed capture's pace is not the topic's: its rates are not measured.
  if (live) rates.start();
  let stopping: Promise<StopOutcome> | undefined;
  const steps: StopSteps = {
    logger,
    stopSource: (ms) => {
      abort.abort();
      stopWatching();
      return stopSource(ms);
    },
    saveState: () => lifecycle.stop(),
    stateAt: lifecycle.stateAt,
    stopRegistries: () => sources.stop(),
    close: () =>
      Promise.all([lifecycle.close(), server.close(), pool?.stop()]).then(() => {
        rates.stop();
        restoreWarnings();
      }),
  };
  return {
    config,
    get catalog() {
      return catalog();
    },
    pipeline,
    health,
    server,
    logger,
    address,
    replayed,
    lifecycle,
    status,
    report,
    reload,
    stop: () => (stopping ??= runStop(steps, stop.deadline())),
  };
}

function listenError(host: string, port: number, error: unknown): SchemawatchError {
  const inUse = (error as { code?: unknown }).code === "EADDRINUSE";
  const message = inUse
    ? `cannot listen on ${host}:${port}: the port is in use (another schemawatch?); pick another with --port N (or http.port in the config), or --port 0 for any free one`
    : `cannot listen on ${host}:${port}: ${messageOf(error)}`;
  return new SchemawatchError("USAGE", message, { cause: error });
}

function httpError(statusCode: number, message: string): Error & { statusCode: number } {
  return Object.assign(new Error(message), { statusCode });
}

/** The corpus, restored from the state when it was saved there; bad saved content starts it afresh. */
function restoreCorpus(config: Config, catalog: () => Catalog, saved: unknown, logger: Logger): Corpus {
  const options = { maxShapes: config.corpus.maxShapes, redact: config.corpus.redact };
  if (saved === undefined) return new Corpus(options);
  try {
    return Corpus.fromJSON(saved as Parameters<typeof Corpus.fromJSON>[0], {
      ...options,
      schemaFor: (subjectName, writer) => {
        const subject = catalog().subjects.get(subjectName);
        if (!subject) return undefined;
        return (subject.byVersion.get(writer) ?? fallbackVersion(subject))?.file.json;
      },
    });
  } catch (error) {
    logger.error({ problem: messageOf(error) }, "the saved corpus is unreadable; starting an empty one");
    return new Corpus(options);
  }
}
