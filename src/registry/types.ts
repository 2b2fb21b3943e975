import type { MetadataTags } from "../formats/tags.js";

/**
 * What the catalog reads from a schema registry with the Confluent REST API (Confluent Schema Registry
 * and Cloud, Apicurio's `ccompat`, Karapace, Redpanda). Plain data: the catalog turns it into versions.
 */

/**
 * A version's own state where the registry has one: Apicurio's native API, or the
 * `schemawatch.status` property of a version's Confluent metadata (states.ts); absent elsewhere.
 */
export type RegistryState = "ENABLED" | "DEPRECATED" | "DISABLED" | "DRAFT";

export const REGISTRY_STATES: readonly RegistryState[] = ["ENABLED", "DEPRECATED", "DISABLED", "DRAFT"];

/** A `references` entry as the registry returns it: `name` is what the schema's `$ref` uses. */
export interface ReferenceEntry {
  readonly name: string;
  readonly subject: string;
  readonly version: number;
}

/** One registered schema as `GET /subjects/{s}/versions/{v}` answers, schema text still unparsed. */
export interface RegisteredSchema {
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  readonly guid?: string;
  /** `JSON`, `AVRO` (the registry's default when it omits the field), `PROTOBUF`, … */
  readonly schemaType: string;
  readonly schema: string;
  readonly references: readonly ReferenceEntry[];
  /** The state its Confluent metadata declares (`schemawatch.status`), where it declares one. */
  readonly metadataState?: RegistryState;
  /**
   * Its Confluent metadata's field tags (`metadata.tags`: a field's full name or pattern to tag
   * names), where it has any. Confluent Schema Registry 7.4+ and Cloud keep them; Apicurio 3.3's
   * ccompat API drops a registration's `metadata` and never returns one.
   */
  readonly metadataTags?: MetadataTags;
}

/**
 * A referenced schema, resolved: everything a version's `$ref`s can reach, transitively, each
 * (subject, version) fetched once. `references` are its own, so a compiler can nest them.
 */
export interface ResolvedReference {
  /** The name the referencing schema uses in its `$ref`. */
  readonly name: string;
  readonly subject: string;
  readonly version: number;
  readonly id: number;
  readonly schema: unknown;
  readonly references: readonly ReferenceEntry[];
  /** The registry's `schemaType` when it is not JSON (`AVRO`); absent for JSON Schema. */
  readonly schemaType?: string;
  /** The registered text, for a version that is not JSON Schema: what its format parses. */
  readonly text?: string;
}

/** One version of a registry subject, in a format schemawatch reads, with its references resolved. */
export interface RegistryVersion {
  readonly subject: string;
  /** The registry's version number: 1, 2, 3 … */
  readonly version: number;
  /** The id the Confluent wire prefix carries. */
  readonly id: number;
  readonly guid?: string;
  /** Apicurio's ids of the version (its native API), which its serdes may write instead of `id`. */
  readonly globalId?: number;
  readonly contentId?: number;
  /** The parsed schema (an Avro schema is JSON too). */
  readonly schema: unknown;
  /**
   * The registry's `schemaType` when it is not JSON (`AVRO`, read from a version without one);
   * absent for JSON Schema, as in snapshots saved before other formats.
   */
  readonly schemaType?: string;
  /**
   * The registered text, for a version that is not JSON Schema: what its format parses (`schema` is
   * that text parsed as JSON where it is JSON, as an Avro schema is; the text itself otherwise).
   */
  readonly text?: string;
  /** Its registry metadata's field tags (`RegisteredSchema.metadataTags`), where it has any. */
  readonly metadataTags?: MetadataTags;
  /** Every schema its `$ref`s reach, deepest first, each (name, subject, version) once. */
  readonly references: readonly ResolvedReference[];
  /** Its own `references` entries, as registered (the roots of `references`). */
  readonly referenceEntries?: readonly ReferenceEntry[];
  readonly state?: RegistryState;
  /** Soft-deleted: listed with `?deleted=true` only. */
  readonly deleted: boolean;
}

/** A version the catalog cannot use, and why; reported, never fatal. */
export interface SkippedVersion {
  readonly subject: string;
  readonly version: number;
  readonly id?: number;
  readonly reason: "not_json_schema" | "invalid_schema" | "reference_failed" | "no_label";
  readonly message: string;
}

/** The subject's compatibility level, and whether it is the subject's own or the global one. */
export interface CompatibilityLevel {
  readonly level: string;
  readonly source: "subject" | "global";
}

/** Everything a registry holds about one subject at one moment. */
export interface SubjectSnapshot {
  /** The `registries` key the snapshot came from. */
  readonly registry: string;
  readonly subject: string;
  /** Usable versions, ascending by version number. */
  readonly versions: readonly RegistryVersion[];
  readonly skipped: readonly SkippedVersion[];
  /** Undefined when the registry does not say. */
  readonly compatibility: CompatibilityLevel | undefined;
  /** Epoch milliseconds of the fetch. */
  readonly fetchedAt: number;
}

/** How a registry's id and GUID lookups ended, counted per request rather than per record. */
export type LookupResult = "found" | "missing" | "failed" | "unsupported";

/** A followed registry's condition, for metrics, `/api/status` and the report. */
export interface RegistryStatus {
  /** The `registries` key. */
  readonly name: string;
  readonly url: string;
  /** Whether the last poll read every subject; false before the first one answered too. */
  readonly up: boolean;
  /** Epoch milliseconds: since when it has not answered (the start, when it never did). */
  readonly downSince: number | undefined;
  /** Epoch milliseconds of the end of the last poll that read every subject. */
  readonly lastSuccess: number | undefined;
  readonly lastError: string | undefined;
  readonly lookups: Readonly<Record<LookupResult, number>>;
  /** Lookups not sent because the lookups in flight or per second were at their bound. */
  readonly lookupsSkipped: number;
  /** Per followed registry subject: versions its polls saw retired (soft-deleted, DISABLED, gone). */
  readonly retired?: Readonly<Record<string, number>>;
}

/** One config subject's registry subject, as the report shows it beside the traffic. */
export interface SubjectRegistryStatus {
  readonly registry: RegistryStatus;
  readonly subject: string;
  /** Undefined when the registry does not say, or was never read. */
  readonly compatibility: CompatibilityLevel | undefined;
  /** Epoch milliseconds of the snapshot in use; undefined when there is none yet. */
  readonly snapshotAt: number | undefined;
  /** Registered versions the catalog leaves out, and why. */
  readonly leftOut: readonly string[];
}
