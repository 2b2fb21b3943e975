import { at, mk, worst, type Comparer, type Ctx, type Family, type Pair } from "./family.js";
import { disjoint } from "./disjoint.js";
import { isObject, type Loc } from "./document.js";
import { isInert } from "./keywords.js";
import type { ChangeKind } from "./kinds.js";
import type { Change, Verdict } from "./vocabulary.js";
import { describeTypes } from "./typeset.js";
import { deepEqual } from "./values.js";

interface Pairing {
  readonly pairs: readonly (readonly [number, number])[];
  readonly added: readonly number[];
  readonly removed: readonly number[];
}

/** Identical branches first (order does not matter in allOf/anyOf/oneOf), then the rest by position. */
function pairBranches(before: readonly Loc[], after: readonly Loc[]): Pairing {
  const pairs: [number, number][] = [];
  const freeOld = new Set(before.keys());
  const freeNew = new Set(after.keys());
  for (const j of after.keys()) {
    for (const i of freeOld) {
      // Stryker disable next-line OptionalChaining: i and j are keys of before and after
      if (deepEqual(before[i]?.node, after[j]?.node)) {
        pairs.push([i, j]);
        freeOld.delete(i);
        freeNew.delete(j);
        break;
      }
    }
  }
  const restOld = [...freeOld];
  const restNew = [...freeNew];
  const common = Math.min(restOld.length, restNew.length);
  for (let k = 0; k < common; k++) pairs.push([restOld[k] as number, restNew[k] as number]);
  return { pairs, added: restNew.slice(common), removed: restOld.slice(common) };
}

interface Cover {
  readonly verdict: Verdict;
  readonly reason: string;
}

/**
 * Is every document of `source` valid under the union `targets`? For oneOf it must also match exactly
 * one target, which needs the other targets proven disjoint from the source.
 */
function cover(engine: Comparer, source: Loc, targets: readonly Loc[], exclusive: boolean, ctx: Ctx): Cover {
  const model = engine.model;
  if (!exclusive && model.coversAll(targets, 0, model.types(source)))
    return { verdict: "ok", reason: "the branches accept everything" };
  let overlap = false;
  for (const [j, target] of targets.entries()) {
    if (engine.subset(source, target, ctx) !== "ok") continue;
    if (!exclusive || targets.every((other, k) => k === j || disjoint(model, source, other))) {
      return { verdict: "ok", reason: "covered" };
    }
    overlap = true;
  }
  if (overlap) {
    return { verdict: "undecided", reason: "a document may match more than one branch of oneOf" };
  }
  // Branches proven disjoint from the source cannot take its documents; with one candidate left, the
  // comparison with that branch is the verdict.
  const candidates = targets.filter((target) => !disjoint(model, source, target));
  if (candidates.length === 0) {
    const lost = model.types(source) & ~targets.reduce((mask, target) => mask | model.types(target), 0);
    const what = lost !== 0 ? `documents of type ${describeTypes(lost)}` : "its documents";
    return { verdict: "breaks", reason: `${what} match no branch` };
  }
  if (candidates.length === 1) {
    const verdict = engine.subset(source, candidates[0] as Loc, ctx);
    return { verdict, reason: "the only branch that could accept these documents does not accept them all" };
  }
  const reach = targets.reduce((mask, target) => mask | model.types(target), 0);
  const lost = model.types(source) & ~reach;
  if (lost !== 0)
    return { verdict: "breaks", reason: `documents of type ${describeTypes(lost)} match no branch` };
  return {
    verdict: "undecided",
    reason: "no single branch is proven to accept every document of the other version",
  };
}

/** The alternatives every document of a side satisfies one of: its own anyOf/oneOf branches, or itself. */
function alternatives(engine: Comparer, pair: Pair, isOld: boolean, keyword: "anyOf" | "oneOf"): Loc[] {
  const view = isOld ? pair.old.view : pair.new.view;
  const other = keyword === "anyOf" ? view.oneOf : view.anyOf;
  return other ? other.map((branch) => engine.model.merge(view, branch)) : [view.loc];
}

