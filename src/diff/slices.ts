import { disjoint } from "./disjoint.js";
import { isObject, type Loc } from "./document.js";
import type { Comparer, Ctx } from "./family.js";
import { isInert } from "./keywords.js";
import { boundsCover } from "./ranges.js";
import { deepEqual } from "./values.js";
import type { Model } from "./model.js";
import { ARRAY, BOOLEAN, FRACTION, INTEGER, maskOfType, NULL, NUMBER, OBJECT, STRING } from "./typeset.js";

/**
 * A schema seen one instance type at a time. Most keywords constrain one type only (`maxLength` says
 * nothing about numbers), so `anyOf: [{type: string}, {maxLength: 3}]` accepts every string through its
 * first branch and every other instance through its second: it accepts everything. Per type, a node is
 * one of: every instance of the type (`all`), none, those a schema accepts (`pos`), or those a schema
 * rejects (`neg`, what a oneOf leaves when one branch takes the whole type and another a part of it).
 */
export type Slice =
  | { readonly kind: "all" }
  | { readonly kind: "none" }
  | { readonly kind: "pos"; readonly loc: Loc }
  | { readonly kind: "neg"; readonly loc: Loc };

/** The instance types sliced apart; integers stay with numbers (`type: integer` is a number constraint). */
export const SLICE_TYPES = [NULL, BOOLEAN, OBJECT, ARRAY, STRING, NUMBER] as const;

const ALL_SLICE: Slice = { kind: "all" };
const NONE: Slice = { kind: "none" };

// Keywords that constrain one instance type only; any other validation keyword counts for every type.
const ONLY: Readonly<Record<string, number>> = {
  minLength: STRING,
  maxLength: STRING,
  pattern: STRING,
  contentEncoding: STRING,
  contentMediaType: STRING,
  format: STRING | NUMBER,
  multipleOf: NUMBER,
  maximum: NUMBER,
  exclusiveMaximum: NUMBER,
  minimum: NUMBER,
  exclusiveMinimum: NUMBER,
  items: ARRAY,
  additionalItems: ARRAY,
  prefixItems: ARRAY,
  maxItems: ARRAY,
  minItems: ARRAY,
  uniqueItems: ARRAY,
  contains: ARRAY,
  minContains: ARRAY,
  maxContains: ARRAY,
  maxProperties: OBJECT,
  minProperties: OBJECT,
  required: OBJECT,
  properties: OBJECT,
  patternProperties: OBJECT,
  additionalProperties: OBJECT,
  dependencies: OBJECT,
  dependentRequired: OBJECT,
  dependentSchemas: OBJECT,
  propertyNames: OBJECT,
};

// In-place keywords whose effect the slices do not model: a node with one is only ever `pos` of itself.
const OPAQUE = [
  "not",
  "if",
  "then",
  "else",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "unevaluatedProperties",
  "unevaluatedItems",
];
const BRANCHES = ["allOf", "anyOf", "oneOf"];

const TYPE_NAMES: readonly (readonly [string, number])[] = [
  ["null", NULL],
  ["boolean", BOOLEAN],
  ["object", OBJECT],
  ["array", ARRAY],
  ["string", STRING],
];

/** Builds slices; the nodes it makes for one type (`pos` of a plain node) are remembered per node. */
export class Slicer {
  readonly #made = new WeakMap<object, Map<number, Loc>>();
  readonly #synthetic = new WeakSet<object>();

  constructor(private readonly model: Model) {}

  /** Was this node made by a slicer? Such nodes are never sliced again (which keeps proofs finite). */
  isSynthetic(node: unknown): boolean {
    // A WeakSet has no primitive: `has` is false for one.
    return this.#synthetic.has(node as object);
  }

  slice(input: Loc, type: number, depth = 0): Slice {
    const loc = this.model.deref(input);
    const node = loc.node;
    if (node === false) return NONE;
    // Stryker disable next-line ConditionalExpression: `true`, the one other node, reads as `{}` below: all
    if (!isObject(node)) return ALL_SLICE;
    if ((this.model.types(loc) & type) === 0) return NONE;
    const whole: Slice = { kind: "pos", loc };
    if (depth > 6 || OPAQUE.some((key) => Object.hasOwn(node, key) && !isInert(key, loc))) return whole;
    const view = this.model.view(loc);
    const own = this.#own(loc, type);
    let result: Slice | undefined = own;
    for (const branch of view.allOf) result = result && meet(result, this.slice(branch, type, depth + 1));
    const any = view.anyOf && this.#anyOf(view.anyOf, type, depth);
    const one = view.oneOf && this.#oneOf(view.oneOf, type, depth);
    if (view.anyOf) result = result && any && meet(result, any);
    if (view.oneOf) result = result && one && meet(result, one);
    return result ?? whole;
  }

  /** Does the node accept every instance of every type in `mask`? */
  acceptsType(loc: Loc, mask: number): boolean {
    return SLICE_TYPES.every((type) => (type & mask) === 0 || this.slice(loc, type).kind === "all");
  }

