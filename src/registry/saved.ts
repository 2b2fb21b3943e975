import type { RegistryVersion, ResolvedReference, SubjectSnapshot } from "./types.js";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isSchema = (value: unknown) => typeof value === "boolean" || isRecord(value);

/**
 * A version's or a reference's schema as its format saves it: JSON Schema's is an object or a boolean
 * and has no `schemaType`; another format's keeps its registered `text`, and its `schema` is that text
 * parsed where it is JSON (an Avro union or type name too) or the text itself (a .proto), so any value.
 */
function hasSchema(value: Record<string, unknown>): boolean {
  if (value["schemaType"] === undefined) return isSchema(value["schema"]);
  return typeof value["schemaType"] === "string" && typeof value["text"] === "string" && "schema" in value;
}

function isEntry(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value["name"] === "string" &&
    typeof value["subject"] === "string" &&
    Number.isInteger(value["version"])
  );
}

function isReference(value: unknown): value is ResolvedReference {
  return (
    isEntry(value) &&
    Number.isInteger((value as Record<string, unknown>)["id"]) &&
    Array.isArray((value as Record<string, unknown>)["references"]) &&
    ((value as Record<string, unknown>)["references"] as unknown[]).every(isEntry) &&
    hasSchema(value as Record<string, unknown>)
  );
}

/** Metadata tags as a snapshot keeps them: a name (or pattern) to a list of tag names. */
const isTags = (value: unknown): boolean =>
  isRecord(value) &&
  Object.values(value).every((tags) => Array.isArray(tags) && tags.every((t) => typeof t === "string"));

function isVersion(value: unknown): value is RegistryVersion {
  if (!isRecord(value)) return false;
  const entries = value["referenceEntries"];
  return (
    typeof value["subject"] === "string" &&
    Number.isInteger(value["version"]) &&
    Number.isInteger(value["id"]) &&
    hasSchema(value) &&
    typeof value["deleted"] === "boolean" &&
    Array.isArray(value["references"]) &&
    value["references"].every(isReference) &&
    (entries === undefined || (Array.isArray(entries) && entries.every(isEntry))) &&
    (value["metadataTags"] === undefined || isTags(value["metadataTags"]))
  );
}

function isSnapshot(value: unknown): value is SubjectSnapshot {
  return (
    isRecord(value) &&
    typeof value["registry"] === "string" &&
    typeof value["subject"] === "string" &&
    typeof value["fetchedAt"] === "number" &&
    Array.isArray(value["versions"]) &&
    value["versions"].every(isVersion) &&
    Array.isArray(value["skipped"])
  );
}

/**
 * The registry snapshots a state file kept (its `registry` field): each one that has the shape of a
 * snapshot, others dropped. A state from before registries, or none, gives none.
 */
export function savedSnapshots(saved: unknown): SubjectSnapshot[] {
  return Array.isArray(saved) ? saved.filter(isSnapshot) : [];
}
