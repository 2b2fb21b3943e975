import { isObject, child, type Loc } from "./document.js";
import { isInert } from "./keywords.js";
import type { Model } from "./model.js";
import { passesLocal, passesPattern } from "./values.js";

/**
 * Keywords a scalar (null, boolean, number, string) is judged by here, through the node's view
 * (`passesLocal`): every other keyword that applies to scalars (`format` and `content*`, which the
 * engine may assert, `if`, `$dynamicRef`, …) makes the answer unknown. Keywords of objects and arrays
 * never apply to a scalar.
 */
const SCALAR_KEYWORDS = new Set([
  "type",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
]);
const CONTAINER_KEYWORDS = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "required",
  "dependencies",
  "dependentRequired",
  "dependentSchemas",
  "propertyNames",
  "minProperties",
  "maxProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "minItems",
  "maxItems",
  "uniqueItems",
  "definitions",
  "$defs",
]);
const MAX_DEPTH = 12;
const MAX_VALUES = 256;

const isScalar = (value: unknown): boolean => value === null || typeof value !== "object";

/**
 * A finite set that holds every value `loc` accepts (it may hold more), when one is known: `enum`,
 * `const`, a null/boolean-only type, a union of `anyOf`/`oneOf` branches that are each finite, an
 * `allOf` branch that is. Undefined otherwise.
 */
export function finiteSuperset(model: Model, input: Loc, depth = 0): readonly unknown[] | undefined {
  const loc = model.deref(input);
  const node = loc.node;
  if (node === false) return [];
  if (!isObject(node) || depth > MAX_DEPTH) return undefined;
  const view = model.view(loc);
  const sets: (readonly unknown[])[] = [];
  const own = model.values(loc);
  if (own) sets.push(own);
  for (const key of ["anyOf", "oneOf"]) {
    const branches = node[key];
    if (!Array.isArray(branches)) continue;
    const union: unknown[] = [];
    for (const [i, branch] of branches.entries()) {
      const values = finiteSuperset(model, child(loc, branch, key, String(i)), depth + 1);
      if (values === undefined) return sets[0];
      union.push(...values);
    }
    sets.push(union.filter((v) => passesLocal(view, v)));
  }
  const allOf = node["allOf"];
  if (Array.isArray(allOf)) {
    for (const [i, branch] of allOf.entries()) {
      const values = finiteSuperset(model, child(loc, branch, "allOf", String(i)), depth + 1);
      if (values) sets.push(values.filter((v) => passesLocal(view, v)));
    }
  }
  if (sets.length === 0) return undefined;
  return sets.reduce((a, b) => (b.length < a.length ? b : a)).slice(0, MAX_VALUES + 1);
}

/**
 * Does `loc` accept the scalar `value`? Exact through type, enum, const, numeric and string bounds,
 * patterns the diff can run, `$ref`, `allOf`, `anyOf`, `oneOf` and `not`; undefined when another
 * keyword could decide (an asserted format, a conditional) or a pattern cannot be run.
 */
export function acceptsScalar(model: Model, input: Loc, value: unknown, depth = 0): boolean | undefined {
  const loc = model.deref(input);
  const node = loc.node;
  if (typeof node === "boolean") return node;
  if (!isObject(node) || depth > MAX_DEPTH) return undefined;
  let verdict = true;
  for (const key of Object.keys(node)) {
    if (SCALAR_KEYWORDS.has(key) || CONTAINER_KEYWORDS.has(key) || isInert(key, loc)) continue;
    if (["allOf", "anyOf", "oneOf", "not", "$ref"].includes(key)) continue;
    return undefined;
  }
  const view = model.view(loc);
  // passesLocal reads a pattern it cannot run as passing: that is no answer here.
  if (passesPattern(view, value) === undefined) return undefined;
  if (!passesLocal(view, value)) verdict = false;
  const ref = node["$ref"];
  if (typeof ref === "string" && model.deref(loc) === loc) {
    // A `$ref` beside other keywords (2019-09 on): one more conjunct.
    let target: Loc;
    try {
      target = loc.doc.space.resolve(loc, ref);
    } catch {
      return undefined;
    }
    const inner = acceptsScalar(model, target, value, depth + 1);
    if (inner === undefined) return undefined;
    verdict &&= inner;
  }
  const each = (key: string): (boolean | undefined)[] => {
    const branches = node[key];
    if (!Array.isArray(branches)) return [];
    return branches.map((b, i) => acceptsScalar(model, child(loc, b, key, String(i)), value, depth + 1));
  };
  const all = each("allOf");
  if (all.includes(undefined)) return undefined;
  if (all.includes(false)) verdict = false;
  if (Array.isArray(node["anyOf"])) {
    const any = each("anyOf");
    if (!any.includes(true) && any.includes(undefined)) return undefined;
    if (!any.includes(true)) verdict = false;
  }
  if (Array.isArray(node["oneOf"])) {
    const one = each("oneOf");
    if (one.includes(undefined)) return undefined;
    if (one.filter((b) => b === true).length !== 1) verdict = false;
  }
  if ("not" in node) {
    const inner = acceptsScalar(model, child(loc, node["not"], "not"), value, depth + 1);
    if (inner === undefined) return undefined;
    if (inner) verdict = false;
  }
  return verdict;
}

/**
 * Is every value `source` accepts accepted by `target`, proven through a finite set of scalars that
 * holds all of `source`'s values? False when that is not known (not when it is known to fail).
 */
export function finiteSubset(model: Model, source: Loc, target: Loc): boolean {
  const values = finiteSuperset(model, source);
  if (values === undefined || values.length > MAX_VALUES || !values.every(isScalar)) return false;
  return values.every((v) => acceptsScalar(model, target, v) === true);
}
