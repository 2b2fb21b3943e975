import type { ConsumerConfig } from "kafkajs";
import type { Logger } from "pino";

import type { KafkaConfig } from "../config/types.js";
import type { Health, PartitionEnds } from "../health/health.js";
import type { RecordSink } from "../pipeline/record.js";
import { KAFKA_RETRY, type Env } from "./connection.js";
import type { UndecodableBatch } from "./patches/index.js";

/** Timings of the consumer; the defaults suit production, tests shorten them. */
export interface ConsumerTuning {
  readonly sessionTimeout: number;
  readonly rebalanceTimeout: number;
  readonly heartbeatInterval: number;
  /** How long a fetch waits for records; also bounds how long a stop or a rebalance waits for it. */
  readonly maxWaitTimeInMs: number;
  /** Cap of the reconnect backoff (it starts at 300 ms and doubles). */
  readonly reconnectMaxMs: number;
  /** How long stop() waits for kafkajs to finish the batch, leave the group and close connections. */
  readonly stopTimeoutMs: number;
  /** How old kafkajs's topic metadata may get: partitions added to a topic are read within this. */
  readonly metadataMaxAge: number;
  /** A problem that repeats (Kafka unreachable, undecodable batches) is logged once per this, with a count. */
  readonly logRepeatMs: number;
  /**
   * Bytes one fetch may bring, in all and per partition. kafkajs decodes a whole fetch response at
   * once, and a compressed batch expands about fivefold into record objects: kafkajs's defaults (10 MB,
   * 1 MB a partition) overran the image's 96 MB heap on a gzip topic. The records of a fetch also stay
   * alive until its last batch is handled, so smaller fetches leave the garbage collector less to copy:
   * 1 MB (256 KB a partition) against 2 MB (512 KB) cut the CPU per record at sample ratio 0.01 by
   * about a third (BENCHMARKS.md, "Kafka path against the Java consumer"). The broker still sends a
   * batch larger than these, alone.
   */
  readonly maxBytes: number;
  readonly maxBytesPerPartition: number;
  /** How often tallied offsets are committed (also on a rebalance and at stop). */
  readonly commitIntervalMs: number;
}

const MAX_BYTES = 1024 * 1024;
const MAX_BYTES_PER_PARTITION = 256 * 1024;

export const DEFAULT_TUNING: Readonly<ConsumerTuning> = {
  sessionTimeout: 30_000,
  rebalanceTimeout: 30_000,
  heartbeatInterval: 3_000,
  maxWaitTimeInMs: 1_000,
  reconnectMaxMs: 30_000,
  stopTimeoutMs: 15_000,
  metadataMaxAge: 10_000,
  logRepeatMs: 60_000,
  maxBytes: MAX_BYTES,
  maxBytesPerPartition: MAX_BYTES_PER_PARTITION,
  commitIntervalMs: 1_000,
};

/** The consumer a KafkaSource connects, in its group, with its timings. */
export function consumerConfig(groupId: string, t: ConsumerTuning): ConsumerConfig {
  return {
    groupId,
    sessionTimeout: t.sessionTimeout,
    rebalanceTimeout: t.rebalanceTimeout,
    heartbeatInterval: t.heartbeatInterval,
    maxWaitTimeInMs: t.maxWaitTimeInMs,
    // kafkajs notices partitions added to a subscribed topic only when its metadata expires; its
    // default, 5 minutes, would leave a new partition unread (and unobserved) for that long.
    metadataMaxAge: t.metadataMaxAge,
    maxBytes: t.maxBytes,
    maxBytesPerPartition: t.maxBytesPerPartition,
    // A monitor must never create the topics it watches.
    allowAutoTopicCreation: false,
    // Restarts are the source's job, with its backoff and its one log line; kafkajs's own restart
    // loop retried every few hundred milliseconds and logged each time.
    retry: { ...KAFKA_RETRY, restartOnFailure: async () => false },
  };
}

/**
 * Called after a batch's records went to the sink and before their offsets are committed, with the
 * partition's high watermark when the batch was fetched.
 */
export type BatchEndHook = (
  topic: string,
  partition: number,
  firstOffset: string,
  lastOffset: string,
  highWatermark: string,
) => void;

/** Called for a record batch that could not be decoded, before the offsets move past it. */
export type UndecodableHook = (topic: string, partition: number, batch: UndecodableBatch) => void;

export interface KafkaSourceOptions {
  readonly kafka: KafkaConfig;
  readonly topics: readonly string[];
  readonly sink: RecordSink;
  readonly health: Health;
  readonly logger: Logger;
  readonly env: Env;
  /** Called when this member receives its partitions (after every rebalance). */
  readonly onAssigned?: (assignment: Map<string, number[]>) => void;
  /** Called when this member loses its partitions: rebalance, crash, disconnect or stop. */
  readonly onRevoked?: () => void;
  readonly onBatchEnd?: BatchEndHook;
  readonly onUndecodable?: UndecodableHook;
  /**
   * Called for a fetched batch that held only records a committed reader never sees (an aborted
   * transaction's) or transaction markers: kafkajs moves past it without calling eachBatch. `last` is
   * the last offset it moved past.
   */
  readonly onReadPast?: (topic: string, partition: number, last: string, highWatermark: string) => void;
  /**
   * Called at an assignment for each partition the group has no committed offset for, with the offset
   * reading starts at (the log's end, or its start with `fromBeginning`).
   */
  readonly onStartOffset?: (topic: string, partition: number, offset: string) => void;
  /**
   * Called after each lag measurement, per topic: the group's lag on every partition (all of the
   * topic's, not only this member's), each partition's ends when measured, and when the measurement
   * started (ms). What the lifecycle learns of the partitions the brokers list and of open transactions.
   */
  readonly onLagMeasured?: (
    topic: string,
    lag: ReadonlyMap<number, number>,
    ends: ReadonlyMap<number, PartitionEnds> | undefined,
    measuredAt: number,
  ) => void;
  /** Called each time the topic watch finds a monitored topic missing (deleted, or not created yet). */
  readonly onTopicMissing?: (topic: string) => void;
  /**
   * The sink finishes a batch's tallies later (validation on worker threads, `sink.flush`): offsets
   * are resolved as soon as a batch is read, so kafkajs fetches the next while the workers validate,
   * and committed only once the batch's tallies are recorded. Either way the source commits, not
   * kafkajs (kafka/commits.ts).
   */
  readonly talliesLater?: boolean;
  readonly tuning?: Partial<ConsumerTuning>;
}
