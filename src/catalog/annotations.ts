import type { Json, Schema, ValidationError } from "@exodus/schemasafe";
import type { ErrorObject } from "ajv";
import type { Dialect } from "./dialect.js";
import type { SchemaDocument, Validator } from "./compiler.js";
import { ANNOTATION_KEYWORDS, hasAnnotationKeywords } from "./reading.js";
import { PatternError, schemaRegExp } from "./regexp.js";
import { loadSchemasafe, type Schemasafe } from "./schemasafe.js";
import { walkSchemas } from "./walk.js";

const DIALECT_URIS: Partial<Record<Dialect, string>> = {
  "2019-09": "https://json-schema.org/draft/2019-09/schema",
  "2020-12": "https://json-schema.org/draft/2020-12/schema",
};

/**
 * Whether a version is compiled by the annotation engine: a 2019-09 or 2020-12 version whose
 * documents use `unevaluated*` or the dynamic scope, which ajv 8 evaluates wrongly (docs/validation.md:
 * 30 wrong answers, 6 throws and 5 refusals of the official suite's tests of those keywords).
 */
export function usesAnnotations(documents: readonly { readonly json: unknown }[], dialect: Dialect): boolean {
  if (!hasAnnotationKeywords(dialect)) return false;
  let found = false;
  for (const { json } of documents) {
    walkSchemas(json, (node) => {
      if (!found) found = Object.keys(node).some((key) => ANNOTATION_KEYWORDS.has(key));
    });
  }
  return found;
}

/** schemasafe with the project's changes (src/catalog/schemasafe.ts), loaded at its first use. */
let loaded: Schemasafe | undefined;

/**
 * Compiles a version with @exodus/schemasafe, which tracks evaluated properties and items and the
 * dynamic scope as the specification says. It generates code as ajv does, so a record costs about
 * the same; failures are reported in ajv's shape (the keyword, the instance path), the first only.
 */
export function compileAnnotated(
  root: SchemaDocument,
  refs: readonly SchemaDocument[],
  dialect: Dialect,
): Validator {
  // schemasafe reports a bad pattern in words of its own: found first, the compiler names where it is.
  // `format` is an annotation from 2019-09 on, and schemasafe refuses one it does not know (`int64`,
  // a vendor's): it never sees it, nor keywords of its own that no dialect defines (OpenAPI's
  // `discriminator`, which it enforces), which ajv ignores too. The documents are the compiler's copies.
  for (const document of [root, ...refs]) {
    walkSchemas(document.json, (node) => {
      if (typeof node["format"] === "string") delete node["format"];
      for (const key of NOT_KEYWORDS) Reflect.deleteProperty(node, key);
      const map = node["patternProperties"];
      const keys = typeof map === "object" && map !== null ? Object.keys(map) : [];
      for (const pattern of [node["pattern"], ...keys])
        if (typeof pattern === "string" && !schemaRegExp(pattern)) throw new PatternError(pattern);
    });
  }
  const schemas = new Map<string, Schema>();
  for (const ref of refs) schemas.set(ref.uri, ref.json as Schema);
  loaded ??= loadSchemasafe();
  const validate = loaded(root.json as Schema, {
    mode: "spec",
    includeErrors: true,
    // 2019-09 on, `format` and `content*` are annotations.
    formatAssertion: false,
    contentValidation: false,
    $schemaDefault: DIALECT_URIS[dialect] ?? null,
    schemas,
  });
  const validator = ((document: unknown): boolean => {
    const passed = validate(document as Json);
    validator.errors = passed ? null : (validate.errors ?? []).slice(0, 1).map(toAjvError);
    return passed;
  }) as Validator;
  validator.errors = null;
  return validator;
}

/** Keywords schemasafe reads that the 2019-09 and 2020-12 dialects do not define. */
const NOT_KEYWORDS = ["discriminator", "removeAdditional", "divisibleBy", "propertyDependencies"];

/** Keywords whose failure ajv reports at the object, not at the property it did not expect. */
const AT_PARENT = new Set(["unevaluatedProperties", "additionalProperties"]);

function toAjvError(error: ValidationError): ErrorObject {
  const location = error.keywordLocation;
  const keyword = decodeURIComponent(location.slice(location.lastIndexOf("/") + 1));
  const path = error.instanceLocation.replace(/^#/, "");
  return {
    keyword,
    // As ajv does: a key the schema did not expect is the record's, and stays out of the reported path.
    instancePath: AT_PARENT.has(keyword) ? path.slice(0, Math.max(0, path.lastIndexOf("/"))) : path,
    schemaPath: location,
    params: {},
    message: `must pass ${keyword}`,
  };
}
