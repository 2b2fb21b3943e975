// Helpers for integration tests that need a real Kafka broker.
//
// Where the broker comes from, in this order:
//   1. KAFKA_BROKERS (comma-separated host:port list), e.g. from `scripts/kafka-broker.sh start`;
//   2. a Docker engine: one @testcontainers/kafka container per test process, stopped on exit;
//   3. otherwise kafkaBrokers() throws, so the test FAILS (it never skips silently).
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { open } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

import { Kafka, Partitioners, logLevel } from "kafkajs";
import type { Admin, IHeaders, KafkaConfig, Message, RecordMetadata, CompressionTypes } from "kafkajs";
import type { StartedKafkaContainer } from "@testcontainers/kafka";
import { install } from "../../src/kafka/patches/index.js";

// The monitor's kafkajs clients need the patches in place before any consumer of this process
// fetches (the monitor installs them when it starts; a test may build a source without it); the
// tests' own producers get the request-queue fix too, without which Node 24 prints a
// TimeoutNegativeWarning into the test output.
install();

/** One record for produce(). */
export interface TestMessage {
  key?: Buffer | string | null;
  /** null: a tombstone. */
  value: Buffer | string | null;
  headers?: IHeaders;
  partition?: number;
  timestamp?: string;
}

/** Image used when Docker is there and KAFKA_BROKERS is not set (cp-kafka 8.x is Apache Kafka 4.x). */
export const KAFKA_IMAGE = process.env["KAFKA_IMAGE"] ?? "confluentinc/cp-kafka:8.0.0";

const NO_BROKER_MESSAGE =
  "No Kafka broker for the integration tests: KAFKA_BROKERS is not set and no Docker engine answers.\n" +
  "Start a local broker without Docker and point the tests at it:\n" +
  '  scripts/kafka-broker.sh fetch && export "$(scripts/kafka-broker.sh start)"\n' +
  "  (that exports KAFKA_BROKERS=127.0.0.1:19092; stop it later with scripts/kafka-broker.sh stop)";

let brokersPromise: Promise<string[]> | undefined;

/**
 * The bootstrap brokers of the test Kafka cluster. Resolved once per test process; a Docker container, when
 * one is started, is stopped when the process exits.
 */
export async function kafkaBrokers(): Promise<string[]> {
  brokersPromise ??= resolveBrokers();
  return brokersPromise;
}

async function resolveBrokers(): Promise<string[]> {
  const fromEnv = process.env["KAFKA_BROKERS"];
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    const brokers = fromEnv
      .split(",")
      .map((b) => b.trim())
      .filter((b) => b !== "");
    if (brokers.length === 0) throw new Error(`KAFKA_BROKERS is set but lists no broker: "${fromEnv}"`);
    return brokers;
  }
  if (!(await dockerAvailable())) throw new Error(NO_BROKER_MESSAGE);
  return startContainer();
}

async function dockerAvailable(): Promise<boolean> {
  try {
    const { getContainerRuntimeClient } = await import("testcontainers");
    await getContainerRuntimeClient();
    return true;
  } catch {
    return false;
  }
}

async function startContainer(): Promise<string[]> {
  const { KafkaContainer } = await import("@testcontainers/kafka");
  const container: StartedKafkaContainer = await new KafkaContainer(KAFKA_IMAGE).start();
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await container.stop({ timeout: 10_000 }).catch(() => undefined);
  };
  // beforeExit allows async work; when the process ends without it (process.exit, a signal, a crash),
  // testcontainers' reaper (Ryuk) removes the container once this process's Docker session closes.
  process.once("beforeExit", () => void stop());
  return [`${container.getHost()}:${container.getMappedPort(9093)}`];
}

/** A kafkajs client for tests: quiet logging, short retries, loopback-friendly timeouts. */
export function kafkaClient(brokers: string[], config: Partial<KafkaConfig> = {}): Kafka {
  return new Kafka({
    clientId: "schemawatch-test",
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 3_000,
    requestTimeout: 10_000,
    retry: { retries: 8, initialRetryTime: 100, maxRetryTime: 2_000 },
    ...config,
  });
}

/** A topic name no other test (or earlier run against the same broker) uses. */
export function freshTopic(prefix = "sw-test"): string {
  return `${prefix}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
}

/** A consumer group id no other test uses. */
export function freshGroupId(prefix = "sw-group"): string {
  return freshTopic(prefix);
}

/** Runs fn with a connected admin client and always disconnects it. */
export async function withAdmin<T>(brokers: string[], fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = kafkaClient(brokers).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

/** Creates a topic and waits until every partition has a leader. */
export async function createTopic(brokers: string[], name: string, partitions = 1): Promise<void> {
  await withAdmin(brokers, async (admin) => {
    const created = await admin.createTopics({
      topics: [{ topic: name, numPartitions: partitions, replicationFactor: 1 }],
      waitForLeaders: true,
      timeout: 15_000,
    });
    if (!created) throw new Error(`topic ${name} already exists`);
  });
}

/** Produces messages (acks=all, idempotent) and returns the broker's metadata for them. */
export async function produce(
  brokers: string[],
  topic: string,
  messages: TestMessage[],
  options: { compression?: CompressionTypes } = {},
): Promise<RecordMetadata[]> {
  // Idempotent: a send that kafkajs retries (a loaded broker, partitions just added) is written once,
  // so that tests can expect exact counts.
  const producer = kafkaClient(brokers).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  try {
    const kafkaMessages: Message[] = messages.map((m) => ({
      key: m.key ?? null,
      value: m.value,
      ...(m.headers !== undefined ? { headers: m.headers } : {}),
      ...(m.partition !== undefined ? { partition: m.partition } : {}),
      ...(m.timestamp !== undefined ? { timestamp: m.timestamp } : {}),
    }));
    return await producer.send({
      topic,
      messages: kafkaMessages,
      acks: -1,
      ...(options.compression !== undefined ? { compression: options.compression } : {}),
    });
  } finally {
    await producer.disconnect();
  }
}

// Most integration tests import their one wait from here, beside the broker helpers.
export { waitFor } from "./wait.js";

/**
 * The data folder of the broker that scripts/kafka-broker.sh runs (its log segments), for tests that
 * damage a segment on disk the way a failing disk would. Throws when the broker is not that one.
 */
export function brokerDataDir(brokers: readonly string[]): string {
  const port = brokers[0]?.split(":").pop();
  const cache =
    process.env["SW_CACHE"] ??
    join(process.env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "schemawatch");
  const dir = join(process.env["KAFKA_RUN_DIR"] ?? join(cache, `kafka-run-${port}`), "data");
  if (!existsSync(dir)) {
    throw new Error(
      `${dir} does not exist: this test damages a log segment on the broker's disk and needs the broker of scripts/kafka-broker.sh (not a container)`,
    );
  }
  return dir;
}

/**
 * Overwrites `length` bytes at `at` bytes into the records of the first record batch of a partition's
 * first log segment: the broker serves the damaged bytes as they are (it does not check them on fetch).
 */
export async function damageFirstBatch(
  brokers: readonly string[],
  topic: string,
  partition: number,
  at: number,
  length: number,
): Promise<void> {
  const BATCH_HEADER = 61;
  const file = await open(
    join(brokerDataDir(brokers), `${topic}-${partition}`, "00000000000000000000.log"),
    "r+",
  );
  try {
    await file.write(Buffer.alloc(length, 0x55), 0, length, BATCH_HEADER + at);
  } finally {
    await file.close();
  }
}
