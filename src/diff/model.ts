import { refSiblingsApply } from "./dialect.js";
import { isObject, type Json, type Loc } from "./document.js";
import { ALL, BOOLEAN, maskOfType, maskOfValue, NULL, OBJECT } from "./typeset.js";
import { matchesEverything } from "./patterns.js";
import { declaredValues, deepEqual, passesLocal, passesType, testPattern } from "./values.js";
import { isInert } from "./keywords.js";
import { mergeBranch } from "./merge.js";
import { buildView, type View } from "./view.js";
import { boundsCover } from "./ranges.js";
import { SLICE_TYPES, Slicer } from "./slices.js";

/** A schema an object gives a property; see `Model.declarations`. */
export interface Declaration {
  readonly loc: Loc;
  readonly conjunctive: boolean;
}

/** What validates the keys a branch leaves open: the enclosing object's properties, patterns and rest. */
export interface Enclosing {
  readonly declarations: ReadonlyMap<string, readonly Declaration[]>;
  readonly patterns: ReadonlyMap<string, Loc>;
  readonly rest: Loc;
}

const REF_KEYS = ["$ref", "$recursiveRef", "$dynamicRef"] as const;

function refOf(node: Json): string | undefined {
  for (const key of REF_KEYS) if (typeof node[key] === "string") return node[key];
  return undefined;
}

/**
 * Facts about schema nodes that do not depend on the policy: dereferencing, views, the set of instance
 * types a node can accept and its finite value set. Both policy runs share one model.
 */
export class Model {
  private readonly views = new WeakMap<object, View>();
  private readonly typeCache = new WeakMap<object, number>();
  private readonly valueCache = new WeakMap<object, readonly unknown[] | null>();
  private readonly enclosings = new WeakMap<object, Enclosing | null>();
  private readonly merges = new WeakMap<object, WeakMap<object, Loc>>();
  private readonly declared = new WeakMap<object, ReadonlyMap<string, readonly Declaration[]>>();
  /** Schemas seen one instance type at a time (see slices.ts). */
  readonly slicer = new Slicer(this);

  /** Follows `$ref` while it replaces its node: when nothing that applies stands beside it. */
  deref(loc: Loc): Loc {
    let current = loc;
    const seen = new Set<unknown>();
    while (isObject(current.node)) {
      const node = current.node;
      const ref = refOf(node);
      if (ref === undefined) break;
      const pure = Object.keys(node).every(
        (key) => (REF_KEYS as readonly string[]).includes(key) || isInert(key, current),
      );
      if (refSiblingsApply(current.doc.dialect) && !pure) break;
      // A cycle of references that never reaches a real schema constrains nothing.
      if (seen.has(node)) return { node: true, ptr: current.ptr, doc: current.doc };
      seen.add(node);
      current = current.doc.space.resolve(current, ref);
    }
    return current;
  }

  view(loc: Loc): View {
    const node = loc.node;
    if (!isObject(node)) return buildView(loc, undefined);
    const cached = this.views.get(node);
    if (cached) return cached;
    const ref = refOf(node);
    // Drafts 04 to 07: a `$ref` object is its target alone, whatever stands beside it.
    if (ref !== undefined && !refSiblingsApply(loc.doc.dialect)) {
      const target = this.deref(loc);
      if (target.node !== node) return this.view(target);
    }
    const view = buildView(loc, ref === undefined ? undefined : loc.doc.space.resolve(loc, ref));
    this.views.set(node, view);
    return view;
  }

  /** The instance types a node can accept at all, as far as its keywords and branches tell. */
  types(input: Loc): number {
    const loc = this.deref(input);
    const node = loc.node;
    if (node === false) return 0;
    if (!isObject(node)) return ALL;
    const cached = this.typeCache.get(node);
    if (cached !== undefined) return cached;
    // A node met again while its own types are worked out (a cycle) counts as any type.
    this.typeCache.set(node, ALL);
    const view = this.view(loc);
    let mask = maskOfType(view.type) ?? ALL;
    const values = declaredValues(view);
    if (values) mask &= values.reduce<number>((m, v) => (passesType(view, v) ? m | maskOfValue(v) : m), 0);
    for (const branch of view.ref ? [...view.allOf, view.ref] : view.allOf) mask &= this.types(branch);
    for (const list of [view.anyOf, view.oneOf]) {
      if (list) mask &= list.reduce((m, branch) => m | this.types(branch), 0);
    }
    if (view.then && view.else) mask &= this.types(view.then) | this.types(view.else);
    // An object must carry a required key that the object rejects: there is no such object.
    if (view.required.some((key) => this.keyRejected(view, key))) mask &= ~OBJECT;
    if (view.not) {
      const negated = this.deref(view.not);
      if (this.acceptsAll(negated)) mask = 0;
      else if (
        isObject(negated.node) &&
        Object.keys(negated.node).every((k) => k === "type" || isInert(k, negated))
      ) {
        mask &= ~(maskOfType(negated.node["type"]) ?? 0);
      }
    }
    this.typeCache.set(node, mask);
    return mask;
  }

