import { isObject } from "./document.js";
import type { View } from "./view.js";
import { maskOfType, maskOfValue } from "./typeset.js";

/** JSON equality: key order does not matter, 1 and 1.0 are the same number. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
  }
  return false;
}

export function includesValue(values: readonly unknown[], value: unknown): boolean {
  return values.some((candidate) => deepEqual(candidate, value));
}

/** The finite set of values `enum` and `const` allow together, or undefined when there is none. */
export function declaredValues(view: View): readonly unknown[] | undefined {
  let values: readonly unknown[] | undefined = view.enumValues;
  if (view.hasConst) {
    values = values === undefined ? [view.constValue] : values.filter((v) => deepEqual(v, view.constValue));
  }
  return values;
}

// The checks below answer "does this value pass this keyword family of that schema?" for the local
// keywords only; they let a finite enum settle what a structural rule would otherwise call a break.
// `undefined` means the check cannot tell (an invalid regular expression, for instance).

export function passesType(view: View, value: unknown): boolean {
  const mask = maskOfType(view.type);
  return mask === undefined || (mask & maskOfValue(value)) !== 0;
}

export function passesEnum(view: View, value: unknown): boolean {
  const values = declaredValues(view);
  return values === undefined || includesValue(values, value);
}

export function passesNumber(view: View, value: unknown): boolean {
  if (typeof value !== "number") return true;
  const { upper, lower, multipleOf } = view;
  if (upper && (upper.exclusive ? value >= upper.value : value > upper.value)) return false;
  if (lower && (lower.exclusive ? value <= lower.value : value < lower.value)) return false;
  return multipleOf === undefined || isMultiple(value, multipleOf);
}

/**
 * The engine's own test (ajv without `multipleOfPrecision`): the quotient must be an integer as
 * `parseInt` reads it, with no tolerance. So 0.3 is no multiple of 0.1 (0.3 / 0.1 is
 * 2.9999999999999996), and no quotient from 1e21 up is one.
 */
export function isMultiple(value: number, divisor: number): boolean {
  if (divisor <= 0) return true;
  const ratio = value / divisor;
  return ratio === Number.parseInt(String(ratio), 10);
}

export function stringLength(value: string): number {
  return [...value].length;
}

export function passesStringLength(view: View, value: unknown): boolean {
  if (typeof value !== "string") return true;
  const length = stringLength(value);
  return (
    (view.minLength === undefined || length >= view.minLength) &&
    (view.maxLength === undefined || length <= view.maxLength)
  );
}

export function testPattern(pattern: string, value: string): boolean | undefined {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return undefined;
  }
}

export function passesPattern(view: View, value: unknown): boolean | undefined {
  if (typeof value !== "string" || view.pattern === undefined) return true;
  return testPattern(view.pattern, value);
}

export function passesArraySize(view: View, value: unknown): boolean {
  if (!Array.isArray(value)) return true;
  return (
    (view.minItems === undefined || value.length >= view.minItems) &&
    (view.maxItems === undefined || value.length <= view.maxItems) &&
    (!view.uniqueItems || isUnique(value))
  );
}

export function isUnique(values: readonly unknown[]): boolean {
  return values.every((value, i) => values.findIndex((other) => deepEqual(other, value)) === i);
}

export function passesObjectSize(view: View, value: unknown): boolean {
  if (!isObject(value)) return true;
  const count = Object.keys(value).length;
  return (
    (view.minProperties === undefined || count >= view.minProperties) &&
    (view.maxProperties === undefined || count <= view.maxProperties) &&
    view.required.every((name) => Object.hasOwn(value, name))
  );
}

/** Every local keyword at once; used to drop enum members that the schema itself rejects. */
export function passesLocal(view: View, value: unknown): boolean {
  return (
    passesType(view, value) &&
    passesEnum(view, value) &&
    passesNumber(view, value) &&
    passesStringLength(view, value) &&
    passesPattern(view, value) !== false &&
    passesArraySize(view, value) &&
    passesObjectSize(view, value)
  );
}
