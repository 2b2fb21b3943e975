import { createRequire } from "node:module";
import { isCodecError } from "./codecs/index.js";
import { PRIVATE_MODULES } from "./kafkajs.js";
import {
  decodeRecordBatch,
  HeaderNames,
  type BatchCodec,
  type BatchDecoderDeps,
  type DecodedBatch,
  type FetchDecoder,
} from "./record-batch.js";

/**
 * A record batch that could not be decoded: an unknown codec, corrupt compressed bytes, or records
 * that do not parse. What is known comes from the batch header, which is outside the compression.
 */
export interface UndecodableBatch {
  /** Offsets of the batch's first and last record, as decimal strings. */
  readonly firstOffset: string;
  readonly lastOffset: string;
  /** Records the batch holds according to its header. */
  readonly records: number;
  /** The codec named by the batch's attributes (`lz4`, or `codec 5` for one Kafka does not define). */
  readonly codec: string;
  /** What went wrong, in words that never quote the batch's bytes. */
  readonly problem: string;
}

/** The property of the marker message that stands for an undecodable batch in kafkajs's batch. */
export const UNDECODABLE = Symbol("schemawatch.undecodableBatch");

const CODEC_NAMES = ["none", "gzip", "snappy", "lz4", "zstd"];
const COMPRESSION_MASK = 0x07;
const KNOWN_CODECS = CODEC_NAMES.length;

interface BatchContext {
  firstOffset: string;
  lastOffsetDelta: number;
  records: unknown[];
  [key: string]: unknown;
}

type RecordBatchDecoder = (decoder: FetchDecoder) => Promise<BatchContext | DecodedBatch>;

// Layout of a v2 record batch header (Kafka's DefaultRecordBatch), in bytes from the batch start.
const BASE_OFFSET = 0;
const ATTRIBUTES = 21;
const LAST_OFFSET_DELTA = 23;
const FIRST_TIMESTAMP = 27;
const RECORDS_COUNT = 57;
const HEADER_SIZE = 61;

const {
  recordBatchDecoder: DECODER_MODULE,
  compression: COMPRESSION_MODULE,
  errors: ERRORS_MODULE,
  fetchDecoder: FETCH_DECODER_MODULE,
} = PRIVATE_MODULES;

const GUARDED = Symbol.for("schemawatch.guardedRecordBatchDecoder");

/**
 * Puts schemawatch's record batch decoder (record-batch.ts: kafkajs's objects, about 4 times faster)
 * in kafkajs's fetch path, with kafkajs's own decoder behind it for any batch it refuses, and makes
 * kafkajs hand a batch that neither can decode to the consumer as one marker message instead of
 * failing the whole fetch. Without it, one bad batch fails every partition fetched from that broker,
 * the consumer crashes and restarts forever, and every topic of the monitor stalls.
 *
 * The marker carries the batch's last offset, so the consumer moves past it and commits as usual; it
 * holds the batch's description under {@link UNDECODABLE}. kafkajs's fetch response decoders capture
 * the batch decoder when they are first loaded (at the first fetch), so this must run before any
 * consumer fetches; it is idempotent, and it throws when it comes too late.
 */
export function installDecodeGuard(): void {
  const require = createRequire(import.meta.url);
  const path = require.resolve(DECODER_MODULE);
  const current: unknown = require(path);
  if (isGuarded(current)) return;
  const cached = require.cache[path];
  if (!cached || typeof current !== "function") {
    throw new Error(`kafkajs layout changed: ${DECODER_MODULE} is not the record batch decoder`);
  }
  if (require.cache[require.resolve(FETCH_DECODER_MODULE)] !== undefined) {
    throw new Error("the decode guard must be installed before kafkajs fetches its first batch");
  }
  const compression = require(COMPRESSION_MODULE) as {
    lookupCodecByAttributes(a: number): BatchCodec | null;
  };
  const errors = require(ERRORS_MODULE) as { KafkaJSPartialMessageError: new (message: string) => Error };
  cached.exports = guarded(current as RecordBatchDecoder, {
    names: new HeaderNames(),
    codecFor: (attributes) => compression.lookupCodecByAttributes(attributes),
    partialError: (message) => new errors.KafkaJSPartialMessageError(message),
  });
}

/** Whether kafkajs's fetch path reads batches through the guard (see installDecodeGuard). */
export function isDecodeGuardInstalled(): boolean {
  const require = createRequire(import.meta.url);
  return isGuarded(require(DECODER_MODULE));
}

