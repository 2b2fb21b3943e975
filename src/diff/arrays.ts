import { at, mk, scoped, tighter, type Family } from "./family.js";
import { limit } from "./limits.js";
import { restChange, type RestSpec } from "./rest.js";
import type { Change, Verdict } from "./vocabulary.js";
import { ARRAY } from "./typeset.js";
import { isUnique } from "./values.js";
import type { Model } from "./model.js";
import type { View } from "./view.js";

const size = (v: unknown): number | undefined => (Array.isArray(v) ? v.length : undefined);
const restBase = (keyword: View["restKeyword"]): RestSpec["base"] =>
  keyword === "items" ? "items" : keyword === "additionalItems" ? "additional-items" : "unevaluated-items";

/** A tuple whose rest rejects every item holds at most its length (`items: false`: none). */
function mostItems(model: Model, view: View): number | undefined {
  // unevaluatedItems sees what in-place branches evaluate, so it does not close the tuple by itself.
  if (!view.rest || view.restKeyword === "unevaluatedItems") return undefined;
  return model.rejectsAll(view.rest) ? view.prefix.length : undefined;
}

/** Tuples and their rest, item counts, uniqueItems, contains with minContains/maxContains. */
export const arrays: Family = (engine, pair, out) => {
  const o = pair.old.view;
  const n = pair.new.view;
  const ctx = engine.nested(pair);
  const keep = (changes: readonly Change[]): void => void out.push(...scoped(changes, pair, ARRAY));
  const length = Math.max(o.prefix.length, n.prefix.length);
  for (let i = 0; i < length; i++) {
    const a = o.prefix[i];
    const b = n.prefix[i];
    const oldNever = o.maxItems !== undefined && o.maxItems <= i;
    const newNever = n.maxItems !== undefined && n.maxItems <= i;
    if (a && b) keep(engine.compare(a, b, ctx));
    else if (b) {
      const before = o.rest ?? engine.trueAt(o.loc, o.restKeyword);
      const backward: Verdict = oldNever ? "ok" : engine.subset(before, b, ctx);
      const forward: Verdict = newNever ? "ok" : engine.subset(b, before, ctx);
      const oldRest = o.rest ? o.restKeyword : "nothing";
      const reason = `NEW gives item ${i} its own schema; OLD validated it with ${oldRest}`;
      keep([mk("tuple-item-added", at(n.loc, n.prefixKeyword, String(i)), backward, forward, reason)]);
    } else if (a) {
      const after = n.rest ?? engine.trueAt(n.loc, n.restKeyword);
      const backward: Verdict = oldNever ? "ok" : engine.subset(a, after, ctx);
      const forward: Verdict = newNever ? "ok" : engine.subset(after, a, ctx);
      const newRest = n.rest ? n.restKeyword : "nothing";
      const reason = `NEW validates item ${i} with ${newRest} instead of its own schema`;
      keep([mk("tuple-item-removed", at(o.loc, o.prefixKeyword, String(i)), backward, forward, reason)]);
    }
  }
  restChange(engine, pair, out, {
    base: restBase(n.rest ? n.restKeyword : o.restKeyword),
    old: o.rest,
    new: n.rest,
    oldKeyword: o.restKeyword,
    newKeyword: n.restKeyword,
    family: ARRAY,
    ctx,
    what: length > 0 ? "items after the tuple" : "items",
    oldMoot: o.maxItems !== undefined && o.maxItems <= length,
    newMoot: n.maxItems !== undefined && n.maxItems <= length,
  });
  // With in-place branches unevaluatedItems is not the plain rest; compare it as its own schema.
  const ou = o.restKeyword === "unevaluatedItems" ? undefined : o.unevaluatedItems;
  const nu = n.restKeyword === "unevaluatedItems" ? undefined : n.unevaluatedItems;
  restChange(engine, pair, out, {
    base: "unevaluated-items",
    old: ou,
    new: nu,
    oldKeyword: "unevaluatedItems",
    newKeyword: "unevaluatedItems",
    family: ARRAY,
    ctx,
    what: "items no other keyword evaluated",
  });

  const common = { family: ARRAY, measure: size };
  limit(
    pair,
    out,
    { ...common, kind: "min-items", keyword: "minItems", isMin: true },
    o.minItems,
    n.minItems,
  );
  limit(
    pair,
    out,
    { ...common, kind: "max-items", keyword: "maxItems", isMin: false },
    o.maxItems,
    n.maxItems,
    { old: mostItems(engine.model, o), new: mostItems(engine.model, n) },
  );

  if (o.uniqueItems !== n.uniqueItems) {
    if (n.uniqueItems) {
      const backward = tighter(pair.old, ARRAY, (v) => !Array.isArray(v) || isUnique(v));
      out.push(
        mk(
          "unique-items-added",
          at(n.loc, "uniqueItems"),
          backward,
          "ok",
          "NEW rejects arrays with duplicates",
        ),
      );
    } else {
      const forward = tighter(pair.new, ARRAY, (v) => !Array.isArray(v) || isUnique(v));
      out.push(
        mk(
          "unique-items-removed",
          at(o.loc, "uniqueItems"),
          "ok",
          forward,
          "NEW accepts arrays with duplicates",
        ),
      );
    }
  }

  const oc = o.contains;
  const nc = n.contains;
  if (oc && nc) {
    keep(engine.compare(oc, nc, ctx));
    const counts = { family: ARRAY, measure: () => undefined };
    limit(
      pair,
      out,
      { ...counts, kind: "min-contains", keyword: "minContains", isMin: true, neutral: 1 },
      o.minContains,
      n.minContains,
    );
    limit(
      pair,
      out,
      { ...counts, kind: "max-contains", keyword: "maxContains", isMin: false },
      o.maxContains,
      n.maxContains,
    );
  } else if (nc) {
    const trivial = engine.model.acceptsAll(nc) && (o.minItems ?? 0) >= 1 && (n.minContains ?? 1) <= 1;
    const backward = trivial ? "ok" : tighter(pair.old, ARRAY, () => undefined);
    out.push(
      mk("contains-added", at(n.loc, "contains"), backward, "ok", "NEW requires an item matching contains"),
    );
  } else if (oc) {
    const trivial = engine.model.acceptsAll(oc) && (n.minItems ?? 0) >= 1 && (o.minContains ?? 1) <= 1;
    const forward = trivial ? "ok" : tighter(pair.new, ARRAY, () => undefined);
    out.push(
      mk("contains-removed", at(o.loc, "contains"), "ok", forward, "OLD required an item matching contains"),
    );
  }
};