  /** Does the object reject `key` whatever its value (`false` property, closed and unmatched)? */
  private keyRejected(view: View, key: string): boolean {
    const own = view.properties.get(key);
    if (own) return this.rejectsAll(own);
    if ([...view.patternProperties.keys()].some((pattern) => testPattern(pattern, key) !== false))
      return false;
    return view.additionalProperties !== undefined && this.rejectsAll(view.additionalProperties);
  }

  /**
   * The finite set of values a node accepts (enum, const, or a null/boolean-only type), already filtered
   * by the node's own keywords; undefined when the set is not finite.
   */
  values(input: Loc): readonly unknown[] | undefined {
    const loc = this.deref(input);
    const node = loc.node;
    if (node === false) return [];
    if (!isObject(node)) return undefined;
    const cached = this.valueCache.get(node);
    if (cached !== undefined) return cached ?? undefined;
    const view = this.view(loc);
    const types = this.types(loc);
    let values = declaredValues(view);
    if (values === undefined && (types & ~(NULL | BOOLEAN)) === 0) values = [null, true, false];
    const result = values?.filter((v) => (maskOfValue(v) & types) !== 0 && passesLocal(view, v));
    this.valueCache.set(node, result ?? null);
    return result;
  }

  /**
   * True for `true`, `{}` and nodes made only of annotations and unknown keywords, a pattern that
   * matches every string, and an `anyOf` that accepts everything.
   */
  acceptsAll(input: Loc, depth = 0): boolean {
    const loc = this.deref(input);
    const node = loc.node;
    if (!isObject(node)) return node !== false;
    if (depth > 8) return false;
    return Object.keys(node).every(
      (key) =>
        isInert(key, loc) ||
        (key === "pattern" && typeof node[key] === "string" && matchesEverything(node[key])) ||
        (key === "anyOf" && this.coversAll(this.view(loc).anyOf ?? [], depth + 1)),
    );
  }

  /**
   * Does every document match one of `branches`? When one branch accepts everything, when every type
   * has a branch that takes all its instances or branches whose bounds together do (ranges.ts), or when
   * one branch is the `not` of another. With `within`, only documents of those types need a branch
   * (the types a source can have: `{type: integer}` is inside `anyOf: [{maximum: 5}, {minimum: 6}]`).
   */
  coversAll(branches: readonly Loc[], depth = 0, within = ALL): boolean {
    if (branches.some((branch) => this.acceptsAll(branch, depth + 1))) return true;
    // Type by type, some branch takes every instance of it (`anyOf: [{type: string}, {maxLength: 3}]`),
    // or bounds of one measure do together (`anyOf: [{maxLength: 5}, {minLength: 3}]`).
    const whole = SLICE_TYPES.reduce((mask, type) => {
      if ((type & within) === 0) return mask | type;
      const slices = branches.map((b) => this.slicer.slice(b, type, depth));
      return boundsCover(this, slices, type, type & within) ? mask | type : mask;
    }, 0);
    if (whole === ALL) return true;
    let mask = 0;
    const targets = branches.map((branch) => this.deref(branch));
    for (const target of targets) {
      const node = target.node;
      if (isObject(node) && Object.keys(node).every((k) => k === "type" || isInert(k, target))) {
        mask |= maskOfType(node["type"]) ?? ALL;
      }
    }
    if ((mask & within) === within) return true;
    return targets.some((target) => {
      const node = target.node;
      if (!isObject(node) || !Object.hasOwn(node, "not")) return false;
      if (!Object.keys(node).every((k) => k === "not" || isInert(k, target))) return false;
      const negated = this.deref({ node: node["not"], ptr: `${target.ptr}/not`, doc: target.doc }).node;
      return targets.some((other) => other !== target && deepEqual(other.node, negated));
    });
  }

  rejectsAll(loc: Loc): boolean {
    return this.types(loc) === 0;
  }

