import type { Producer } from "kafkajs";
import { messageOf } from "../../errors.js";
import { parseCommandArgs, usageError } from "../args.js";
import type { Command } from "../command.js";

const help = `Usage: schemawatch demo-produce --brokers LIST --topic NAME --producer NAME --version 1.0.0|1.1.0
                                [--rate N] [--count N] [--wire-id N]

A small demo producer for the article's story (deploy/compose.yaml runs two of them). It sends event
documents of the chosen version to a plain-text Kafka listener until SIGINT or SIGTERM, or until
--count records are sent:

  1.0.0  {"id": N, "event": "view" | "click"}
  1.1.0  {"id": N, "event": "view" | "click" | "buy", "amount": X}   (amount is always there; every
         fifth record is a buy, which the closed 1.0.0 rejects as well)

Each record declares its version in the 'schema-version' header (event/1.0 or event/1.1), or with
--wire-id in the Confluent wire prefix (0x00 and the 4-byte schema id) instead, and names its producer
in the 'producer' header. The key is PRODUCER-N, so records spread over the topic's partitions.

Options:
  --brokers LIST     comma-separated host:port list (plain text, no TLS or SASL: a demo cluster)
  --topic NAME       the topic; it must exist
  --producer NAME    the value of the 'producer' header
  --version V        1.0.0 or 1.1.0 (1.0 and 1.1 are accepted too)
  --rate N           records per second (default 5; decimals allowed, at most 10000)
  --count N          stop after N records (default: run until stopped)
  --wire-id N        declare the version with the Confluent wire prefix and schema id N instead of
                     the header (the demo config maps 101 to 1.0.0 and 102 to 1.1.0)
  -h, --help         show this help

Progress goes to stderr every 5 seconds. Exit status: 0 when stopped or done; 1 when Kafka fails
(unreachable broker, missing topic); 2 bad flags.

Example:
  schemawatch demo-produce --brokers 127.0.0.1:9092 --topic events --producer checkout --version 1.1.0
`;

const NAME = "demo-produce";
const SUBJECT = "event";
const MAX_RATE = 10_000;
const PROGRESS_MS = 5_000;
// At most one send every 100 ms: a high rate goes out in small batches rather than a request a record.
const TICK_MS = 100;

export type DemoVersion = "1.0.0" | "1.1.0";

/** The n-th document a demo producer on `version` sends (n from 0): the article's event shapes. */
export function demoDocument(version: DemoVersion, n: number): Record<string, unknown> {
  if (version === "1.0.0") return { id: n, event: n % 3 === 2 ? "click" : "view" };
  const event = n % 5 === 4 ? "buy" : n % 3 === 2 ? "click" : "view";
  // Cents as a decimal with at most two places, deterministic so that runs can be compared.
  return { id: n, event, amount: ((n * 37) % 10_000) / 100 };
}

/** The bytes of a record value: the JSON text, behind the Confluent wire prefix when an id is given. */
export function demoValue(document: unknown, wireId?: number): Buffer {
  const json = Buffer.from(JSON.stringify(document));
  if (wireId === undefined) return json;
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(wireId, 1);
  return Buffer.concat([prefix, json]);
}

/** `event/1.0` for 1.0.0: the short form the article puts into records. */
export function versionHeader(version: DemoVersion): string {
  return `${SUBJECT}/${version.slice(0, version.lastIndexOf("."))}`;
}

function parseVersion(text: string | undefined): DemoVersion {
  if (text === undefined) throw usageError(NAME, "--version 1.0.0|1.1.0 is required");
  if (text === "1.0.0" || text === "1.0") return "1.0.0";
  if (text === "1.1.0" || text === "1.1") return "1.1.0";
  throw usageError(NAME, `--version must be 1.0.0 or 1.1.0, got '${text}'`);
}

function parseNumber(flag: string, text: string | undefined, check: (n: number) => boolean, what: string) {
  if (text === undefined) return undefined;
  const value = text.trim() === "" ? NaN : Number(text);
  if (!Number.isFinite(value) || !check(value)) {
    throw usageError(NAME, `--${flag} must be ${what}, got '${text}'`);
  }
  return value;
}

function required(flag: string, text: string | undefined, what: string): string {
  const value = text?.trim();
  if (!value) throw usageError(NAME, `--${flag} ${what} is required`);
  return value;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal.addEventListener("abort", done, { once: true });
  });
}

