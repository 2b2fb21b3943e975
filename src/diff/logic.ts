import { at, mk, proven, type Comparer, type Ctx, type Family, type Pair } from "./family.js";
import { disjoint } from "./disjoint.js";
import { isObject, type Loc } from "./document.js";
import type { Model } from "./model.js";
import type { Change, Verdict } from "./vocabulary.js";
import { passesLocal } from "./values.js";

/**
 * `not` and `if` are compared strictly whatever the policy: producers' habits say nothing about what
 * `not` excludes or what a condition tests.
 */
// Stryker disable next-line ObjectLiteral,StringLiteral: a policy other than lenient is strict (objects.ts tests for lenient only); only the memo key would differ
const STRICT: Ctx = { policy: "strict" };

/** A scalar that passes every keyword of a node without branches and asserted formats is valid there. */
function certainlyValid(model: Model, loc: Loc, value: unknown): boolean {
  if (typeof value === "object" && value !== null) return false;
  const target = model.deref(loc);
  if (target.node === true) return true;
  if (!isObject(target.node)) return false;
  const view = model.view(target);
  const asserted = target.doc.assertsFormats;
  const content = asserted && ("contentEncoding" in view.raw || "contentMediaType" in view.raw);
  const format = asserted && view.format !== undefined;
  return !view.hasApplicators && !view.not && !format && !content && passesLocal(view, value);
}

/** Adding `not X` is harmless when no document of the other side can match X. */
function excluded(engine: Comparer, source: Loc, negated: Loc): Verdict {
  const model = engine.model;
  if (disjoint(model, source, negated)) return "ok";
  if (model.acceptsAll(negated)) return "breaks";
  const forbidden = model.values(negated) ?? [];
  if (forbidden.some((v) => certainlyValid(model, negated, v) && certainlyValid(model, source, v)))
    return "breaks";
  return "undecided";
}

function negation(engine: Comparer, pair: Pair, out: Change[]): void {
  const a = pair.old.view.not;
  const b = pair.new.view.not;
  if (a && b) {
    // not A ⊆ not B exactly when B ⊆ A: the inner comparison runs with its directions swapped.
    for (const change of engine.compare(a, b, STRICT)) {
      out.push({
        ...change,
        backward: change.forward,
        forward: change.backward,
        reason: `inside not, so the directions swap: ${change.reason}`,
      });
    }
  } else if (b) {
    const backward = excluded(engine, pair.old.loc, b);
    out.push(
      mk(
        "not-added",
        at(pair.new.view.loc, "not"),
        backward,
        "ok",
        "NEW rejects documents matching its `not`",
      ),
    );
  } else if (a) {
    const forward = excluded(engine, pair.new.loc, a);
    out.push(
      mk(
        "not-removed",
        at(pair.old.view.loc, "not"),
        "ok",
        forward,
        "NEW accepts documents OLD's `not` rejected",
      ),
    );
  }
}

/** `then` or `else` of two nodes whose conditions (`oldIf`, `newIf`) accept the same documents. */
function branch(
  engine: Comparer,
  pair: Pair,
  out: Change[],
  keyword: "then" | "else",
  oldIf: Loc,
  newIf: Loc,
): void {
  const o = pair.old.view;
  const n = pair.new.view;
  const a = o[keyword];
  const b = n[keyword];
  const ctx = engine.inPlace(pair);
  const model = engine.model;
  // then applies to documents passing `if`: the merge of the node with `if` bounds them from above.
  const scope = (view: typeof o, condition: Loc): Loc =>
    keyword === "then" ? model.merge(view, condition) : view.loc;
  // With the condition unchanged, a branch never applies to a source whose documents all take the
  // other one: `then` when the source is disjoint from `if`, `else` when all pass it.
  const idle = (view: typeof o, condition: Loc): boolean => {
    if (keyword === "then") return disjoint(model, view.loc, condition);
    return engine.subset(view.loc, condition, STRICT) === "ok";
  };
  if (a && b) {
    const changes = engine.compare(a, b, ctx);
    // Stryker disable next-line ArrowFunction,StringLiteral: changes all ok need no proof, and `proven` only turns directions ok, so proving them too changes nothing
    if (changes.every((c) => c.backward === "ok" && c.forward === "ok")) out.push(...changes);
    else {
      // A branch applies together with the rest of its node: a keyword it repeats is no change.
      const backward = engine.subset(model.merge(o, a), b, pair.ctx) === "ok";
      const forward = engine.subset(model.merge(n, b), a, engine.swapped(pair.ctx)) === "ok";
      out.push(...proven(changes, backward, forward));
    }
  } else if (b && !model.acceptsAll(b)) {
    const backward = engine.subset(scope(o, oldIf), b, pair.ctx) === "ok" || idle(o, oldIf) ? "ok" : "breaks";
    out.push(
      mk(`${keyword}-added`, at(n.loc, keyword), backward, "ok", `NEW adds a \`${keyword}\` constraint`),
    );
  } else if (a && !model.acceptsAll(a)) {
    const forward =
      engine.subset(scope(n, newIf), a, engine.swapped(pair.ctx)) === "ok" || idle(n, newIf)
        ? "ok"
        : "breaks";
    out.push(
      mk(
        `${keyword}-removed`,
        at(o.loc, keyword),
        "ok",
        forward,
        `NEW drops OLD's \`${keyword}\` constraint`,
      ),
    );
  }
}

