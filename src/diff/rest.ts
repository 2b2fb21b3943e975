import { at, mk, scoped, type Comparer, type Ctx, type Pair } from "./family.js";
import type { Loc } from "./document.js";
import type { ChangeKind } from "./kinds.js";
import type { Change, Verdict } from "./vocabulary.js";

export interface RestSpec {
  /** Kind prefix: `additional-properties`, `items`, ... */
  readonly base:
    "items" | "additional-items" | "unevaluated-items" | "additional-properties" | "unevaluated-properties";
  readonly old?: Loc;
  readonly new?: Loc;
  readonly oldKeyword: string;
  readonly newKeyword: string;
  /** Instance type the keyword applies to; a side that accepts none cannot break through it. */
  readonly family: number;
  readonly ctx: Ctx;
  /** What the keyword governs, for reasons: "keys no property names", "items after the tuple". */
  readonly what: string;
  /** OLD (NEW) documents never reach the rest, for instance because maxItems stops at the tuple. */
  readonly oldMoot?: boolean;
  readonly newMoot?: boolean;
}

/**
 * Compares the schemas for "everything else" (additionalProperties, items, ...), where a missing keyword
 * means `true`. Opening or closing is one change; two real schemas are compared keyword by keyword.
 */
export function restChange(engine: Comparer, pair: Pair, out: Change[], spec: RestSpec): void {
  if (!spec.old && !spec.new) return;
  const model = engine.model;
  const a = spec.old ?? engine.trueAt(pair.old.view.loc, spec.oldKeyword);
  const b = spec.new ?? engine.trueAt(pair.new.view.loc, spec.newKeyword);
  const aAll = model.acceptsAll(a);
  const bAll = model.acceptsAll(b);
  const aNone = model.rejectsAll(a);
  const bNone = model.rejectsAll(b);
  const path = spec.new ? at(pair.new.view.loc, spec.newKeyword) : at(pair.old.view.loc, spec.oldKeyword);
  const moot = (c: Change): Change => ({
    ...c,
    backward: spec.oldMoot ? "ok" : c.backward,
    forward: spec.newMoot ? "ok" : c.forward,
  });
  const push = (suffix: string, backward: Verdict, forward: Verdict, reason: string): void => {
    const kind = `${spec.base}-${suffix}` as ChangeKind;
    out.push(...scoped([moot(mk(kind, path, backward, forward, reason))], pair, spec.family));
  };
  if ((aAll && bAll) || (aNone && bNone)) {
    if (spec.old && spec.new)
      out.push(...scoped(engine.compare(a, b, spec.ctx), pair, spec.family).map(moot));
    return;
  }
  if (bNone) push("closed", "breaks", "ok", `NEW rejects ${spec.what}; OLD accepted some`);
  else if (aNone) push("opened", "ok", "breaks", `NEW accepts ${spec.what}; OLD rejected them`);
  else if (aAll) {
    const backward = engine.subset(a, b, spec.ctx);
    push("narrowed", backward, "ok", `NEW constrains ${spec.what}; OLD accepted anything`);
  } else if (bAll) {
    const forward = engine.subset(b, a, engine.swapped(spec.ctx));
    push("extended", "ok", forward, `NEW accepts anything for ${spec.what}; OLD constrained them`);
  } else {
    out.push(...scoped(engine.compare(a, b, spec.ctx), pair, spec.family).map(moot));
  }
}
