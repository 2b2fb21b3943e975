/** kafkajs's record object, as its `eachBatch` hands it over. */
export interface DecodedRecord {
  readonly magicByte: number;
  readonly attributes: number;
  readonly timestamp: string;
  readonly offset: string;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headers: Record<string, Buffer | null | Array<Buffer | null>>;
  readonly isControlRecord: boolean;
  readonly batchContext: BatchFields & { readonly magicByte: number };
}

/** What kafkajs's batch decoder returns besides the records, and every record's `batchContext`. */
export interface BatchFields {
  readonly firstOffset: string;
  readonly firstTimestamp: string;
  readonly partitionLeaderEpoch: number;
  readonly inTransaction: boolean;
  readonly isControlBatch: boolean;
  readonly lastOffsetDelta: number;
  readonly producerId: string;
  readonly producerEpoch: number;
  readonly firstSequence: number;
  readonly maxTimestamp: string;
  readonly timestampType: number;
}

/**
 * Header names and short header values seen lately: producers repeat a handful of names in every
 * record, and a handful of values (a producer's name, a schema version), and comparing a few bytes
 * costs less than a new string or a new Buffer for each.
 */
export class HeaderNames {
  readonly #bytes: Buffer[] = [];
  readonly #texts: string[] = [];
  #next = 0;
  readonly #values: Buffer[] = [];
  #nextValue = 0;

