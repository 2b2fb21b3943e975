import { isAlias, isMap, isScalar, isSeq, type Document, type Node } from "yaml";
import { tryParseVersion } from "../catalog/version.js";
import { SchemawatchError } from "../errors.js";

interface RawVersions {
  versions?: Record<string, unknown>;
}

/**
 * Gives the `versions` keys YAML read as numbers (`1.10:`, `2:`) back the text they were written
 * with: the number 1.1 would make `1.10` version 1.1.0, and `1.1` and `1.10` one duplicate key.
 */
export function versionKeysAsWritten(document: Document, subjects: RawVersions[]): void {
  const list = resolved(document, valueAt(document.contents, "subjects"));
  if (!isSeq(list)) return;
  subjects.forEach((subject, index) => {
    const versions = resolved(document, valueAt(resolved(document, list.items[index]), "versions"));
    if (!subject.versions || !isMap(versions)) return;
    const written = new Map<string, string>();
    for (const { key } of versions.items) {
      if (isScalar(key) && typeof key.value === "number" && key.source)
        written.set(String(key.value), key.source);
    }
    if (written.size === 0) return;
    subject.versions = Object.fromEntries(
      Object.entries(subject.versions).map(([key, value]) => [written.get(key) ?? key, value]),
    );
  });
}

function valueAt(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  return node.items.find((pair) => isScalar(pair.key) && pair.key.value === key)?.value;
}

function resolved(document: Document, node: unknown): Node | undefined {
  if (isAlias(node)) return node.resolve(document) as Node | undefined;
  return node as Node | undefined;
}

/** The line of a key path of the config. */
export type LineOf = (segments: readonly (string | number)[]) => number;

/**
 * Refuses two keys of a subject's `versions` that name one version (`1.0` and `1.0.0`, `v2` and
 * `2.0.0`): the catalog would take the first and drop the other's settings without a word, so a
 * version marked deprecated under one spelling would stay active under the other.
 */
export function checkVersionKeys(
  subjects: readonly { versions?: Readonly<Record<string, unknown>> }[],
  path: string,
  lineOf: LineOf,
): void {
  subjects.forEach((subject, index) => {
    const seen = new Map<string, string>();
    const at = (key: string) => lineOf(["subjects", index, "versions", key]);
    // In the order written: an object lists integer-like keys ("3") first.
    const keys = Object.keys(subject.versions ?? {}).sort((a, b) => at(a) - at(b));
    for (const key of keys) {
      // A key that is no version is the catalog's to refuse, with its own message.
      const version = tryParseVersion(key)?.text;
      if (version === undefined) continue;
      const first = seen.get(version);
      if (first === undefined) {
        seen.set(version, key);
        continue;
      }
      throw new SchemawatchError(
        "CONFIG_INVALID",
        `${path}:${at(key)}: subjects[${index}].versions: '${key}' and '${first}' (line ${at(first)}) both name version ${version}; give each version one entry`,
      );
    }
  });
}
