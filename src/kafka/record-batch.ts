/**
 * A decoder of Kafka's record batches (magic 2) that gives kafkajs exactly the batch and record
 * objects its own decoder gives, at a fraction of the cost. kafkajs 2.2's decoder builds each record's
 * headers with an object spread per header, parses the batch's base offset and first timestamp from
 * decimal strings for every record, and allocates a decoder per record: together most of what a
 * consumer spends on a record. This one reads the bytes in place and does offset and timestamp
 * arithmetic in numbers where they are exact (below 2^53), in BigInt beyond.
 *
 * Two deliberate differences, both on input kafkajs mishandles: a header named after an
 * Object.prototype member (`toString`, `constructor`) is read as the header it is (kafkajs folds the
 * inherited function into an array with it), and `__proto__` is an ordinary header name.
 */

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

export interface DecodedBatch extends BatchFields {
  readonly records: DecodedRecord[];
}

/** A codec as kafkajs's compression table holds it. */
export interface BatchCodec {
  decompress(buffer: Buffer): Promise<Buffer>;
}

/**
 * Header names seen lately and their strings: producers repeat a handful of names in every record,
 * and comparing a few bytes costs less than decoding them into a new string each time.
 */
export class HeaderNames {
  // Stryker disable next-line ArrayDeclaration: a placeholder string's characters never equal a byte
  readonly #bytes: Buffer[] = [];
  // Stryker disable next-line ArrayDeclaration: a text is read only where its name's bytes matched
  readonly #texts: string[] = [];
  #next = 0;

  name(buffer: Buffer, start: number, length: number): string {
    const known = this.#bytes;
    search: for (let k = 0; k < known.length; k++) {
      const candidate = known[k]!;
      if (candidate.length !== length) continue;
      for (let i = 0; i < length; i++) if (candidate[i] !== buffer[start + i]) continue search;
      return this.#texts[k]!;
    }
    const text = buffer.toString("utf8", start, start + length);
    if (length <= MAX_CACHED_NAME) {
      // A copy: the fetch response's memory is not ours to keep.
      this.#bytes[this.#next] = Buffer.from(buffer.subarray(start, start + length));
      this.#texts[this.#next] = text;
      this.#next = (this.#next + 1) % CACHED_NAMES;
    }
    return text;
  }
}

const CACHED_NAMES = 16;
const MAX_CACHED_NAME = 64;

/** The parts of kafkajs this decoder leans on, looked up once by the caller. */
export interface BatchDecoderDeps {
  /** Shared by the batches of a process, so that names are decoded once. */
  readonly names?: HeaderNames;
  /** kafkajs's `lookupCodecByAttributes`: the registered codec of the batch, or null for none. */
  readonly codecFor: (attributes: number) => BatchCodec | null;
  /** kafkajs's KafkaJSPartialMessageError, which its fetch decoder expects for a batch cut short. */
  readonly partialError: (message: string) => Error;
}

/** kafkajs's fetch decoder: the response bytes and a read position. */
export interface FetchDecoder {
  buffer: Buffer;
  offset: number;
}

const TIMESTAMP_TYPE_FLAG = 0x8;
const TRANSACTIONAL_FLAG = 0x10;
const CONTROL_FLAG = 0x20;
const LOG_APPEND_TIME = 1;
const CREATE_TIME = 0;
/** The batch fields after the length, up to the records: epoch, magic, crc, attributes, … sequence. */
const FIELDS = 45;

/**
 * Decodes the record batch at the decoder's position and moves the position past it, as kafkajs's
 * `recordBatch/v0/decoder` does (including throwing its partial-message error for a batch that the
 * fetch size cut short). Throws on bytes that do not parse.
 */
