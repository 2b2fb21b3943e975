import { SchemawatchError } from "../errors.js";

/** The JSON Schema dialects schemawatch compiles, chosen by a schema's `$schema`. */
export type Dialect = "draft-04" | "draft-06" | "draft-07" | "2019-09" | "2020-12";

export const DIALECTS: readonly Dialect[] = ["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"];

const BY_URI: ReadonlyArray<readonly [RegExp, Dialect]> = [
  [/^https?:\/\/json-schema\.org\/draft-04\/schema#?$/, "draft-04"],
  [/^https?:\/\/json-schema\.org\/draft-06\/schema#?$/, "draft-06"],
  [/^https?:\/\/json-schema\.org\/draft-07\/schema#?$/, "draft-07"],
  [/^https?:\/\/json-schema\.org\/draft\/2019-09\/schema#?$/, "2019-09"],
  [/^https?:\/\/json-schema\.org\/draft\/2020-12\/schema#?$/, "2020-12"],
];

/** The dialect a schema declares with `$schema`; 2020-12 when it declares none. */
export function dialectOf(schema: unknown, file: string): Dialect {
  if (typeof schema !== "object" || schema === null) return "2020-12";
  const declared = (schema as Record<string, unknown>)["$schema"];
  if (declared === undefined) return "2020-12";
  if (typeof declared !== "string") {
    throw new SchemawatchError("SCHEMA_INVALID", `${file}: $schema must be a string`);
  }
  for (const [pattern, dialect] of BY_URI) if (pattern.test(declared)) return dialect;
  throw new SchemawatchError(
    "SCHEMA_INVALID",
    `${file}: unsupported $schema '${declared}' (supported: drafts 04, 06, 07, 2019-09 and 2020-12)`,
  );
}

/** The keyword that names a schema's base URI: `id` in draft-04, `$id` later. */
export function idKeyword(dialect: Dialect): "id" | "$id" {
  return dialect === "draft-04" ? "id" : "$id";
}
