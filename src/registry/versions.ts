import type { VersionStatus } from "../catalog/types.js";
import { compareVersions, parseVersion, versionFromId, type Version } from "../catalog/version.js";
import type { SubjectRegistryConfig } from "../config/types.js";
import type { RegistryVersion, SkippedVersion } from "./types.js";

/** A registry version with the label the catalog shows and the semver it orders by. */
export interface LabelledVersion {
  readonly version: RegistryVersion;
  /** `3` (labels: number) or `1.1.0` (labels: semver). */
  readonly label: string;
  readonly semver: Version;
}

export interface Labelling {
  readonly labelled: readonly LabelledVersion[];
  /** Versions left out because labels: semver finds no usable label for them. */
  readonly unlabelled: readonly SkippedVersion[];
}

type LabelConfig = Pick<SubjectRegistryConfig, "labels" | "versions">;

/**
 * The version-label rule. A catalog orders versions by semver, and the direction of every check
 * (backward, forward) follows that order, so labels must rise with the registry's version numbers,
 * and a version's label must never change once shown.
 *
 * - `labels: number` (the default): the label is the registry's version number as the registry shows
 *   it (`3`, ordered as 3.0.0). Always rises, never changes.
 * - `labels: semver`: the config's `registry.versions.N.label`, else the semver of the schema's `$id`
 *   (`…/event/1.1.json` is 1.1.0). A version without one, or whose label does not rise above the
 *   label of the version before it (two versions sharing one `$id`, say), is left out and reported
 *   with what to add to the config. A label depends only on the version's own schema, which never
 *   changes, and on the config, so it is stable.
 */
export function labelVersions(versions: readonly RegistryVersion[], config: LabelConfig): Labelling {
  const sorted = [...versions].sort((a, b) => a.version - b.version);
  if (config.labels === "number") {
    return {
      labelled: sorted.map((version) => ({
        version,
        label: String(version.version),
        semver: parseVersion(String(version.version), `${version.subject} version ${version.version}`),
      })),
      unlabelled: [],
    };
  }
  const labelled: LabelledVersion[] = [];
  const unlabelled: SkippedVersion[] = [];
  for (const version of sorted) {
    const fix = `give it one in the config: registry.versions."${version.version}".label`;
    const configured = config.versions[String(version.version)]?.label;
    const id = schemaId(version.schema);
    const semver =
      configured !== undefined
        ? parseVersion(configured, "registry.versions")
        : id
          ? versionFromId(id)
          : undefined;
    const skip = (message: string) =>
      unlabelled.push({
        subject: version.subject,
        version: version.version,
        id: version.id,
        reason: "no_label",
        message,
      });
    if (!semver) {
      skip(
        `${version.subject} version ${version.version} (id ${version.id}): its $id names no semver version; ${fix}`,
      );
      continue;
    }
    const previous = labelled[labelled.length - 1];
    if (previous && compareVersions(semver, previous.semver) <= 0) {
      skip(
        `${version.subject} version ${version.version} (id ${version.id}): its label ${semver.text} does not rise above ${previous.semver.text} of version ${previous.version.version}; ${fix}`,
      );
      continue;
    }
    labelled.push({ version, label: semver.text, semver });
  }
  return { labelled, unlabelled };
}

function schemaId(schema: unknown): string | undefined {
  if (typeof schema !== "object" || schema === null) return undefined;
  const record = schema as Record<string, unknown>;
  // Draft-04 names it `id`; later drafts `$id`.
  const id = record["$id"] ?? record["id"];
  return typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * A registry version's status: the config's `registry.versions.N.status` when given, else what the
 * registry says: soft-deleted or `DISABLED` is `retired`, `DEPRECATED` is `deprecated`, `DRAFT` is
 * `candidate`, anything else `active`.
 */
export function statusOf(
  version: RegistryVersion,
  config: Pick<SubjectRegistryConfig, "versions">,
): VersionStatus {
  const configured = config.versions[String(version.version)]?.status;
  if (configured !== undefined) return configured;
  if (version.deleted || version.state === "DISABLED") return "retired";
  if (version.state === "DEPRECATED") return "deprecated";
  if (version.state === "DRAFT") return "candidate";
  return "active";
}
