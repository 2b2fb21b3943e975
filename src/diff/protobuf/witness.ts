import { Buffer } from "node:buffer";
import protobuf from "protobufjs";
import type { ReaderCheck } from "../../formats/format.js";
import { ProtoDecoded } from "../../formats/protobuf/decode.js";
import type { ProtoSchema } from "../../formats/protobuf/parse.js";
import { ProtoReadPlan } from "../../formats/protobuf/plan.js";

/** A record written with one version that a reader of another reads with loss or misreads. */
export interface ProtoWitness {
  /** The message the record is, by full name in the writer's file. */
  readonly message: string;
  /** The record as the writer meant it (protobufjs's JSON form: 64-bit integers as strings, bytes as base64). */
  readonly record: unknown;
  /** Its body as the writer's serializer writes it, in hex (without the wire prefix). */
  readonly bytes: string;
  /** What the reader makes of it. */
  readonly reads: ReaderCheck;
}

/** Values tried for a field of each scalar type: the edges where a reader of another type reads otherwise. */
const CANDIDATES: Readonly<Record<string, readonly unknown[]>> = {
  int32: [-1, 2147483647, 2],
  int64: ["-1", "5000000000", "2"],
  uint32: [4294967295, 2],
  uint64: ["18446744073709551615", "5000000000", "2"],
  sint32: [-1, 2147483647, 2],
  sint64: ["-1", "5000000000", "2"],
  bool: [true],
  fixed32: [4294967295, 1],
  sfixed32: [-1, 1],
  fixed64: ["18446744073709551615", "1"],
  sfixed64: ["-1", "1"],
  float: [1.5],
  double: [1.5],
  string: ["é"],
  bytes: [Buffer.from([0xff]).toString("base64"), Buffer.from([0x08, 0x01]).toString("base64")],
};

const RANK = { ok: 0, lossy: 1, fails: 2 } as const;

/**
 * Records of `message` (a full name in `writer`) that carry field `number` with each candidate value
 * of its type (every value of an enum, a message's fields filled in turn, a list of two), the
 * writer's required fields filled; or, when `number` is null, the record with only those.
 */
export function candidateRecords(writer: ProtoSchema, message: string, number: number | null): unknown[] {
  const type = writer.root.lookupType(message);
  const base = requiredOf(type, 0);
  if (number === null) return [base];
  const field = type.fieldsById[number];
  if (field === undefined) return [base];
  return valuesOf(field, 0).map((value) => ({ ...base, [field.name]: value }));
}

/** The first record of `records` the reader reads worst, as a witness, with its outcome; null when every one is read whole. */
export function worstReading(
  writer: ProtoSchema,
  reader: ProtoSchema,
  message: string,
  records: readonly unknown[],
): ProtoWitness | null {
  const type = writer.root.lookupType(message);
  const msg = writer.models.of(type);
  const plan = new ProtoReadPlan(writer, reader);
  let worst: ProtoWitness | null = null;
  for (const record of records) {
    const body = type.encode(type.fromObject(record as Record<string, unknown>)).finish();
    const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
    plan.check(new ProtoDecoded(writer, msg, body, 0, body.length), out);
    if (out.outcome !== "ok" && (worst === null || RANK[out.outcome] > RANK[worst.reads.outcome]))
      worst = { message, record, bytes: Buffer.from(body).toString("hex"), reads: out };
  }
  return worst;
}

function valuesOf(field: protobuf.Field, depth: number): unknown[] {
  const one = singleValues(field, depth);
  if (field.map) return one.map((value) => ({ k: value }));
  if (field.repeated) return [...one.map((value) => [value, value]), one];
  return one;
}

function singleValues(field: protobuf.Field, depth: number): unknown[] {
  const resolved = field.resolvedType;
  if (resolved instanceof protobuf.Enum)
    return [...new Set(Object.values(resolved.values))].filter((n) => n !== 0);
  if (resolved instanceof protobuf.Type) {
    const base = requiredOf(resolved, depth + 1);
    if (depth >= 2) return [base];
    // The sub-message with each of its fields set in turn to each of its values.
    const out: unknown[] = [base];
    for (const inner of resolved.fieldsArray)
      for (const value of singleValues(inner, depth + 1)) out.push({ ...base, [inner.name]: value });
    return out;
  }
  return [...(CANDIDATES[field.type] ?? [])];
}

/** A record of `type` with its proto2 required fields set (to their first candidate), so that it is one. */
function requiredOf(type: protobuf.Type, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > 3) return out;
  for (const field of type.fieldsArray) {
    if (!field.required) continue;
    const resolved = field.resolvedType;
    out[field.name] =
      resolved instanceof protobuf.Type
        ? requiredOf(resolved, depth + 1)
        : resolved instanceof protobuf.Enum
          ? Object.values(resolved.values)[0]
          : CANDIDATES[field.type]![0];
  }
  return out;
}
