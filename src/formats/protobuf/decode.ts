import { Buffer } from "node:buffer";
import { LONG, type FieldInfo, type Msg } from "./model.js";
import { messageAt, messageNamed, type ProtoSchema } from "./parse.js";
import {
  Cursor,
  EGROUP,
  I32,
  I64,
  LEN,
  SGROUP,
  VARINT,
  int64Of,
  readApicurioRef,
  readMessageIndexes,
  readVarint,
  skipValue,
  uint64Of,
  zigzag32,
  zigzag64Of,
} from "./wire.js";

/** Why a sampled body is not read: it does not decode with its writer's schema, or nests too deep. */
export type ProtoDecodeFailure = "protobuf_decode" | "too_deep";

/** Messages nested deeper than this are refused (`too_deep`): Protobuf's own parsers stop at 100. */
export const MAX_DEPTH = 100;

const OK = 0;
const MALFORMED = 1;
const TOO_DEEP = 2;

/** A sampled record's message, read with its writer's schema: where its bytes lie, and a JSON view. */
export class ProtoDecoded {
  #document: unknown = undefined;
  #built = false;

  constructor(
    /** The writer version's schema. */
    readonly writer: ProtoSchema,
    /** The message type the framing named. */
    readonly message: Msg,
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
  ) {}

  /**
   * The message as JSON, made on first use: the writer's field names, 64-bit integers as decimal
   * strings, bytes as base64, enums by name (a number the writer's enum lacks as the number), maps
   * as objects; fields the writer does not know, and fields proto3 did not write, are left out.
   */
  document(): unknown {
    if (!this.#built) {
      this.#document = viewOf(this.bytes, this.start, this.end, this.message);
      this.#built = true;
    }
    return this.#document;
  }
}

/**
 * Reads a sampled body: the framing at `start` (Apicurio's `Ref` naming a message of the file, with
 * the message indexes if they follow it; else Confluent's message indexes, then a `Ref` if one
 * follows them), then the whole message, which must be well formed with its writer's schema. A
 * malformed body, a framing that names no message of the file, or a message nested past `MAX_DEPTH`
 * is a failure to count, never an exception.
 */
export function decodeProto(
  schema: ProtoSchema,
  body: Uint8Array,
  start: number,
): ProtoDecoded | ProtoDecodeFailure {
  let message: Msg | undefined;
  let from = start;
  const ref = readApicurioRef(body, from, schema.names);
  if (ref !== null) {
    message = messageNamed(schema, ref.name);
    from = ref.start;
    // Apicurio 3's serializer, set to send message indexes, writes them after its `Ref`. A first
    // byte below 8 is a tag of field 0, which starts no message: those are indexes.
    if (from < body.length && body[from]! < 8) {
      const framing = readMessageIndexes(body, from);
      if (framing === null) return "protobuf_decode";
      from = framing.start;
    }
  } else {
    const framing = readMessageIndexes(body, from);
    if (framing === null) return "protobuf_decode";
    from = framing.start;
    const after = readApicurioRef(body, from, schema.names);
    if (after !== null) {
      message = messageNamed(schema, after.name);
      from = after.start;
    } else message = messageAt(schema, framing.indexes);
  }
  if (message === undefined) return "protobuf_decode";
  const c = new Cursor();
  c.pos = from;
  const verdict = wellFormed(body, c, body.length, message, 0, 0);
  if (verdict === TOO_DEEP) return "too_deep";
  if (verdict !== OK) return "protobuf_decode";
  return new ProtoDecoded(schema, message, body, from, body.length);
}

/**
 * Whether the bytes from `c.pos` to `end` are a message of `msg`: every tag valid, every length
 * within its parent, each field the schema says holds a message well formed in turn, each packed run
 * whole values. `group`: the number of the group field the message is, ended by an end tag of that
 * number (0: no group).
 */
function wellFormed(
  bytes: Uint8Array,
  c: Cursor,
  end: number,
  msg: Msg,
  depth: number,
  group: number,
): number {
  while (c.pos < end) {
    if (!readVarint(bytes, c, end) || c.hi !== 0) return MALFORMED;
    const wire = c.lo & 7;
    const number = c.lo >>> 3;
    if (number === 0) return MALFORMED;
    if (wire === EGROUP) return number === group ? OK : MALFORMED;
    const field = msg.fields.get(number);
    if (field?.message !== undefined && (wire === LEN || wire === SGROUP)) {
      if (depth + 1 > MAX_DEPTH) return TOO_DEEP;
      if (wire === SGROUP) {
        const inner = wellFormed(bytes, c, end, field.message, depth + 1, number);
        if (inner !== OK) return inner;
        continue;
      }
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return MALFORMED;
      const innerEnd = c.pos + c.value;
      const inner = wellFormed(bytes, c, innerEnd, field.message, depth + 1, 0);
      if (inner !== OK) return inner;
      c.pos = innerEnd;
    } else if (field?.packable === true && wire === LEN) {
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return MALFORMED;
      const runEnd = c.pos + c.value;
      while (c.pos < runEnd) if (!skipValue(bytes, c, runEnd, field.wire, 0, number)) return MALFORMED;
    } else if (!skipValue(bytes, c, end, wire, MAX_DEPTH - depth, number)) return MALFORMED;
  }
  return group === 0 ? OK : MALFORMED;
}

