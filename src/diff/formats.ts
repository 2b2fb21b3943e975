import { Buffer } from "node:buffer";
import avro from "avsc";
import type { FormatName, ParsedSchema } from "../formats/format.js";
import type { AvroSchema } from "../formats/avro/schema.js";
import type { ProtoSchema } from "../formats/protobuf/parse.js";
import { diffAvro, type AvroDirection } from "./avro/index.js";
import { diffProto } from "./protobuf/index.js";
import type { ProtoWitness } from "./protobuf/witness.js";
import type { Bump, Change, DiffResult, Policy, Verdict, Witnesses } from "./vocabulary.js";

/** A change of a format whose kinds are its own (`missing-default`, `field-type-changed`): rendered as JSON's. */
export type FormatChange = Omit<Change, "kind"> & { readonly kind: string };

/**
 * What `diff` prints for a pair of any format: a JSON Schema `DiffResult`, or one of these, whose
 * `unit` says what its versions read (records, where JSON Schema validates documents), or, for two
 * Protobuf files of enums only, who reads them: `files` (the files that import them; no record does).
 */
export type AnyDiffResult = Omit<DiffResult, "changes"> & {
  readonly changes: readonly FormatChange[];
  readonly unit?: "records" | "files";
};

/**
 * A record that shows a break in a binary format: its JSON view (what the writer meant), its bytes as
 * the writer's serializer writes them (no wire prefix) in hex and base64, and for Protobuf the message.
 */
export interface BinaryWitness {
  readonly message?: string;
  readonly record: unknown;
  readonly hex: string;
  readonly base64: string;
}

/** The diff of one schema language other than JSON Schema (whose engine is src/diff/index.ts). */
export interface FormatDiff {
  diff(old: ParsedSchema, next: ParsedSchema, policy: Policy): AnyDiffResult;
}

const REASONS: Readonly<Record<string, string>> = {
  missing_default: "the reader has a field the writer does not write, and no default to fill it",
  union_branch: "the writer writes a union branch the reader has no branch for",
  enum_symbol: "the writer writes an enum symbol the reader lacks (and the reader's enum has no default)",
  name_mismatch: "a named type's full name (or alias) differs between writer and reader",
  fixed_size: "a fixed type's size differs between writer and reader",
  type_mismatch: "the writer's type is one the reader's type cannot be promoted from",
};

function avroWitness(writer: AvroSchema, value: unknown): BinaryWitness {
  const type = avro.Type.forSchema(writer.json as avro.Schema, { wrapUnions: true });
  const bytes = type.toBuffer(value);
  // The JSON view is Avro's JSON encoding (bytes as strings, longs as numbers), never a Buffer object.
  const record: unknown = JSON.parse(type.toString(value));
  return { record, hex: bytes.toString("hex"), base64: bytes.toString("base64") };
}

function avroChange(
  found: AvroDirection,
  writer: AvroSchema,
  direction: "backward" | "forward",
  other: AvroDirection,
  otherWriter: AvroSchema,
): FormatChange {
  const rule = found.rule ?? "type_mismatch";
  // The same rule at the same place breaking the other way too is one change, with both witnesses.
  const both = other.verdict === "breaks" && other.rule === found.rule && other.location === found.location;
  const otherSide = direction === "backward" ? "forward" : "backward";
  const witness: Record<string, BinaryWitness> = { [direction]: avroWitness(writer, found.witness) };
  if (both) witness[otherSide] = avroWitness(otherWriter, other.witness);
  const verdicts = { [direction]: "breaks", [otherSide]: both ? "breaks" : "ok" } as Record<
    "backward" | "forward",
    Verdict
  >;
  return {
    kind: rule.replaceAll("_", "-"),
    path: found.location ?? "",
    ...verdicts,
    reason: REASONS[rule] ?? rule,
    breaksUnder: "both",
    witness: witness as Witnesses,
  };
}

const AVRO_DIFF: FormatDiff = {
  diff(old, next, policy) {
    const before = old as AvroSchema;
    const after = next as AvroSchema;
    const result = diffAvro(before, after);
    const changes: FormatChange[] = [];
    const { backward, forward } = result;
    if (backward.verdict === "breaks") changes.push(avroChange(backward, before, "backward", forward, after));
    const merged = changes[0]?.forward === "breaks";
    if (forward.verdict === "breaks" && !merged)
      changes.push(avroChange(forward, after, "forward", backward, before));
    const same = JSON.stringify(before.json) === JSON.stringify(after.json);
    if (changes.length === 0 && !same)
      changes.push({
        kind: "schema-changed",
        path: "",
        backward: "ok",
        forward: "ok",
        reason: result.whole
          ? "each side reads every record the other writes, whole: nothing dropped or defaulted (Avro schema resolution)"
          : "each side reads every record the other writes, but drops or defaults some of what it wrote (Avro schema resolution)",
      });
    // The article's numbering: major when a record OLD wrote no longer reads, patch when nothing a
    // record carries changes meaning either way, minor for the rest (it adds or drops data compatibly).
    const bump: Bump = same
      ? "none"
      : backward.verdict === "breaks"
        ? "major"
        : forward.verdict === "ok" && result.whole
          ? "patch"
          : "minor";
    return {
      policy,
      compatibility: result.compatibility,
      backward: backward.verdict,
      forward: forward.verdict,
      bump,
      changes,
      unit: "records",
    };
  },
};

function protoWitness(witness: ProtoWitness): BinaryWitness {
  const bytes = Buffer.from(witness.bytes, "hex");
  return {
    message: witness.message,
    record: witness.record,
    hex: witness.bytes,
    base64: bytes.toString("base64"),
  };
}

const PROTOBUF_DIFF: FormatDiff = {
  diff(old, next, policy) {
    const result = diffProto(old as ProtoSchema, next as ProtoSchema);
    const changes = result.changes.map((c): FormatChange => {
      const { witness, ...judged } = c;
      // A record carries only what its writer's schema declares: no policy makes a break ok (docs/diff.md).
      const rest =
        c.backward === "ok" && c.forward === "ok" ? judged : { ...judged, breaksUnder: "both" as const };
      if (!witness) return rest;
      const shown: Record<string, BinaryWitness> = {};
      if (witness.backward) shown["backward"] = protoWitness(witness.backward);
      if (witness.forward) shown["forward"] = protoWitness(witness.forward);
      return { ...rest, witness: shown as Witnesses };
    });
    const enumsOnly =
      (old as ProtoSchema).messages.length === 0 && (next as ProtoSchema).messages.length === 0;
    return { policy, ...result, changes, unit: enumsOnly ? "files" : "records" };
  },
};

/**
 * The diff of each format other than JSON Schema, by the format's name (src/formats/index.ts): the
 * command finds a pair's entry here and never asks which format it is.
 */
export const FORMAT_DIFFS: ReadonlyMap<FormatName, FormatDiff> = new Map<FormatName, FormatDiff>([
  ["avro", AVRO_DIFF],
  ["protobuf", PROTOBUF_DIFF],
]);