  /** The node's own keywords (no branches) for one type: all, none, or a node restricted to the type. */
  #own(loc: Loc, type: number): Slice {
    const node = loc.node as Record<string, unknown>;
    const allowed = (maskOfType(node["type"]) ?? ~0) & type;
    // `types` starts from the same mask, so `slice` made this none before (a node whose types are still
    // being computed aside, where a cut-down node of no type takes nothing either).
    // Stryker disable next-line ConditionalExpression: see above
    if (allowed === 0) return NONE;
    const keys = Object.keys(node).filter(
      (key) =>
        key !== "type" && !BRANCHES.includes(key) && !isInert(key, loc) && ((ONLY[key] ?? ~0) & type) !== 0,
    );
    // `type: integer` takes part of the number slice.
    if (keys.length === 0 && allowed === type) return ALL_SLICE;
    return { kind: "pos", loc: this.#restricted(loc, type, allowed, keys) };
  }

  #restricted(loc: Loc, type: number, allowed: number, keys: readonly string[]): Loc {
    const node = loc.node as Record<string, unknown>;
    let byType = this.#made.get(node);
    if (!byType) this.#made.set(node, (byType = new Map()));
    const known = byType.get(type);
    if (known) return known;
    const restricted: Record<string, unknown> = { type: typeNames(allowed) };
    for (const key of keys) restricted[key] = node[key];
    this.#synthetic.add(restricted);
    loc.doc.pointers.set(restricted, loc.ptr);
    loc.doc.bases.set(restricted, loc.doc.bases.get(node) ?? loc.doc.uri);
    const made: Loc = { node: restricted, ptr: loc.ptr, doc: loc.doc };
    byType.set(type, made);
    return made;
  }

  #complementary(a: Loc, b: Loc): boolean {
    const negation = (x: Loc, y: Loc): boolean => {
      const target = this.model.deref(x);
      const node = target.node;
      // Without `not`, `node["not"]` is undefined, which equals no schema below: the guard only says so.
      // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
      if (!isObject(node) || !Object.hasOwn(node, "not")) return false;
      if (!Object.keys(node).every((k) => k === "not" || isInert(k, target))) return false;
      return deepEqual(node["not"], this.model.deref(y).node);
    };
    return negation(a, b) || negation(b, a);
  }

  #anyOf(branches: readonly Loc[], type: number, depth: number): Slice | undefined {
    const slices = branches.map((branch) => this.slice(branch, type, depth + 1));
    if (boundsCover(this.model, slices, type)) return ALL_SLICE;
    const left = slices.filter((s) => s.kind !== "none");
    if (left.length === 0) return NONE;
    return left.length === 1 ? left[0] : undefined;
  }

  /** Exactly one branch: two that take the whole type take nothing; one whole and one part, the rest. */
  #oneOf(branches: readonly Loc[], type: number, depth: number): Slice | undefined {
    // X and not X: every instance matches exactly one of them.
    if (branches.length === 2 && this.#complementary(branches[0] as Loc, branches[1] as Loc))
      return ALL_SLICE;
    const slices = branches.map((branch) => this.slice(branch, type, depth + 1));
    const whole = slices.filter((s) => s.kind === "all").length;
    const parts = slices.filter((s) => s.kind === "pos" || s.kind === "neg");
    if (whole >= 2) return NONE;
    if (parts.length === 0) return whole === 1 ? ALL_SLICE : NONE;
    if (parts.length > 1) return undefined;
    const part = parts[0] as Slice & { loc: Loc };
    if (whole === 0) return part;
    return part.kind === "pos" ? { kind: "neg", loc: part.loc } : { kind: "pos", loc: part.loc };
  }
}

/** Both slices at once, where that is again a slice. */
function meet(a: Slice, b: Slice): Slice | undefined {
  if (a.kind === "none" || b.kind === "none") return NONE;
  if (a.kind === "all") return b;
  if (b.kind === "all") return a;
  return undefined;
}

function typeNames(mask: number): string[] {
  const names = TYPE_NAMES.filter(([, bit]) => (mask & bit) !== 0).map(([name]) => name);
  if (mask & FRACTION) names.push("number");
  else if (mask & INTEGER) names.push("integer");
  return names;
}

/**
 * Is every instance of `a` one of `b`, type by type? `pos` slices are compared by the engine, `neg`
 * slices with their schemas swapped (t minus A inside t minus B exactly when B's t-instances are A's),
 * strictly as for `not`; a `pos` inside a `neg` when the two schemas are disjoint. The pair being
 * compared itself is never asked again (the engine would assume it compatible while it is in progress).
 */
export function slicedSubset(engine: Comparer, slicer: Slicer, a: Loc, b: Loc, ctx: Ctx): boolean {
  const strict: Ctx = { policy: "strict" };
  const model = engine.model;
  const same = (x: Loc, y: Loc) =>
    model.deref(x).node === model.deref(a).node && model.deref(y).node === model.deref(b).node;
  return SLICE_TYPES.every((type) => {
    const x = slicer.slice(a, type);
    const y = slicer.slice(b, type);
    if (x.kind === "none" || y.kind === "all") return true;
    if (x.kind === "pos" && y.kind === "pos")
      return !same(x.loc, y.loc) && engine.subset(x.loc, y.loc, ctx) === "ok";
    if (x.kind === "neg" && y.kind === "neg") {
      // Under negation, a pair assumed compatible while in progress proves nothing: refuse such proofs.
      const hits = engine.busyHits;
      return engine.subset(y.loc, x.loc, strict) === "ok" && engine.busyHits === hits;
    }
    if (x.kind === "pos" && y.kind === "neg") return disjoint(model, x.loc, y.loc);
    return false;
  });
}
