import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Config, SubjectConfig } from "../config/types.js";
import { SchemawatchError, messageOf } from "../errors.js";
import { SchemaSet } from "./compiler.js";
import { readSchemaFile, type SchemaFile } from "./schema-file.js";
import type { Catalog, CatalogSubject, CatalogVersion } from "./types.js";
import {
  compareVersions,
  parseVersion,
  versionFromFileName,
  versionFromId,
  type Version,
} from "./version.js";

/** Lists the `.json` files of a folder (not recursive), sorted, with an error naming the folder. */
export async function listJsonFiles(folder: string, what: string): Promise<string[]> {
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
    .filter((name) => name.toLowerCase().endsWith(".json"))
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
 * Loads every subject's schema files, decides each file's version (config `file`, else `$id`, else the
 * file name), and compiles each once. Any problem stops loading with an error naming the file.
 */
export async function loadCatalog(config: Config): Promise<Catalog> {
  const set = new SchemaSet();
  for (const path of await sharedFiles(config.shared)) set.add(await readSchemaFile(path));

  const pending: Array<{ subject: SubjectConfig; files: Array<{ file: SchemaFile; version: Version }> }> = [];
  for (const subject of config.subjects) {
    const files = await versionFiles(subject);
    for (const { file } of files) set.add(file);
    pending.push({ subject, files });
  }

  const subjects = new Map<string, CatalogSubject>();
  const subjectByTopic = new Map<string, CatalogSubject>();
  const byConfluentId = new Map<number, CatalogVersion>();
  const byConfluentGuid = new Map<string, CatalogVersion>();
  for (const { subject, files } of pending) {
    const versions = files.map(({ file, version }): CatalogVersion => {
      const meta = configFor(subject, version);
      return {
        subject: subject.name,
        version,
        status: meta?.status ?? "active",
        file,
        validate: set.compile(file),
        ...(meta?.deprecatedSince ? { deprecatedSince: meta.deprecatedSince } : {}),
        ...(meta?.confluentId !== undefined ? { confluentId: meta.confluentId } : {}),
        ...(meta?.confluentGuid ? { confluentGuid: normalizeGuid(meta.confluentGuid) } : {}),
      };
    });
    versions.sort((a, b) => compareVersions(a.version, b.version));
    const entry = buildSubject(subject.name, subject.topics, versions);
    subjects.set(subject.name, entry);
    for (const topic of subject.topics) subjectByTopic.set(topic, entry);
    for (const version of versions) {
      if (version.confluentId !== undefined) {
        const other = byConfluentId.get(version.confluentId);
        if (other) {
          throw new SchemawatchError(
            "CONFIG_INVALID",
            `${config.path}: confluentId ${version.confluentId} is given to both ${other.subject} ${other.version.text} and ${version.subject} ${version.version.text}`,
          );
        }
        byConfluentId.set(version.confluentId, version);
      }
      if (version.confluentGuid) byConfluentGuid.set(version.confluentGuid, version);
    }
  }
  return { subjects, subjectByTopic, byConfluentId, byConfluentGuid };
}

export function buildSubject(
  name: string,
  topics: readonly string[],
  versions: readonly CatalogVersion[],
): CatalogSubject {
  return {
    name,
    topics,
    versions,
    readers: versions.filter((v) => v.status !== "retired"),
    byVersion: new Map(versions.map((v) => [v.version.text, v])),
  };
}

function configFor(subject: SubjectConfig, version: Version) {
  for (const [key, value] of Object.entries(subject.versions)) {
    if (parseVersion(key, `subject ${subject.name}: versions`).text === version.text) return value;
  }
  return undefined;
}

async function versionFiles(subject: SubjectConfig): Promise<Array<{ file: SchemaFile; version: Version }>> {
  const paths = await listJsonFiles(subject.schemas, `subject ${subject.name} schema`);
  const explicit = new Map<string, Version>();
  for (const [key, value] of Object.entries(subject.versions)) {
    const version = parseVersion(key, `subject ${subject.name}: versions`);
    if (value.file) {
      const path = resolve(subject.schemas, value.file);
      if (!paths.includes(path)) {
        throw new SchemawatchError(
          "FILE_UNREADABLE",
          `${path}: schema file of ${subject.name} ${version.text} not found in ${subject.schemas}`,
        );
      }
      explicit.set(path, version);
    }
  }
  const claimed = new Map<string, string>();
  const result: Array<{ file: SchemaFile; version: Version }> = [];
  for (const path of paths) {
    const file = await readSchemaFile(path);
    const version =
      explicit.get(path) ??
      (file.declaredId ? versionFromId(file.declaredId) : undefined) ??
      versionFromFileName(file.name);
    if (!version) {
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
    result.push({ file, version });
  }
  for (const key of Object.keys(subject.versions)) {
    const version = parseVersion(key, `subject ${subject.name}: versions`);
    if (!claimed.has(version.text)) {
      throw new SchemawatchError(
        "FILE_UNREADABLE",
        `${subject.schemas}: no schema file for ${subject.name} ${version.text}, which the config lists`,
      );
    }
  }
  return result;
}

/** GUIDs compare without dashes, lower case. */
export function normalizeGuid(guid: string): string {
  return guid.replace(/-/g, "").toLowerCase();
}

/** Compiles standalone schema files (offline commands): refs resolve between the given files. */
export async function loadSchemaFiles(
  paths: readonly string[],
): Promise<Array<{ file: SchemaFile; validate: CatalogVersion["validate"] }>> {
  const set = new SchemaSet();
  const files: SchemaFile[] = [];
  for (const path of paths) {
    const file = await readSchemaFile(path);
    if (!files.some((f) => f.baseId === file.baseId)) set.add(file);
    files.push(file);
  }
  return files.map((file) => ({ file, validate: set.compile(file) }));
}
