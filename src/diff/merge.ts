import { isObject, type Loc } from "./document.js";
import { isInert } from "./keywords.js";
import type { Model } from "./model.js";
import { ALL, BOOLEAN, FRACTION, INTEGER, maskOfType, NULL } from "./typeset.js";
import type { View } from "./view.js";

/**
 * A node at least as permissive as `base` AND `branch`: the branch's keywords plus the base's keywords
 * that do not interact with them. Proving the merge a subset of something proves the conjunction is.
 */
export function mergeBranch(
  model: Model,
  cache: WeakMap<object, WeakMap<object, Loc>>,
  base: View,
  branch: Loc,
): Loc {
  const target = model.deref(branch);
  if (!isObject(target.node) || target.doc !== base.loc.doc) return target;
  const own = Object.keys(base.raw).filter((key) => !isInert(key, base) && !COMBINATORS.has(key));
  if (own.length === 0) return target;
  let byBranch = cache.get(base.raw);
  if (!byBranch) cache.set(base.raw, (byBranch = new WeakMap()));
  const cached = byBranch.get(target.node);
  if (cached) return cached;
  const branchNode = target.node;
  const taken = new Set(Object.keys(branchNode).map(groupOf));
  const keywords = new Map<string, unknown>();
  for (const key of own) {
    if (!taken.has(groupOf(key)) || key === "required" || key === "type") keywords.set(key, base.raw[key]);
  }
  for (const [key, value] of Object.entries(branchNode)) {
    const mine = keywords.get(key);
    if (key === "required" && Array.isArray(mine) && Array.isArray(value)) {
      keywords.set(key, [...new Set([...(mine as unknown[]), ...value])]);
    } else if (key === "type") {
      // Without a type on the node, ALL: the branch's own types, by name.
      keywords.set(key, typeNames((maskOfType(mine) ?? ALL) & (maskOfType(value) ?? ALL)));
    } else keywords.set(key, value);
  }
  const properties = own.includes("properties") ? mergedProperties(base.raw, branchNode) : undefined;
  if (properties) keywords.set("properties", properties);
  // Own properties, whatever their names: assigned, a branch's "__proto__" would become the merged
  // node's prototype and lend it keywords (a `type`) that neither side has.
  const merged = Object.fromEntries(keywords);
  // Registered like every node, though no lookup reaches it: a merge is never the value of another
  // node, and preload would only resolve the branch's $ref again.
  // Stryker disable next-line CallExpression: nothing reads a merge's pointer from the map (its Loc carries it)
  target.doc.pointers.set(merged, target.ptr);
  target.doc.bases.set(merged, target.doc.bases.get(branchNode) ?? target.doc.uri);
  const loc: Loc = { node: merged, ptr: target.ptr, doc: target.doc };
  byBranch.set(target.node, loc);
  return loc;
}

/**
 * Both sides' `properties`, a name both declare under the conjunction of its two schemas (`allOf`):
 * `then: {properties: {data: {pattern}}}` beside `properties: {data: {type: "string"}}` still knows
 * `data` is a string. The base's `additionalProperties` and `patternProperties` stay out (the
 * branch's are kept whole), and a name the branch's `additionalProperties` bounded and the base
 * declares is now bounded by the base alone: at least as permissive, as a merge must be.
 */
function mergedProperties(base: Record<string, unknown>, branch: Record<string, unknown>): unknown {
  const mine = base["properties"];
  const theirs = branch["properties"];
  if (!isObject(mine) || !isObject(theirs)) return undefined;
  const entries = Object.entries(mine).map(([name, schema]): [string, unknown] =>
    Object.hasOwn(theirs, name) ? [name, { allOf: [schema, theirs[name]] }] : [name, schema],
  );
  for (const [name, schema] of Object.entries(theirs))
    if (!Object.hasOwn(mine, name)) entries.push([name, schema]);
  return Object.fromEntries(entries);
}

const COMBINATORS = new Set([
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$recursiveRef",
  "$dynamicRef",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
]);

// Keywords that read each other (a tuple and its rest, properties and additionalProperties, draft-04's
// boolean exclusive bounds) must come from one side of a merge.
const GROUPS: Readonly<Record<string, string>> = {
  properties: "object",
  patternProperties: "object",
  additionalProperties: "object",
  items: "array",
  prefixItems: "array",
  additionalItems: "array",
  contains: "contains",
  minContains: "contains",
  maxContains: "contains",
  maximum: "max",
  exclusiveMaximum: "max",
  minimum: "min",
  exclusiveMinimum: "min",
};

function groupOf(key: string): string {
  return GROUPS[key] ?? key;
}

function typeNames(mask: number): string[] {
  // Stryker disable next-line ArrayDeclaration: maskOfType, the only reader of a merge's type, counts an unknown name for nothing
  const names: string[] = [];
  for (const [name, bit] of [
    ["null", NULL],
    ["boolean", BOOLEAN],
    ["object", 4],
    ["array", 8],
    ["string", 16],
  ] as const) {
    if (mask & bit) names.push(name);
  }
  if (mask & FRACTION) names.push("number");
  else if (mask & INTEGER) names.push("integer");
  return names;
}
