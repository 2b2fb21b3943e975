import { logLevel } from "kafkajs";
import type { KafkaConfig as KafkaJsConfig, LogEntry, RetryOptions, SASLOptions, logCreator } from "kafkajs";
import type { ConnectionOptions } from "node:tls";
import type { Logger } from "pino";

import type { KafkaConfig, SaslConfig, TlsConfig } from "../config/types.js";
import { readConfigFile, secretFromEnv, secretFromFile, type Env } from "../config/secrets.js";
import { SchemawatchError } from "../errors.js";
import { RepeatLog } from "../log.js";
import { installed } from "./patches/index.js";

export type { Env } from "../config/secrets.js";

/**
 * Backoff of every kafkajs operation: 300 ms doubling, capped at 30 s, 5 retries. After the fifth,
 * the consumer crashes and restarts itself (retriable errors) or KafkaSource reconnects it.
 */
export const KAFKA_RETRY: Readonly<RetryOptions> = {
  initialRetryTime: 300,
  maxRetryTime: 30_000,
  retries: 5,
};

export interface BuildOptions {
  /** The most verbose kafkajs level forwarded to pino; `WARN` unless asked for. */
  readonly kafkaLogLevel?: logLevel;
}

/**
 * The kafkajs client configuration for the project's `kafka` settings: reads the TLS files and the
 * SASL secrets (from environment variables or files). A missing variable or an unreadable file is a
 * `CONFIG_INVALID` error that names the variable or file, never the secret.
 */
export async function buildKafkaConfig(
  config: KafkaConfig,
  env: Env,
  logger: Logger,
  options: BuildOptions = {},
): Promise<KafkaJsConfig> {
  const ssl = config.tls?.enabled === true ? await tlsOptions(config.tls) : undefined;
  const sasl = config.sasl ? await saslOptions(config.sasl, env) : undefined;
  // Every kafkajs client of schemawatch is built from this: without the patches one bad batch would
  // fail every fetch, and snappy and lz4 batches could not be read at all. Only a caller that is not
  // the composition root (src/monitor/start.ts) can get here without them: a bug, said loudly.
  if (!installed()) {
    throw new Error(
      "kafkajs is not patched: call install() of src/kafka/patches/ before building a kafkajs client, as src/monitor/start.ts does",
    );
  }
  return {
    brokers: [...config.brokers],
    clientId: config.clientId,
    ...(ssl !== undefined ? { ssl } : {}),
    ...(sasl !== undefined ? { sasl } : {}),
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { ...KAFKA_RETRY },
    logLevel: options.kafkaLogLevel ?? logLevel.WARN,
    logCreator: kafkaLogCreator(logger),
  };
}

async function tlsOptions(tls: TlsConfig): Promise<ConnectionOptions> {
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new SchemawatchError(
      "CONFIG_INVALID",
      "kafka.tls: cert and key go together (mutual TLS needs both the certificate and its private key)",
    );
  }
  const [ca, cert, key] = await Promise.all([
    tls.ca !== undefined ? readConfigFile(tls.ca, "kafka.tls.ca", "CA certificate") : undefined,
    tls.cert !== undefined ? readConfigFile(tls.cert, "kafka.tls.cert", "client certificate") : undefined,
    tls.key !== undefined ? readConfigFile(tls.key, "kafka.tls.key", "private key") : undefined,
  ]);
  return {
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(ca !== undefined ? { ca: [ca] } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
  };
}

function onlyOne(a: string | undefined, b: string | undefined, keys: string): void {
  if (a !== undefined && b !== undefined) {
    throw new SchemawatchError("CONFIG_INVALID", `kafka.sasl: set only one of ${keys}`);
  }
  if (a === undefined && b === undefined) {
    throw new SchemawatchError("CONFIG_INVALID", `kafka.sasl: ${keys.replace(" and ", " or ")} is required`);
  }
}

async function saslOptions(sasl: SaslConfig, env: Env): Promise<SASLOptions> {
  onlyOne(sasl.username, sasl.usernameEnv, "username and usernameEnv");
  onlyOne(sasl.passwordEnv, sasl.passwordFile, "passwordEnv and passwordFile");
  const username =
    sasl.username ??
    secretFromEnv(env, sasl.usernameEnv!, "kafka.sasl.usernameEnv", "SASL user name", sasl.configFile);
  let password: string;
  if (sasl.passwordEnv !== undefined) {
    password = secretFromEnv(
      env,
      sasl.passwordEnv,
      "kafka.sasl.passwordEnv",
      "SASL password",
      sasl.configFile,
    );
  } else {
    password = await secretFromFile(sasl.passwordFile!, "kafka.sasl.passwordFile", "password");
  }
  return { mechanism: sasl.mechanism, username, password };
}

