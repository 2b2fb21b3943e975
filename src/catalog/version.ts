import { SchemawatchError } from "../errors.js";

/** A parsed semver version. `1.1` in data or `$id` means `1.1.0`. */
export interface Version {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  readonly prerelease: string;
  /** The normalized text, always MAJOR.MINOR.PATCH[-PRERELEASE]. */
  readonly text: string;
}

const VERSION = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?(?:\.(0|[1-9]\d*))?(?:-([0-9A-Za-z.-]+))?$/;

/** Parses `1`, `1.1`, `1.1.0`, `v1.1.0-rc.1`; returns undefined when the text is not a version. */
export function tryParseVersion(text: string): Version | undefined {
  const match = VERSION.exec(text.trim());
  if (!match) return undefined;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  const patch = Number(match[3] ?? 0);
  const prerelease = match[4] ?? "";
  const core = `${major}.${minor}.${patch}`;
  return { major, minor, patch, prerelease, text: prerelease ? `${core}-${prerelease}` : core };
}

export function parseVersion(text: string, where: string): Version {
  const version = tryParseVersion(text);
  if (!version) {
    throw new SchemawatchError(
      "VERSION_INVALID",
      `${where}: '${text}' is not a semver version (expected MAJOR.MINOR.PATCH, for example 1.1.0; 1.1 means 1.1.0)`,
    );
  }
  return version;
}

/** Normalizes a version text (`1.1` → `1.1.0`), or returns undefined when it is not one. */
export function normalizeVersion(text: string): string | undefined {
  return tryParseVersion(text)?.text;
}

/** Semver precedence: negative when a < b. Prerelease identifiers compare as semver says. */
export function compareVersions(a: Version, b: Version): number {
  if (a.major !== b.major) return a.major - b.major;
  if (a.minor !== b.minor) return a.minor - b.minor;
  if (a.patch !== b.patch) return a.patch - b.patch;
  if (a.prerelease === b.prerelease) return 0;
  if (!a.prerelease) return 1;
  if (!b.prerelease) return -1;
  const left = a.prerelease.split(".");
  const right = b.prerelease.split(".");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const l = left[i];
    const r = right[i];
    if (l === undefined) return -1;
    if (r === undefined) return 1;
    const ln = /^\d+$/.test(l) ? Number(l) : undefined;
    const rn = /^\d+$/.test(r) ? Number(r) : undefined;
    if (ln !== undefined && rn !== undefined) {
      if (ln !== rn) return ln - rn;
    } else if (ln !== undefined) {
      return -1;
    } else if (rn !== undefined) {
      return 1;
    } else if (l !== r) {
      return l < r ? -1 : 1;
    }
  }
  return 0;
}

/**
 * The version a schema's `$id` names: the last path segment that is a version, with `.json` dropped
 * (`https://example.com/schemas/event/1.1.json` → 1.1.0, `.../event/v2/schema.json` → 2.0.0).
 */
export function versionFromId(id: string): Version | undefined {
  let path: string;
  try {
    path = new URL(id, "schemawatch:/").pathname;
  } catch {
    return undefined;
  }
  const segments = path.split("/").filter(Boolean).reverse();
  for (const segment of segments) {
    const version = tryParseVersion(segment.replace(/\.json$/i, ""));
    if (version) return version;
  }
  return undefined;
}

/** The version a file name names: `1.1.json`, `event-1.1.0.json`, `v2.json`, `event.v1.2.json`. */
export function versionFromFileName(fileName: string): Version | undefined {
  const stem = fileName.replace(/\.(json|avsc|proto)$/i, "");
  const direct = tryParseVersion(stem);
  if (direct) return direct;
  const match = /(?:^|[-_.@])v?(\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?)$/.exec(stem);
  return match?.[1] ? tryParseVersion(match[1]) : undefined;
}
