import { bytesOf, copyLiteral, copyMatch, type Bytes } from "./copy.js";
import { CodecError, checkOutputSize } from "./errors.js";

// snappy-java's SnappyOutputStream (what the Java client's compression.type=snappy writes): an 8-byte
// magic, two big-endian int32 version numbers, then chunks of [int32 length][raw snappy block].
const XERIAL_MAGIC = [0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00];
const XERIAL_HEADER_BYTES = 16;

const fail = (problem: string): CodecError => new CodecError("snappy", problem);
const truncated = (): CodecError => fail("the input ends in the middle of a block (truncated?)");

/**
 * Decompresses a Kafka snappy batch: the xerial framing the Java client writes, or a raw snappy block
 * (librdkafka and others). Throws a CodecError for corrupt or truncated input and before allocating
 * more than maxBytes of output.
 */
export function decompressSnappy(input: Uint8Array, maxBytes: number): Buffer {
  return startsWithXerialHeader(input, 0) ? decodeXerial(input, maxBytes) : decodeRaw(input, maxBytes);
}

function startsWithXerialHeader(input: Uint8Array, at: number): boolean {
  if (input.length - at < XERIAL_MAGIC.length) return false;
  for (let i = 0; i < XERIAL_MAGIC.length; i++) if (input[at + i] !== XERIAL_MAGIC[i]) return false;
  return true;
}

function decodeRaw(input: Uint8Array, maxBytes: number): Buffer {
  const { length, start } = readPreamble(input, 0, input.length);
  checkOutputSize("snappy", length, maxBytes);
  const out = Buffer.allocUnsafe(length);
  decodeBlock(bytesOf(input), start, input.length, bytesOf(out), 0, length);
  return out;
}

function decodeXerial(input: Uint8Array, maxBytes: number): Buffer {
  if (input.length < XERIAL_HEADER_BYTES) throw fail("the xerial header is truncated");
  // First pass: find every chunk and its declared size, so that the output is allocated once, and
  // only after its total is known to be under the cap.
  const chunks: number[] = [];
  let total = 0;
  let at = XERIAL_HEADER_BYTES;
  while (at < input.length) {
    // Concatenated xerial streams repeat the header; snappy-java reads on across it.
    if (startsWithXerialHeader(input, at)) {
      if (input.length - at < XERIAL_HEADER_BYTES) throw fail("the xerial header is truncated");
      at += XERIAL_HEADER_BYTES;
      continue;
    }
    if (input.length - at < 4) throw fail("a chunk length is truncated");
    const chunkBytes = readInt32BE(input, at);
    const start = at + 4;
    const end = start + chunkBytes;
    if (chunkBytes < 0 || end > input.length) throw truncated();
    if (chunkBytes > 0) {
      const preamble = readPreamble(input, start, end);
      total += preamble.length;
      checkOutputSize("snappy", total, maxBytes);
      chunks.push(preamble.start, end, preamble.length);
    }
    at = end;
  }
  const out = Buffer.allocUnsafe(total);
  const src = bytesOf(input);
  const dst = bytesOf(out);
  let written = 0;
  for (let i = 0; i < chunks.length; i += 3) {
    const length = chunks[i + 2]!;
    decodeBlock(src, chunks[i]!, chunks[i + 1]!, dst, written, written + length);
    written += length;
  }
  return out;
}

/** The uncompressed length a raw snappy block starts with (a little-endian base-128 varint < 2^32). */
function readPreamble(input: Uint8Array, at: number, end: number): { length: number; start: number } {
  let length = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (at >= end) throw fail("the block's length preamble is truncated");
    const byte = input[at++]!;
    length += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) {
      if (length > 0xffffffff) break;
      return { length, start: at };
    }
  }
  throw fail("the block's length preamble is not a valid 32-bit varint");
}

function readInt32BE(input: Uint8Array, at: number): number {
  return (input[at]! << 24) | (input[at + 1]! << 16) | (input[at + 2]! << 8) | input[at + 3]!;
}

/**
 * Decodes one raw snappy block (without its preamble) from src[sp, srcEnd) into exactly
 * out[outStart, outEnd); copies may not reach before outStart.
 */
function decodeBlock(
  source: Bytes,
  sp: number,
  srcEnd: number,
  out: Bytes,
  outStart: number,
  outEnd: number,
): void {
  const src = source.bytes;
  let op = outStart;
  while (sp < srcEnd) {
    const tag = src[sp++]!;
    const kind = tag & 3;
    if (kind === 0) {
      let length = tag >>> 2;
      if (length >= 60) {
        const extra = length - 59;
        if (sp + extra > srcEnd) throw truncated();
        length = src[sp]!;
        if (extra > 1) length |= src[sp + 1]! << 8;
        if (extra > 2) length |= src[sp + 2]! << 16;
        if (extra > 3) length = (length | (src[sp + 3]! << 24)) >>> 0;
        sp += extra;
      }
      length += 1;
      if (sp + length > srcEnd) throw truncated();
      if (op + length > outEnd) throw fail("a literal runs past the block's declared length (corrupt)");
      copyLiteral(source, sp, out, op, length);
      sp += length;
      op += length;
      continue;
    }
    let length: number;
    let offset: number;
    if (kind === 1) {
      if (sp >= srcEnd) throw truncated();
      length = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[sp++]!;
    } else if (kind === 2) {
      if (sp + 2 > srcEnd) throw truncated();
      length = (tag >>> 2) + 1;
      offset = src[sp]! | (src[sp + 1]! << 8);
      sp += 2;
    } else {
      if (sp + 4 > srcEnd) throw truncated();
      length = (tag >>> 2) + 1;
      offset = (src[sp]! | (src[sp + 1]! << 8) | (src[sp + 2]! << 16) | (src[sp + 3]! << 24)) >>> 0;
      sp += 4;
    }
    if (offset === 0 || offset > op - outStart) {
      throw fail("a copy refers to bytes before the start of the block (corrupt)");
    }
    if (op + length > outEnd) throw fail("a copy runs past the block's declared length (corrupt)");
    copyMatch(out, op, offset, length);
    op += length;
  }
  if (op !== outEnd)
    throw fail(`the block ends ${outEnd - op} bytes short of its declared length (truncated?)`);
}
