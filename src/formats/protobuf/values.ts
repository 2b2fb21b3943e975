import type { FieldInfo } from "./model.js";
import type { Cursor } from "./wire.js";
import { I32, I64, LEN, VARINT, int64Of, readVarint, uint64Of, zigzag32, zigzag64Of } from "./wire.js";

/** What one value's reading comes to, when it is not read as written. */
export interface ValueVerdict {
  readonly outcome: "lossy" | "fails";
  readonly rule: "unknown_enum_value" | "type_reinterpreted" | "value_changed" | "not_utf8";
}

const REINTERPRETED: ValueVerdict = { outcome: "fails", rule: "type_reinterpreted" };
const CHANGED: ValueVerdict = { outcome: "fails", rule: "value_changed" };
const NOT_UTF8: ValueVerdict = { outcome: "fails", rule: "not_utf8" };
const UNKNOWN_ENUM: ValueVerdict = { outcome: "lossy", rule: "unknown_enum_value" };

/**
 * The groups of types Protobuf documents as compatible on the wire ("Updating a message type"):
 * int32, uint32, int64, uint64, bool and enums; sint32 and sint64; fixed32 and sfixed32; fixed64
 * and sfixed64; string and bytes (when the bytes are UTF-8). Within a group a value may still be
 * read differently (truncated to 32 bits, its sign read otherwise): that is `value_changed`. Across
 * groups, a value read differently is `type_reinterpreted`.
 */
const GROUP: Readonly<Record<string, string>> = {
  int32: "int",
  uint32: "int",
  int64: "int",
  uint64: "int",
  bool: "int",
  enum: "int",
  sint32: "zigzag",
  sint64: "zigzag",
  fixed32: "fixed32",
  sfixed32: "fixed32",
  fixed64: "fixed64",
  sfixed64: "fixed64",
  float: "float",
  double: "double",
  string: "text",
  bytes: "text",
};

/** Whether Protobuf documents a change from `from` to `to` as compatible on the wire. */
export const compatibleKinds = (from: string, to: string): boolean =>
  from === to || (GROUP[from] !== undefined && GROUP[from] === GROUP[to]);

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Reads one scalar or enum value of the reader's field `rf` at `c.pos` (its wire type matches
 * `rf`'s), written as the writer's `wf` (or `rf`, when the writer's message lacks the number), and
 * says whether the reader gets the value the writer wrote: "ok", a verdict, or null for bytes that
 * end first. A value is compared as each side reads it, so a type change that keeps this value (a
 * small int64 read as int32, a sint32 of 0 read as int32) costs this record nothing.
 */
export function compareValue(
  bytes: Uint8Array,
  c: Cursor,
  end: number,
  wf: FieldInfo | undefined,
  rf: FieldInfo,
): "ok" | ValueVerdict | null {
  // A value the writer's own type would have written with another wire type (a crafted record, or
  // one that does not match its writer) is judged by the reader's type alone.
  const wkind = wf === undefined || wf.wire !== rf.wire || wf.message !== undefined ? rf.kind : wf.kind;
  switch (rf.wire) {
    case VARINT: {
      if (!readVarint(bytes, c, end)) return null;
      if (rf.kind === "enum" && !rf.enumValues!.has(c.lo | 0)) return UNKNOWN_ENUM;
      if (varintAs(wkind, c) === varintAs(rf.kind, c)) return "ok";
      return compatibleKinds(wkind, rf.kind) ? CHANGED : REINTERPRETED;
    }
    case I64:
    case I32: {
      const width = rf.wire === I64 ? 8 : 4;
      if (end - c.pos < width) return null;
      const from = c.pos;
      c.pos += width;
      if (wkind === rf.kind) return "ok";
      const view = new DataView(bytes.buffer, bytes.byteOffset + from, width);
      if (fixedAs(wkind, view) === fixedAs(rf.kind, view)) return "ok";
      return compatibleKinds(wkind, rf.kind) ? CHANGED : REINTERPRETED;
    }
    case LEN: {
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return null;
      const from = c.pos;
      c.pos += c.value;
      if (rf.kind !== "string") return "ok";
      try {
        utf8.decode(bytes.subarray(from, c.pos));
        return "ok";
      } catch {
        return NOT_UTF8;
      }
    }
    default:
      return null;
  }
}

/** A varint as a field of `kind` reads it, as a bigint, so that any two readings compare exactly. */
function varintAs(kind: string, c: Cursor): bigint {
  switch (kind) {
    case "int32":
    case "enum":
      return BigInt(c.lo | 0);
    case "uint32":
      return BigInt(c.lo);
    case "sint32":
      return BigInt(zigzag32(c.lo));
    case "bool":
      return c.lo !== 0 || c.hi !== 0 ? 1n : 0n;
    case "uint64":
      return uint64Of(c);
    case "sint64":
      return zigzag64Of(c);
    default:
      return int64Of(c);
  }
}

/** Fixed-width bytes as a field of `kind` reads them, as text, so that an integer and a float compare (NaN equals itself). */
function fixedAs(kind: string, view: DataView): string {
  switch (kind) {
    case "fixed32":
      return String(view.getUint32(0, true));
    case "sfixed32":
      return String(view.getInt32(0, true));
    case "float":
      return String(view.getFloat32(0, true));
    case "fixed64":
      return String(view.getBigUint64(0, true));
    case "sfixed64":
      return String(view.getBigInt64(0, true));
    default:
      return String(view.getFloat64(0, true));
  }
}
