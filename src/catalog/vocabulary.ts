import { SchemawatchError } from "../errors.js";
import { baseUriOf } from "./base-uri.js";
import type { SchemaDocument } from "./compiler.js";
import { declaredDialect, type Dialect } from "./dialect.js";
import { walkSchemas } from "./walk.js";

/**
 * A `$schema` that names no dialect schemawatch holds is a meta-schema of the catalog's own (one of
 * its shared documents, or a registry's references): the version is read in that meta-schema's
 * dialect, with the vocabularies its `$vocabulary` lists. One it does not hold is refused: read as
 * some dialect it would validate what its author meant not to, or the reverse.
 */

const VALIDATION = [
  "type",
  "const",
  "enum",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
];
const APPLICATOR = [
  "prefixItems",
  "items",
  "contains",
  "additionalProperties",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "propertyNames",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
];
const META_DATA = ["title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples"];
const CONTENT = ["contentEncoding", "contentMediaType", "contentSchema"];

/** The keywords of each vocabulary schemawatch implements, by URI (core's are never left out). */
const VOCABULARIES: ReadonlyMap<string, readonly string[]> = new Map([
  ["https://json-schema.org/draft/2020-12/vocab/core", []],
  ["https://json-schema.org/draft/2020-12/vocab/applicator", APPLICATOR],
  ["https://json-schema.org/draft/2020-12/vocab/unevaluated", ["unevaluatedItems", "unevaluatedProperties"]],
  ["https://json-schema.org/draft/2020-12/vocab/validation", VALIDATION],
  ["https://json-schema.org/draft/2020-12/vocab/meta-data", META_DATA],
  ["https://json-schema.org/draft/2020-12/vocab/format-annotation", ["format"]],
  ["https://json-schema.org/draft/2020-12/vocab/content", CONTENT],
  ["https://json-schema.org/draft/2019-09/vocab/core", []],
  [
    "https://json-schema.org/draft/2019-09/vocab/applicator",
    [
      ...APPLICATOR.filter((k) => k !== "prefixItems"),
      "additionalItems",
      "unevaluatedItems",
      "unevaluatedProperties",
    ],
  ],
  ["https://json-schema.org/draft/2019-09/vocab/validation", VALIDATION],
  ["https://json-schema.org/draft/2019-09/vocab/meta-data", META_DATA],
  ["https://json-schema.org/draft/2019-09/vocab/format", ["format"]],
  ["https://json-schema.org/draft/2019-09/vocab/content", CONTENT],
]);

const withoutFragment = (uri: string) => uri.replace(/#.*$/, "");

/** The `$schema` of a schema when it names no dialect schemawatch holds; undefined otherwise. */
function customMeta(json: unknown, name: string): string | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const declared = (json as Record<string, unknown>)["$schema"];
  if (typeof declared !== "string") return undefined;
  try {
    declaredDialect(json, name);
    return undefined;
  } catch {
    return declared;
  }
}

/** The held document a custom `$schema` names: by its base URI or where it was retrieved. */
function heldMeta(uri: string, held: readonly SchemaDocument[], name: string): SchemaDocument {
  const wanted = withoutFragment(uri);
  for (const document of held) {
    if (document.uri === wanted) return document;
    const dialect = declaredDialect(document.json, document.name);
    if (dialect && baseUriOf(document.json, document.uri, dialect) === wanted) return document;
  }
  throw new SchemawatchError(
    "SCHEMA_INVALID",
    `${name}: its $schema '${uri}' is a meta-schema schemawatch does not hold: it holds those of drafts ` +
      "04, 06, 07, 2019-09 and 2020-12, and any the catalog's shared schemas are (add that meta-schema " +
      "to `shared` in the config, or declare one of those dialects)",
  );
}

/**
 * The dialect a schema is read in: its `$schema`'s, or that of the meta-schema it names among `held`
 * (itself declaring a dialect schemawatch holds), else `fallback` when it declares none.
 */
export function heldDialect(
  json: unknown,
  name: string,
  held: readonly SchemaDocument[] | undefined,
  fallback: Dialect,
): Dialect {
  const custom = customMeta(json, name);
  if (custom === undefined) return declaredDialect(json, name) ?? fallback;
  const meta = heldMeta(custom, held ?? [], name);
  const dialect = declaredDialect(meta.json, meta.name);
  if (dialect) return dialect;
  throw new SchemawatchError(
    "SCHEMA_INVALID",
    `${name}: its meta-schema ${meta.name} declares no $schema: schemawatch reads a meta-schema of the catalog's in the dialect it declares`,
  );
}

/**
 * The schema as its meta-schema's vocabularies read it: where its `$schema` is a held meta-schema
 * with a `$vocabulary`, the keywords of the vocabularies it does not list are left out (so a number
 * its author meant not to validate is not), and its `$schema`, which the engines do not know, goes.
 * A vocabulary the meta-schema requires (`true`) that schemawatch does not implement refuses it.
 */
export function readByVocabularies(
  json: unknown,
  name: string,
  held: readonly SchemaDocument[] | undefined,
): unknown {
  const custom = customMeta(json, name);
  if (custom === undefined) return json;
  const meta = heldMeta(custom, held ?? [], name);
  const copy = structuredClone(json) as Record<string, unknown>;
  delete copy["$schema"];
  const listed = (meta.json as Record<string, unknown>)["$vocabulary"];
  if (typeof listed !== "object" || listed === null) return copy;
  const kept = new Set<string>();
  for (const [uri, required] of Object.entries(listed)) {
    const keywords = VOCABULARIES.get(uri);
    if (keywords) for (const keyword of keywords) kept.add(keyword);
    else if (required === true)
      throw new SchemawatchError(
        "SCHEMA_INVALID",
        `${name}: its meta-schema ${meta.name} requires the vocabulary ${uri}, which schemawatch does not implement`,
      );
  }
  const dropped = new Set([...VOCABULARIES.values()].flat().filter((k) => !kept.has(k)));
  walkSchemas(copy, (node) => {
    for (const keyword of dropped) Reflect.deleteProperty(node, keyword);
  });
  return copy;
}
