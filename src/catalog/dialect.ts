import { SchemawatchError } from "../errors.js";

/** The JSON Schema dialects schemawatch compiles, chosen by a schema's `$schema`. */
export type Dialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

export const DIALECTS: readonly Dialect[] = ["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"];

/**
 * The dialect of a schema without `$schema`: draft-07, as Confluent Schema Registry, Apicurio and ajv
 * read such a schema, and as most schemas on Kafka are written.
 */
export const DEFAULT_DIALECT: Dialect = "draft-07";

const BY_URI: ReadonlyArray<readonly [RegExp, Dialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "draft-04"],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, "draft-06"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
];

/** The dialect a schema declares with `$schema`, or `fallback` when it declares none. */
export function dialectOf(schema: unknown, file: string, fallback: Dialect): Dialect {
  const declared = declaredDialect(schema, file);
  return declared ?? fallback;
}

/** The dialect named by `$schema`, or undefined when the schema has none. */
export function declaredDialect(schema: unknown, file: string): Dialect | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const declared = (schema as Record<string, unknown>)["$schema"];
  if (declared === undefined) return undefined;
  if (typeof declared !== "string") {
    throw new SchemawatchError("SCHEMA_INVALID", `${file}: $schema must be a string`);
  }
  for (const [pattern, dialect] of BY_URI) if (pattern.test(declared)) return dialect;
  throw new SchemawatchError(
    "SCHEMA_INVALID",
    `${file}: unsupported $schema '${declared}' (supported: drafts 04, 06, 07, 2019-09 and 2020-12)`,
  );
}

/** Reads a `--default-dialect` or `defaultDialect` value: `draft-07`, `7`, `2020-12`, ... */
export function parseDialect(text: string, where: string): Dialect {
  const short: Readonly<Record<string, Dialect>> = {
    "4": "draft-04",
    "6": "draft-06",
    "7": "draft-07",
    draft4: "draft-04",
    draft6: "draft-06",
    draft7: "draft-07",
    "2019": "2019-09",
    "2020": "2020-12",
  };
  const dialect = (DIALECTS as readonly string[]).includes(text) ? (text as Dialect) : short[text];
  if (!dialect) {
    throw new SchemawatchError(
      "USAGE",
      `${where}: unknown dialect '${text}' (one of ${DIALECTS.join(", ")})`,
    );
  }
  return dialect;
}

/** The keyword that names a schema's base URI: `id` in draft-04, `$id` later. */
export function idKeyword(dialect: Dialect): "id" | "$id" {
  return dialect === "draft-04" ? "id" : "$id";
}

/**
 * The ajv engine a dialect compiles with. Drafts 06 and 07 share one (their keywords mean the same), so
 * a draft-07 schema may reference a draft-06 one; other mixes cannot compile together.
 */
export type Engine = "draft-04" | "draft-07" | "2019-09" | "2020-12";

export function engineOf(dialect: Dialect): Engine {
  return dialect === "draft-06" ? "draft-07" : dialect;
}

/** Drafts 04 to 07 allow `format` and `content*` to be assertions; 2019-09 on they are annotations. */
export function mayAssertFormats(dialect: Dialect): boolean {
  return engineOf(dialect) === "draft-04" || engineOf(dialect) === "draft-07";
}
