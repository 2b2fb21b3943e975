import { SchemawatchError, messageOf } from "../errors.js";
import type { Decoded, Format, ParsedSchema, ReaderCheck, SchemaSource } from "./format.js";
import { parsePayload } from "./json-payload.js";

/** A JSON Schema as `parse` reads it; the catalog compiles it (catalog/compiler.ts) into `validate`. */
export interface JsonSchema extends ParsedSchema {
  readonly format: "json";
  readonly json: unknown;
}

const decoded: Decoded = { value: undefined, text: "" };

/**
 * The context ajv's compiled validators take as their second argument. Called without one, each call
 * makes two objects (the context, and `dynamicAnchors` in 2019-09 and 2020-12): about a third of what a
 * validated record allocated (bench/consumer.js allocations). Given this one, `rootData` defaults to
 * the document as without it, and `dynamicAnchors` is empty at every call's start, as ajv's own would
 * be: only a schema with `$dynamicAnchor` or `$recursiveAnchor` writes to it (the catalog compiles those
 * with schemasafe, catalog/annotations.ts), and then it is replaced. Other validators (schemasafe's, a
 * deferred one's first call) ignore the argument.
 */
const context: {
  instancePath: string;
  parentData: undefined;
  parentDataProperty: undefined;
  rootData: undefined;
  dynamicAnchors: Record<string, unknown>;
} = {
  instancePath: "",
  parentData: undefined,
  parentDataProperty: undefined,
  rootData: undefined,
  dynamicAnchors: {},
};

/** When a validation wrote an anchor, the next one gets a fresh, empty object. */
function clearAnchors(): void {
  for (const _ in context.dynamicAnchors) {
    context.dynamicAnchors = {};
    return;
  }
}

/**
 * JSON Schema, wrapping what the catalog always did: a version is its document compiled by ajv (or
 * schemasafe) into `CatalogVersion.validate` (whose code generation waits for first use, and whose
 * cost catalog/cost.ts judges); a body is strict UTF-8 JSON (json-payload.ts); a reader
 * reads a record when the record is valid against it, whoever wrote it. JSON has no `lossy`: a reader
 * that ignores a property the writer sent still holds it in the document.
 */
export const JSON_FORMAT: Format = {
  name: "json",
  registryType: "JSON",
  extensions: [".json"],
  needsWriter: false,

  parse(source: SchemaSource): JsonSchema {
    try {
      return { format: "json", json: JSON.parse(source.text) as unknown };
    } catch (error) {
      throw new SchemawatchError("SCHEMA_INVALID", `${source.name}: not valid JSON: ${messageOf(error)}`, {
        cause: error,
      });
    }
  },

  decode(_writer, body, start) {
    const result = parsePayload(body, start);
    if (typeof result === "string") return result;
    decoded.value = result.document;
    decoded.text = result.text;
    return decoded;
  },

  check(reader, value, out: ReaderCheck) {
    // Called as the version's method: a validator compiled on first use puts itself in its place.
    // Cleared before, not after: a validation that throws (a stack overflow) may have written one.
    clearAnchors();
    const passed = (reader.validate as (document: unknown, context: object) => boolean)(value, context);
    if (passed) {
      out.outcome = "ok";
      out.rule = null;
      out.location = null;
    } else {
      const error = reader.validate.errors?.[0];
      out.outcome = "fails";
      out.rule = error?.keyword ?? "unknown";
      out.location = error?.instancePath ?? "";
    }
  },

  document: (value) => value,
};
