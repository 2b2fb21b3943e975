import { idKeyword, type Dialect } from "./dialect.js";
import { EMPTY_ENUM } from "./engine.js";
import { idIgnored, refSiblingsIgnored } from "./reading.js";
import { walkSchemas } from "./walk.js";

/**
 * The document as the engine receives it: its root `$id` set to its base URI (src/catalog/base-uri.ts:
 * a relative `$id` such as `schemas/a.json` resolved where the document was retrieved, so it is
 * registered where refs look for it), an `$id` beside `$ref` dropped where
 * the dialect ignores it (src/catalog/reading.ts), and, for ajv, `enum: []` made compilable.
 */
export function prepare(json: unknown, uri: string, dialect: Dialect, forAjv = true): unknown {
  if (typeof json !== "object" || json === null) return json;
  const copy = structuredClone(json) as Record<string, unknown>;
  const id = idKeyword(dialect);
  walkSchemas(copy, (node) => {
    if (node !== copy && idIgnored(node, dialect, false)) Reflect.deleteProperty(node, id);
    if (!forAjv) return;
    // ajv's ignoreKeywordsWithRef skips every keyword beside `$ref` but `type`, checked before them.
    if (refSiblingsIgnored(dialect) && typeof node["$ref"] === "string") delete node["type"];
    if (!refSiblingsIgnored(dialect) && (node === copy || node[id] !== undefined)) refBesideId(node);
    if (dialect !== "draft-04" && Array.isArray(node["enum"]) && node["enum"].length === 0) {
      delete node["enum"];
      node[EMPTY_ENUM] = true;
    }
    protoAsPattern(node);
  });
  copy[id] = uri;
  return copy;
}

/**
 * ajv 8 runs out of stack compiling a `$ref` that sits beside an `$id` (2019-09 on, where `$ref` resolves
 * against that `$id`) when the target's own `$ref` is a pointer: `{"$id": "b.json", "$defs": {...},
 * "$ref": "#/$defs/inner"}` reached from another resource. The same `$ref` inside `allOf` means the same
 * (from 2019-09 on `$ref` is an applicator like `allOf`, annotations included) and ajv compiles it.
 */
function refBesideId(node: Record<string, unknown>): void {
  const ref = node["$ref"];
  if (typeof ref !== "string") return;
  const allOf = Array.isArray(node["allOf"]) ? node["allOf"] : [];
  delete node["$ref"];
  node["allOf"] = [...allOf, { $ref: ref }];
}

const PROTO = "__proto__";
const PROTO_PATTERN = "^__proto__$";

/**
 * ajv skips a property named `__proto__` in `properties` (a guard against prototype pollution), so a
 * record's own `__proto__` would go unchecked; the same schema as a pattern of exactly that name is
 * checked, and `additionalProperties` and `unevaluatedProperties` read a pattern's match alike.
 */
function protoAsPattern(node: Record<string, unknown>): void {
  const properties = node["properties"];
  if (!isRecord(properties) || !Object.hasOwn(properties, PROTO)) return;
  const patterns = isRecord(node["patternProperties"]) ? node["patternProperties"] : {};
  if (Object.hasOwn(patterns, PROTO_PATTERN)) return;
  Object.defineProperty(patterns, PROTO_PATTERN, {
    value: properties[PROTO],
    enumerable: true,
    writable: true,
    configurable: true,
  });
  node["patternProperties"] = patterns;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