function union(engine: Comparer, pair: Pair, out: Change[], keyword: "anyOf" | "oneOf"): void {
  const o = pair.old.view;
  const n = pair.new.view;
  const before = o[keyword];
  const after = n[keyword];
  if (!before && !after) return;
  const exclusive = keyword === "oneOf";
  const base = exclusive ? "one-of" : "any-of";
  const ctx = engine.inPlace(pair);
  const back = engine.swapped(ctx);
  if (!before && after) {
    const results = alternatives(engine, pair, true, keyword).map((s) =>
      cover(engine, s, after, exclusive, ctx),
    );
    const failed = results.find((r) => r.verdict !== "ok");
    const reason =
      `NEW requires ${keyword}` + (failed ? `: ${failed.reason}` : "; every OLD document matches a branch");
    out.push(
      mk(
        `${base}-added` as ChangeKind,
        at(n.loc, keyword),
        worst(results.map((r) => r.verdict)),
        "ok",
        reason,
      ),
    );
    return;
  }
  if (before && !after) {
    const results = alternatives(engine, pair, false, keyword).map((s) =>
      cover(engine, s, before, exclusive, back),
    );
    const failed = results.find((r) => r.verdict !== "ok");
    const reason =
      `NEW drops ${keyword}` + (failed ? `: ${failed.reason}` : "; every NEW document matches an OLD branch");
    out.push(
      mk(
        `${base}-removed` as ChangeKind,
        at(o.loc, keyword),
        "ok",
        worst(results.map((r) => r.verdict)),
        reason,
      ),
    );
    return;
  }
  if (!before || !after) return;
  const { pairs, added, removed } = pairBranches(before, after);
  if (added.length === 0 && removed.length === 0) {
    // The same branches, perhaps reordered: each document matches as many branches as before, so even
    // overlapping oneOf branches accept the same documents.
    const inner = pairs.flatMap(([i, j]) => engine.compare(before[i] as Loc, after[j] as Loc, ctx));
    if (inner.every((c) => c.backward === "ok" && c.forward === "ok")) {
      out.push(...inner);
      return;
    }
  }
  const backward = before.map((branch) =>
    cover(engine, engine.model.merge(o, branch), after, exclusive, ctx),
  );
  const forward = after.map((branch) =>
    cover(engine, engine.model.merge(n, branch), before, exclusive, back),
  );
  const emitted: Change[] = [];
  // A branch whose documents another branch covers cannot break through its own edits.
  const cap = (verdict: Verdict, covered: Verdict): Verdict =>
    covered === "ok" || verdict === "ok" ? "ok" : covered === "undecided" ? "undecided" : verdict;
  for (const [i, j] of pairs) {
    for (const change of engine.compare(before[i] as Loc, after[j] as Loc, ctx)) {
      // Stryker disable next-line OptionalChaining,StringLiteral: backward has one entry per OLD branch
      const b = cap(change.backward, backward[i]?.verdict ?? "undecided");
      // Stryker disable next-line OptionalChaining,StringLiteral: forward has one entry per NEW branch
      const f = cap(change.forward, forward[j]?.verdict ?? "undecided");
      emitted.push({ ...change, backward: b, forward: f });
    }
  }
  const overallBack = worst(backward.map((r) => r.verdict));
  for (const j of added) {
    const b =
      exclusive && before.some((branch) => !disjoint(engine.model, branch, after[j] as Loc))
        ? overallBack
        : "ok";
    // Stryker disable next-line OptionalChaining,StringLiteral: forward has one entry per NEW branch
    const f = forward[j]?.verdict ?? "undecided";
    emitted.push(
      mk(`${base}-branch-added` as ChangeKind, at(n.loc, keyword, String(j)), b, f, `NEW adds branch ${j}`),
    );
  }
  for (const i of removed) {
    // Stryker disable next-line OptionalChaining,StringLiteral: backward has one entry per OLD branch
    const b = backward[i]?.verdict ?? "undecided";
    emitted.push(
      mk(
        `${base}-branch-removed` as ChangeKind,
        at(o.loc, keyword, String(i)),
        b,
        "ok",
        `NEW drops branch ${i}`,
      ),
    );
  }
  // The coverage proof is the verdict; if no emitted change carries a failure it found, say so.
  const wantB = overallBack;
  const wantF = worst(forward.map((r) => r.verdict));
  const haveB = worst(emitted.map((c) => c.backward));
  const haveF = worst(emitted.map((c) => c.forward));
  if (worst([wantB, haveB]) !== haveB || worst([wantF, haveF]) !== haveF) {
    const failed = [...backward, ...forward].find((r) => r.verdict !== "ok");
    // Stryker disable next-line OptionalChaining: a direction worse than its changes is not ok, so some cover failed
    const reason = `${keyword} branches changed: ${failed?.reason ?? "coverage not proven"}`;
    emitted.push(mk(`${base}-changed` as ChangeKind, at(n.loc, keyword), wantB, wantF, reason));
  }
  out.push(...emitted);
}

/** `allOf` branches with nested pure `allOf`s flattened: `allOf [allOf [A, B], C]` is `allOf [A, B, C]`. */
function flatConjuncts(engine: Comparer, branches: readonly Loc[], depth = 0): Loc[] {
  return branches.flatMap((branch) => {
    const target = engine.model.deref(branch);
    const node = target.node;
    if (depth > 8 || !isObject(node) || !Array.isArray(node["allOf"])) return [branch];
    if (!Object.keys(node).every((key) => key === "allOf" || isInert(key, target))) return [branch];
    return flatConjuncts(engine, engine.model.view(target).allOf, depth + 1);
  });
}

function conjunction(engine: Comparer, pair: Pair, out: Change[]): void {
  const o = pair.old.view;
  const n = pair.new.view;
  const ctx = engine.inPlace(pair);
  if (o.ref && n.ref) out.push(...engine.compare(o.ref, n.ref, ctx));
  const oldAll = flatConjuncts(engine, o.allOf);
  const newAll = flatConjuncts(engine, n.allOf);
  const before = o.ref && !n.ref ? [...oldAll, o.ref] : oldAll;
  const after = n.ref && !o.ref ? [...newAll, n.ref] : newAll;
  const { pairs, added, removed } = pairBranches(before, after);
  for (const [i, j] of pairs) out.push(...engine.compare(before[i] as Loc, after[j] as Loc, ctx));
  for (const j of added) {
    const branch = after[j] as Loc;
    const backward = engine.subset(o.loc, branch, pair.ctx);
    const path = j < newAll.length ? at(branch) : at(n.loc, "$ref");
    out.push(
      mk("all-of-branch-added", path, backward, "ok", "NEW adds a schema every document must also pass"),
    );
  }
  for (const i of removed) {
    const branch = before[i] as Loc;
    const forward = engine.subset(n.loc, branch, engine.swapped(pair.ctx));
    const path = i < oldAll.length ? at(branch) : at(o.loc, "$ref");
    out.push(
      mk("all-of-branch-removed", path, "ok", forward, "NEW drops a schema every document had to pass"),
    );
  }
}

/** allOf (and a 2019-09+ `$ref` beside other keywords, which acts as one more conjunct), anyOf, oneOf. */
export const combinators: Family = (engine, pair, out) => {
  conjunction(engine, pair, out);
  union(engine, pair, out, "anyOf");
  union(engine, pair, out, "oneOf");
};
