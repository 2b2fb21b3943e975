import { at, mk, scoped, worst, type Comparer, type Family, type Pair } from "./family.js";
import type { Loc } from "./document.js";
import type { Declaration, Enclosing, Model } from "./model.js";
import { restChange } from "./rest.js";
import type { Change, Verdict } from "./vocabulary.js";
import { OBJECT } from "./typeset.js";
import { testPattern } from "./values.js";
import type { View } from "./view.js";

/**
 * What validates a key that an object's `properties` does not name. `from` contains every value the
 * side's documents can carry under that key; `into` only values the side is sure to accept. They are the
 * same schema except when several routes may apply (a key declared in an anyOf branch, say).
 */
export interface Fallback {
  readonly state: "open" | "closed" | "schema";
  readonly from?: Loc;
  readonly into?: Loc;
  readonly where: string;
  /** The key is a property the object names elsewhere (a branch, the enclosing object): producers send it. */
  readonly declared?: boolean;
}

function classify(model: Model, loc: Loc, where: string): Fallback {
  if (model.acceptsAll(loc)) return { state: "open", where };
  if (model.rejectsAll(loc)) return { state: "closed", where };
  return { state: "schema", from: loc, into: loc, where };
}

function matching(patterns: ReadonlyMap<string, Loc>, key: string): Loc[] {
  return [...patterns].filter(([pattern]) => testPattern(pattern, key) === true).map(([, loc]) => loc);
}

/** Every matching pattern applies at once. */
function patternsFor(
  model: Model,
  patterns: ReadonlyMap<string, Loc>,
  key: string,
  where: string,
): Fallback | undefined {
  const [first, ...others] = matching(patterns, key);
  return first ? classify(model, model.combine("allOf", [first, ...others]), where) : undefined;
}

/** A key declared by branches of an object whose rest is `rest` (unevaluatedProperties). */
function declared(model: Model, declarations: readonly Declaration[], rest: Loc, where: string): Fallback {
  const locs = declarations.map((d) => d.loc) as [Loc, ...Loc[]];
  if (declarations.every((d) => d.conjunctive)) {
    return { ...classify(model, model.combine("allOf", locs), where), declared: true };
  }
  // The key may be evaluated by any declaring branch that applies, or by none (then `rest` decides).
  const from = model.combine("anyOf", [...locs, rest]);
  const into = model.combine("allOf", [...locs, rest]);
  return { state: "schema", from, into, where, declared: true };
}

/** patternProperties first, then additionalProperties, unevaluatedProperties, the enclosing object. */
export function fallbackFor(model: Model, view: View, key: string, enclosing?: Enclosing): Fallback {
  const patterns = patternsFor(model, view.patternProperties, key, "patternProperties");
  if (patterns) return patterns;
  if (view.additionalProperties) return classify(model, view.additionalProperties, "additionalProperties");
  if (view.unevaluatedProperties) {
    const found = view.hasApplicators ? model.declarations(view).get(key) : undefined;
    if (found?.length) return declared(model, found, view.unevaluatedProperties, "a branch's properties");
    return classify(model, view.unevaluatedProperties, "unevaluatedProperties");
  }
  if (enclosing) {
    const found = enclosing.declarations.get(key);
    if (found?.length) return declared(model, found, enclosing.rest, "the enclosing object's properties");
    const outer = patternsFor(model, enclosing.patterns, key, "the enclosing object's patternProperties");
    if (outer) return outer;
    return classify(model, enclosing.rest, "the enclosing object's additional or unevaluated properties");
  }
  return { state: "open", where: "no additionalProperties" };
}

const quote = (key: string): string => JSON.stringify(key);

