import type { ErrorObject } from "ajv/dist/2020.js";
import { isMap, isScalar, isSeq, type LineCounter, type Node } from "yaml";

/** A schema validation error in words a user can act on. */
export function describe(error: ErrorObject): string {
  switch (error.keyword) {
    case "additionalProperties":
      return `unknown key '${String(error.params["additionalProperty"])}'`;
    case "required":
      return `missing required key '${String(error.params["missingProperty"])}'`;
    case "enum":
      return `must be one of ${(error.params["allowedValues"] as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "pattern":
      if (/\/fields\//.test(error.instancePath))
        return "must be a JSON Pointer such as /amount or /items/*/sku";
      if (error.instancePath === "/validationTimeout")
        return "must be a duration above zero in milliseconds or seconds, such as 100ms or 2s";
      return error.instancePath.match(/Window|lagInterval/)
        ? "must be a duration such as 30s, 15m, 24h or 7d"
        : `must match ${String(error.params["pattern"])}`;
    case "propertyNames":
      if (error.instancePath.endsWith("/registry/versions")) {
        return "registry version keys are the registry's version numbers, such as 3";
      }
      if (error.instancePath.endsWith("/fields/replaces"))
        return "must be a JSON Pointer such as /total (the replacement, whose value names the field it replaces)";
      if (error.instancePath === "/registries") return "registry names are letters, digits, '.', '_' and '-'";
      return "version keys must be semver, such as 1.1.0";
    default:
      return error.message ?? error.keyword;
  }
}

/** Finds the YAML line of the key an error is about, and the dotted key itself. */
export function locate(root: unknown, error: ErrorObject, lines: LineCounter): { line: number; key: string } {
  const segments = error.instancePath
    .split("/")
    .slice(1)
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const extra =
    error.keyword === "additionalProperties"
      ? String(error.params["additionalProperty"])
      : error.keyword === "propertyNames"
        ? String(error.params["propertyName"])
        : undefined;
  return walk(root, extra === undefined ? segments : [...segments, extra], lines);
}

/** The YAML line of a key path (the deepest part of it that exists), and the dotted key itself. */
export function walk(
  root: unknown,
  path: readonly string[],
  lines: LineCounter,
): { line: number; key: string } {
  let node = root as Node | null | undefined;
  let keyNode: Node | undefined;
  // A list index is written [0] and a map key .name, even a numeric one (registry.versions.3).
  const parts: string[] = [];
  for (const segment of path) {
    if (isMap(node)) {
      // A version key read as a number (`1.10:`) is found by the text it was written with too.
      const pair = node.items.find(
        (item) => isScalar(item.key) && (String(item.key.value) === segment || item.key.source === segment),
      );
      keyNode = pair?.key as Node | undefined;
      node = pair?.value as Node | undefined;
      parts.push(`.${segment}`);
    } else if (isSeq(node)) {
      node = node.items[Number(segment)] as Node | undefined;
      keyNode = node ?? keyNode;
      parts.push(`[${segment}]`);
    } else {
      parts.push(/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`);
      node = undefined;
    }
  }
  const range = (keyNode ?? node)?.range;
  const line = range ? lines.linePos(range[0]).line : 1;
  const key = parts.join("").replace(/^\./, "") || "(root)";
  return { line, key };
}