export async function decodeRecordBatch(fetch: FetchDecoder, deps: BatchDecoderDeps): Promise<DecodedBatch> {
  const buffer = fetch.buffer;
  const start = fetch.offset;
  const baseOffset = buffer.readBigInt64BE(start);
  const length = buffer.readInt32BE(start + 8);
  const from = start + 12;
  fetch.offset = from + length;
  const remaining = buffer.length - from;
  if (remaining < length) {
    throw deps.partialError(
      `Tried to decode a partial record batch: remainingBytes(${remaining}) < recordBatchLength(${length})`,
    );
  }
  const end = from + length;
  const attributes = buffer.readInt16BE(from + 9);
  const timestampType = (attributes & TIMESTAMP_TYPE_FLAG) > 0 ? LOG_APPEND_TIME : CREATE_TIME;
  const firstTimestamp = buffer.readBigInt64BE(from + 15);
  const maxTimestamp = buffer.readBigInt64BE(from + 23).toString();
  const fields: BatchFields = {
    firstOffset: baseOffset.toString(),
    firstTimestamp: firstTimestamp.toString(),
    partitionLeaderEpoch: buffer.readInt32BE(from),
    inTransaction: (attributes & TRANSACTIONAL_FLAG) > 0,
    isControlBatch: (attributes & CONTROL_FLAG) > 0,
    lastOffsetDelta: buffer.readInt32BE(from + 11),
    producerId: buffer.readBigInt64BE(from + 31).toString(),
    producerEpoch: buffer.readInt16BE(from + 39),
    firstSequence: buffer.readInt32BE(from + 41),
    maxTimestamp,
    timestampType,
  };
  const batchContext = { ...fields, magicByte: buffer.readInt8(from + 4) };
  const reader = new RecordReader(batchContext, baseOffset, firstTimestamp, deps.names ?? new HeaderNames());
  const count = buffer.readInt32BE(from + FIELDS);
  const codec = deps.codecFor(attributes);
  let records: DecodedRecord[];
  if (!codec) {
    records = count === -1 ? [] : reader.read(buffer, from + FIELDS + 4, end, count);
  } else if (count <= 0) {
    records = [];
  } else {
    const decompressed = await codec.decompress(buffer.subarray(from + FIELDS + 4, end));
    records = reader.read(decompressed, 0, decompressed.length, count);
  }
  return { ...fields, records };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Reads the records of one batch; offsets and timestamps relative to the batch's bases. */
class RecordReader {
  readonly #context: DecodedRecord["batchContext"];
  readonly #isControl: boolean;
  readonly #magic: number;
  /** The bases as numbers when every offset and timestamp of the batch stays exact in one. */
  readonly #baseOffset: number | undefined;
  readonly #baseOffsetBig: bigint;
  readonly #firstTimestamp: number | undefined;
  readonly #firstTimestampBig: bigint;
  readonly #appendTime: string | undefined;
  readonly #names: HeaderNames;
  #pos = 0;
  #buffer: Buffer = Buffer.alloc(0);

  constructor(
    context: DecodedRecord["batchContext"],
    baseOffset: bigint,
    firstTimestamp: bigint,
    names: HeaderNames,
  ) {
    this.#context = context;
    this.#names = names;
    this.#isControl = context.isControlBatch;
    this.#magic = context.magicByte;
    this.#baseOffsetBig = baseOffset;
    // An int32 delta added to a number below 2^53 - 2^31 stays exact.
    this.#baseOffset = baseOffset >= 0n && baseOffset < SAFE - 0x80000000n ? Number(baseOffset) : undefined;
    this.#firstTimestampBig = firstTimestamp;
    const abs = firstTimestamp < 0n ? -firstTimestamp : firstTimestamp;
    this.#firstTimestamp = abs < SAFE / 2n ? Number(firstTimestamp) : undefined;
    // kafkajs gives every record of a LOG_APPEND_TIME batch the batch's max timestamp.
    this.#appendTime =
      context.timestampType === LOG_APPEND_TIME && context.maxTimestamp ? context.maxTimestamp : undefined;
  }

  read(buffer: Buffer, from: number, end: number, count: number): DecodedRecord[] {
    this.#buffer = buffer;
    this.#pos = from;
    // Stryker disable next-line ArrayDeclaration: every slot is assigned below; the length spares growth
    const records = new Array<DecodedRecord>(count);
    for (let i = 0; i < count; i++) {
      const length = this.#varint();
      // A length below 1 leaves no room for the attributes, which #record refuses.
      const next = this.#pos + length;
      if (next > end) throw new RangeError(`record ${i} of the batch runs past its end`);
      records[i] = this.#record(next);
      this.#pos = next;
    }
    return records;
  }

  #record(end: number): DecodedRecord {
    const buffer = this.#buffer;
    if (this.#pos >= end) throw new RangeError("a record ends before its attributes");
    const attributes = buffer.readInt8(this.#pos++);
    const timestamp = this.#timestamp();
    const offsetDelta = this.#varint();
    const offset =
      this.#baseOffset !== undefined
        ? String(this.#baseOffset + offsetDelta)
        : (this.#baseOffsetBig + BigInt(offsetDelta)).toString();
    const key = this.#bytes(end);
    const value = this.#bytes(end);
    const headers: DecodedRecord["headers"] = {};
    const headerCount = this.#varint();
    for (let i = 0; i < headerCount; i++) {
      const name = this.#string(end);
      const headerValue = this.#bytes(end);
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
    return {
      magicByte: this.#magic,
      attributes,
      timestamp,
      offset,
      key,
      value,
      headers,
      isControlRecord: this.#isControl,
      batchContext: this.#context,
    };
  }

  #timestamp(): string {
    const buffer = this.#buffer;
    // A zigzag varlong: up to 7 bytes (49 bits) add up exactly in a number; longer ones in BigInt.
    let value = 0;
    let scale = 1;
    let byte: number;
    let bytes = 0;
    const start = this.#pos;
    do {
      byte = buffer[this.#pos++]!;
      if (byte === undefined) throw new RangeError("a timestamp delta runs past the record");
      value += (byte & 0x7f) * scale;
      scale *= 128;
      bytes++;
    } while (byte >= 0x80 && bytes < 7);
    let delta: number | bigint;
    if (byte >= 0x80) {
      this.#pos = start;
      delta = this.#bigVarlong();
    } else {
      delta = value % 2 === 1 ? -(value + 1) / 2 : value / 2;
    }
    if (this.#appendTime !== undefined) return this.#appendTime;
    // A delta of 7 bytes or fewer is below 2^48 in size, and the first timestamp below 2^52: the sum
    // stays exact in a number.
    if (typeof delta === "number" && this.#firstTimestamp !== undefined)
      return String(this.#firstTimestamp + delta);
    return (this.#firstTimestampBig + BigInt(delta)).toString();
  }

  #bigVarlong(): bigint {
    const buffer = this.#buffer;
    let value = 0n;
    let shift = 0n;
    let byte: number;
    do {
      if (shift > 63n) throw new RangeError("a varlong longer than 10 bytes");
      byte = buffer[this.#pos++]!;
      if (byte === undefined) throw new RangeError("a timestamp delta runs past the record");
      value |= BigInt(byte & 0x7f) << shift;
      shift += 7n;
    } while (byte >= 0x80);
    value = BigInt.asUintN(64, value);
    return BigInt.asIntN(64, (value >> 1n) ^ -(value & 1n));
  }

  /** A zigzag varint, as kafkajs reads it. */
  #varint(): number {
    const buffer = this.#buffer;
    let result = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = buffer[this.#pos++]!;
      if (byte === undefined) throw new RangeError("a varint runs past the data");
      result += (byte & 0x7f) << shift;
      shift += 7;
    } while (byte >= 0x80 && shift < 35);
    if (byte >= 0x80) throw new RangeError("a varint longer than 5 bytes");
    return (result >>> 1) ^ -(result & 1);
  }

  #bytes(end: number): Buffer | null {
    const length = this.#varint();
    if (length === -1) return null;
    if (length < 0 || this.#pos + length > end) throw new RangeError("a field runs past its record");
    const bytes = this.#buffer.subarray(this.#pos, this.#pos + length);
    this.#pos += length;
    return bytes;
  }

  #string(end: number): string {
    const length = this.#varint();
    // kafkajs reads a header without a name (length -1) as the name "null".
    if (length === -1) return "null";
    if (length < 0 || this.#pos + length > end) throw new RangeError("a header name runs past its record");
    const text = this.#names.name(this.#buffer, this.#pos, length);
    this.#pos += length;
    return text;
  }
}
