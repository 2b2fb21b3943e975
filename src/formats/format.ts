import type { CatalogVersion, VersionStatus } from "../catalog/types.js";
import type { MetadataTags } from "./tags.js";

/**
 * The seam between schemawatch and the schema languages it reads (docs/architecture.md, "Formats").
 * One `Format` object per language answers everything that depends on it: which files and registry
 * types are its, how a version's text is parsed, how a sampled record's body is decoded, and whether
 * one reader version reads a decoded record. Directions, levels, counts, verdicts and reports stay
 * format-neutral: they see only a `ReaderCheck` (ok / lossy / fails with a bounded rule and a location).
 *
 * The count of every record never reaches a format: `decode` and `check` run on sampled records only.
 * A format other than JSON Schema decodes and checks in time linear in the body (bounded by
 * `maxRecordBytes`), so its subjects never need the validation time budget (catalog/cost.ts).
 *
 * The room imports only types from catalog, engine and config (catalog/load.ts imports formats).
 */

export type FormatName = "json" | "avro" | "protobuf";

/** A registry's `schemaType` (Confluent's API; a version without one is AVRO, as Confluent reads it). */
export type RegistryType = "JSON" | "AVRO" | "PROTOBUF";

/** Why a sampled body could not be decoded; each is a value of the `reason` label (pipeline/record.ts). */
export type FormatDecodeReason = "not_utf8" | "not_json" | "too_deep" | "avro_decode" | "protobuf_decode";

/**
 * What one reader version makes of one record:
 * - `ok`: it reads every value the writer sent, as the writer meant it;
 * - `lossy`: it reads the record, but silently drops or defaults data the writer sent (an Avro writer
 *   field the reader does not have, a reader field filled from its default, a Protobuf unknown field):
 *   not a failure, but counted and said, with its rule and location as a failure has;
 * - `fails`: it cannot read the record (a JSON Schema keyword, an Avro union branch or enum symbol the
 *   reader lacks), named by a bounded rule name and the location of the first failure.
 */
export type Outcome = "ok" | "lossy" | "fails";

/**
 * A reader's outcome, written into an object the caller owns and reuses (the hot path allocates
 * nothing per reader). `rule` is from a small fixed set per format (JSON Schema: the failing keyword;
 * Avro: `AVRO_RULES`), because it becomes a label value; `location` is where in the record: a JSON
 * Pointer into the record's JSON view. Both are null for `ok`.
 */
export interface ReaderCheck {
  outcome: Outcome;
  rule: string | null;
  location: string | null;
}

/** One version's schema text as found (a file, or a registry's `schema` field) with its references. */
export interface SchemaSource {
  /** What messages call it: a file path, or `registry:<name>/<subject>/versions/<n>`. */
  readonly name: string;
  readonly text: string;
  /**
   * The schemas its text refers to by name, themselves sources (their own references included): keyed
   * by the registry reference's `name` (JSON: a `$ref` URI; Avro: a named type's full name; Protobuf:
   * an import path).
   */
  readonly references: readonly SchemaSource[];
  /**
   * A registered version's field tags from its registry metadata (Confluent's data contracts; a file
   * has none): kept on the parsed schema, as Confluent's `ParsedSchema` keeps its metadata, for the
   * fields room (a field tagged `DEPRECATED` there is deprecated: tags.ts).
   */
  readonly tags?: MetadataTags;
}

/** A path a schema file imports (`Format.imports`). */
export interface ImportedPath {
  readonly path: string;
  /** The format has it without a file (protobufjs's bundled `google/protobuf/*.proto`). */
  readonly builtIn: boolean;
}

/** A parsed (and checked) version schema: what a format's `check` and `decode` read off a version. */
export interface ParsedSchema {
  readonly format: FormatName;
  /**
   * The version as written, for a format whose schema is not JSON (a `.proto`): what its schema link
   * on the status page serves, as text. Absent where the schema is JSON (`CatalogVersion.file.json`).
   */
  readonly text?: string;
}

