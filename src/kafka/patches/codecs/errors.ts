import { SchemawatchError } from "../../../errors.js";

/** The compression codecs of Kafka's record batches, by the names the Java client's `compression.type` uses. */
export type CodecName = "gzip" | "snappy" | "lz4" | "zstd";

/**
 * A compressed record batch that cannot be decompressed: corrupt or truncated bytes, an unsupported
 * variant of the format, or more output than the configured cap. The message names the codec and the
 * problem and never quotes the batch's bytes, which are somebody's payload.
 */
export class CodecError extends SchemawatchError {
  readonly codec: CodecName;

  constructor(codec: CodecName, problem: string, options?: { cause?: unknown }) {
    super("BATCH_UNDECODABLE", `${codec} batch cannot be decompressed: ${problem}`, options);
    this.name = "CodecError";
    this.codec = codec;
  }
}

export function isCodecError(error: unknown): error is CodecError {
  return error instanceof CodecError;
}

/** The error for a batch whose output would pass the cap (a decompression bomb, or a cap set too low). */
export function tooLarge(codec: CodecName, maxBytes: number): CodecError {
  return new CodecError(codec, `it expands to more than ${maxBytes} bytes (the batch size cap)`);
}

/** Throws when the output would pass the cap; called before any output is allocated or grown. */
export function checkOutputSize(codec: CodecName, bytes: number, maxBytes: number): void {
  if (bytes > maxBytes) throw tooLarge(codec, maxBytes);
}
