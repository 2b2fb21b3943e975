import { escapePointer, formatPath, type Loc } from "./document.js";
import type { ChangeKind } from "./kinds.js";
import type { Enclosing, Model } from "./model.js";
import type { Change, Policy, Verdict } from "./vocabulary.js";
import type { View } from "./view.js";

// What every keyword family is handed and builds its changes with. It lives apart from the recursive
// driver (compare.ts) so that the families, and what they import, never import the driver: the driver
// imports them (through index.ts) and hands itself over as a `Comparer`.

/** The recursion a family may ask for: the driver (compare.ts) as the families see it. */
export interface Comparer {
  readonly model: Model;
  /** How often a pair was met again while in progress (and assumed compatible). */
  readonly busyHits: number;
  compare(a: Loc, b: Loc, ctx: Ctx): Change[];
  /** Is every document valid under `a` valid under `b`? */
  subset(a: Loc, b: Loc, ctx: Ctx): Verdict;
  /** The context for in-place branches of this pair (allOf, anyOf, oneOf, $ref, then, else, ...). */
  inPlace(pair: Pair): Ctx;
  /** The context for a different instance (a property value, an item). */
  nested(pair: Pair): Ctx;
  /** The same comparison seen from the other schema: used to judge the forward direction. */
  swapped(ctx: Ctx): Ctx;
  /** The `true` schema that a keyword a side leaves out stands for, placed under `loc`. */
  trueAt(loc: Loc, ...segments: string[]): Loc;
}

/** One side of a node comparison with the facts families need about it. */
export interface Side {
  readonly loc: Loc;
  readonly view: View;
  readonly types: number;
  /** The finite set of values the node accepts, when it has one. */
  readonly values: readonly unknown[] | undefined;
}

/**
 * `policy` is the one in force here (`not` switches to strict). `encA`/`encB` describe what validates
 * the keys an in-place branch leaves open, for the first and second schema of the comparison.
 */
export interface Ctx {
  readonly policy: Policy;
  readonly encA?: Enclosing;
  readonly encB?: Enclosing;
}

export interface Pair {
  readonly old: Side;
  readonly new: Side;
  readonly ctx: Ctx;
}

/** A keyword family: compares its keywords of one node pair and appends the changes it finds. */
export type Family = (engine: Comparer, pair: Pair, out: Change[]) => void;

const RANK: Readonly<Record<Verdict, number>> = { ok: 0, undecided: 1, breaks: 2 };

export function worst(verdicts: Iterable<Verdict>): Verdict {
  let result: Verdict = "ok";
  for (const verdict of verdicts) if (RANK[verdict] > RANK[result]) result = verdict;
  return result;
}

export function mk(
  kind: ChangeKind,
  path: string,
  backward: Verdict,
  forward: Verdict,
  reason: string,
): Change {
  return { kind, path, backward, forward, reason };
}

/** The report path of a keyword under a node. */
export function at(loc: Loc, ...segments: string[]): string {
  const suffix = segments.map((s) => `/${escapePointer(s)}`).join("");
  return formatPath(loc.doc, `${loc.ptr}${suffix}`);
}

/**
 * The verdict for a constraint that got tighter on the way from `side` to the other schema: fine when
 * `side` cannot produce the affected instance type at all, or when every value of its finite set passes
 * `check`; otherwise `fallback`.
 */
export function tighter(
  side: Side,
  family: number,
  check: (value: unknown) => boolean | undefined,
  fallback: Verdict = "breaks",
): Verdict {
  if ((side.types & family) === 0) return "ok";
  if (side.values) {
    const results = side.values.map(check);
    if (results.every((r) => r === true)) return "ok";
    if (results.some((r) => r === false)) return "breaks";
  }
  return fallback;
}

/** Sets the directions a proof covers to ok (a comparison of branches seen with their context, say). */
export function proven(changes: readonly Change[], backward: boolean, forward: boolean): Change[] {
  return changes.map((c) => ({
    ...c,
    backward: backward ? "ok" : c.backward,
    forward: forward ? "ok" : c.forward,
  }));
}

/** Marks nested changes harmless in a direction whose source schema accepts no instance of `family`. */
export function scoped(changes: readonly Change[], pair: Pair, family: number): Change[] {
  const backwardMoot = (pair.old.types & family) === 0;
  const forwardMoot = (pair.new.types & family) === 0;
  return changes.map((c) => ({
    ...c,
    backward: backwardMoot ? "ok" : c.backward,
    forward: forwardMoot ? "ok" : c.forward,
  }));
}
