import { bytesOf, type Bytes } from "./copy.js";
import { CodecError, checkOutputSize, tooLarge } from "./errors.js";
import { decodeLz4Block } from "./lz4-block.js";
import { xxhash32 } from "./xxhash32.js";

// The LZ4 frame format (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md), which Kafka's
// KafkaLZ4BlockOutputStream writes for record batches of magic 1 and 2.
const FRAME_MAGIC = 0x184d2204;
const LEGACY_MAGIC = 0x184c2102;
const SKIPPABLE_MAGIC = 0x184d2a50;
const SKIPPABLE_MASK = 0xfffffff0;

const VERSION_MASK = 0xc0;
const VERSION_01 = 0x40;
const BLOCK_INDEPENDENCE = 0x20;
const BLOCK_CHECKSUM = 0x10;
const CONTENT_SIZE = 0x08;
const CONTENT_CHECKSUM = 0x04;
const FLG_RESERVED = 0x02;
const DICT_ID = 0x01;
const BD_RESERVED = 0x8f;
const UNCOMPRESSED_BLOCK = 0x80000000;
// One input byte of an LZ4 block never stands for more than 255 output bytes: this bounds a block's
// output by its input, so a frame declaring 4 MB blocks does not get 4 MB for every small block.
const MAX_EXPANSION = 255;

const fail = (problem: string): CodecError => new CodecError("lz4", problem);
const truncated = (what: string): CodecError => fail(`the input ends inside ${what} (truncated?)`);

const readU32 = (data: Uint8Array, at: number): number =>
  (data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16) | (data[at + 3]! << 24)) >>> 0;

/** The decompressed bytes: reserved once per frame, grown by doubling for a further frame, never past the cap. */
class Output {
  buffer: Buffer;
  bytes: Bytes;
  length = 0;
  readonly #max: number;

  constructor(max: number) {
    this.buffer = Buffer.alloc(0);
    this.bytes = bytesOf(this.buffer);
    this.#max = max;
  }