const PINO_LEVEL: Record<number, "error" | "warn" | "info" | "debug"> = {
  [logLevel.ERROR]: "error",
  [logLevel.WARN]: "warn",
  [logLevel.INFO]: "info",
  [logLevel.DEBUG]: "debug",
};

// Fields that hold secrets or record contents; kafkajs puts request payloads in some debug entries.
const SECRET_FIELD = /password|sasl|secret|token|credential|ssl/i;
const PAYLOAD_FIELD = /^(value|key|headers|messages|payload|buffer|data)$/i;
const MAX_DEPTH = 3;

function sanitize(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (value instanceof Error) return value.message;
  if (depth >= MAX_DEPTH) return "[object]";
  if (Array.isArray(value)) return value.slice(0, 20).map((v) => sanitize(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) out[name] = sanitizeField(name, field, depth + 1);
  return out;
}

function sanitizeField(name: string, value: unknown, depth: number): unknown {
  if (SECRET_FIELD.test(name)) return "[redacted]";
  if (PAYLOAD_FIELD.test(name)) return "[omitted]";
  return sanitize(value, depth);
}

// kafkajs logs every failed connection attempt at error level; KafkaSource says it once, with a
// summary a minute (as "Kafka unreachable"), so these go to debug.
const CONNECTION_NOISE =
  /ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|Connection error|Connection timeout|Failed to connect to seed broker|Closed connection/i;

// kafkajs logs a failed response at error level and then retries the request itself; these errors
// (kafkajs's retriable ones about coordinators, leaders and timeouts, as a fresh broker answers) are
// harmless until the retries run out, which the caller says at error level ("Crash", KafkaSource's
// line). So they go to debug; connection.test.ts checks each against kafkajs's own table.
export const RETRIED_RESPONSE_ERRORS: ReadonlySet<string> = new Set([
  "This server does not host this topic-partition",
  "There is no leader for this topic-partition as we are in the middle of a leadership election",
  "This server is not the leader for that topic-partition",
  "The request timed out",
  "The replica is not available for the requested topic-partition",
  "The server disconnected before a response was received",
  "The coordinator is loading and hence can't process requests for this group",
  "The group coordinator is not available",
  "This is not the correct coordinator for this group",
]);

// kafkajs retrying on its own: a consumer restarted after a crash (the crash is the error line), a
// member the coordinator forgot joining again.
const RETRYING =
  /^Restarting the consumer in \d+ms$|^The coordinator is not aware of this member, re-joining the group$/;

/** The pino level of a kafkajs entry at error level that kafkajs retries: warn or debug; else undefined. */
function retriedLevel(namespace: string, text: string, error: unknown): "warn" | "debug" | undefined {
  if (
    namespace === "Connection" &&
    text.startsWith("Response ") &&
    RETRIED_RESPONSE_ERRORS.has(String(error))
  )
    return "debug";
  if ((namespace === "Consumer" || namespace === "Runner") && RETRYING.test(text)) return "warn";
  return undefined;
}

/**
 * A kafkajs `logCreator` that forwards kafkajs log entries to `logger` with the kafkajs namespace,
 * dropping secrets, byte buffers and fields that could carry record contents. An entry that repeats
 * is logged once a minute with a count; connection failures are left to KafkaSource's own line, and
 * errors kafkajs retries by itself are not logged as errors.
 */
export function kafkaLogCreator(logger: Logger): logCreator {
  const repeats = new RepeatLog(logger);
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      let method = PINO_LEVEL[level];
      if (method === undefined) return;
      const { message, timestamp: _timestamp, ...extra } = log;
      const text = String(message);
      if (
        method !== "debug" &&
        (namespace === "Connection" || namespace === "BrokerPool") &&
        CONNECTION_NOISE.test(text)
      ) {
        method = "debug";
        // The first failure to reach a broker is said at once, in one line; KafkaSource follows up.
        const broker = typeof extra["broker"] === "string" ? extra["broker"] : undefined;
        if (broker !== undefined && namespace === "Connection") {
          repeats.log(
            "warn",
            `connect:${broker}`,
            { broker },
            `cannot connect to Kafka broker ${broker}: ${text}; retrying`,
          );
        }
      }
      if (method === "error") method = retriedLevel(namespace, text, extra["error"]) ?? method;
      if (method === "debug" && !logger.isLevelEnabled("debug")) return;
      const fields: Record<string, unknown> = { kafkajs: namespace };
      for (const [name, value] of Object.entries(extra)) fields[name] = sanitizeField(name, value, 1);
      repeats.log(method, `${namespace}:${text.replace(/\d+/g, "#")}`, fields, text);
    };
}
