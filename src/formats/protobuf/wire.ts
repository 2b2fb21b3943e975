/**
 * The Protobuf wire format read by hand: varints, tags and the skip of one field, and the Confluent
 * framing in front of a message (the message-index array) or Apicurio's (a delimited `Ref`). Every
 * read is bounded by an `end` and says "malformed" with -1 rather than throwing, so a crafted record
 * costs a return, never an exception.
 */

export const VARINT = 0;
export const I64 = 1;
export const LEN = 2;
export const SGROUP = 3;
export const EGROUP = 4;
export const I32 = 5;

/** A read position that the readers advance; one per reader, reused from record to record. */
export class Cursor {
  pos = 0;
  /** The last varint read, when it fits a double exactly (below 2^53); otherwise see `big`. */
  value = 0;
  /** The last varint's low and high 32 bits, unsigned. */
  lo = 0;
  hi = 0;
}

/**
 * Reads a varint at `c.pos` (at most 10 bytes, before `end`) into `c.value`, `c.lo` and `c.hi`,
 * and moves past it. Returns false when the bytes end first or the varint runs past 10 bytes.
 */
export function readVarint(bytes: Uint8Array, c: Cursor, end: number): boolean {
  let pos = c.pos;
  let lo = 0;
  let hi = 0;
  for (let shift = 0; shift < 70; shift += 7) {
    if (pos >= end) return false;
    const byte = bytes[pos++]!;
    const bits = byte & 0x7f;
    if (shift < 28) lo |= bits << shift;
    else if (shift === 28) {
      lo |= (bits & 0x0f) << 28;
      hi |= bits >>> 4;
    } else hi |= bits << (shift - 32);
    if (byte < 0x80) {
      c.pos = pos;
      c.lo = lo >>> 0;
      c.hi = hi >>> 0;
      c.value = c.hi * 4294967296 + c.lo;
      return true;
    }
  }
  return false;
}

/** The last varint as an unsigned 64-bit integer. */
export const uint64Of = (c: Cursor): bigint => (BigInt(c.hi) << 32n) | BigInt(c.lo);
/** The last varint as a two's-complement 64-bit integer (int64, and int32's sign extension). */
export const int64Of = (c: Cursor): bigint => BigInt.asIntN(64, uint64Of(c));
/** The last varint read as zigzag (sint64). */
export const zigzag64Of = (c: Cursor): bigint => {
  const u = uint64Of(c);
  return (u >> 1n) ^ -(u & 1n);
};
/** A zigzag varint that fits 32 bits (Confluent's message indexes, sint32). */
export const zigzag32 = (n: number): number => (n >>> 1) ^ -(n & 1);

/**
 * Moves `c.pos` past one value of field `number` of `wireType` (its tag already read), before `end`;
 * a group is skipped to its end tag, which must carry the group's number (Protobuf's readers refuse
 * another), at most `depth` groups deep. Returns false on malformed bytes, a tag of field 0 among them.
 */
export function skipValue(
  bytes: Uint8Array,
  c: Cursor,
  end: number,
  wireType: number,
  depth: number,
  number: number,
): boolean {
  switch (wireType) {
    case VARINT:
      return readVarint(bytes, c, end);
    case I64:
      c.pos += 8;
      return c.pos <= end;
    case I32:
      c.pos += 4;
      return c.pos <= end;
    case LEN:
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return false;
      c.pos += c.value;
      return true;
    case SGROUP: {
      if (depth <= 0) return false;
      for (;;) {
        if (!readVarint(bytes, c, end) || c.hi !== 0) return false;
        const type = c.lo & 7;
        const inner = c.lo >>> 3;
        if (inner === 0) return false;
        if (type === EGROUP) return inner === number;
        if (!skipValue(bytes, c, end, type, depth - 1, inner)) return false;
      }
    }
    default:
      return false;
  }
}

/** The Confluent framing read in front of a message body. */
export interface Framing {
  /** The message-index path into the file (`[0]`: its first message). */
  indexes: number[];
  /** The message name an Apicurio `Ref` gave, or null. */
  refName: string | null;
  /** Where the message itself begins. */
  start: number;
}

/** A bound on the message-index array: a path deeper than this is malformed, not a real file. */
export const MAX_INDEXES = 32;

/**
 * Reads Confluent's message-index array at `start` (a zigzag varint count, then that many zigzag
 * varint indexes; a count of 0 is the `[0]` shortcut, one 0 byte). Returns the indexes and where
 * the message begins, or null when the array is malformed (a negative count or index, one past
 * `MAX_INDEXES`, or bytes that end first).
 */
export function readMessageIndexes(
  bytes: Uint8Array,
  start: number,
): { indexes: number[]; start: number } | null {
  const c = new Cursor();
  c.pos = start;
  const end = bytes.length;
  if (!readVarint(bytes, c, end) || c.hi !== 0) return null;
  const count = zigzag32(c.lo);
  if (count === 0) return { indexes: [0], start: c.pos };
  if (count < 0 || count > MAX_INDEXES) return null;
  const indexes: number[] = [];
  for (let i = 0; i < count; i++) {
    if (!readVarint(bytes, c, end) || c.hi !== 0) return null;
    const index = zigzag32(c.lo);
    if (index < 0) return null;
    indexes.push(index);
  }
  return { indexes, start: c.pos };
}

/** Protobuf-encodes Confluent's message-index array, as its serializer writes it (`[0]` as one 0 byte). */
export function encodeMessageIndexes(indexes: readonly number[]): Uint8Array {
  if (indexes.length === 1 && indexes[0] === 0) return Uint8Array.of(0);
  const out: number[] = [];
  for (const n of [indexes.length, ...indexes]) writeVarint(out, ((n << 1) ^ (n >> 31)) >>> 0);
  return Uint8Array.from(out);
}

/** Appends a varint of an unsigned 32-bit `n` to `out`. */
export function writeVarint(out: number[], n: number): void {
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Apicurio's `Ref` at `start`: a varint length, then a message whose field 1 is the type's name. It
 * is taken for a `Ref` only when it holds exactly that field and the name is one of `names` (the
 * file's messages): otherwise the bytes are the message itself, and null says so.
 */
export function readApicurioRef(
  bytes: Uint8Array,
  start: number,
  names: ReadonlySet<string>,
): { name: string; start: number } | null {
  const c = new Cursor();
  c.pos = start;
  if (!readVarint(bytes, c, bytes.length) || c.value < 2 || c.value > bytes.length - c.pos) return null;
  const end = c.pos + c.value;
  if (bytes[c.pos] !== 0x0a) return null;
  c.pos++;
  if (!readVarint(bytes, c, end) || c.pos + c.value !== end) return null;
  let name: string;
  try {
    name = utf8.decode(bytes.subarray(c.pos, end));
  } catch {
    return null;
  }
  return names.has(name) ? { name, start: end } : null;
}
