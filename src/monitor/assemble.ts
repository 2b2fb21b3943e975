import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { loadCatalog } from "../catalog/load.js";
import type { Catalog } from "../catalog/types.js";
import { loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { SchemawatchError, messageOf } from "../errors.js";
import { buildServer } from "../http/server.js";
import type { ConsumerTuning } from "../kafka/options.js";
import { createLogger } from "../log.js";
import { createRegistry } from "../metrics/registry.js";
import { replayFile, type FileSourceSummary } from "../source/file.js";
import { Health } from "./health.js";
import { Pipeline } from "./pipeline.js";
import { buildStatus, type MonitorStatus } from "./status.js";

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
}

/** A started monitor: serving HTTP, consuming its source. */
export interface RunningMonitor {
  readonly config: Config;
  readonly catalog: Catalog;
  readonly pipeline: Pipeline;
  readonly health: Health;
  readonly server: FastifyInstance;
  readonly logger: Logger;
  /** `http://host:port` it listens on. */
  readonly address: string;
  /** For a file source: resolves when the capture has been replayed. For Kafka: never resolves. */
  readonly replayed: Promise<FileSourceSummary>;
  status(): MonitorStatus;
  stop(): Promise<void>;
}

/**
 * The composition root of the live monitor: config, catalog, pipeline, metrics, HTTP and the source,
 * in that order, each given what it needs. A bad config or schema throws before anything listens.
 */
export async function startMonitor(options: MonitorOptions): Promise<RunningMonitor> {
  const loaded = await loadConfig(options.configPath);
  const config: Config = options.brokers
    ? Object.freeze({ ...loaded, kafka: Object.freeze({ ...loaded.kafka, brokers: options.brokers }) })
    : loaded;
  const logger = options.logger ?? createLogger(config.logLevel);
  const catalog = await loadCatalog(config);
  const health = new Health();
  health.catalogLoaded = true;
  const pipeline = new Pipeline(catalog, config);
  const registry = createRegistry({ pipeline, health, catalog: () => catalog, version: options.version });
  const status = () => buildStatus(catalog, pipeline, health);
  const server = buildServer({ registry, health, status, logger: logger.child({ component: "http" }) });
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

  const host = options.host ?? config.http.host;
  const port = options.port ?? config.http.port;
  let address: string;
  try {
    address = await server.listen({ host, port });
  } catch (error) {
    throw new SchemawatchError("USAGE", `cannot listen on ${host}:${port}: ${messageOf(error)}`, {
      cause: error,
    });
  }
  logger.info({ address }, "serving /metrics, /healthz, /readyz and /api/status");

  const topics = [...catalog.subjectByTopic.keys()];
  const abort = new AbortController();
  let stopSource: () => Promise<void> = async () => {};
  let replayed: Promise<FileSourceSummary>;
  try {
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
        ...(options.tuning ? { tuning: options.tuning } : {}),
      });
      await source.start();
      stopSource = () => source.stop();
      replayed = new Promise(() => {});
    } else {
      const log = logger.child({ component: "file-source" });
      replayed = replayFile(
        { path: options.source.file, sink: pipeline, health, tallies: pipeline.tallies, topics, logger: log },
        abort.signal,
      ).then((summary) => {
        log.info(summary, "capture replayed");
        return summary;
      });
      // Surface an unreadable capture before start-up returns.
      await Promise.race([replayed, new Promise((resolve) => setImmediate(resolve))]);
    }
  } catch (error) {
    await server.close();
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    config,
    catalog,
    pipeline,
    health,
    server,
    logger,
    address,
    replayed,
    status,
    stop: () =>
      (stopping ??= (async () => {
        logger.info("stopping");
        abort.abort();
        await stopSource();
        await server.close();
      })()),
  };
}
