import { promisify } from "node:util";
import { gzip, unzip, zstdCompress, zstdDecompress } from "node:zlib";

import { messageOf } from "../../errors.js";
import { CodecError, tooLarge, type CodecName } from "./errors.js";

// Node's own zlib and zstd (libzstd, built into Node 24): no dependency, and the async forms run on
// libuv's thread pool, beside the thread that parses and validates the records.
const unzipAsync = promisify(unzip);
const zstdDecompressAsync = promisify(zstdDecompress);
const gzipAsync = promisify(gzip);
const zstdCompressAsync = promisify(zstdCompress);

async function inflate(
  codec: CodecName,
  run: (input: Uint8Array, options: { maxOutputLength: number }) => Promise<Buffer>,
  input: Uint8Array,
  maxBytes: number,
): Promise<Buffer> {
  try {
    return await run(input, { maxOutputLength: maxBytes });
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(codec, maxBytes);
    // zlib's and libzstd's messages describe the stream ("incorrect header check", "unexpected end of
    // file"), never its bytes.
    throw new CodecError(codec, messageOf(error), { cause: error });
  }
}

/** Decompresses a Kafka gzip batch (gzip or zlib framing, as kafkajs's own codec accepted). */
export function decompressGzip(input: Uint8Array, maxBytes: number): Promise<Buffer> {
  return inflate("gzip", unzipAsync, input, maxBytes);
}

/** Decompresses a Kafka zstd batch (one or more zstd frames). */
export function decompressZstd(input: Uint8Array, maxBytes: number): Promise<Buffer> {
  return inflate("zstd", zstdDecompressAsync, input, maxBytes);
}

export function compressGzip(input: Uint8Array): Promise<Buffer> {
  return gzipAsync(input);
}

export function compressZstd(input: Uint8Array): Promise<Buffer> {
  return zstdCompressAsync(input);
}