const text = new TextDecoder("utf-8");

/** The JSON view of a well-formed message (`wellFormed` said so): see `ProtoDecoded.document`. */
function viewOf(bytes: Uint8Array, start: number, end: number, msg: Msg): Record<string, unknown> {
  const c = new Cursor();
  c.pos = start;
  return viewInto(bytes, c, end, msg, false);
}

function viewInto(
  bytes: Uint8Array,
  c: Cursor,
  end: number,
  msg: Msg,
  group: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  while (c.pos < end) {
    readVarint(bytes, c, end);
    const wire = c.lo & 7;
    const number = c.lo >>> 3;
    if (wire === EGROUP && group) break;
    const field = msg.fields.get(number);
    if (field === undefined || (wire !== field.wire && !(field.packable && wire === LEN))) {
      skipValue(bytes, c, end, wire, MAX_DEPTH, number);
      continue;
    }
    if (field.packable && wire === LEN) {
      readVarint(bytes, c, end);
      const runEnd = c.pos + c.value;
      const list = listOf(out, field.name);
      while (c.pos < runEnd) list.push(scalarAt(bytes, c, runEnd, field));
      continue;
    }
    const value =
      field.message !== undefined ? messageValue(bytes, c, end, field, wire) : scalarAt(bytes, c, end, field);
    if (field.map) {
      const entry = value as Record<string, unknown>;
      const map = (out[field.name] ??= {}) as Record<string, unknown>;
      map[String(entry["key"] ?? defaultKey(field))] = entry["value"] ?? null;
    } else if (field.repeated) listOf(out, field.name).push(value);
    else if (field.message !== undefined && typeof out[field.name] === "object")
      Object.assign(out[field.name] as object, value); // a message written twice is merged
    else out[field.name] = value;
  }
  return out;
}

function messageValue(
  bytes: Uint8Array,
  c: Cursor,
  end: number,
  field: FieldInfo,
  wire: number,
): Record<string, unknown> {
  if (wire === SGROUP) return viewInto(bytes, c, end, field.message!, true);
  readVarint(bytes, c, end);
  const innerEnd = c.pos + c.value;
  const value = viewInto(bytes, c, innerEnd, field.message!, false);
  c.pos = innerEnd;
  return value;
}

function listOf(out: Record<string, unknown>, name: string): unknown[] {
  const list = out[name];
  if (Array.isArray(list)) return list;
  const made: unknown[] = [];
  out[name] = made;
  return made;
}

/** A map entry without its key reads the key type's default. */
const defaultKey = (field: FieldInfo): string => (field.message!.fields.get(1)!.kind === "string" ? "" : "0");

/** One scalar (or enum) value of `field` at `c.pos`, as the JSON view writes it. */
export function scalarAt(bytes: Uint8Array, c: Cursor, end: number, field: FieldInfo): unknown {
  switch (field.wire) {
    case VARINT:
      readVarint(bytes, c, end);
      return varintValue(c, field);
    case I64: {
      const view = new DataView(bytes.buffer, bytes.byteOffset + c.pos, 8);
      c.pos += 8;
      if (field.kind === "double") return jsonNumber(view.getFloat64(0, true));
      return (field.kind === "sfixed64" ? view.getBigInt64(0, true) : view.getBigUint64(0, true)).toString();
    }
    case I32: {
      const view = new DataView(bytes.buffer, bytes.byteOffset + c.pos, 4);
      c.pos += 4;
      if (field.kind === "float") return jsonNumber(view.getFloat32(0, true));
      return field.kind === "sfixed32" ? view.getInt32(0, true) : view.getUint32(0, true);
    }
    default: {
      readVarint(bytes, c, end);
      const value = bytes.subarray(c.pos, c.pos + c.value);
      c.pos += c.value;
      return field.kind === "string" ? text.decode(value) : Buffer.from(value).toString("base64");
    }
  }
}

function varintValue(c: Cursor, field: FieldInfo): unknown {
  switch (field.kind) {
    case "bool":
      return c.lo !== 0 || c.hi !== 0;
    case "uint32":
      return c.lo;
    case "sint32":
      return zigzag32(c.lo);
    case "enum":
      return field.enumValues!.get(c.lo | 0) ?? c.lo | 0;
    default:
      if (!LONG.has(field.kind)) return c.lo | 0;
      return (
        field.kind === "uint64" ? uint64Of(c) : field.kind === "sint64" ? zigzag64Of(c) : int64Of(c)
      ).toString();
  }
}

/** A float as Protobuf's JSON mapping writes it: NaN and the infinities as strings. */
const jsonNumber = (n: number): number | string => (Number.isFinite(n) ? n : String(n));
