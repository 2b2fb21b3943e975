/** Header values as kafkajs gives them. */
export type HeaderValue = Buffer | string | (Buffer | string)[] | undefined;

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
}

/** Why a record could not be decoded; each is a value of the `reason` label. */
export type DecodeReason =
  | "not_json"
  | "not_utf8"
  | "unknown_schema_id"
  | "unknown_version"
  | "truncated_wire_prefix"
  | "too_large"
  | "empty"
  | "unknown_topic"
  | "invalid_capture_line"
  | "internal_error";

export const DECODE_REASONS: readonly DecodeReason[] = [
  "not_json",
  "not_utf8",
  "unknown_schema_id",
  "unknown_version",
  "truncated_wire_prefix",
  "too_large",
  "empty",
  "unknown_topic",
  "invalid_capture_line",
  "internal_error",
];

/** The first value of a header as a string, or undefined. */
export function headerText(headers: SourceRecord["headers"], name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined) return undefined;
  return typeof first === "string" ? first : first.toString("utf8");
}

/** The first value of a header as bytes, or undefined. */
export function headerBytes(headers: SourceRecord["headers"], name: string): Buffer | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
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

  text(headers: SourceRecord["headers"]): string | undefined {
    const value = headers?.[this.#name];
    const first = Array.isArray(value) ? value[0] : value;
    if (first === undefined) return undefined;
    if (typeof first === "string") return first;
    const bytes = this.#bytes;
    for (let i = 0; i < bytes.length; i++) {
      const known = bytes[i]!;
      if (known.length === first.length && known.equals(first)) return this.#texts[i];
    }
    const text = first.toString("utf8");
    // Copy: kafkajs may reuse the memory behind the header buffer.
    this.#bytes[this.#next] = Buffer.from(first);
    this.#texts[this.#next] = text;
    this.#next = (this.#next + 1) % MEMO_SIZE;
    return text;
  }
}