export const demoProduceCommand: Command = {
  name: NAME,
  summary: "send the article's event documents of one version to Kafka (the compose demo's producers)",
  help,
  stopsCleanly: true,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(NAME, args, {
      brokers: { type: "string" },
      topic: { type: "string" },
      producer: { type: "string" },
      version: { type: "string" },
      rate: { type: "string" },
      count: { type: "string" },
      "wire-id": { type: "string" },
    });
    if (values.help) {
      context.stdout.write(help);
      return 0;
    }
    if (positionals.length > 0) throw usageError(NAME, `unexpected argument '${positionals[0]}'`);
    const brokers = required("brokers", values.brokers, "LIST")
      .split(",")
      .map((b) => b.trim())
      .filter(Boolean);
    for (const broker of brokers) {
      if (!/^[^\s:]+:\d{1,5}$/.test(broker)) {
        throw usageError(NAME, `--brokers takes host:port entries, got '${broker}'`);
      }
    }
    const topic = required("topic", values.topic, "NAME");
    const producerName = required("producer", values.producer, "NAME");
    const version = parseVersion(values.version);
    const rate =
      parseNumber("rate", values.rate, (n) => n > 0 && n <= MAX_RATE, `a number in (0, ${MAX_RATE}]`) ?? 5;
    const count = parseNumber(
      "count",
      values.count,
      (n) => Number.isSafeInteger(n) && n > 0,
      "a positive integer",
    );
    const wireId = parseNumber(
      "wire-id",
      values["wire-id"],
      (n) => Number.isInteger(n) && n >= 0 && n <= 0xffff_ffff,
      "a schema id between 0 and 4294967295",
    );

    // Loaded here so that every other command starts without kafkajs.
    const { Kafka, Partitioners, logLevel } = await import("kafkajs");
    // the monitor's kafkajs patches: without the request queue's, Node 24 prints a TimeoutNegativeWarning
    (await import("../../kafka/patches/index.js")).install();
    const kafka = new Kafka({
      clientId: `schemawatch-demo-${producerName}`,
      brokers,
      // kafkajs' own log lines would repeat what the error below says; keep stderr for progress.
      logLevel: logLevel.NOTHING,
      connectionTimeout: 3_000,
      retry: { retries: 5, initialRetryTime: 300, maxRetryTime: 5_000 },
    });
    const declared =
      wireId === undefined ? `header schema-version: ${versionHeader(version)}` : `wire id ${wireId}`;
    const log = (line: string) => context.stderr.write(`demo-produce ${producerName}: ${line}\n`);

    let producer: Producer | undefined;
    let sent = 0;
    let started: number;
    try {
      const admin = kafka.admin();
      await admin.connect();
      try {
        // kafkajs would retry a missing topic for a while and then fail with "This server does not host
        // this topic-partition"; saying so at once is clearer.
        if (!(await admin.listTopics()).includes(topic)) {
          throw new Error(`topic '${topic}' does not exist on ${brokers.join(",")}`);
        }
      } finally {
        await admin.disconnect();
      }
      producer = kafka.producer({
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
      });
      await producer.connect();
      // The rate counts from here, so that a slow connection does not end in a burst.
      started = Date.now();
      log(
        `sending event ${version} (${declared}) to ${topic} at ${rate}/s` +
          (count === undefined ? " until stopped" : `, ${count} records`),
      );
      let lastProgress = started;
      const limit = count ?? Infinity;
      while (!context.stopSignal.aborted && sent < limit) {
        const tick = Date.now();
        // Record n (from 0) is due n / rate seconds after the start: the first one at once.
        const due = Math.min(limit, Math.floor(((tick - started) / 1000) * rate) + 1);
        if (due > sent) {
          const messages = Array.from({ length: due - sent }, (_, i) => {
            const n = sent + i;
            return {
              key: `${producerName}-${n}`,
              value: demoValue(demoDocument(version, n), wireId),
              headers: {
                producer: producerName,
                ...(wireId === undefined ? { "schema-version": versionHeader(version) } : {}),
              },
            };
          });
          await producer.send({ topic, messages, acks: -1 });
          sent = due;
        }
        const now = Date.now();
        if (now - lastProgress >= PROGRESS_MS) {
          lastProgress = now;
          log(`${sent} records sent (${((sent * 1000) / (now - started)).toFixed(1)}/s)`);
        }
        if (sent >= limit) break;
        // Sleep until the next record is due, but at least TICK_MS after this send started (so a high
        // rate goes out in batches) and no longer than the next progress line.
        const wake = Math.min(
          Math.max(started + (sent * 1000) / rate, tick + TICK_MS),
          lastProgress + PROGRESS_MS,
        );
        await pause(wake - now, context.stopSignal);
      }
    } catch (error) {
      log(`Kafka failed after ${sent} records: ${messageOf(error)}`);
      return 1;
    } finally {
      await producer?.disconnect().catch(() => undefined);
    }
    log(`done: ${sent} records sent in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  },
};
