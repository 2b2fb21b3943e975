import { createRequire } from "node:module";
import type { Admin, Kafka, RetryOptions } from "kafkajs";
import { PRIVATE_MEMBERS, PRIVATE_MODULES } from "./kafkajs.js";

// The kafkajs modules used to build an admin client that lists offsets as `read_uncommitted`.
const { admin: ADMIN_MODULE, emitter: EMITTER_MODULE, isolationLevel: ISOLATION_MODULE } = PRIVATE_MODULES;
const { createCluster: CREATE_CLUSTER, logger: LOGGER } = PRIVATE_MEMBERS;

type CreateAdmin = (options: {
  logger: unknown;
  instrumentationEmitter: unknown;
  retry: RetryOptions;
  cluster: unknown;
}) => Admin;

function privateMember(kafka: Kafka, description: string): unknown {
  const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === description);
  return symbol === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[symbol];
}

/**
 * A kafkajs admin client whose `fetchTopicOffsets` answers with each partition's log end offset
 * (the high watermark), not its last stable offset.
 *
 * kafkajs's own admin lists offsets as `read_committed`, so its "high" stops at the first record of
 * a transaction still open: those records are invisible to a committed reader, and to the lag. The
 * difference between the two ends is what an open transaction holds, which the lifecycle must count
 * as unknown use (docs/lifecycle.md). kafkajs has no option for it, so this builds the admin from
 * kafkajs's own parts with the isolation level its consumers use for `readUncommitted`.
 */
export function logEndAdmin(kafka: Kafka, retry: RetryOptions): Admin {
  const require = createRequire(import.meta.url);
  const createCluster = privateMember(kafka, CREATE_CLUSTER);
  const logger = privateMember(kafka, LOGGER) as { namespace?: unknown } | undefined;
  const createAdmin = require(ADMIN_MODULE) as unknown;
  const Emitter = require(EMITTER_MODULE) as new () => unknown;
  const isolation = require(ISOLATION_MODULE) as { READ_UNCOMMITTED?: unknown };
  if (
    typeof createCluster !== "function" ||
    typeof logger?.namespace !== "function" ||
    typeof createAdmin !== "function" ||
    typeof Emitter !== "function" ||
    isolation.READ_UNCOMMITTED !== 0
  ) {
    throw new Error("kafkajs layout changed: cannot build an admin client that reads log end offsets");
  }
  const instrumentationEmitter = new Emitter();
  const cluster = (createCluster as (options: Record<string, unknown>) => unknown).call(kafka, {
    allowAutoTopicCreation: false,
    instrumentationEmitter,
    isolationLevel: isolation.READ_UNCOMMITTED,
  });
  return (createAdmin as CreateAdmin)({ logger, instrumentationEmitter, retry, cluster });
}