/**
 * A sampled record decoded once with its writer's schema. `value` is what `check` and `document` read
 * (JSON: the parsed document itself); `text` is the JSON text it came from, or "" for a binary format
 * (whose reservoir keeps the body's bytes instead). The box may be reused by the next `decode`.
 */
export interface Decoded {
  value: unknown;
  text: string;
}

export interface Format {
  readonly name: FormatName;
  readonly registryType: RegistryType;
  /** File extensions of its schema files, lower case with the dot (`.avsc`). */
  readonly extensions: readonly string[];
  /** Whether `decode` needs the writer version (binary formats cannot read a body without it). */
  readonly needsWriter: boolean;
  /** Parses a version's text; throws SCHEMA_INVALID naming `source.name` (and the reference) when it cannot. */
  parse(source: SchemaSource): ParsedSchema;
  /**
   * Parses a file as `diff` reads OLD or NEW, on its own rather than as a subject's version: where
   * `parse` refuses what only another file can use (Protobuf: a file of enums only, a registry's
   * shared enum subject), this reads it, so a change to it can be compared. Absent: `parse`.
   */
  parseFile?(source: SchemaSource): ParsedSchema;
  /**
   * What a schema file's text imports by path (Protobuf's `import "common/money.proto";`), for a
   * catalog that reads files to give `parse` as references (catalog/format-file.ts), each the path as
   * written and whether the format has it without a file (`google/protobuf/*.proto`). Absent for a
   * format that imports nothing by path; text that does not parse imports nothing here (`parse` says
   * what is wrong with it).
   */
  imports?(text: string): readonly ImportedPath[];
  /**
   * Decodes a sampled body (from `start`, past any wire prefix) with its writer version's schema, once
   * for all readers; the reason when it cannot. Never throws for what a body holds.
   */
  decode(writer: CatalogVersion | undefined, body: Uint8Array, start: number): Decoded | FormatDecodeReason;
  /** Whether `reader` reads `value` (a `Decoded.value` of this format), into `out`. */
  check(reader: CatalogVersion, value: unknown, out: ReaderCheck): void;
  /** The record as JSON values (what stats, the corpus and shapes read); JSON: the document itself. */
  document(value: unknown): unknown;
  /**
   * What the fields room (src/fields/) asks of a binary format: its fields of interest and a presence
   * check over every record's body. Absent for JSON Schema, whose bodies are JSON text that the fields
   * room reads itself (its byte search and exact read, docs/fields.md).
   */
  readonly fields?: FormatFields;
}

/** A version as the fields room reads it (a `CatalogVersion` is one). */
export interface FieldsVersion {
  readonly version: { readonly text: string };
  readonly status: VersionStatus;
  readonly schema?: ParsedSchema;
}

/** A field a version's schema marks deprecated, named by a JSON Pointer (`*`: any element or value). */
export interface MarkedField {
  readonly pointer: string;
  /** The name the pointer ends with. */
  readonly key: string;
  /** The versions (by their text) not retired that mark it, ascending. */
  readonly deprecatedIn: readonly string[];
}

/**
 * A presence check over records' bodies for a list of fields, without decoding them. `verdicts[i]`
 * is field `i`'s after `check`: 0 absent, 1 present, 2 unknown (fields/presence.ts). It errs only
 * towards present or unknown: a record it cannot read, or whose writer version is not known, is
 * unknown for every field, never absent.
 */
export interface BodyPresence {
  readonly verdicts: Uint8Array;
  /** `bytes[start..]`: the body past the 5-byte wire prefix, as the pipeline's `counted` hook gives it. */
  check(writer: FieldsVersion | undefined, bytes: Uint8Array | null, start: number): void;
}

export interface FormatFields {
  /** The fields the subject's versions (ascending) mark deprecated, shallower first. */
  deprecated(versions: readonly FieldsVersion[]): MarkedField[];
  /** A presence check for `pointers` (fields of interest) over the subject's versions (ascending). */
  presence(versions: readonly FieldsVersion[], pointers: readonly string[]): BodyPresence;
}
