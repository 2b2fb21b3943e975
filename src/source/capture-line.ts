import type { HeaderValue, SourceRecord } from "../pipeline/record.js";
import { isStackOverflow } from "../pipeline/payload.js";
import type { CaptureTimestamp } from "./capture-clock.js";
import { memberText, topLevelMembers } from "./members.js";

type Bytes = string | { base64: string } | null | undefined;

/** Kafka's own range of a timestamp is a 64-bit integer; a date's is ±8.64e15 ms (`new Date`). */
const MAX_DATE_MS = 8.64e15;

/**
 * A capture line that is not a record. `topic` and `partition` are what could still be read of it, so
 * that it is counted as unknown use there (undefined: not readable).
 */
export class CaptureLineError extends Error {
  readonly topic: string | undefined;
  readonly partition: number | undefined;

  constructor(problem: string, topic: string | undefined, partition: number | undefined) {
    super(problem);
    this.name = "CaptureLineError";
    this.topic = topic;
    this.partition = partition;
  }
}

/** A capture's record and its timestamp as the capture holds it (the clock decides what to believe). */
export interface CaptureRecord {
  readonly record: SourceRecord;
  readonly timestamp: CaptureTimestamp;
}

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
 * A record timestamp in any form a capture may hold it: milliseconds as a number or as a string of
 * digits (kafkajs hands timestamps over as strings), or an ISO-8601 date. Out of a date's range (9e15)
 * or of another type, it is unreadable; absent or null, missing.
 */
export function readTimestamp(value: unknown): CaptureTimestamp {
  if (value === undefined || value === null) return "missing";
  let ms: number;
  if (typeof value === "number") ms = value;
  else if (typeof value === "string")
    ms = /^-?\d{1,20}$/.test(value.trim()) ? Number(value) : Date.parse(value);
  else return "unreadable";
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? Math.trunc(ms) : "unreadable";
}

/** A partition as a capture line gives it: absent means 0; a non-negative integer; else unreadable. */
function readPartition(value: unknown): number | undefined {
  if (value === undefined) return 0;
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** An offset as a capture line gives it: absent means the line's number; else a non-negative integer. */
function readOffset(value: unknown, index: number): string | undefined {
  if (value === undefined) return String(index);
  if (typeof value === "number") return Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
  return typeof value === "string" && /^\d{1,20}$/.test(value) ? value : undefined;
}

/**
 * The JSON text of a value, for the pipeline to parse as it parses a Kafka payload. A value nested
 * deeper than `JSON.stringify` can recurse is taken as the line wrote it instead: its depth is for the
 * pipeline to judge, as for any record, and never makes the line unreadable.
 */
function valueText(line: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!isStackOverflow(error)) throw error;
    const span = topLevelMembers(line).get("value");
    return line.slice(span![0], span![1]);
  }
}

/**
 * Turns one NDJSON capture line into a record: `value` is the JSON document itself, or
 * `{"base64": "..."}` for raw bytes (wire-format records, broken payloads). Throws a CaptureLineError
 * naming what could still be read (its topic and partition) on a malformed line.
 */
export function parseCaptureLine(line: string, index: number): CaptureRecord {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line) as Record<string, unknown>;
  } catch {
    // JSON.parse quotes the offending text in its message; a payload must never reach a log line.
    const members = topLevelMembers(line);
    const topic = memberText(line, members, "topic");
    const partition = members.has("partition")
      ? readPartition(memberText(line, members, "partition"))
      : undefined;
    throw new CaptureLineError("not valid JSON", typeof topic === "string" ? topic : undefined, partition);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new CaptureLineError("not a JSON object", undefined, undefined);
  const topic = typeof raw["topic"] === "string" ? raw["topic"] : undefined;
  const partition = readPartition(raw["partition"]);
  const fail = (problem: string): never => {
    throw new CaptureLineError(problem, topic, partition);
  };
  if (topic === undefined) return fail("missing topic");
  if (partition === undefined) return fail("partition must be a non-negative integer");
  const headers: Record<string, HeaderValue> = {};
  const rawHeaders = raw["headers"];
  if (rawHeaders !== undefined && rawHeaders !== null) {
    if (typeof rawHeaders !== "object" || Array.isArray(rawHeaders)) fail("headers must be an object");
    for (const [name, value] of Object.entries(rawHeaders as object)) {
      if (typeof value !== "string" && !isBase64(value)) fail(`header ${name} must be a string or {base64}`);
      headers[name] = bytes(value as Bytes) ?? undefined;
    }
  }
  const value = raw["value"];
  const key = raw["key"];
  if (key !== undefined && key !== null && typeof key !== "string" && !isBase64(key)) {
    fail("key must be a string, {base64} or null");
  }
  const offset = readOffset(raw["offset"], index);
  if (offset === undefined) return fail("offset must be a non-negative integer");
  const timestamp = readTimestamp(raw["timestamp"]);
  return {
    record: {
      topic,
      partition,
      offset,
      // Kafka's "no timestamp"; the capture's clock decides when the record counts as observed.
      timestamp: typeof timestamp === "number" ? timestamp : -1,
      key: bytes(key as Bytes),
      headers,
      value:
        value === undefined
          ? null
          : isBase64(value)
            ? bytes(value)
            : Buffer.from(valueText(line, value), "utf8"),
    },
    timestamp,
  };
}
