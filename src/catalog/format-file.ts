import { readFile, stat } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { SchemawatchError, messageOf } from "../errors.js";
import type { Format, ParsedSchema, SchemaSource } from "../formats/format.js";
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

/** Imports nested deeper than this are refused: no real file needs so many (the format's own bound). */
const MAX_IMPORT_DEPTH = 32;

/**
 * A schema file of another format than JSON Schema, parsed by its format: what the catalog keeps of
 * it as a file is its schema's JSON (an Avro schema is JSON), shown where a version's schema is shown.
 * The files it imports by path (a `.proto` file's `import "common/money.proto";`) are read as its
 * references, each found relative to the importing file's folder first, then to each of `folders`
 * (the subject's schema folder, the config's `shared` folders: protoc's `-I`), in that order; a
 * path the format has built in (`google/protobuf/*.proto`) needs no file. `imported`: every file
 * read that way, transitively. `asFile`: read as `diff` reads OLD or NEW (`Format.parseFile`), not as
 * a subject's version.
 */
export async function readFormatFile(
  path: string,
  format: Format,
  folders: readonly string[] = [],
  { asFile = false }: { readonly asFile?: boolean } = {},
): Promise<{ file: SchemaFile; schema: ParsedSchema; text: string; imported: readonly string[] }> {
  const text = await readText(path);
  const imported = new Set<string>();
  const references = await importedSources(format, path, text, folders, [path], imported);
  const source = { name: path, text, references };
  const schema = asFile && format.parseFile ? format.parseFile(source) : format.parse(source);
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
    imported: [...imported],
  };
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new SchemawatchError("FILE_UNREADABLE", `${path}: cannot read file: ${messageOf(error)}`, {
      cause: error,
    });
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * The files `importer` imports, each a source named by its path and the import path it answers
 * (`/s/common/money.proto (import 'common/money.proto')`, which the format matches imports by), with
 * its own imports found the same way from its own folder. `chain`: the files importing it, so that a
 * file importing itself again is refused (as protoc refuses it) rather than read forever.
 */
async function importedSources(
  format: Format,
  importer: string,
  text: string,
  folders: readonly string[],
  chain: readonly string[],
  imported: Set<string>,
): Promise<SchemaSource[]> {
  if (format.imports === undefined) return [];
  const out: SchemaSource[] = [];
  for (const { path, builtIn } of format.imports(text)) {
    const where = [...new Set([dirname(importer), ...folders].map((folder) => resolve(folder)))];
    let found: string | undefined;
    for (const folder of where) {
      const candidate = resolve(folder, path);
      if (await isFile(candidate)) {
        found = candidate;
        break;
      }
    }
    if (found === undefined) {
      if (builtIn) continue;
      throw new SchemawatchError(
        "SCHEMA_INVALID",
        `${importer}: imports "${path}", which is in none of the folders it is looked for in: ${where.join(", ")}`,
      );
    }
    if (chain.includes(found))
      throw new SchemawatchError(
        "SCHEMA_INVALID",
        `${importer}: imports "${path}", which is ${found}, already on its import chain (${[...chain, found].join(" → ")}): imports must not form a cycle`,
      );
    if (chain.length > MAX_IMPORT_DEPTH)
      throw new SchemawatchError(
        "SCHEMA_INVALID",
        `${importer}: imports nest deeper than ${MAX_IMPORT_DEPTH}`,
      );
    imported.add(found);
    const importedText = await readText(found);
    out.push({
      name: `${found} (import '${path}')`,
      text: importedText,
      references: await importedSources(format, found, importedText, folders, [...chain, found], imported),
    });
  }
  return out;
}

/**
 * A file's imports (a `.proto` file's `import`) are found in the subject's folder and these after
 * its own folder: each `shared` entry that is a folder, and the folder of each that is a file.
 */
export async function importFolders(shared: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const path of shared) {
    let folder: boolean;
    try {
      folder = (await stat(path)).isDirectory();
    } catch {
      continue; // The catalog names a shared entry it cannot read (catalog/load.ts).
    }
    out.push(folder ? path : dirname(path));
  }
  return out;
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
