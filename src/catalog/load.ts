import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { checkFormatSources } from "./format-sources.js";
import type { Config, SubjectConfig } from "../config/types.js";
import { SchemawatchError, messageOf } from "../errors.js";
import type { ParsedSchema } from "../formats/format.js";
import { formatOfFile, JSON_FORMAT, schemaExtensions } from "../formats/index.js";
import { SchemaCompiler, type CompilerOptions, type SchemaDocument, type Validator } from "./compiler.js";
import type { Dialect } from "./dialect.js";
import { acceptsAll, formatOfVersions, importFolders, readFormatFile } from "./format-file.js";
import { documentOf, readSchemaFile, type SchemaFile } from "./schema-file.js";
import type { Catalog, CatalogSubject, CatalogVersion } from "./types.js";
import {
  compareVersions,
  normalizeVersion,
  parseVersion,
  versionFromFileName,
  versionFromId,
  type Version,
} from "./version.js";

/** Lists the `.json` files of a folder (not recursive), sorted, with an error naming the folder. */
export async function listJsonFiles(folder: string, what: string): Promise<string[]> {
  return listFiles(folder, what, [".json"]);
}

/** Lists a folder's files (not recursive) that end with one of `extensions`, sorted. */
async function listFiles(folder: string, what: string, extensions: readonly string[]): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(folder);
  } catch (error) {
    throw new SchemawatchError(
      "FILE_UNREADABLE",
      `${folder}: cannot read ${what} folder: ${messageOf(error)}`,
      {
        cause: error,
      },
    );
  }
  return entries
    .filter((name) => extensions.some((extension) => name.toLowerCase().endsWith(extension)))
    .sort()
    .map((name) => join(folder, name));
}

async function sharedFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let isFolder: boolean;
    try {
      isFolder = (await stat(path)).isDirectory();
    } catch (error) {
      throw new SchemawatchError("FILE_UNREADABLE", `${path}: shared schema not found: ${messageOf(error)}`, {
        cause: error,
      });
    }
    files.push(...(isFolder ? await listJsonFiles(path, "shared schema") : [path]));
  }
  return files;
}

/**
 * The config's shared schema files, read in its default dialect. Two of them with one `$id` would make
 * a `$ref` ambiguous, so that stops loading.
 */
export async function loadSharedDocuments(
  paths: readonly string[],
  defaultDialect: Dialect,
): Promise<SchemaFile[]> {
  const byId = new Map<string, SchemaFile>();
  for (const path of await sharedFiles(paths)) {
    const file = await readSchemaFile(path, defaultDialect);
    const existing = byId.get(file.baseId);
    if (existing) {
      throw new SchemawatchError(
        "SCHEMA_INVALID",
        `${file.path}: its id ${file.baseId} is already used by the shared schema ${existing.path}; ` +
          "a $ref to it would be ambiguous",
      );
    }
    byId.set(file.baseId, file);
  }
  return [...byId.values()];
}

/** The compiler a config asks for: its default dialect and whether formats are assertions. */
export function compilerFor(config: Pick<Config, "defaultDialect" | "assertFormats">): SchemaCompiler {
  return new SchemaCompiler({ defaultDialect: config.defaultDialect, assertFormats: config.assertFormats });
}

/**
 * What a catalog source beside the folders (a schema registry) adds to a subject: given the subject's
 * versions from its schema files, compiled, it returns the subject's whole version list.
 */
export type VersionSource = (subject: SubjectConfig, local: readonly CatalogVersion[]) => CatalogVersion[];

/**
 * Loads every subject's schema files, decides each file's version (config `file`, else `$id`, else the
 * file name), and compiles each once, on its own: a version's `$ref`s resolve within the version and
 * the shared files, so versions that keep one `$id` never stand in for each other. Any problem stops
 * loading with an error naming the file; the code generation of a version proven to compile waits
 * for its first use (`SchemaCompiler.compileOnFirstUse`). `more` adds versions from elsewhere (src/registry/catalog.ts).
 */
