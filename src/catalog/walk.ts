/**
 * Walks every place of a schema document where a subschema may sit, with its JSON Pointer. Keywords
 * whose values are data (`const`, `enum`, `default`, `examples`, ...) are not entered; unknown keywords
 * are, because a `$ref` may point into them (`#/x-defs/money`).
 */
export function walkSchemas(
  root: unknown,
  visit: (node: Record<string, unknown>, pointer: string) => void,
): void {
  const seen = new Set<object>();
  const walk = (node: unknown, pointer: string): void => {
    if (typeof node !== "object" || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
      return;
    }
    const record = node as Record<string, unknown>;
    visit(record, pointer);
    for (const [key, value] of Object.entries(record)) {
      if (DATA_KEYWORDS.has(key) || typeof value !== "object" || value === null) continue;
      const at = `${pointer}/${escapePointer(key)}`;
      if (MAPS.has(key) && !Array.isArray(value)) {
        for (const [name, child] of Object.entries(value)) walk(child, `${at}/${escapePointer(name)}`);
      } else walk(value, at);
    }
  };
  walk(root, "");
}

/** Keywords whose values are data, never subschemas. */
export const DATA_KEYWORDS: ReadonlySet<string> = new Set([
  "const",
  "enum",
  "default",
  "examples",
  "required",
  "type",
  "dependentRequired",
  "$vocabulary",
  "$comment",
  "title",
  "description",
]);

/** Keywords whose values map names to subschemas. */
export const MAPS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
]);

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}
