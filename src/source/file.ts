import { constants, createReadStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Logger } from "pino";
import { SchemawatchError, messageOf } from "../errors.js";
import type { Health } from "../health/health.js";
import type { RecordSink } from "../pipeline/record.js";
import type { HeaderValue, SourceRecord } from "../pipeline/record.js";
import type { Tallies } from "../pipeline/tallies.js";

export interface FileSourceOptions {
  /** A file path, or `-` for standard input. */
  readonly path: string;
  readonly sink: RecordSink;
  readonly health: Health;
  readonly tallies: Tallies;
  readonly topics: readonly string[];
  readonly logger: Logger;
  readonly stdin?: Readable;
}

export interface FileSourceSummary {
  lines: number;
  records: number;
  invalid: number;
}

type Bytes = string | { base64: string } | null | undefined;

function isBase64(value: unknown): value is { base64: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as { base64?: unknown }).base64 === "string"
  );
}

function bytes(value: Bytes): Buffer | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return Buffer.from(value, "utf8");
  return Buffer.from(value.base64, "base64");
}

/**
 * Turns one NDJSON capture line into a record: `value` is the JSON document itself, or
 * `{"base64": "..."}` for raw bytes (wire-format records, broken payloads). Throws on a malformed line.
 */
export function parseCaptureLine(line: string, index: number): SourceRecord {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line) as Record<string, unknown>;
  } catch {
    // JSON.parse quotes the offending text in its message; a payload must never reach a log line.
    throw new Error("not valid JSON");
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error("not a JSON object");
  if (typeof raw["topic"] !== "string") throw new Error("missing topic");
  const headers: Record<string, HeaderValue> = {};
  const rawHeaders = raw["headers"];
  if (rawHeaders !== undefined && rawHeaders !== null) {
    if (typeof rawHeaders !== "object" || Array.isArray(rawHeaders))
      throw new Error("headers must be an object");
    for (const [name, value] of Object.entries(rawHeaders)) {
      if (typeof value !== "string" && !isBase64(value))
        throw new Error(`header ${name} must be a string or {base64}`);
      headers[name] = bytes(value) ?? undefined;
    }
  }
  const value = raw["value"];
  const timestamp = raw["timestamp"];
  const key = raw["key"];
  if (key !== undefined && key !== null && typeof key !== "string" && !isBase64(key)) {
    throw new Error("key must be a string, {base64} or null");
  }
  return {
    topic: raw["topic"],
    partition: typeof raw["partition"] === "number" ? raw["partition"] : 0,
    offset: raw["offset"] === undefined ? String(index) : String(raw["offset"]),
    timestamp:
      typeof timestamp === "number"
        ? timestamp
        : typeof timestamp === "string"
          ? Date.parse(timestamp)
          : Date.now(),
    key: bytes(key as Bytes),
    headers,
    value:
      value === undefined
        ? null
        : isBase64(value)
          ? bytes(value)
          : Buffer.from(JSON.stringify(value), "utf8"),
  };
}

/**
 * Fails when a capture cannot be replayed (missing, unreadable, a folder), so that the monitor says so
 * before it listens or logs anything. `-` (standard input) is always there.
 */
export async function checkCapture(path: string): Promise<void> {
  if (path === "-") return;
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
    if (!isFolder) await access(path, constants.R_OK);
  } catch (error) {
    throw new SchemawatchError("FILE_UNREADABLE", `${path}: cannot read capture: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (isFolder) {
    throw new SchemawatchError(
      "FILE_UNREADABLE",
      `${path}: cannot read capture: it is a folder; give the NDJSON file (--source file:PATH)`,
    );
  }
}

/** Records between two flushes of the sink (validation workers get them in batches of this size). */
const FLUSH_EVERY = 1000;

/**
 * Replays an NDJSON capture through the same pipeline as Kafka. A malformed line is counted
 * (`invalid_capture_line`), logged with its line number but never its content, and skipped.
 */
export async function replayFile(
  options: FileSourceOptions,
  signal?: AbortSignal,
): Promise<FileSourceSummary> {
  const { health, logger } = options;
  let input: Readable;
  if (options.path === "-") {
    input = options.stdin ?? process.stdin;
  } else {
    input = createReadStream(options.path);
    await new Promise<void>((resolve, reject) => {
      input.once("open", () => resolve());
      input.once("error", (error) =>
        reject(
          new SchemawatchError(
            "FILE_UNREADABLE",
            `${options.path}: cannot read capture: ${messageOf(error)}`,
            {
              cause: error,
            },
          ),
        ),
      );
    });
  }
  health.brokerUp = true;
  for (const topic of options.topics) health.assigned.set(topic, new Set([0]));
  const summary: FileSourceSummary = { lines: 0, records: 0, invalid: 0 };
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (signal?.aborted) break;
    summary.lines++;
    if (line.trim() === "") continue;
    let record: SourceRecord;
    try {
      record = parseCaptureLine(line, summary.lines);
    } catch (error) {
      summary.invalid++;
      options.tallies.decodeError("unknown", "invalid_capture_line");
      logger.warn(
        { line: summary.lines, problem: messageOf(error) },
        "skipped a capture line that is not a record",
      );
      continue;
    }
    summary.records++;
    options.sink.process(record);
    if (summary.records % FLUSH_EVERY === 0) await options.sink.flush?.();
  }
  await options.sink.flush?.();
  return summary;
}