export async function loadCatalog(
  config: Config,
  compiler = compilerFor(config),
  more?: VersionSource,
): Promise<Catalog> {
  const shared = (await loadSharedDocuments(config.shared, compiler.defaultDialect)).map(documentOf);

  const folders = await importFolders(config.shared);
  const pending: Array<{ subject: SubjectConfig; files: VersionFile[] }> = [];
  for (const subject of config.subjects) {
    pending.push({ subject, files: await versionFiles(subject, compiler.defaultDialect, shared, folders) });
  }

  const subjects = new Map<string, CatalogSubject>();
  const subjectByTopic = new Map<string, CatalogSubject>();
  const byConfluentId = new Map<number, CatalogVersion>();
  const byConfluentGuid = new Map<string, CatalogVersion>();
  // Ids the config gives by hand must name one version; a registry gives identical content one id.
  const configured = new Map<number, CatalogVersion>();
  for (const { subject, files } of pending) {
    const local = files.map(({ file, version, schema }): CatalogVersion => {
      const meta = configFor(subject, version);
      return {
        subject: subject.name,
        version,
        status: meta?.status ?? "active",
        file,
        validate: schema
          ? acceptsAll()
          : compiler.compileOnFirstUse({ ...documentOf(file), dialect: file.dialect, refs: shared }),
        ...(schema ? { schema } : {}),
        ...(meta?.deprecatedSince ? { deprecatedSince: meta.deprecatedSince } : {}),
        ...(meta?.confluentId !== undefined ? { confluentId: meta.confluentId } : {}),
        ...(meta?.confluentGuid ? { confluentGuid: normalizeGuid(meta.confluentGuid) } : {}),
      };
    });
    for (const version of local) {
      if (version.confluentId === undefined) continue;
      const other = configured.get(version.confluentId);
      if (other) {
        throw new SchemawatchError(
          "CONFIG_INVALID",
          `${config.path}: confluentId ${version.confluentId} is given to both ${other.subject} ${other.version.text} and ${version.subject} ${version.version.text}`,
        );
      }
      configured.set(version.confluentId, version);
    }
    const versions = more ? more(subject, local) : [...local];
    versions.sort((a, b) => compareVersions(a.version, b.version));
    const entry = buildSubject(subject.name, subject.topics, versions);
    checkFormatSources(config.path, subject, entry.format);
    subjects.set(subject.name, entry);
    for (const topic of subject.topics) subjectByTopic.set(topic, entry);
    for (const [id, version] of entry.byConfluentId)
      if (!byConfluentId.has(id)) byConfluentId.set(id, version);
    for (const [guid, version] of entry.byConfluentGuid)
      if (!byConfluentGuid.has(guid)) byConfluentGuid.set(guid, version);
  }
  return { subjects, subjectByTopic, byConfluentId, byConfluentGuid };
}

export function buildSubject(
  name: string,
  topics: readonly string[],
  versions: readonly CatalogVersion[],
): CatalogSubject {
  const byVersion = new Map(versions.map((v) => [v.version.text, v]));
  // A registry version labelled `3` is also found as 3.0.0, the way a writer may declare it.
  for (const v of versions) {
    const normalized = normalizeVersion(v.version.text);
    if (normalized !== undefined && !byVersion.has(normalized)) byVersion.set(normalized, v);
  }
  return {
    name,
    topics,
    format: formatOfVersions(name, versions),
    versions,
    readers: versions.filter((v) => v.status !== "retired"),
    byVersion,
    byConfluentId: idMap(versions, (v) => v.confluentId),
    byConfluentGuid: idMap(versions, (v) => v.confluentGuid),
    byGlobalId: idMap(versions, (v) => v.globalId),
    byContentId: idMap(versions, (v) => v.contentId),
  };
}

/**
 * Versions by id. One id on two versions of a subject happens in a registry (content registered again
 * after a soft delete): the id names the one still in use, else the newest.
 */
function idMap<K>(versions: readonly CatalogVersion[], key: (v: CatalogVersion) => K | undefined) {
  const out = new Map<K, CatalogVersion>();
  for (const version of versions) {
    const id = key(version);
    if (id === undefined) continue;
    const other = out.get(id);
    if (!other || other.status === "retired" || version.status !== "retired") out.set(id, version);
  }
  return out;
}

function configFor(subject: SubjectConfig, version: Version) {
  for (const [key, value] of Object.entries(subject.versions)) {
    if (parseVersion(key, `subject ${subject.name}: versions`).text === version.text) return value;
  }
  return undefined;
}

/** A schema file of a subject's folder and the version it is; `schema` when it is not JSON Schema. */
interface VersionFile {
  readonly file: SchemaFile;
  readonly version: Version;
  readonly schema?: ParsedSchema;
}