function added(engine: Comparer, pair: Pair, key: string, schema: Loc): Change {
  const model = engine.model;
  const ctx = engine.nested(pair);
  const fallback = fallbackFor(model, pair.old.view, key, pair.ctx.encA);
  const path = at(pair.new.view.loc, "properties", key);
  if (fallback.state === "closed") {
    const forward: Verdict = model.rejectsAll(schema) ? "ok" : "breaks";
    const reason =
      `OLD rejected ${quote(key)} (${fallback.where}), so no OLD document has it; ` +
      "documents with it fail OLD";
    return mk("property-added-closed", path, "ok", forward, reason);
  }
  if (fallback.state === "open") {
    // Stryker disable next-line StringLiteral: the pointer of a `true` node never reaches the verdict subset returns
    const strict = engine.subset(engine.trueAt(pair.old.view.loc, "properties", key), schema, ctx);
    const backward: Verdict = pair.ctx.policy === "lenient" && !fallback.declared ? "ok" : strict;
    const reason =
      `OLD was open for ${quote(key)}: under strict an OLD producer may already send it with any ` +
      "value; under lenient OLD producers send only the properties OLD declares";
    return mk("property-added-open", path, backward, "ok", reason);
  }
  const from = fallback.from as Loc;
  const into = fallback.into as Loc;
  // Lenient: OLD producers send only the properties OLD names, so none sends this one yet.
  const lenient = pair.ctx.policy === "lenient" && !fallback.declared;
  const backward: Verdict = lenient ? "ok" : engine.subset(from, schema, ctx);
  // NEW's own matching patterns apply to the new property too and may be what keeps OLD satisfied.
  const extra = matching(pair.new.view.patternProperties, key);
  const forward = engine.subset(model.combine("allOf", [schema, ...extra]), into, ctx);
  const reason =
    `OLD validated ${quote(key)} with ${fallback.where}; NEW declares it (under lenient no OLD producer ` +
    "sends it yet)";
  return mk("property-added-partially-open", path, backward, forward, reason);
}

function removed(engine: Comparer, pair: Pair, key: string, schema: Loc): Change {
  const model = engine.model;
  const ctx = engine.nested(pair);
  const fallback = fallbackFor(model, pair.new.view, key, pair.ctx.encB);
  const path = at(pair.old.view.loc, "properties", key);
  if (fallback.state === "closed") {
    const backward: Verdict = model.rejectsAll(schema) ? "ok" : "breaks";
    const reason = `NEW rejects ${quote(key)} (${fallback.where}); OLD documents with it fail NEW`;
    return mk("property-removed-closed", path, backward, "ok", reason);
  }
  if (fallback.state === "open") {
    // Stryker disable next-line StringLiteral: the pointer of a `true` node never reaches the verdict subset returns
    const strict = engine.subset(engine.trueAt(pair.new.view.loc, "properties", key), schema, ctx);
    const forward: Verdict = pair.ctx.policy === "lenient" && !fallback.declared ? "ok" : strict;
    const reason =
      `NEW is open for ${quote(key)}: under strict a NEW producer may send it with a value OLD ` +
      "rejects; under lenient NEW producers send only the properties NEW declares";
    return mk("property-removed-open", path, "ok", forward, reason);
  }
  const from = fallback.from as Loc;
  const into = fallback.into as Loc;
  const extra = matching(pair.old.view.patternProperties, key);
  const backward = engine.subset(model.combine("allOf", [schema, ...extra]), into, ctx);
  const lenient = pair.ctx.policy === "lenient" && !fallback.declared;
  const forward: Verdict = lenient ? "ok" : engine.subset(from, schema, ctx);
  const reason =
    `NEW validates ${quote(key)} with ${fallback.where} instead of its own schema (under lenient no NEW ` +
    "producer sends it)";
  return mk("property-removed-partially-open", path, backward, forward, reason);
}

/** `^literal` patterns with neither literal a prefix of the other match no common key. */
function disjointPatterns(a: string, b: string): boolean {
  const prefix = (p: string): string | undefined => {
    const match = /^\^([A-Za-z0-9_\-:.@ ]*)/.exec(p);
    return match?.[1] || undefined;
  };
  const x = prefix(a);
  const y = prefix(b);
  return x !== undefined && y !== undefined && !x.startsWith(y) && !y.startsWith(x);
}