  /**
   * Every schema a node gives a property, itself or through in-place branches. `conjunctive` says the
   * schema applies whenever the property is present (own, allOf, $ref); otherwise (anyOf, oneOf, then,
   * else, dependentSchemas) it applies only when its branch does.
   */
  declarations(view: View): ReadonlyMap<string, readonly Declaration[]> {
    let found = this.declared.get(view.raw);
    if (!found) this.declared.set(view.raw, (found = this.collect(view, new Map(), new Set(), true)));
    return found;
  }

  private collect(
    view: View,
    into: Map<string, Declaration[]>,
    seen: Set<unknown>,
    conjunctive: boolean,
  ): Map<string, Declaration[]> {
    if (seen.has(view.raw) || seen.size > 64) return into;
    seen.add(view.raw);
    for (const [name, loc] of view.properties)
      into.set(name, [...(into.get(name) ?? []), { loc, conjunctive }]);
    const strong = view.ref ? [...view.allOf, view.ref] : view.allOf;
    const weak = [...(view.anyOf ?? []), ...(view.oneOf ?? [])];
    if (view.then) weak.push(view.then);
    if (view.else) weak.push(view.else);
    for (const dependent of view.dependentSchemas.values()) weak.push(dependent.value);
    for (const [branches, kind] of [
      [strong, conjunctive],
      [weak, false],
    ] as const) {
      for (const branch of branches) {
        const target = this.deref(branch);
        if (isObject(target.node)) this.collect(this.view(target), into, seen, kind);
      }
    }
    return into;
  }

  /** A synthetic `allOf`/`anyOf` of existing nodes, for probes only (its changes are never reported). */
  combine(keyword: "allOf" | "anyOf", locs: readonly [Loc, ...Loc[]]): Loc {
    const first = locs[0];
    if (locs.length === 1) return first;
    const node = { [keyword]: locs.map((loc) => loc.node) };
    first.doc.pointers.set(node, first.ptr);
    return { node, ptr: first.ptr, doc: first.doc };
  }

  /** Names every document must carry: `required` here and in conjunctive branches. */
  flatRequired(view: View, into = new Set<string>(), seen = new Set<unknown>()): Set<string> {
    if (seen.has(view.raw) || seen.size > 64) return into;
    seen.add(view.raw);
    for (const name of view.required) into.add(name);
    for (const branch of view.ref ? [...view.allOf, view.ref] : view.allOf) {
      const target = this.deref(branch);
      if (isObject(target.node)) this.flatRequired(this.view(target), into, seen);
    }
    return into;
  }

  /**
   * How an object constrains keys that its in-place branches leave open: `additionalProperties` sees only
   * the node's own properties; `unevaluatedProperties` sees everything the branches declare.
   */
  enclosing(view: View): Enclosing | undefined {
    const cached = this.enclosings.get(view.raw);
    if (cached !== undefined) return cached ?? undefined;
    let result: Enclosing | undefined;
    if (view.additionalProperties) {
      const own = new Map([...view.properties].map(([name, loc]) => [name, [{ loc, conjunctive: true }]]));
      result = { declarations: own, patterns: view.patternProperties, rest: view.additionalProperties };
    } else if (view.unevaluatedProperties) {
      result = {
        declarations: this.declarations(view),
        patterns: view.patternProperties,
        rest: view.unevaluatedProperties,
      };
    }
    this.enclosings.set(view.raw, result ?? null);
    return result;
  }

  /**
   * A node at least as permissive as `base` AND `branch`: the branch's keywords plus the base's keywords
   * that do not interact with them. Proving the merge a subset of something proves the conjunction is.
   */
  merge(base: View, branch: Loc): Loc {
    return mergeBranch(this, this.merges, base, branch);
  }

  /** A node at least as permissive as `view` with every `allOf` branch (nested ones too) merged in. */
  mergeAll(view: View): Loc {
    let current = view;
    let loc = view.loc;
    for (let round = 0; round < 8 && current.allOf.length > 0; round++) {
      const [first, ...rest] = current.allOf;
      loc = this.merge(current, first as Loc);
      // Branches not merged yet stay conjuncts of the merged node.
      if (rest.length > 0 && isObject(loc.node)) {
        const node = {
          ...loc.node,
          allOf: [...rest.map((b) => b.node), ...this.view(loc).allOf.map((b) => b.node)],
        };
        // Stryker disable next-line CallExpression: nothing reads a merge's pointer from the map (its Loc carries it), as in merge.ts
        loc.doc.pointers.set(node, loc.ptr);
        loc.doc.bases.set(node, loc.doc.bases.get(loc.node as object) ?? loc.doc.uri);
        loc = { node, ptr: loc.ptr, doc: loc.doc };
      }
      if (!isObject(loc.node)) return loc;
      current = this.view(loc);
    }
    return loc;
  }
}
