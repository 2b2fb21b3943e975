import { isObject, type Loc } from "./document.js";
import { isInert } from "./keywords.js";
import type { Model } from "./model.js";
import type { Slice } from "./slices.js";
import { ARRAY, FRACTION, maskOfType, NUMBER, OBJECT, STRING } from "./typeset.js";

/**
 * Branches that each bound one measure of a type cover it together: `anyOf: [{maxLength: 5},
 * {minLength: 3}]` takes every string although no branch does. Only a branch whose sole constraint on
 * the type is such a bound counts; anything else in it (a pattern, an asserted format, multipleOf,
 * a branch of its own) leaves the question to the engine.
 */

// The keywords that bound one measure of each type: a length, a value, an item or a property count.
const MEASURES: ReadonlyMap<number, readonly string[]> = new Map([
  [STRING, ["minLength", "maxLength"]],
  [NUMBER, ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]],
  [ARRAY, ["minItems", "maxItems"]],
  [OBJECT, ["minProperties", "maxProperties"]],
]);

/** An interval of the measure; integer-valued unless `real`. */
interface Span {
  readonly lo: number;
  readonly loIn: boolean;
  readonly hi: number;
  readonly hiIn: boolean;
  readonly real: boolean;
}

const isCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0;

/** Does the union of the slices take every instance of `type` (of its integers only, with `within`)? */
export function boundsCover(model: Model, slices: readonly Slice[], type: number, within = type): boolean {
  if (slices.some((s) => s.kind === "all")) return true;
  const keys = MEASURES.get(type);
  if (!keys) return false;
  const spans: Span[] = [];
  for (const slice of slices) {
    // A `neg` slice (what a oneOf leaves) or a branch that is not a bound counts for nothing: the
    // others may still cover the type.
    const span = slice.kind === "pos" ? spanOf(model, slice.loc, type, keys) : undefined;
    if (span) spans.push(span);
  }
  if (type !== NUMBER) return coversIntegers(spans, 0);
  return (within & FRACTION) !== 0 ? coversReals(spans) : coversIntegers(spans.map(integers), -Infinity);
}

/** The interval a slice takes; undefined when it is not a bound (or takes nothing of the type). */
function spanOf(model: Model, input: Loc, type: number, keys: readonly string[]): Span | undefined {
  const loc = model.deref(input);
  const node = loc.node;
  // A `pos` slice is always of an object that takes some of the type (the slicer makes `none` of
  // the rest); the two guards below only keep that promise explicit.
  // Stryker disable next-line ConditionalExpression: unreachable, see above
  if (!isObject(node)) return undefined;
  const allowed = (maskOfType(node["type"]) ?? ~0) & type;
  // Stryker disable next-line ConditionalExpression: unreachable, see above
  if (allowed === 0) return undefined;
  const draft04 = loc.doc.dialect === "draft-04";
  for (const key of Object.keys(node)) {
    if (key === "type" || isInert(key, loc)) continue;
    if (!keys.includes(key)) return undefined;
    const value = node[key];
    // A malformed bound is not read as one (the view would skip it; a validator may not). Draft-04's
    // exclusive keywords are booleans; a number there is a later draft's bound the view skips.
    const wellFormed =
      type !== NUMBER
        ? isCount(value)
        : draft04 && key.startsWith("exclusive")
          ? typeof value === "boolean"
          : Number.isFinite(value);
    if (!wellFormed) return undefined;
  }
  const view = model.view(loc);
  if (type === NUMBER) {
    const span: Span = {
      lo: view.lower?.value ?? -Infinity,
      loIn: view.lower?.exclusive === false,
      hi: view.upper?.value ?? Infinity,
      hiIn: view.upper?.exclusive === false,
      real: true,
    };
    // `type: integer` takes the integers of its interval only: `exclusiveMinimum: 5` starts at 6.
    return (allowed & FRACTION) !== 0 ? span : integers(span);
  }
  const [min, max] =
    type === STRING
      ? [view.minLength, view.maxLength]
      : type === ARRAY
        ? [view.minItems, view.maxItems]
        : [view.minProperties, view.maxProperties];
  // Stryker disable next-line BooleanLiteral: a count span reaches coversIntegers only, which reads its ends
  return { lo: min ?? 0, loIn: true, hi: max ?? Infinity, hiIn: true, real: false };
}

/** The integers of an interval, as an integer interval with inclusive ends (one of those is itself). */
function integers(span: Span): Span {
  const lo = Number.isInteger(span.lo) && !span.loIn ? span.lo + 1 : Math.ceil(span.lo);
  const hi = Number.isInteger(span.hi) && !span.hiIn ? span.hi - 1 : Math.floor(span.hi);
  return {
    lo,
    // Stryker disable next-line BooleanLiteral: integer spans are read by their ends only (coversIntegers, taken)
    loIn: true,
    hi,
    // Stryker disable next-line BooleanLiteral: as above
    hiIn: true,
    real: false,
  };
}

/**
 * Every integer from `from` up lies in some span (of integers with inclusive ends). An empty span
 * needs no skipping: it starts past a gap that every later span starts past too, or ends inside `reach`.
 */
function coversIntegers(spans: readonly Span[], from: number): boolean {
  let reach = from - 1;
  for (const span of [...spans].sort((a, b) => a.lo - b.lo)) {
    if (span.lo > reach + 1) return false;
    reach = Math.max(reach, span.hi);
  }
  return reach === Infinity;
}

/**
 * Numbers: the real spans leave no gap but single integers, and an integer span takes each of those
 * (`{maximum: 5}` and `{exclusiveMinimum: 5}` cover; `{exclusiveMaximum: 5}` and `{exclusiveMinimum:
 * 5}` leave 5 out).
 */
function coversReals(spans: readonly Span[]): boolean {
  const whole = spans.filter((s) => s.real);
  const points = spans.filter((s) => !s.real);
  const taken = (p: number): boolean => Number.isInteger(p) && points.some((s) => s.lo <= p && p <= s.hi);
  // Left to right; `reach` is covered up to, and `reachIn` whether it is covered itself. A span
  // starting at the same point as another comes after it when open there. An empty span needs no
  // skipping: it starts past a gap (or at an open `reach` no later span closes), or ends inside `reach`
  // (ending at it, only when `reach` is taken anyway).
  let reach = -Infinity;
  let reachIn = true;
  const order = [...whole].sort((a, b) => a.lo - b.lo || Number(b.loIn) - Number(a.loIn));
  for (const span of order) {
    if (span.lo > reach) return false;
    if (span.lo === reach && !reachIn && !span.loIn && !taken(reach)) return false;
    if (span.hi > reach) [reach, reachIn] = [span.hi, span.hiIn];
    else if (span.hi === reach) reachIn ||= span.hiIn;
  }
  return reach === Infinity;
}