function patternChange(
  engine: Comparer,
  pair: Pair,
  out: Change[],
  pattern: string,
  schema: Loc,
  isNew: boolean,
): void {
  const ctx = engine.nested(pair);
  const side = isNew ? pair.old.view : pair.new.view;
  const rest =
    side.additionalProperties ??
    (!side.hasApplicators ? side.unevaluatedProperties : undefined) ??
    // Stryker disable next-line StringLiteral: the pointer of a `true` node never reaches the verdict subset returns
    engine.trueAt(side.loc, "additionalProperties");
  const others = [...side.patternProperties].filter(([p]) => p !== pattern && !disjointPatterns(p, pattern));
  // Keys matching both patterns meet both schemas; without a proof the verdict stays undecided.
  const judge = (into: (other: Loc) => Verdict): Verdict => {
    const base = into(rest);
    if (base !== "ok") return base;
    return others.every(([, loc]) => into(loc) === "ok") ? "ok" : "undecided";
  };
  // Patterns also apply to declared properties: OLD's (NEW's) must meet the added (removed) pattern.
  const declaredMatching = (view: View): Loc[] =>
    [...view.properties].filter(([name]) => testPattern(pattern, name) === true).map(([, loc]) => loc);
  if (isNew) {
    const named = declaredMatching(pair.old.view).map((loc) => engine.subset(loc, schema, ctx));
    const backward = worst([judge((before) => engine.subset(before, schema, ctx)), ...named]);
    const forward = judge((before) => engine.subset(schema, before, ctx));
    const reason = `NEW validates keys matching /${pattern}/ with their own schema`;
    out.push(
      mk(
        "pattern-property-added",
        at(pair.new.view.loc, "patternProperties", pattern),
        backward,
        forward,
        reason,
      ),
    );
  } else {
    const backward = judge((after) => engine.subset(schema, after, ctx));
    const named = declaredMatching(pair.new.view).map((loc) => engine.subset(loc, schema, ctx));
    const forward = worst([judge((after) => engine.subset(after, schema, ctx)), ...named]);
    const reason = `NEW no longer gives keys matching /${pattern}/ their own schema`;
    out.push(
      mk(
        "pattern-property-removed",
        at(pair.old.view.loc, "patternProperties", pattern),
        backward,
        forward,
        reason,
      ),
    );
  }
}

/** properties, patternProperties, additionalProperties and unevaluatedProperties. */
export const objects: Family = (engine, pair, out) => {
  const o = pair.old.view;
  const n = pair.new.view;
  const ctx = engine.nested(pair);
  const local: Change[] = [];
  for (const key of new Set([...o.properties.keys(), ...n.properties.keys()])) {
    const a = o.properties.get(key);
    const b = n.properties.get(key);
    if (a && b) local.push(...engine.compare(a, b, ctx));
    else if (b) local.push(added(engine, pair, key, b));
    else if (a) local.push(removed(engine, pair, key, a));
  }
  for (const pattern of new Set([...o.patternProperties.keys(), ...n.patternProperties.keys()])) {
    const a = o.patternProperties.get(pattern);
    const b = n.patternProperties.get(pattern);
    if (a && b) local.push(...engine.compare(a, b, ctx));
    else if (b) patternChange(engine, pair, local, pattern, b, true);
    else if (a) patternChange(engine, pair, local, pattern, a, false);
  }
  out.push(...scoped(local, pair, OBJECT));
  // Without in-place branches unevaluatedProperties is just another spelling of additionalProperties.
  const rest = (view: View) =>
    view.additionalProperties ?? (view.hasApplicators ? undefined : view.unevaluatedProperties);
  const restKeyword = (view: View) =>
    view.additionalProperties || view.hasApplicators || !view.unevaluatedProperties
      ? "additionalProperties"
      : "unevaluatedProperties";
  const base = (keyword: string) =>
    keyword === "additionalProperties" ? "additional-properties" : "unevaluated-properties";
  restChange(engine, pair, out, {
    base: base(rest(n) ? restKeyword(n) : restKeyword(o)),
    old: rest(o),
    new: rest(n),
    oldKeyword: restKeyword(o),
    newKeyword: restKeyword(n),
    family: OBJECT,
    ctx,
    what: "keys no property or pattern names",
  });
  const spread = (view: View) =>
    view.hasApplicators && !view.additionalProperties ? view.unevaluatedProperties : undefined;
  restChange(engine, pair, out, {
    base: "unevaluated-properties",
    old: spread(o),
    new: spread(n),
    oldKeyword: "unevaluatedProperties",
    newKeyword: "unevaluatedProperties",
    family: OBJECT,
    ctx,
    what: "keys no branch evaluated",
  });
};
