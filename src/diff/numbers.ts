import { at, mk, tighter, type Family, type Pair } from "./family.js";
import type { ChangeKind } from "./kinds.js";
import type { Change } from "./vocabulary.js";
import { FRACTION, INTEGER, NUMBER } from "./typeset.js";
import { isMultiple } from "./values.js";
import type { Bound } from "./view.js";

type Side = "max" | "min";

/** A bound as a comparable number; over integers an exclusive bound is the next inclusive integer. */
function effective(
  bound: Bound | undefined,
  side: Side,
  integers: boolean,
): { value: number; exclusive: boolean } {
  if (!bound) return { value: side === "max" ? Infinity : -Infinity, exclusive: false };
  if (!integers) return bound;
  const { value, exclusive } = bound;
  if (side === "max")
    return { value: exclusive && Number.isInteger(value) ? value - 1 : Math.floor(value), exclusive: false };
  return { value: exclusive && Number.isInteger(value) ? value + 1 : Math.ceil(value), exclusive: false };
}

/** -1: `b` admits less than `a`; 1: more; 0: the same numbers. */
function direction(a: Bound | undefined, b: Bound | undefined, side: Side, integers: boolean): -1 | 0 | 1 {
  const x = effective(a, side, integers);
  const y = effective(b, side, integers);
  if (x.value !== y.value) {
    const lower = y.value < x.value;
    return side === "max" ? (lower ? -1 : 1) : lower ? 1 : -1;
  }
  if (x.exclusive === y.exclusive) return 0;
  return y.exclusive ? -1 : 1;
}

function passes(bound: Bound | undefined, side: Side, value: unknown): boolean {
  if (!bound || typeof value !== "number") return true;
  if (side === "max") return bound.exclusive ? value < bound.value : value <= bound.value;
  return bound.exclusive ? value > bound.value : value >= bound.value;
}

function kindOf(a: Bound | undefined, b: Bound | undefined, side: Side): ChangeKind {
  const base = side === "max" ? "maximum" : "minimum";
  const prefix = (bound: Bound): string => (bound.exclusive ? `exclusive-${base}` : base);
  if (!a && b) return `${prefix(b)}-added` as ChangeKind;
  if (a && !b) return `${prefix(a)}-removed` as ChangeKind;
  if (a && b && a.value === b.value)
    return `exclusive-${base}-${b.exclusive ? "added" : "removed"}` as ChangeKind;
  const moved = (b as Bound).value < (a as Bound).value ? "decreased" : "increased";
  return `${prefix(b as Bound)}-${moved}` as ChangeKind;
}

const describe = (bound: Bound | undefined, side: Side): string =>
  bound ? `${side === "max" ? "<" : ">"}${bound.exclusive ? "" : "="} ${bound.value}` : "none";

function bound(pair: Pair, out: Change[], side: Side, integers: boolean): void {
  const a = side === "max" ? pair.old.view.upper : pair.old.view.lower;
  const b = side === "max" ? pair.new.view.upper : pair.new.view.lower;
  if (!a && !b) return;
  if (a && b && a.value === b.value && a.exclusive === b.exclusive) return;
  const path = b ? at(pair.new.view.loc, b.keyword) : at(pair.old.view.loc, (a as Bound).keyword);
  const what = `${side === "max" ? "upper" : "lower"} bound ${describe(a, side)} -> ${describe(b, side)}`;
  const kind = kindOf(a, b, side);
  const moved = direction(a, b, side, integers);
  if (moved === 0) {
    out.push(mk(kind, path, "ok", "ok", `${what}: the same integers pass`));
  } else if (moved < 0) {
    const backward = tighter(pair.old, NUMBER, (v) => passes(b, side, v));
    out.push(mk(kind, path, backward, "ok", `${what}: numbers OLD accepted now fail`));
  } else {
    const forward = tighter(pair.new, NUMBER, (v) => passes(a, side, v));
    out.push(mk(kind, path, "ok", forward, `${what}: NEW accepts numbers OLD rejected`));
  }
}

function multipleOf(pair: Pair, out: Change[]): void {
  const a = pair.old.view.multipleOf;
  const b = pair.new.view.multipleOf;
  if (a === b) return;
  // An integer-only side behaves as if it carried multipleOf 1.
  const integerOnly = (types: number): boolean => (types & FRACTION) === 0 && (types & INTEGER) !== 0;
  const oldStep = a ?? (integerOnly(pair.old.types) ? 1 : undefined);
  const newStep = b ?? (integerOnly(pair.new.types) ? 1 : undefined);
  const toNew = (v: unknown): boolean => typeof v !== "number" || b === undefined || isMultiple(v, b);
  const toOld = (v: unknown): boolean => typeof v !== "number" || a === undefined || isMultiple(v, a);
  const backward =
    b === undefined || (oldStep !== undefined && isMultiple(oldStep, b))
      ? "ok"
      : tighter(pair.old, NUMBER, toNew);
  const forward =
    a === undefined || (newStep !== undefined && isMultiple(newStep, a))
      ? "ok"
      : tighter(pair.new, NUMBER, toOld);
  let kind: ChangeKind;
  if (a === undefined) kind = "multiple-of-added";
  else if (b === undefined) kind = "multiple-of-removed";
  else if (isMultiple(a, b)) kind = "multiple-of-reduced";
  else if (isMultiple(b, a)) kind = "multiple-of-expanded";
  else kind = "multiple-of-changed";
  const path = b === undefined ? at(pair.old.view.loc, "multipleOf") : at(pair.new.view.loc, "multipleOf");
  out.push(mk(kind, path, backward, forward, `multipleOf ${a ?? "none"} -> ${b ?? "none"}`));
}

/** maximum, minimum and both exclusive forms (draft-04's boolean one folded in by the view), multipleOf. */
export const numbers: Family = (_engine, pair, out) => {
  const integers = ((pair.old.types | pair.new.types) & FRACTION) === 0;
  bound(pair, out, "max", integers);
  bound(pair, out, "min", integers);
  multipleOf(pair, out);
};
