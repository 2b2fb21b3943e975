import { SchemawatchError } from "../../../errors.js";
import type { CodecName } from "./errors.js";
import { decompressLz4 } from "./lz4.js";
import { decompressSnappy } from "./snappy.js";
import { compressGzip, compressZstd, decompressGzip, decompressZstd } from "./zlib.js";

export { CodecError, isCodecError, type CodecName } from "./errors.js";

/** The codecs schemawatch reads, by the names of the Java client's `compression.type`. */
export const SUPPORTED_CODECS: readonly CodecName[] = ["gzip", "snappy", "lz4", "zstd"];

/** The default cap on one batch's decompressed size: far above Kafka's defaults, far below the heap. */
export const DEFAULT_MAX_BATCH_BYTES = 64 * 1024 * 1024;

// kafkajs's attribute values (its CompressionTypes), spelled out so that this module does not load
// kafkajs; test/unit/kafka/codecs/index.test.ts checks them against kafkajs.
const ATTRIBUTE: Readonly<Record<CodecName, number>> = { gzip: 1, snappy: 2, lz4: 3, zstd: 4 };

export interface CodecOptions {
  /** Largest decompressed batch accepted; a larger one fails with a CodecError (default 64 MiB). */
  readonly maxBatchBytes?: number;
}

/** The shape kafkajs expects of a codec: `decompress` for fetched batches, `compress` for produced ones. */
export interface KafkaCodec {
  decompress(buffer: Buffer): Promise<Buffer>;
  compress(encoder: { buffer: Buffer }): Promise<Buffer>;
}

/** kafkajs's `CompressionCodecs`: a factory per compression attribute value. */
export type CodecTable = Record<number, () => unknown>;

const cannotWrite = (codec: CodecName) => (): Promise<Buffer> =>
  Promise.reject(
    new SchemawatchError(
      "CODEC_UNSUPPORTED",
      `schemawatch reads ${codec} batches but does not write them: produce with gzip, zstd or none`,
    ),
  );

/** One codec per supported name, each capping its output at `maxBatchBytes`. */
export function kafkaCodecs(options: CodecOptions = {}): Record<CodecName, KafkaCodec> {
  const max = options.maxBatchBytes ?? DEFAULT_MAX_BATCH_BYTES;
  if (!Number.isSafeInteger(max) || max <= 0)
    throw new RangeError(`maxBatchBytes must be a positive integer`);
  // The synchronous decoders throw inside an async function, so kafkajs sees a rejected promise.
  return {
    gzip: { decompress: async (b) => decompressGzip(b, max), compress: (e) => compressGzip(e.buffer) },
    snappy: { decompress: async (b) => decompressSnappy(b, max), compress: cannotWrite("snappy") },
    lz4: { decompress: async (b) => decompressLz4(b, max), compress: cannotWrite("lz4") },
    zstd: { decompress: async (b) => decompressZstd(b, max), compress: (e) => compressZstd(e.buffer) },
  };
}

/**
 * Installs schemawatch's codecs into kafkajs's codec table (pass kafkajs's `CompressionCodecs`), so
 * that every consumer of the process reads gzip, snappy, lz4 and zstd batches. kafkajs keeps one
 * table per process; calling this again replaces the codecs (with the new options).
 */
export function registerCodecs(table: CodecTable, options: CodecOptions = {}): void {
  const codecs = kafkaCodecs(options);
  for (const name of SUPPORTED_CODECS) {
    const codec = codecs[name];
    table[ATTRIBUTE[name]] = () => codec;
  }
}
