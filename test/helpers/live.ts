import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Logger } from "pino";
import { afterEach } from "vitest";
import { createLogger } from "../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../src/monitor/start.js";
import { writeTree } from "./files.js";
import { createTopic, freshGroupId, freshTopic, kafkaBrokers } from "./kafka.js";

/** Consumer timings short enough for tests: rebalances and stops take a second, not thirty. */
export const TEST_TUNING = {
  sessionTimeout: 6_000,
  rebalanceTimeout: 6_000,
  heartbeatInterval: 500,
  maxWaitTimeInMs: 200,
  stopTimeoutMs: 10_000,
};

const running: RunningMonitor[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((m) => m.stop()));
});

/**
 * Validation workers of the monitors the integration tests start: the suite runs with them on (one
 * thread); SCHEMAWATCH_TEST_WORKERS=0 runs it on the consumer's thread instead.
 */
export const TEST_WORKERS = Number(process.env["SCHEMAWATCH_TEST_WORKERS"] ?? 1);

/** Starts the live monitor in-process on a free port against Kafka; it is stopped after the test. */
export async function startLiveMonitor(
  configPath: string,
  env: Readonly<Record<string, string>> = {},
  options: { workers?: number; logger?: Logger } = {},
): Promise<RunningMonitor> {
  const monitor = await startMonitor({
    configPath,
    source: "kafka",
    port: 0,
    host: "127.0.0.1",
    env,
    version: "0.0.0-test",
    logger: options.logger ?? createLogger("silent"),
    tuning: TEST_TUNING,
    workers: options.workers ?? TEST_WORKERS,
  });
  running.push(monitor);
  return monitor;
}

/** A live monitor as the replica `replica` (its `SCHEMAWATCH_REPLICA_ID`): the shared-state tests' pairs. */
export const startReplica = (configPath: string, replica: string): Promise<RunningMonitor> =>
  startLiveMonitor(configPath, { SCHEMAWATCH_REPLICA_ID: replica });

/** The value of one series in an exposition text (`name{labels}`), or undefined when absent. */
export function metricValue(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/**
 * Records counted by a monitor, all series together; NaN while sampled records are still being
 * validated (by the validation workers), so that `waitFor(() => countedRecords(m) === n)` waits for
 * their validations too.
 */
export function countedRecords(monitor: RunningMonitor): number {
  if (monitor.pipeline.pendingValidations > 0) return Number.NaN;
  return monitor.pipeline.tallies.records.reduce((sum, c) => sum + c.value, 0);
}

/**
 * A fresh topic of `partitions` partitions and a config that watches it as the example subject
 * `event` (1.0.0 deprecated, 1.1.0 active), with a drain window of `drainWindow` and lag measured
 * every 500 ms; `extra` is YAML added at the top level, given the config's folder.
 */
export async function eventTopicConfig(options: {
  prefix: string;
  partitions: number;
  drainWindow: string;
  extra?: (dir: string) => string;
}): Promise<{ brokers: string[]; topic: string; dir: string; configPath: string }> {
  const brokers = await kafkaBrokers();
  const topic = freshTopic(options.prefix);
  await createTopic(brokers, topic, options.partitions);
  const dir = await writeTree({});
  const configPath = `${dir}/config.yaml`;
  await writeFile(
    configPath,
    `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
${options.extra?.(dir) ?? ""}logLevel: silent
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    drainWindow: ${options.drainWindow}
`,
  );
  return { brokers, topic, dir, configPath };
}