  name(buffer: Buffer, start: number, length: number): string {
    const k = find(this.#bytes, buffer, start, length);
    if (k >= 0) return this.#texts[k]!;
    const text = buffer.toString("utf8", start, start + length);
    if (length <= MAX_CACHED_NAME) {
      this.#bytes[this.#next] = copy(buffer, start, length);
      this.#texts[this.#next] = text;
      this.#next = (this.#next + 1) % CACHED_NAMES;
    }
    return text;
  }

  /**
   * The bytes as a Buffer: one shared by every record that carries the same short value (nobody
   * writes into a header's Buffer), else a slice of `buffer`. A value longer than a version or a
   * producer's name (a trace id) is rarely repeated, and is not looked for.
   */
  value(buffer: Buffer, start: number, length: number): Buffer {
    if (length > MAX_CACHED_VALUE) return buffer.subarray(start, start + length);
    const k = find(this.#values, buffer, start, length);
    if (k >= 0) return this.#values[k]!;
    const value = copy(buffer, start, length);
    this.#values[this.#nextValue] = value;
    this.#nextValue = (this.#nextValue + 1) % CACHED_NAMES;
    return value;
  }
}

/** The index of the Buffer in `known` with the bytes at `start`, or -1. */
function find(known: readonly Buffer[], buffer: Buffer, start: number, length: number): number {
  search: for (let k = 0; k < known.length; k++) {
    const candidate = known[k]!;
    if (candidate.length !== length) continue;
    for (let i = 0; i < length; i++) if (candidate[i] !== buffer[start + i]) continue search;
    return k;
  }
  return -1;
}

/** A copy: the fetch response's memory is not ours to keep. */
function copy(buffer: Buffer, start: number, length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  buffer.copy(bytes, 0, start, start + length);
  return bytes;
}

const CACHED_NAMES = 16;
const MAX_CACHED_NAME = 64;
const MAX_CACHED_VALUE = 32;

/** Where a record's parts lie in the batch's bytes, as the batch decoder found and checked them. */
export interface RecordLayout {
  /** Start of the key, or -1 for a null key; likewise the value. */
  key: number;
  keyLength: number;
  value: number;
  valueLength: number;
  /** Start of the first header (after the count), and the count. */
  headers: number;
  headerCount: number;
}

/** What every record of one batch shares. */
export interface SharedByBatch {
  readonly context: DecodedRecord["batchContext"];
  readonly names: HeaderNames;
  /** The batch's records, as bytes (decompressed, for a compressed batch): what `KafkaRecord.frame` is. */
  readonly frame: BatchFrame;
}

/** A batch's records as bytes, and a number no other batch of the process has. */
export interface BatchFrame {
  readonly bytes: Buffer;
  readonly id: number;
}

/**
 * One record of a batch, holding where its parts lie in the batch's bytes rather than the parts: the
 * key, value and headers are made when read. kafkajs decodes a whole fetch response (2 MB, ~9,000
 * records here) before handing over its first batch, so everything a record holds stays alive through
 * several young-generation collections and is copied by each; with the parts made on demand, and
 * dropped as soon as the pipeline is done with them, a record is one object and its offset string,
 * and the collector's work fell by a third (BENCHMARKS.md, "Kafka path against the Java consumer").
 * To kafkajs it reads as the object its own decoder makes; the layout was checked when decoded.
 */
export class KafkaRecord implements DecodedRecord {
  readonly magicByte: number;
  readonly attributes: number;
  readonly offset: string;
  readonly isControlRecord: boolean;
  readonly batchContext: DecodedRecord["batchContext"];
  /** The timestamp in milliseconds, what schemawatch reads (exact below 2^53, as JavaScript's). */
  readonly timestampMs: number;
  /** The timestamp's decimal text where a number cannot hold it exactly; undefined otherwise. */
  readonly #timestampText: string | undefined;
  readonly #buffer: Buffer;
  readonly #names: HeaderNames;
  readonly #frame: BatchFrame;
  readonly #key: number;
  readonly #keyLength: number;
  readonly #value: number;
  readonly #valueLength: number;
  readonly #headers: number;
  readonly #headerCount: number;

  constructor(
    batch: SharedByBatch,
    buffer: Buffer,
    attributes: number,
    offset: string,
    timestamp: number | string,
    layout: RecordLayout,
  ) {
    this.magicByte = batch.context.magicByte;
    this.attributes = attributes;
    this.offset = offset;
    this.isControlRecord = batch.context.isControlBatch;
    this.batchContext = batch.context;
    this.timestampMs = typeof timestamp === "number" ? timestamp : Number(timestamp);
    this.#timestampText = typeof timestamp === "number" ? undefined : timestamp;
    this.#buffer = buffer;
    this.#names = batch.names;
    this.#frame = batch.frame;
    this.#key = layout.key;
    this.#keyLength = layout.keyLength;
    this.#value = layout.value;
    this.#valueLength = layout.valueLength;
    this.#headers = layout.headers;
    this.#headerCount = layout.headerCount;
  }

  get timestamp(): string {
    return this.#timestampText ?? String(this.timestampMs);
  }

  get key(): Buffer | null {
    return this.#key < 0 ? null : this.#buffer.subarray(this.#key, this.#key + this.#keyLength);
  }

  get value(): Buffer | null {
    return this.#value < 0 ? null : this.#buffer.subarray(this.#value, this.#value + this.#valueLength);
  }

  /**
   * The bytes of the batch's records, the value among them: nothing writes them again, so a search
   * that read ahead in them answers for the records after this one (`SourceRecord.frame`).
   */
  get frame(): BatchFrame {
    return this.#frame;
  }

  /**
   * The first non-null value of header `name`, as `headerValue(this.headers, name)` reads it, without
   * making the headers object or a slice of a value it does not return: the producer and writer
   * resolvers ask for one or two names per record, and the object with a slice per value (a trace id)
   * was 6% of the CPU per record (BENCHMARKS.md, issue 37). Names are compared as bytes where that is
   * exact (`nameBytes`), else as the decoded text the object would have as its key.
   */
  header(name: string): Buffer | undefined {
    const wanted = nameBytes(name);
    const unnamed = name === "null";
    const buffer = this.#buffer;
    const at = { pos: this.#headers };
    for (let i = 0; i < this.#headerCount; i++) {
      const nameLength = varint(buffer, at);
      let match: boolean;
      if (nameLength === -1) match = unnamed;
      else if (wanted === undefined) match = this.#names.name(buffer, at.pos, nameLength) === name;
      else if (wanted.length !== nameLength) match = false;
      else {
        match = true;
        for (let j = 0; j < nameLength; j++)
          if (wanted[j] !== buffer[at.pos + j]) {
            match = false;
            break;
          }
      }
      if (nameLength > 0) at.pos += nameLength;
      const valueLength = varint(buffer, at);
      if (match && valueLength !== -1) return this.#names.value(buffer, at.pos, valueLength);
      if (valueLength > 0) at.pos += valueLength;
    }
    return undefined;
  }

  /**
   * A new object each time, as kafkajs's would be; a short value that repeats is one Buffer for
   * every record (HeaderNames), others are slices of the batch's bytes.
   */
  get headers(): DecodedRecord["headers"] {
    const headers: DecodedRecord["headers"] = {};
    const buffer = this.#buffer;
    const at = { pos: this.#headers };
    for (let i = 0; i < this.#headerCount; i++) {
      const nameLength = varint(buffer, at);
      // kafkajs reads a header without a name (length -1) as the name "null".
      const name = nameLength === -1 ? "null" : this.#names.name(buffer, at.pos, nameLength);
      if (nameLength > 0) at.pos += nameLength;
      const valueLength = varint(buffer, at);
      const headerValue = valueLength === -1 ? null : this.#names.value(buffer, at.pos, valueLength);
      if (valueLength > 0) at.pos += valueLength;
      const existing = Object.hasOwn(headers, name) ? headers[name] : undefined;
      const next =
        existing === undefined
          ? headerValue
          : Array.isArray(existing)
            ? [...existing, headerValue]
            : [existing, headerValue];
      if (name === "__proto__")
        Object.defineProperty(headers, name, {
          value: next,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else headers[name] = next;
    }
    return headers;
  }
}

/**
 * A header name's UTF-8 bytes, when equal bytes are exactly what decodes to `name`: a well-formed
 * string without U+FFFD (decoding replaces bad bytes, and only those, with it). Undefined otherwise:
 * such a name is compared as decoded text. Remembered: the resolvers ask for the same few names.
 */
function nameBytes(name: string): Buffer | undefined {
  const known = encodedNames.get(name);
  if (known !== undefined || encodedNames.has(name)) return known;
  const bytes = name.isWellFormed() && !name.includes("\uFFFD") ? Buffer.from(name, "utf8") : undefined;
  if (encodedNames.size >= MAX_ENCODED_NAMES) encodedNames.clear();
  encodedNames.set(name, bytes);
  return bytes;
}

const encodedNames = new Map<string, Buffer | undefined>();
const MAX_ENCODED_NAMES = 64;

/** A zigzag varint the batch decoder already checked; moves `at.pos` past it. */
function varint(buffer: Buffer, at: { pos: number }): number {
  let result = 0;
  let shift = 0;
  let byte: number;
  do {
    byte = buffer[at.pos++]!;
    result += (byte & 0x7f) << shift;
    shift += 7;
  } while (byte >= 0x80);
  return (result >>> 1) ^ -(result & 1);
}

/** kafkajs's own fields of a record, read once: what its decoder's plain object holds. */
export function plainRecord(record: DecodedRecord): DecodedRecord {
  const { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord, batchContext } =
    record;
  return { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord, batchContext };
}
