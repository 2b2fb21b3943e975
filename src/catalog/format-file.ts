import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { SchemawatchError, messageOf } from "../errors.js";
import type { Format, ParsedSchema } from "../formats/format.js";
import { FORMATS, JSON_FORMAT } from "../formats/index.js";
import type { Validator } from "./compiler.js";
import { DEFAULT_DIALECT } from "./dialect.js";
import type { SchemaFile } from "./schema-file.js";
import type { CatalogVersion } from "./types.js";

/**
 * The validator of a version of another format than JSON Schema: its records are read through its
 * format (`CatalogSubject.format.check`), and a record decoded with its writer conforms to it.
 */
export function acceptsAll(): Validator {
  const validate: Validator = () => true;
  validate.errors = null;
  return validate;
}

/**
 * A schema file of another format than JSON Schema, parsed by its format: what the catalog keeps of
 * it as a file is its schema's JSON (an Avro schema is JSON), shown where a version's schema is shown.
 */
export async function readFormatFile(
  path: string,
  format: Format,
): Promise<{ file: SchemaFile; schema: ParsedSchema; text: string }> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new SchemawatchError("FILE_UNREADABLE", `${path}: cannot read file: ${messageOf(error)}`, {
      cause: error,
    });
  }
  const schema = format.parse({ name: path, text, references: [] });
  const json = (schema as ParsedSchema & { json?: unknown }).json;
  return {
    file: {
      path,
      name: basename(path),
      json: typeof json === "object" && json !== null ? (json as Record<string, unknown>) : { type: json },
      dialect: DEFAULT_DIALECT,
      declaredId: undefined,
      baseId: pathToFileURL(path).href,
    },
    schema,
    text,
  };
}

/**
 * The one format of a subject's versions: JSON Schema for versions without a `schema`. Versions of two
 * formats in one subject cannot be compared record by record, so they stop loading, naming both.
 */
export function formatOfVersions(subject: string, versions: readonly CatalogVersion[]): Format {
  const first = versions[0];
  const name = first?.schema?.format ?? "json";
  for (const version of versions) {
    const other = version.schema?.format ?? "json";
    if (other !== name)
      throw new SchemawatchError(
        "SCHEMA_INVALID",
        `${version.file.path}: ${subject} ${version.version.text} is ${other}, but ${first!.file.path} (${first!.version.text}) is ${name}: a subject's versions are all of one format`,
      );
  }
  return FORMATS.get(name) ?? JSON_FORMAT;
}
