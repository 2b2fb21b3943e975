import type { Logger } from "pino";
import type { Config } from "../config/types.js";
import type { Env } from "../registry/secrets.js";
import type { Health } from "../health/health.js";
import type { ConsumerTuning } from "../kafka/options.js";
import { replayFile, type FileSourceSummary } from "../source/file.js";
import type { Core } from "./core.js";

/** A source that is running: Kafka, or a capture being replayed. */
export interface StartedSource {
  /** For a capture: resolves when it has been replayed. For Kafka: never resolves. */
  readonly replayed: Promise<FileSourceSummary>;
  /** Stops reading within `ms` (a capture's replay is aborted). */
  stop(ms: number): Promise<void>;
}

export interface SourceInputs {
  readonly config: Config;
  readonly core: Core;
  readonly health: Health;
  readonly logger: Logger;
  readonly env: Env;
  /** `kafka`, or a capture path (`-` for standard input). */
  readonly source: "kafka" | { readonly file: string };
  readonly tuning?: Partial<ConsumerTuning>;
  /** Settles when a stop is asked for: a first connection that hangs is not waited for then. */
  readonly stopAsked: Promise<unknown>;
}

/**
 * Starts the validation workers, then the source: last, so that a failed start-up before it leaves
 * no thread running. The Kafka source tells the lifecycle its facts as events (assignments, batches,
 * lag measurements); a capture is replayed through the lifecycle's replay sink, on its own clock.
 */
export async function startSource(inputs: SourceInputs): Promise<StartedSource> {
  const { config, core, health, logger } = inputs;
  const topics = [...core.catalog().subjectByTopic.keys()];
  await core.pool?.start(config, config.corpus.enabled, core.updates.current.snapshots);
  if (inputs.source === "kafka") {
    // Loaded only here, so replaying a file never loads kafkajs.
    const { KafkaSource } = await import("../kafka/source.js");
    const source = new KafkaSource({
      kafka: config.kafka,
      topics,
      sink: core.pipeline,
      health,
      logger: logger.child({ component: "kafka" }),
      env: inputs.env,
      ...core.lifecycle.sourceEvents,
      talliesLater: core.pool !== undefined,
      ...(inputs.tuning ? { tuning: inputs.tuning } : {}),
    });
    core.lifecycle.startTicking();
    const started: StartedSource = { replayed: new Promise(() => {}), stop: (ms) => source.stop(ms) };
    // A broker that accepts connections and never answers holds the first attempt for as long as
    // kafkajs's timeouts: a stop asked for meanwhile does not wait for it.
    await Promise.race([source.start(), inputs.stopAsked]);
    return started;
  }
  const abort = new AbortController();
  const log = logger.child({ component: "file-source" });
  const replayed = replayFile(
    {
      path: inputs.source.file,
      sink: core.lifecycle.replaySink(),
      clock: core.clock,
      health,
      tallies: core.pipeline.tallies,
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
  return {
    replayed,
    stop: async () => abort.abort(),
  };
}
