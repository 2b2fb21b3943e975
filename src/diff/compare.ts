import { NO_DEADLINE, type Deadline } from "./deadline.js";
import { isObject, escapePointer, type Loc } from "./document.js";
import {
  at,
  mk,
  proven,
  worst,
  type Comparer,
  type Ctx,
  type Family,
  type Pair,
  type Side,
} from "./family.js";
import type { Model } from "./model.js";
import { finiteSubset } from "./finite.js";
import { slicedSubset } from "./slices.js";
import type { Change, Verdict } from "./vocabulary.js";
import type { View } from "./view.js";

type Memo = Map<string, Change[] | "busy">;
const TRUE_KEY = {};

/**
 * Compares two schema nodes keyword family by keyword family. Results are memoized on the pair of nodes
 * (and context), which is also what makes recursive schemas terminate: a pair met again while it is
 * still being compared is assumed compatible, the standard coinductive reading of recursive types.
 */
export class Engine implements Comparer {
  private readonly memo = new WeakMap<object, WeakMap<object, Memo>>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;
  private slicing = 0;
  /** How often a pair was met again while in progress (and assumed compatible). */
  busyHits = 0;

  constructor(
    readonly model: Model,
    private readonly families: readonly Family[],
    private readonly deadline: Pick<Deadline, "check"> = NO_DEADLINE,
  ) {}

  compare(a: Loc, b: Loc, ctx: Ctx): Change[] {
    // Every pair of nodes is a step of the comparison: past the budget it throws OutOfTime.
    this.deadline.check();
    const oldLoc = this.model.deref(a);
    const newLoc = this.model.deref(b);
    if (oldLoc.node === false || newLoc.node === false) {
      return this.booleans(oldLoc, newLoc).map((c) => ({ ...c, site: { old: oldLoc, new: newLoc } }));
    }
    const oldKey = isObject(oldLoc.node) ? oldLoc.node : TRUE_KEY;
    const newKey = isObject(newLoc.node) ? newLoc.node : TRUE_KEY;
    let byNew = this.memo.get(oldKey);
    if (!byNew) this.memo.set(oldKey, (byNew = new WeakMap()));
    let byCtx = byNew.get(newKey);
    if (!byCtx) byNew.set(newKey, (byCtx = new Map()));
    const key = `${ctx.policy}|${this.id(ctx.encA)}|${this.id(ctx.encB)}`;
    const hit = byCtx.get(key);
    if (hit === "busy") {
      // Stryker disable next-line UpdateOperator: slices.ts only asks whether the count moved during a proof
      this.busyHits++;
      return [];
    }
    if (hit) return hit;
    byCtx.set(key, "busy");
    const pair: Pair = { old: this.side(oldLoc), new: this.side(newLoc), ctx };
    let out: Change[] = [];
    for (const family of this.families) family(this, pair, out);
    // Nested comparisons tagged their own changes; the rest were found at this pair.
    const site = { old: oldLoc, new: newLoc };
    out = out.map((c) => (c.site ? c : { ...c, site }));
    out = this.unwrapped(pair, out);
    out = this.sliced(pair, out);
    out = this.finite(pair, out);
    // A side that accepts nothing has no document that could fail the other.
    if (pair.old.types === 0 || pair.new.types === 0) {
      out = out.map((c) => ({
        ...c,
        backward: pair.old.types === 0 ? "ok" : c.backward,
        forward: pair.new.types === 0 ? "ok" : c.forward,
      }));
    }
    byCtx.set(key, out);
    return out;
  }

  /**
   * One side wraps its keywords in `allOf` and the other does not: keyword by keyword the two look
   * different, so the comparison is settled as a whole, with the branches merged into their node.
   */
  private unwrapped(pair: Pair, out: Change[]): Change[] {
    const o = pair.old.view;
    const n = pair.new.view;
    const wrapped = (view: View, other: View) => view.allOf.length > 0 && other.allOf.length === 0;
    const backward =
      wrapped(o, n) &&
      out.some((c) => c.backward !== "ok") &&
      this.subset(this.model.mergeAll(o), n.loc, pair.ctx) === "ok";
    const forward =
      wrapped(n, o) &&
      out.some((c) => c.forward !== "ok") &&
      this.subset(this.model.mergeAll(n), o.loc, this.swapped(pair.ctx)) === "ok";
    return proven(out, backward, forward);
  }