  /** Makes room for up to `bytes` more (but never past the cap) and returns the new limit. */
  reserve(bytes: number): number {
    const wanted = Math.min(this.length + bytes, this.#max);
    if (wanted > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.min(this.#max, Math.max(wanted, this.buffer.length * 2)));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
      this.bytes = bytesOf(grown);
    }
    return wanted;
  }
}

/**
 * Decompresses a Kafka lz4 batch: one or more LZ4 frames (skippable frames are skipped), with
 * independent or linked blocks, uncompressed blocks, and the optional block checksums, content size
 * and content checksum, all verified. Throws a CodecError for corrupt or truncated input, for an
 * unsupported variant (a dictionary, the legacy format) and before the output passes maxBytes.
 */
export function decompressLz4(input: Uint8Array, maxBytes: number): Buffer {
  if (input.length === 0) throw fail("the input is empty");
  const out = new Output(maxBytes);
  const src = bytesOf(input);
  let at = 0;
  while (at < input.length) {
    if (input.length - at < 4) throw truncated("a frame's magic number");
    const magic = readU32(input, at);
    if ((magic & SKIPPABLE_MASK) === SKIPPABLE_MAGIC) {
      if (input.length - at < 8) throw truncated("a skippable frame");
      at += 8 + readU32(input, at + 4);
      if (at > input.length) throw truncated("a skippable frame");
      continue;
    }
    if (magic === LEGACY_MAGIC) throw fail("the legacy LZ4 format is not supported");
    if (magic !== FRAME_MAGIC) {
      throw fail(at === 0 ? "not an LZ4 frame (wrong magic number)" : "unexpected bytes after the LZ4 frame");
    }
    at = decodeFrame(src, at + 4, out, maxBytes);
  }
  return out.buffer.subarray(0, out.length);
}

/**
 * The most a frame's blocks (from `at`) can decompress to, read from their headers alone, so that the
 * output is allocated once: for Kafka's 64 KB blocks it is within one block of the real size. The
 * scan stops at the first header the decoding loop will reject, so a corrupt size allocates nothing.
 */
function frameBound(input: Uint8Array, at: number, blockMax: number, blockChecksums: boolean): number {
  let bound = 0;
  while (input.length - at >= 4) {
    const header = readU32(input, at);
    const size = (header & ~UNCOMPRESSED_BLOCK) >>> 0;
    const end = at + 4 + size + (blockChecksums ? 4 : 0);
    if (header === 0 || size > blockMax || end > input.length) break;
    bound += (header & UNCOMPRESSED_BLOCK) !== 0 ? size : Math.min(blockMax, size * MAX_EXPANSION);
    at = end;
  }
  return bound;
}

/** Decodes the frame whose descriptor starts at `at`; returns where the next frame starts. */
function decodeFrame(src: Bytes, at: number, out: Output, maxBytes: number): number {
  const input = src.bytes;
  const descriptor = at;
  if (input.length - at < 3) throw truncated("the frame descriptor");
  const flags = input[at]!;
  const bd = input[at + 1]!;
  if ((flags & VERSION_MASK) !== VERSION_01) throw fail("unsupported frame version");
  if ((flags & FLG_RESERVED) !== 0 || (bd & BD_RESERVED) !== 0) throw fail("reserved bits are set (corrupt)");
  const sizeId = (bd >>> 4) & 7;
  if (sizeId < 4) throw fail(`invalid block maximum size id ${sizeId} (corrupt)`);
  const blockMax = 1 << (2 * sizeId + 8);
  at += 2;

  let contentSize = -1;
  if ((flags & CONTENT_SIZE) !== 0) {
    if (input.length - at < 8) throw truncated("the frame descriptor");
    contentSize = readU32(input, at + 4) * 2 ** 32 + readU32(input, at);
    checkOutputSize("lz4", out.length + contentSize, maxBytes);
    at += 8;
  }
  if ((flags & DICT_ID) !== 0) throw fail("frames that need a dictionary are not supported");
  if (input.length - at < 1) throw truncated("the frame descriptor");
  // Kafka before magic 1 hashed the magic number too (KAFKA-3160); accept that spelling as well.
  const checksum = input[at]!;
  if (
    checksum !== ((xxhash32(input, descriptor, at) >>> 8) & 0xff) &&
    checksum !== ((xxhash32(input, descriptor - 4, at) >>> 8) & 0xff)
  ) {
    throw fail("the frame descriptor's checksum does not match (corrupt)");
  }
  at += 1;

  const independent = (flags & BLOCK_INDEPENDENCE) !== 0;
  const blockChecksums = (flags & BLOCK_CHECKSUM) !== 0;
  // The frame's output is reserved once: its declared size, or the most its blocks can hold.
  const frameStart = out.length;
  const wanted = contentSize >= 0 ? contentSize : frameBound(input, at, blockMax, blockChecksums);
  const frameEnd = out.reserve(wanted);
  const beyond = (): CodecError =>
    frameEnd < frameStart + wanted
      ? tooLarge("lz4", maxBytes)
      : contentSize >= 0
        ? fail(`the frame holds more than the ${contentSize} bytes it declares (corrupt)`)
        : fail("a block expands past the frame's maximum block size (corrupt)");
  for (;;) {
    if (input.length - at < 4) throw truncated("a block header");
    const header = readU32(input, at);
    at += 4;
    if (header === 0) break;
    const size = (header & ~UNCOMPRESSED_BLOCK) >>> 0;
    if (size > blockMax) throw fail(`a block of ${size} bytes exceeds the frame's ${blockMax} (corrupt)`);
    const end = at + size;
    if (end + (blockChecksums ? 4 : 0) > input.length) throw truncated("a block");
    if (blockChecksums && readU32(input, end) !== xxhash32(input, at, end)) {
      throw fail("a block checksum does not match (corrupt)");
    }
    if ((header & UNCOMPRESSED_BLOCK) !== 0) {
      if (out.length + size > frameEnd) throw beyond();
      out.buffer.set(input.subarray(at, end), out.length);
      out.length += size;
    } else {
      const limit = Math.min(out.length + Math.min(blockMax, size * MAX_EXPANSION), frameEnd);
      const overflow = (): CodecError =>
        limit === frameEnd ? beyond() : fail("a block expands past the frame's maximum block size (corrupt)");
      const windowStart = independent ? out.length : frameStart;
      out.length = decodeLz4Block(src, at, end, out.bytes, out.length, limit, windowStart, overflow);
    }
    at = end + (blockChecksums ? 4 : 0);
  }

  if (contentSize >= 0 && out.length - frameStart !== contentSize) {
    throw fail(
      `the frame holds ${out.length - frameStart} bytes, not the ${contentSize} it declares (corrupt)`,
    );
  }
  if ((flags & CONTENT_CHECKSUM) !== 0) {
    if (input.length - at < 4) throw truncated("the content checksum");
    if (readU32(input, at) !== xxhash32(out.buffer, frameStart, out.length)) {
      throw fail("the content checksum does not match (corrupt)");
    }
    at += 4;
  }
  return at;
}
