/** Header values as kafkajs gives them; Kafka allows a header without a value (null). */
export type HeaderValue = Buffer | string | null | (Buffer | string | null)[] | undefined;

/**
 * One record, whatever its source (Kafka or an NDJSON capture). Offsets stay strings, as Kafka's
 * 64-bit offsets do in kafkajs.
 */
export interface SourceRecord {
  readonly topic: string;
  readonly partition: number;
  readonly offset: string;
  /** Milliseconds since the epoch. */
  readonly timestamp: number;
  readonly key: Buffer | null;
  readonly headers: Readonly<Record<string, HeaderValue>> | undefined;
  readonly value: Buffer | null;
  /**
   * Bytes that hold `value` and that nothing writes again (a Kafka record batch's records): a check
   * may read ahead in them once for several records (the field check's search for escapes).
   * Undefined where a source cannot promise that.
   */
  readonly frame?: RecordFrame | undefined;
  /**
   * The first value of header `name` that has one: `headerValue(headers, name)`, read without making
   * the headers object (a Kafka record scans its header bytes). Undefined where a source has no such
   * reader; `recordHeader` falls back to `headers` then.
   */
  header?(name: string): Buffer | string | undefined;
}

/** The bytes around values (`SourceRecord.frame`). */
export interface RecordFrame {
  readonly bytes: Buffer;
  /**
   * This frame's number, never another's in the process: what a check that read ahead remembers of
   * it, rather than the bytes, which it would keep alive (a fetch response, per subject).
   */
  readonly id: number;
}

/** Why a record could not be decoded; each is a value of the `reason` label. */
export type DecodeReason =
  | "not_json"
  | "not_utf8"
  | "unknown_schema_id"
  | "unknown_version"
  | "truncated_wire_prefix"
  | "bad_id_header"
  | "too_large"
  | "key_too_long"
  | "unknown_topic"
  | "invalid_capture_line"
  | "too_deep"
  | "undecodable_batch"
  | "timeout"
  | "internal_error"
  | "avro_decode"
  | "protobuf_decode";

/**
 * The reasons every configured topic shows from zero. A format's own reasons (`avro_decode`,
 * `protobuf_decode`) and Apicurio's (`bad_id_header`) appear with their first record instead, so
 * topics that carry none keep their series.
 */
export const DECODE_REASONS: readonly DecodeReason[] = [
  "not_json",
  "not_utf8",
  "unknown_schema_id",
  "unknown_version",
  "truncated_wire_prefix",
  "too_large",
  "key_too_long",
  "unknown_topic",
  "invalid_capture_line",
  "too_deep",
  "undecodable_batch",
  "timeout",
  "internal_error",
];

/**
 * Why a record is evidence of unknown use, which keeps every deprecated version of its subject from
 * being called drained: its writer version could not be read at all, or it declares none and was never
 * validated (too large, too deep, its validation stopped by the time budget: `timeout`, skipped by the
 * sampler: `not_validated`, or its validation was lost to a failure: `internal_error`), so nobody
 * checked whether it needs a deprecated version; or a capture line that is no record at all.
 */
export type UnreadableReason = Exclude<DecodeReason, "unknown_topic"> | "not_validated";

/**
 * The first value of a header that has one. A header sent without a value (null, legal in Kafka) is
 * read as absent, so that a record with one is counted like a record without the header.
 */
export function headerValue(headers: SourceRecord["headers"], name: string): Buffer | string | undefined {
  // Own headers only: `toString` or `__proto__` must not read as the object's inherited members.
  if (headers === undefined || !Object.hasOwn(headers, name)) return undefined;
  const value = headers[name];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return value;
  for (const item of value) if (item !== null && item !== undefined) return item;
  return undefined;
}

/** `headerValue` of a record's headers, through the record's own reader when it has one. */
export function recordHeader(record: SourceRecord, name: string): Buffer | string | undefined {
  return record.header === undefined ? headerValue(record.headers, name) : record.header(name);
}

/** The first value of a record's header as bytes, or undefined (`headerBytes`). */
export function recordHeaderBytes(record: SourceRecord, name: string): Buffer | undefined {
  const first = recordHeader(record, name);
  if (first === undefined) return undefined;
  return typeof first === "string" ? Buffer.from(first, "utf8") : first;
}

/** The first value of a header as a string, or undefined. */
export function headerText(headers: SourceRecord["headers"], name: string): string | undefined {
  const first = headerValue(headers, name);
  if (first === undefined) return undefined;
  return typeof first === "string" ? first : first.toString("utf8");
}

/** The first value of a header as bytes, or undefined. */
export function headerBytes(headers: SourceRecord["headers"], name: string): Buffer | undefined {
  const first = headerValue(headers, name);
  if (first === undefined) return undefined;
  return typeof first === "string" ? Buffer.from(first, "utf8") : first;
}

const MEMO_SIZE = 8;

/**
 * Decodes header values, remembering the last few distinct ones: producers repeat a handful of
 * values endlessly, and comparing a few bytes is cheaper than allocating a new string per record.
 */
export class HeaderDecoder {
  readonly #name: string;
  readonly #bytes: Buffer[] = [];
  readonly #texts: string[] = [];
  #next = 0;

  constructor(name: string) {
    this.#name = name;
  }

  /** The first value of the header as text, or undefined. */
  text(record: SourceRecord): string | undefined {
    const first = recordHeader(record, this.#name);
    if (first === undefined) return undefined;
    if (typeof first === "string") return first;
    const bytes = this.#bytes;
    const length = first.length;
    search: for (let i = 0; i < bytes.length; i++) {
      const known = bytes[i]!;
      if (known.length !== length) continue;
      // A loop beats Buffer.equals (a call into C++) on the few bytes header values have.
      if (length > 32) {
        if (known.equals(first)) return this.#texts[i];
        continue;
      }
      for (let j = 0; j < length; j++) if (known[j] !== first[j]) continue search;
      return this.#texts[i];
    }
    const text = first.toString("utf8");
    // Copy: kafkajs may reuse the memory behind the header buffer.
    this.#bytes[this.#next] = Buffer.from(first);
    this.#texts[this.#next] = text;
    this.#next = (this.#next + 1) % MEMO_SIZE;
    return text;
  }
}

/**
 * Where sources deliver records: the monitor's pipeline. Processing is synchronous and never throws,
 * and a sink never keeps the record object after `process` returns: sources reuse it.
 */
export interface RecordSink {
  process(record: SourceRecord): void;
  /**
   * A record that could not be read at all, only where it was (a capture line that is no record):
   * unknown use on that partition.
   */
  unreadable?(topic: string, partition: number, reason: "invalid_capture_line"): void;
  /**
   * Finishes the work `process` left pending (validation on worker threads). A source awaits it
   * before it commits or resolves offsets, so that they never run ahead of the tallies.
   */
  flush?(): Promise<void>;
}