async function versionFiles(
  subject: SubjectConfig,
  defaultDialect: Dialect,
  shared: readonly SchemaDocument[],
  sharedFolders: readonly string[],
): Promise<VersionFile[]> {
  // A registry subject may have no folder; the config refuses versions entries without one.
  const folder = subject.schemas;
  if (folder === undefined) return [];
  const paths = await listFiles(folder, `subject ${subject.name} schema`, schemaExtensions());
  const explicit = new Map<string, Version>();
  for (const [key, value] of Object.entries(subject.versions)) {
    const version = parseVersion(key, `subject ${subject.name}: versions`);
    if (value.file) {
      const path = resolve(folder, value.file);
      if (!paths.includes(path)) {
        throw new SchemawatchError(
          "FILE_UNREADABLE",
          `${path}: schema file of ${subject.name} ${version.text} ${await whyNotListed(path, folder)}`,
        );
      }
      explicit.set(path, version);
    }
  }
  type Read =
    { path: string; file: SchemaFile; schema: ParsedSchema | undefined } | { path: string; error: unknown };
  const read: Read[] = [];
  // A file of the folder that another imports (`import "units.proto";`) and whose name gives no
  // version is a part of versions, not one: it need not parse on its own (enums only), so errors wait.
  const imported = new Set<string>();
  for (const path of paths) {
    const format = formatOfFile(path) ?? JSON_FORMAT;
    if (format === JSON_FORMAT) {
      read.push({ path, file: await readSchemaFile(path, defaultDialect, shared), schema: undefined });
      continue;
    }
    try {
      const found = await readFormatFile(path, format, [folder, ...sharedFolders]);
      for (const other of found.imported) imported.add(other);
      read.push({ path, file: found.file, schema: found.schema });
    } catch (error) {
      read.push({ path, error });
    }
  }
  const claimed = new Map<string, string>();
  const result: VersionFile[] = [];
  for (const entry of read) {
    const { path } = entry;
    const part = imported.has(resolve(path)) && !explicit.has(path);
    if ("error" in entry) {
      if (part) continue;
      throw entry.error;
    }
    const { file, schema } = entry;
    const version =
      explicit.get(path) ??
      (file.declaredId ? versionFromId(file.declaredId) : undefined) ??
      versionFromFileName(file.name);
    if (!version) {
      if (part) continue;
      throw new SchemawatchError(
        "VERSION_INVALID",
        `${path}: cannot tell which version of ${subject.name} this is: give it a semver $id (…/${subject.name}/1.1.json), a semver file name (1.1.json), or a 'file' entry under versions in the config`,
      );
    }
    const other = claimed.get(version.text);
    if (other) {
      throw new SchemawatchError(
        "SCHEMA_DUPLICATE_VERSION",
        `${path}: claims ${subject.name} ${version.text}, which ${other} already claims`,
      );
    }
    claimed.set(version.text, path);
    result.push({ file, version, ...(schema ? { schema } : {}) });
  }
  for (const key of Object.keys(subject.versions)) {
    const version = parseVersion(key, `subject ${subject.name}: versions`);
    if (!claimed.has(version.text)) {
      throw new SchemawatchError(
        "FILE_UNREADABLE",
        `${folder}: no schema file for ${subject.name} ${version.text}, which the config lists`,
      );
    }
  }
  return result;
}

/** Why a path the config names is none of the folder's schema files, in words that say what to change. */
async function whyNotListed(path: string, folder: string): Promise<string> {
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
  } catch {
    return `not found in ${folder}`;
  }
  if (isFolder) return "is a directory, not a file: name the schema file inside it";
  return `is not one of the schema files directly in ${folder}, where the subject's schema files are read`;
}

/** GUIDs compare without dashes, lower case. */
export function normalizeGuid(guid: string): string {
  return guid.replace(/-/g, "").toLowerCase();
}

/** A schema file compiled on its own, for the offline commands. */
export interface LoadedSchema {
  readonly file: SchemaFile;
  readonly validate: Validator;
}

/**
 * Compiles standalone schema files (offline commands), each on its own: a file's `$ref`s resolve within
 * itself and the other given files (the way shared files serve a catalog). A file never validates
 * through another file that has its `$id`, and another file's `$id` that two given files share is
 * left out of the refs, since a `$ref` to it would be ambiguous.
 */
export async function loadSchemaFiles(
  paths: readonly string[],
  options: CompilerOptions | SchemaCompiler = {},
): Promise<LoadedSchema[]> {
  const compiler = options instanceof SchemaCompiler ? options : new SchemaCompiler(options);
  const files: SchemaFile[] = [];
  for (const path of paths) files.push(await readSchemaFile(path, compiler.defaultDialect));
  const counts = new Map<string, number>();
  for (const file of files) counts.set(file.baseId, (counts.get(file.baseId) ?? 0) + 1);
  const referable: SchemaDocument[] = files.filter((f) => counts.get(f.baseId) === 1).map(documentOf);
  return files.map((file) => ({
    file,
    validate: compiler.compileVersion({ ...documentOf(file), dialect: file.dialect, refs: referable }),
  }));
}
