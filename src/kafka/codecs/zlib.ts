import { promisify } from "node:util";
import { gzip, unzipSync, zstdCompress, zstdDecompressSync } from "node:zlib";

import { messageOf } from "../../errors.js";
import { CodecError, tooLarge, type CodecName } from "./errors.js";

// Node's own zlib and zstd (libzstd, built into Node 24): no dependency. The synchronous forms: the
// asynchronous ones hop to libuv's thread pool once per 16 KB chunk, which made them 3 to 7 times
// slower on Kafka-sized batches (bench/codecs.js), more than the parallelism gives back.
const gzipAsync = promisify(gzip);
const zstdCompressAsync = promisify(zstdCompress);

function inflate(
  codec: CodecName,
  run: (input: Uint8Array, options: { maxOutputLength: number }) => Buffer,
  input: Uint8Array,
  maxBytes: number,
): Buffer {
  try {
    return run(input, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(codec, maxBytes);
    // zlib's and libzstd's messages describe the stream ("incorrect header check", "unexpected end of
    // file"), never its bytes.
    throw new CodecError(codec, messageOf(error), { cause: error });
  }
}

/** Decompresses a Kafka gzip batch (gzip or zlib framing, as kafkajs's own codec accepted). */
export function decompressGzip(input: Uint8Array, maxBytes: number): Buffer {
  return inflate("gzip", unzipSync, input, maxBytes);
}

/** Decompresses a Kafka zstd batch (one or more zstd frames). */
export function decompressZstd(input: Uint8Array, maxBytes: number): Buffer {
  return inflate("zstd", zstdDecompressSync, input, maxBytes);
}

export function compressGzip(input: Uint8Array): Promise<Buffer> {
  return gzipAsync(input);
}

export function compressZstd(input: Uint8Array): Promise<Buffer> {
  return zstdCompressAsync(input);
}
