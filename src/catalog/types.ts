import type { Format, ParsedSchema } from "../formats/format.js";
import type { SchemaDocument, Validator } from "./compiler.js";
import type { SchemaFile } from "./schema-file.js";
import type { Version } from "./version.js";

export type VersionStatus = "active" | "deprecated" | "candidate" | "retired";

export const VERSION_STATUSES: readonly VersionStatus[] = ["active", "deprecated", "candidate", "retired"];

/** One version of a subject: its schema, compiled once, and its lifecycle status. */
export interface CatalogVersion {
  readonly subject: string;
  readonly version: Version;
  readonly status: VersionStatus;
  /**
   * The schema file, or for a registered version its document. A version of another format than JSON
   * Schema holds its schema's JSON here too (an Avro schema is JSON) with `schema` beside it.
   */
  readonly file: SchemaFile;
  /**
   * JSON Schema's compiled check. A version of another format accepts every document here (it is read
   * through its format: `CatalogSubject.format.check`, with `schema`).
   */
  readonly validate: Validator;
  /** The parsed schema of a version whose format is not JSON Schema; absent for JSON Schema. */
  readonly schema?: ParsedSchema;
  readonly deprecatedSince?: string;
  readonly confluentId?: number;
  readonly confluentGuid?: string;
  /** Apicurio's globalId and contentId of a registered version, where its registry is Apicurio 3. */
  readonly globalId?: number;
  readonly contentId?: number;
  /** Where a registered version comes from; absent for a schema file. */
  readonly registry?: RegistryOrigin;
  /** The documents its `$ref`s reach besides the shared files: a registered version's references. */
  readonly refs?: readonly SchemaDocument[];
}

/** A registered version's place in its registry. */
export interface RegistryOrigin {
  /** The `registries` key. */
  readonly name: string;
  readonly subject: string;
  /** The registry's version number. */
  readonly version: number;
}

/** A subject: one contract with its versions in ascending semver order. */
export interface CatalogSubject {
  readonly name: string;
  readonly topics: readonly string[];
  /** The subject's one format: every version of a subject is in it (src/formats/). */
  readonly format: Format;
  readonly versions: readonly CatalogVersion[];
  /** The versions that are evaluated (every status but retired), ascending. */
  readonly readers: readonly CatalogVersion[];
  /**
   * Looks a version up by its text (`1.1.0`, or `3` for a registry version labelled by number) and by
   * its normalized semver (`3.0.0`), so a writer that declares either finds it.
   */
  readonly byVersion: ReadonlyMap<string, CatalogVersion>;
  /**
   * This subject's versions by wire id and GUID. Ids belong to content, not to subjects (the same
   * schema registered under two subjects has one id), so a record is looked up in its own subject.
   */
  readonly byConfluentId: ReadonlyMap<number, CatalogVersion>;
  readonly byConfluentGuid: ReadonlyMap<string, CatalogVersion>;
  /** This subject's versions by Apicurio globalId and contentId (empty unless its registry is Apicurio 3). */
  readonly byGlobalId: ReadonlyMap<number, CatalogVersion>;
  readonly byContentId: ReadonlyMap<number, CatalogVersion>;
}

export interface Catalog {
  readonly subjects: ReadonlyMap<string, CatalogSubject>;
  /** Which subject a topic carries. */
  readonly subjectByTopic: ReadonlyMap<string, CatalogSubject>;
  /** Confluent schema registry ids and GUIDs mapped to versions, over every subject (first one wins). */
  readonly byConfluentId: ReadonlyMap<number, CatalogVersion>;
  readonly byConfluentGuid: ReadonlyMap<string, CatalogVersion>;
}
