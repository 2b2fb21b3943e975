import { isObject, type Loc } from "./document.js";
import type { Model } from "./model.js";
import { fallbackFor } from "./objects.js";
import { ARRAY, NUMBER, OBJECT, STRING } from "./typeset.js";
import type { Bound } from "./view.js";

/** Is every number under `upper` below every number over `lower`? */
function below(upper: Bound | undefined, lower: Bound | undefined): boolean {
  if (!upper || !lower) return false;
  return upper.value < lower.value || (upper.value === lower.value && (upper.exclusive || lower.exclusive));
}
import { includesValue, passesLocal } from "./values.js";

/**
 * Proves that no document is valid under both `a` and `b`: their types do not meet, their finite value
 * sets do not meet, or both require a property whose schemas are themselves disjoint (a discriminator).
 * `false` means "not proven", never "they overlap".
 */
export function disjoint(model: Model, a: Loc, b: Loc, depth = 0): boolean {
  if (depth > 4) return false;
  const shared = model.types(a) & model.types(b);
  if (shared === 0) return true;
  const x = model.values(a);
  const y = model.values(b);
  const left = model.deref(a);
  const right = model.deref(b);
  // Stryker disable next-line ConditionalExpression: without it the next line decides the same (passesLocal checks the enum)
  if (x && y) return !x.some((v) => includesValue(y, v));
  if (x && isObject(right.node)) return x.every((v) => !passesLocal(model.view(right), v));
  if (y && isObject(left.node)) return y.every((v) => !passesLocal(model.view(left), v));
  // A boolean node left here is `true`: its view bounds nothing, so every check below is false for it.
  // Stryker disable next-line ConditionalExpression,LogicalOperator: see above
  if (!isObject(left.node) || !isObject(right.node)) return false;
  const p = model.view(left);
  const q = model.view(right);
  if ((shared & ~NUMBER) === 0 && (below(p.upper, q.lower) || below(q.upper, p.lower))) return true;
  if (
    shared === STRING &&
    ((p.maxLength ?? Infinity) < (q.minLength ?? 0) || (q.maxLength ?? Infinity) < (p.minLength ?? 0))
  ) {
    return true;
  }
  if (
    shared === ARRAY &&
    ((p.maxItems ?? Infinity) < (q.minItems ?? 0) || (q.maxItems ?? Infinity) < (p.minItems ?? 0))
  ) {
    return true;
  }
  if (shared !== OBJECT) return false;
  const pRequired = model.flatRequired(p);
  const qRequired = model.flatRequired(q);
  // Only schemas that apply whenever the property is present can discriminate.
  const strong = (view: typeof p, key: string) =>
    model
      .declarations(view)
      .get(key)
      ?.find((d) => d.conjunctive)?.loc;
  const declares = (view: typeof p, key: string) => (model.declarations(view).get(key)?.length ?? 0) > 0;
  for (const key of pRequired) {
    const mine = strong(p, key);
    const theirs = strong(q, key);
    if (qRequired.has(key) && mine && theirs && disjoint(model, mine, theirs, depth + 1)) return true;
    if (!declares(q, key) && fallbackFor(model, q, key).state === "closed") return true;
  }
  for (const key of qRequired) {
    if (!declares(p, key) && fallbackFor(model, p, key).state === "closed") return true;
  }
  return false;
}
