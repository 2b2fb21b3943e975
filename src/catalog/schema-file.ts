import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { SchemawatchError, messageOf } from "../errors.js";
import type { SchemaDocument } from "./compiler.js";
import { DEFAULT_DIALECT, idKeyword, type Dialect } from "./dialect.js";
import { heldDialect } from "./vocabulary.js";

/** A schema file as read from disk, before it is compiled. */
export interface SchemaFile {
  readonly path: string;
  readonly name: string;
  readonly json: Record<string, unknown> | boolean;
  readonly dialect: Dialect;
  /** The declared `$id` (or draft-04 `id`), if any. */
  readonly declaredId: string | undefined;
  /** The base URI refs resolve against: the declared id, else the file's own URL. */
  readonly baseId: string;
}

/** Reads and parses a JSON file, with errors that name it. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === "EISDIR" ? "is a directory, not a file" : messageOf(error);
    throw new SchemawatchError("FILE_UNREADABLE", `${path}: cannot read file: ${why}`, { cause: error });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SchemawatchError("NOT_JSON", `${path}: not valid JSON: ${messageOf(error)}`, { cause: error });
  }
}

/**
 * Reads a schema file. Its dialect is its `$schema`'s, or that of the meta-schema its `$schema` names
 * among `held` (the catalog's shared schemas), else `defaultDialect`; its base URI is its `$id`
 * resolved against the file's URL (so a relative `$id` works), else the file's URL.
 */
export async function readSchemaFile(
  path: string,
  defaultDialect: Dialect = DEFAULT_DIALECT,
  held: readonly SchemaDocument[] = [],
): Promise<SchemaFile> {
  const parsed = await readJsonFile(path);
  if (
    typeof parsed !== "boolean" &&
    (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
  ) {
    throw new SchemawatchError("SCHEMA_INVALID", `${path}: a schema must be a JSON object or a boolean`);
  }
  const json = parsed as Record<string, unknown> | boolean;
  const dialect = heldDialect(json, path, held, defaultDialect);
  const rawId = typeof json === "object" ? json[idKeyword(dialect)] : undefined;
  const declaredId = typeof rawId === "string" && rawId !== "" ? rawId : undefined;
  const fileUrl = pathToFileURL(path).href;
  const baseId = declaredId ? resolveId(declaredId, fileUrl, path) : fileUrl;
  return { path, name: basename(path), json, dialect, declaredId, baseId };
}

function resolveId(id: string, fileUrl: string, path: string): string {
  try {
    return new URL(id, fileUrl).href.replace(/#.*$/, "");
  } catch (error) {
    throw new SchemawatchError("SCHEMA_INVALID", `${path}: #/$id: '${id}' is not a URI reference`, {
      cause: error,
    });
  }
}

/**
 * The file as the compiler takes it: retrieved at its URL, which the compiler keeps as an alias of
 * its base (`baseId`, from its `$id`), so a `$ref` may name either.
 */
export function documentOf(file: SchemaFile): SchemaDocument {
  return { uri: pathToFileURL(file.path).href, json: file.json, name: file.path };
}