  /**
   * A side with `anyOf`/`oneOf` whose keyword-by-keyword verdict is not ok is compared type by type
   * (slices.ts): per instance type, each side is everything, nothing, a schema or the rest of one, and
   * containment holds when it holds for every type. Not nested: a sliced proof inside another one would
   * only repeat it on the nodes it made.
   */
  private sliced(pair: Pair, out: Change[]): Change[] {
    const o = pair.old.view;
    const n = pair.new.view;
    const slicer = this.model.slicer;
    if (this.slicing > 0 || (!o.anyOf && !o.oneOf && !n.anyOf && !n.oneOf)) return out;
    if (slicer.isSynthetic(o.raw) || slicer.isSynthetic(n.raw)) return out;
    const needBackward = out.some((c) => c.backward !== "ok");
    const needForward = out.some((c) => c.forward !== "ok");
    if (!needBackward && !needForward) return out;
    this.slicing++;
    try {
      const backward = needBackward && slicedSubset(this, slicer, o.loc, n.loc, pair.ctx);
      const forward = needForward && slicedSubset(this, slicer, n.loc, o.loc, this.swapped(pair.ctx));
      const settled = proven(out, backward, forward);
      return settled.map((c, i) => {
        const was = out[i] as Change;
        const now = (["backward", "forward"] as const).filter((d) => c[d] !== was[d]);
        if (now.length === 0) return c;
        return { ...c, reason: `${c.reason}; compared type by type, ${now.join(" and ")} holds` };
      });
    } finally {
      this.slicing--;
    }
  }

  /**
   * A side whose values are a known finite set of scalars (an `enum` rewritten as a `oneOf` of
   * `const`s, booleans as a `type`) is compared value by value (finite.ts): each must be valid under
   * the other side, judged exactly, or nothing is proven.
   */
  private finite(pair: Pair, out: Change[]): Change[] {
    const needBackward = out.some((c) => c.backward !== "ok");
    const needForward = out.some((c) => c.forward !== "ok");
    if (!needBackward && !needForward) return out;
    const backward = needBackward && finiteSubset(this.model, pair.old.view.loc, pair.new.view.loc);
    const forward = needForward && finiteSubset(this.model, pair.new.view.loc, pair.old.view.loc);
    if (!backward && !forward) return out;
    const settled = proven(out, backward, forward);
    return settled.map((c, i) => {
      const was = out[i] as Change;
      const now = (["backward", "forward"] as const).filter((d) => c[d] !== was[d]);
      if (now.length === 0) return c;
      return { ...c, reason: `${c.reason}; compared value by value, ${now.join(" and ")} holds` };
    });
  }

  /** Is every document valid under `a` valid under `b`? */
  subset(a: Loc, b: Loc, ctx: Ctx): Verdict {
    return worst(this.compare(a, b, ctx).map((c) => c.backward));
  }

  /** The context for in-place branches of this pair (allOf, anyOf, oneOf, $ref, then, else, ...). */
  inPlace(pair: Pair): Ctx {
    return {
      policy: pair.ctx.policy,
      encA: this.model.enclosing(pair.old.view) ?? pair.ctx.encA,
      encB: this.model.enclosing(pair.new.view) ?? pair.ctx.encB,
    };
  }

  /** The context for a different instance (a property value, an item). */
  nested(pair: Pair): Ctx {
    return { policy: pair.ctx.policy };
  }

  /** The same comparison seen from the other schema: used to judge the forward direction. */
  swapped(ctx: Ctx): Ctx {
    return { policy: ctx.policy, encA: ctx.encB, encB: ctx.encA };
  }

  trueAt(loc: Loc, ...segments: string[]): Loc {
    return {
      node: true,
      ptr: `${loc.ptr}${segments.map((s) => `/${escapePointer(s)}`).join("")}`,
      doc: loc.doc,
    };
  }

  private side(loc: Loc): Side {
    return { loc, view: this.model.view(loc), types: this.model.types(loc), values: this.model.values(loc) };
  }

  /** At least one side is `false`; `false` against `false` is no change (`false` rejects all). */
  private booleans(a: Loc, b: Loc): Change[] {
    if (b.node === false) {
      if (this.model.rejectsAll(a)) return [];
      return [
        mk("false-schema-added", at(b), "breaks", "ok", "NEW is `false` here and rejects every document"),
      ];
    }
    if (this.model.rejectsAll(b)) return [];
    return [
      mk("false-schema-removed", at(b), "ok", "breaks", "OLD was `false` here and rejected every document"),
    ];
  }

  private id(value: object | undefined): number {
    if (value === undefined) return 0;
    let id = this.ids.get(value);
    if (id === undefined) this.ids.set(value, (id = this.nextId++));
    return id;
  }
}
