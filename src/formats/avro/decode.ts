import { Kind, type AvroSchema, type Node } from "./schema.js";

/**
 * A sampled Avro body decoded once with its writer's schema. `view` is the record as JSON values
 * (records and maps as objects, unions unwrapped to their branch's value, enums as their symbol,
 * bytes and fixed as strings of code points 0–255 as Avro's JSON encoding writes them, longs as
 * numbers: past ±2^53 they lose their low digits). `trace` is what resolution needs of the values,
 * in the order decoding met them: per union its branch index and the trace's end after its value,
 * per enum its symbol index, per array or map its item count and the trace's end after its items.
 */
export interface AvroValue {
  readonly writer: AvroSchema;
  readonly view: unknown;
  readonly trace: Int32Array;
}

/** Records, arrays and maps nested deeper than this are `too_deep`, as JSON documents are. */
export const MAX_AVRO_DEPTH = 256;

/**
 * Items that take no bytes (null, an empty record) cost no input: a block count of 2^62 of them would
 * run until memory ran out. A body may hold at most this many items beyond one per byte.
 */
const SPARE_ITEMS = 1024;

const BAD = { reason: "avro_decode" as const };
const DEEP = { reason: "too_deep" as const };
const utf8 = new TextDecoder("utf-8");

const EMPTY = new Uint8Array(0);
let buf: Uint8Array = EMPTY;
/** Made for floats and doubles only, once per body. */
let data: DataView | undefined;
let pos = 0;
let end = 0;
let depth = 0;
let items = 0;
let trace = new Int32Array(256);
let traced = 0;

/** Decodes `body[start..]` as one value of `writer`; the reason when it is not exactly one. Never throws. */
export function decodeAvro(
  writer: AvroSchema,
  body: Uint8Array,
  start: number,
): AvroValue | "avro_decode" | "too_deep" {
  buf = body;
  data = undefined;
  pos = start;
  end = body.length;
  depth = 0;
  items = SPARE_ITEMS + (end - start);
  traced = 0;
  try {
    const view = read(writer.root);
    // Confluent's serializer writes exactly one value: bytes after it are not this writer's record.
    if (pos !== end) return "avro_decode";
    return { writer, view, trace: trace.slice(0, traced) };
  } catch (error) {
    if (error === BAD) return BAD.reason;
    if (error === DEEP) return DEEP.reason;
    // A stack that ran out in a schema that recurses more per level than the depth allows for.
    if (error instanceof RangeError) return "too_deep";
    throw error;
  } finally {
    // The body is not held past its decode.
    buf = EMPTY;
    data = undefined;
  }
}

function push(value: number): number {
  if (traced === trace.length) {
    const larger = new Int32Array(trace.length * 2);
    larger.set(trace);
    trace = larger;
  }
  trace[traced] = value;
  return traced++;
}

function byte(): number {
  if (pos >= end) throw BAD;
  return buf[pos++]!;
}

/** A zigzag varint of at most `bytes` bytes (5 for an int, 10 for a long). */
function varint(bytes: number): number {
  let b = byte();
  const negative = (b & 1) === 1;
  let n = b & 0x7f;
  let scale = 128;
  for (let i = 1; b & 0x80; i++) {
    if (i === bytes) throw BAD;
    b = byte();
    n += (b & 0x7f) * scale;
    scale *= 128;
  }
  const half = Math.floor(n / 2);
  return negative ? -half - 1 : half;
}

function length(): number {
  const n = varint(10);
  if (n < 0 || n > end - pos) throw BAD;
  return n;
}

function latin1(n: number): string {
  const text = Buffer.from(buf.buffer, buf.byteOffset + pos, n).toString("latin1");
  pos += n;
  return text;
}

function text(): string {
  const n = length();
  const value = utf8.decode(buf.subarray(pos, pos + n));
  pos += n;
  return value;
}

/** Sets a key the way JSON.parse does, as an own property even when it is `__proto__`. */
function put(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else object[key] = value;
}

/** The item count of the next block (0 ends the list); a negative count is followed by its byte size. */
function blockCount(): number {
  let n = varint(10);
  if (n < 0) {
    n = -n;
    varint(10);
  }
  items -= n;
  if (items < 0) throw BAD;
  return n;
}

function read(node: Node): unknown {
  switch (node.kind) {
    case Kind.Null:
      return null;
    case Kind.Boolean: {
      const b = byte();
      if (b > 1) throw BAD;
      return b === 1;
    }
    case Kind.Int:
      return varint(5);
    case Kind.Long:
      return varint(10);
    case Kind.Float: {
      if (end - pos < 4) throw BAD;
      data ??= new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      const value = data.getFloat32(pos, true);
      pos += 4;
      return value;
    }
    case Kind.Double: {
      if (end - pos < 8) throw BAD;
      data ??= new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
      const value = data.getFloat64(pos, true);
      pos += 8;
      return value;
    }
    case Kind.Bytes:
      return latin1(length());
    case Kind.String:
      return text();
    case Kind.Fixed:
      if (end - pos < node.size) throw BAD;
      return latin1(node.size);
    case Kind.Enum: {
      const index = varint(5);
      if (index < 0 || index >= node.symbols.length) throw BAD;
      push(index);
      return node.symbols[index];
    }
    case Kind.Union: {
      const index = varint(10);
      if (index < 0 || index >= node.branches.length) throw BAD;
      push(index);
      const at = push(0);
      const value = read(node.branches[index]!);
      trace[at] = traced;
      return value;
    }
    case Kind.Record: {
      if (++depth > MAX_AVRO_DEPTH) throw DEEP;
      const object: Record<string, unknown> = {};
      for (const field of node.fields) put(object, field.name, read(field.node));
      depth--;
      return object;
    }
    case Kind.Array:
    case Kind.Map: {
      if (++depth > MAX_AVRO_DEPTH) throw DEEP;
      const count = push(0);
      const at = push(0);
      const isMap = node.kind === Kind.Map;
      const list: unknown[] = [];
      const object: Record<string, unknown> = {};
      let total = 0;
      for (let n = blockCount(); n > 0; n = blockCount()) {
        total += n;
        for (let i = 0; i < n; i++) {
          if (isMap) {
            const key = text();
            put(object, key, read(node.items!));
          } else list.push(read(node.items!));
        }
      }
      trace[count] = total;
      trace[at] = traced;
      depth--;
      return isMap ? object : list;
    }
  }
}