function isGuarded(fn: unknown): boolean {
  return typeof fn === "function" && (fn as unknown as Record<symbol, unknown>)[GUARDED] === true;
}

function isPartial(error: unknown): boolean {
  return error instanceof Error && error.name === "KafkaJSPartialMessageError";
}

function guarded(original: RecordBatchDecoder, deps: BatchDecoderDeps): RecordBatchDecoder {
  const decode: RecordBatchDecoder = async (decoder) => {
    const start = decoder.offset;
    const header = headerAt(decoder.buffer, start);
    const codec = header ? header.attributes & COMPRESSION_MASK : 0;
    if (header && codec >= KNOWN_CODECS) {
      // Kafka defines no such codec; kafkajs would read the compressed bytes as records.
      skip(decoder, start, header.length);
      return marker(
        header,
        `codec ${codec}`,
        `the batch names compression codec ${codec}, which Kafka does not define`,
      );
    }
    let first: unknown;
    try {
      return await decodeRecordBatch(decoder, deps);
    } catch (error) {
      // A batch cut short by the fetch size limit is normal; kafkajs stops there and fetches it again.
      if (isPartial(error)) throw error;
      first = error;
    }
    // Whatever the fast decoder refused, kafkajs's own decoder gets to try, from the batch's start.
    decoder.offset = start;
    try {
      return await original(decoder);
    } catch (error) {
      if (!header || isPartial(error)) throw error;
      skip(decoder, start, header.length);
      const reason = isCodecError(first) ? first : error;
      return marker(header, CODEC_NAMES[codec]!, problemOf(reason, CODEC_NAMES[codec]!));
    }
  };
  (decode as unknown as Record<symbol, unknown>)[GUARDED] = true;
  return decode;
}

interface BatchHeader {
  readonly baseOffset: bigint;
  /** Bytes of the batch after its length field. */
  readonly length: number;
  readonly attributes: number;
  readonly lastOffsetDelta: number;
  readonly firstTimestamp: bigint;
  readonly records: number;
}

/** The batch header at `start`, when the whole batch is in the buffer; undefined otherwise. */
function headerAt(buffer: Buffer, start: number): BatchHeader | undefined {
  if (buffer.length - start < HEADER_SIZE) return undefined;
  const length = buffer.readInt32BE(start + 8);
  if (length < HEADER_SIZE - 12 || buffer.length - start - 12 < length) return undefined;
  return {
    baseOffset: buffer.readBigInt64BE(start + BASE_OFFSET),
    length,
    attributes: buffer.readInt16BE(start + ATTRIBUTES),
    lastOffsetDelta: buffer.readInt32BE(start + LAST_OFFSET_DELTA),
    firstTimestamp: buffer.readBigInt64BE(start + FIRST_TIMESTAMP),
    records: buffer.readInt32BE(start + RECORDS_COUNT),
  };
}

function skip(decoder: FetchDecoder, start: number, length: number): void {
  decoder.offset = start + 12 + length;
}

function problemOf(error: unknown, codec: string): string {
  // The codecs' own errors already say which codec failed and why, in those words.
  if (isCodecError(error)) return error.message;
  const name = error instanceof Error ? error.name : typeof error;
  // Messages of decompressors and of kafkajs's decoder name offsets and sizes, not contents; cap them.
  const message = error instanceof Error ? error.message.slice(0, 200) : "";
  return `${codec === "none" ? "records" : `${codec} batch`} could not be decoded: ${name}${message ? `: ${message}` : ""}`;
}

function marker(header: BatchHeader, codec: string, problem: string): BatchContext {
  const firstOffset = header.baseOffset.toString();
  const lastOffset = (header.baseOffset + BigInt(header.lastOffsetDelta)).toString();
  const info: UndecodableBatch = {
    firstOffset,
    lastOffset,
    records: Math.max(header.records, 0),
    codec,
    problem,
  };
  const batchContext = {
    firstOffset,
    firstTimestamp: header.firstTimestamp.toString(),
    lastOffsetDelta: header.lastOffsetDelta,
    // Never filtered as aborted or control: the consumer must see the marker to move past the batch.
    inTransaction: false,
    isControlBatch: false,
    producerId: "-1",
  };
  return {
    ...batchContext,
    records: [
      {
        magicByte: 2,
        attributes: 0,
        timestamp: header.firstTimestamp.toString(),
        offset: lastOffset,
        key: null,
        value: null,
        headers: {},
        isControlRecord: false,
        batchContext,
        [UNDECODABLE]: info,
      },
    ],
  };
}
