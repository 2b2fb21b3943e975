import type { RegistryState, RegistryVersion, SubjectSnapshot } from "./types.js";

/**
 * The metadata property a version registered in Confluent Schema Registry (7.4 and later) or
 * Confluent Cloud can carry to give schemawatch its status: `metadata.properties["schemawatch.status"]`.
 */
export const STATUS_PROPERTY = "schemawatch.status";

// What the property's values mean, in the words of the registries that keep states (Apicurio's).
const BY_STATUS: Readonly<Record<string, RegistryState>> = {
  active: "ENABLED",
  deprecated: "DEPRECATED",
  retired: "DISABLED",
  candidate: "DRAFT",
};

/**
 * The state a version's Confluent metadata declares (`"metadata": {"properties":
 * {"schemawatch.status": "deprecated"}}`), or undefined when it declares none or one schemawatch
 * does not know. Confluent fixes a version's metadata when the version is registered.
 */
export function stateFromMetadata(body: Record<string, unknown>): RegistryState | undefined {
  const metadata = body["metadata"];
  if (typeof metadata !== "object" || metadata === null) return undefined;
  const properties = (metadata as Record<string, unknown>)["properties"];
  if (typeof properties !== "object" || properties === null) return undefined;
  const value = (properties as Record<string, unknown>)[STATUS_PROPERTY];
  return typeof value === "string" ? BY_STATUS[value.trim().toLowerCase()] : undefined;
}

/** Whether the registry has taken a version out of use: soft-deleted, or `DISABLED`. */
export function isRetired(version: Pick<RegistryVersion, "deleted" | "state">): boolean {
  return version.deleted || version.state === "DISABLED";
}

/**
 * The versions that were in use in `before` and are retired, or gone, in `after`: what a poll saw
 * being retired, whoever did it (`schemawatch prune`, a registry's UI, a hand-made call).
 */
export function retiredBetween(before: SubjectSnapshot | undefined, after: SubjectSnapshot): number[] {
  if (!before) return [];
  const now = new Map(after.versions.map((v) => [v.version, v]));
  const skipped = new Set(after.skipped.map((s) => s.version));
  return before.versions
    .filter((v) => !isRetired(v) && !skipped.has(v.version))
    .filter((v) => {
      const next = now.get(v.version);
      return next === undefined || isRetired(next);
    })
    .map((v) => v.version);
}
