import { at, mk, tighter, type Pair } from "./family.js";
import type { ChangeKind } from "./kinds.js";
import type { Change } from "./vocabulary.js";

/**
 * A numeric limit such as `minLength` or `maxItems`. `measure` gives the size of a value the limit
 * applies to (undefined for values of other types), so finite value sets can settle the verdict.
 */
export interface LimitSpec {
  readonly kind:
    | "min-length"
    | "max-length"
    | "min-items"
    | "max-items"
    | "min-properties"
    | "max-properties"
    | "min-contains"
    | "max-contains";
  readonly keyword: string;
  readonly family: number;
  readonly isMin: boolean;
  readonly measure: (value: unknown) => number | undefined;
  /** Value meaning "no limit" for a minimum (0, or 1 for minContains); maxima have none. */
  readonly neutral?: number;
}

function meets(spec: LimitSpec, implied: number | undefined, limit: number): boolean {
  // Stryker disable next-line ConditionalExpression: without the guard `undefined >= limit` and `undefined <= limit` are false too
  if (implied === undefined) return false;
  return spec.isMin ? implied >= limit : implied <= limit;
}

function within(spec: LimitSpec, limit: number | undefined, value: unknown): boolean {
  const size = spec.measure(value);
  if (size === undefined) return true;
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: only the stricter side's limit is checked, and a side without one (no limit, the neutral minimum) is never the stricter: views keep finite counts only
  if (limit === undefined) return true;
  return spec.isMin ? size >= limit : size <= limit;
}

/**
 * What the rest of a node already implies for a limit, per side: a closed tuple holds at most its
 * length, a closed object at most its named properties, an object at least its required names. A
 * tighter limit the source side's implied one already meets rejects none of its documents.
 */
export interface Implied {
  readonly old?: number;
  readonly new?: number;
}

export function limit(
  pair: Pair,
  out: Change[],
  spec: LimitSpec,
  before?: number,
  after?: number,
  implied: Implied = {},
): void {
  const neutral = spec.isMin ? (spec.neutral ?? 0) : undefined;
  const a = before === neutral ? undefined : before;
  const b = after === neutral ? undefined : after;
  if (a === b) return;
  const oldLimit = a ?? (spec.isMin ? (spec.neutral ?? 0) : Infinity);
  const newLimit = b ?? (spec.isMin ? (spec.neutral ?? 0) : Infinity);
  // The two limits are never equal here (a !== b, neither is the neutral minimum, counts are finite), so
  // `>` and `>=` (`<` and `<=`) agree.
  // Stryker disable next-line EqualityOperator: the limits differ, see above
  const tightened = spec.isMin ? newLimit > oldLimit : newLimit < oldLimit;
  const suffix =
    // Stryker disable next-line EqualityOperator: the limits differ, see above
    a === undefined ? "added" : b === undefined ? "removed" : newLimit > oldLimit ? "increased" : "decreased";
  const kind = `${spec.kind}-${suffix}` as ChangeKind;
  const path = b === undefined ? at(pair.old.view.loc, spec.keyword) : at(pair.new.view.loc, spec.keyword);
  const from = a === undefined ? "none" : String(a);
  const to = b === undefined ? "none" : String(b);
  if (tightened) {
    const met = meets(spec, implied.old, newLimit);
    const backward = met ? "ok" : tighter(pair.old, spec.family, (v) => within(spec, b, v));
    const reason = met
      ? `${spec.keyword} ${from} -> ${to}: OLD's other keywords already keep every document within it`
      : `${spec.keyword} ${from} -> ${to}: a tighter limit rejects some documents OLD accepted`;
    out.push(mk(kind, path, backward, "ok", reason));
  } else {
    const met = meets(spec, implied.new, oldLimit);
    const forward = met ? "ok" : tighter(pair.new, spec.family, (v) => within(spec, a, v));
    const reason = met
      ? `${spec.keyword} ${from} -> ${to}: NEW's other keywords already keep every document within OLD's`
      : `${spec.keyword} ${from} -> ${to}: a looser limit accepts documents OLD rejected`;
    out.push(mk(kind, path, "ok", forward, reason));
  }
}