/**
 * Does every document of the other side satisfy both `then` and `else` of `view`'s conditional (the
 * rest of its node already holds them, say, or they accept everything)? Then the condition, whatever it
 * is, rejects none of them.
 * `forward`: `view` is OLD's and NEW's documents are checked; else the reverse.
 */
function satisfiesBoth(
  engine: Comparer,
  pair: Pair,
  view: Pair["old"]["view"],
  condition: Loc,
  forward: boolean,
): boolean {
  const source = forward ? pair.new : pair.old;
  const ctx = forward ? engine.swapped(pair.ctx) : pair.ctx;
  const model = engine.model;
  const holds = (branch: Loc | undefined) => !branch || engine.subset(source.loc, branch, ctx) === "ok";
  // Each branch only where it applies. `then` binds documents that pass `if`: none when the source is
  // disjoint from it, else those of the source merged with `if` (a superset of source AND if, so a
  // proof for the merge covers them). `else` binds documents that fail `if`: none when every source
  // document passes it. Both proofs are strict: the merge may be `if` alone (the two sides live in
  // different documents), and producers' habits say nothing about what a condition tests.
  const thenHolds =
    holds(view.then) ||
    disjoint(model, source.loc, condition) ||
    engine.subset(model.merge(source.view, condition), view.then as Loc, { ...ctx, ...STRICT }) === "ok";
  const elseHolds = holds(view.else) || engine.subset(source.loc, condition, STRICT) === "ok";
  return thenHolds && elseHolds;
}

function conditional(engine: Comparer, pair: Pair, out: Change[]): void {
  const o = pair.old.view;
  const n = pair.new.view;
  if (o.if && n.if) {
    const condition = engine.compare(o.if, n.if, STRICT);
    if (condition.every((c) => c.backward === "ok" && c.forward === "ok")) {
      out.push(...condition);
      branch(engine, pair, out, "then", o.if, n.if);
      branch(engine, pair, out, "else", o.if, n.if);
      return;
    }
    const backward: Verdict = satisfiesBoth(engine, pair, n, n.if, false) ? "ok" : "undecided";
    const forward: Verdict = satisfiesBoth(engine, pair, o, o.if, true) ? "ok" : "undecided";
    const reason = "the `if` condition changed, so documents move between `then` and `else`";
    out.push(mk("if-changed", at(n.loc, "if"), backward, forward, reason));
  } else if (n.if) {
    const backward: Verdict = satisfiesBoth(engine, pair, n, n.if, false) ? "ok" : "undecided";
    out.push(mk("if-added", at(n.loc, "if"), backward, "ok", "NEW adds an if/then/else condition"));
  } else if (o.if) {
    const forward: Verdict = satisfiesBoth(engine, pair, o, o.if, true) ? "ok" : "undecided";
    out.push(mk("if-removed", at(o.loc, "if"), "ok", forward, "NEW drops OLD's if/then/else condition"));
  }
}

/** `not` and `if`/`then`/`else`. */
export const logic: Family = (engine, pair, out) => {
  negation(engine, pair, out);
  conditional(engine, pair, out);
};
