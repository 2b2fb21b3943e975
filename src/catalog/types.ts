import type { Validator } from "./compiler.js";
import type { SchemaFile } from "./schema-file.js";
import type { Version } from "./version.js";

export type VersionStatus = "active" | "deprecated" | "candidate" | "retired";

export const VERSION_STATUSES: readonly VersionStatus[] = ["active", "deprecated", "candidate", "retired"];

/** One version of a subject: its schema, compiled once, and its lifecycle status. */
export interface CatalogVersion {
  readonly subject: string;
  readonly version: Version;
  readonly status: VersionStatus;
  readonly file: SchemaFile;
  readonly validate: Validator;
  readonly deprecatedSince?: string;
  readonly confluentId?: number;
  readonly confluentGuid?: string;
}

/** A subject: one contract with its versions in ascending semver order. */
export interface CatalogSubject {
  readonly name: string;
  readonly topics: readonly string[];
  readonly versions: readonly CatalogVersion[];
  /** The versions that are evaluated (every status but retired), ascending. */
  readonly readers: readonly CatalogVersion[];
  /** Looks a version up by its normalized text (`1.1.0`). */
  readonly byVersion: ReadonlyMap<string, CatalogVersion>;
}

export interface Catalog {
  readonly subjects: ReadonlyMap<string, CatalogSubject>;
  /** Which subject a topic carries. */
  readonly subjectByTopic: ReadonlyMap<string, CatalogSubject>;
  /** Confluent schema registry ids and GUIDs mapped to versions. */
  readonly byConfluentId: ReadonlyMap<number, CatalogVersion>;
  readonly byConfluentGuid: ReadonlyMap<string, CatalogVersion>;
}
