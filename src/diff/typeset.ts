/**
 * Instance types as a bit set. Numbers are split into integers and fractions so that `integer` is a
 * plain subset of `number` and set arithmetic answers widening and narrowing.
 */
export const NULL = 1;
export const BOOLEAN = 2;
export const OBJECT = 4;
export const ARRAY = 8;
export const STRING = 16;
export const INTEGER = 32;
export const FRACTION = 64;
export const NUMBER = INTEGER | FRACTION;
export const ALL = 127;

const NAMES: Readonly<Record<string, number>> = {
  null: NULL,
  boolean: BOOLEAN,
  object: OBJECT,
  array: ARRAY,
  string: STRING,
  integer: INTEGER,
  number: NUMBER,
};

/** The mask of a `type` keyword value; unknown names count for nothing. */
export function maskOfType(type: unknown): number | undefined {
  if (typeof type === "string") return NAMES[type] ?? 0;
  if (!Array.isArray(type)) return undefined;
  let mask = 0;
  for (const name of type) if (typeof name === "string") mask |= NAMES[name] ?? 0;
  return mask;
}

export function maskOfValue(value: unknown): number {
  if (value === null) return NULL;
  if (typeof value === "boolean") return BOOLEAN;
  if (typeof value === "string") return STRING;
  if (typeof value === "number") return Number.isInteger(value) ? INTEGER : FRACTION;
  if (Array.isArray(value)) return ARRAY;
  return OBJECT;
}

export function describeTypes(mask: number): string {
  if (mask === 0) return "nothing";
  if (mask === ALL) return "any type";
  const names: string[] = [];
  if (mask & NULL) names.push("null");
  if (mask & BOOLEAN) names.push("boolean");
  if (mask & OBJECT) names.push("object");
  if (mask & ARRAY) names.push("array");
  if (mask & STRING) names.push("string");
  if ((mask & NUMBER) === NUMBER) names.push("number");
  else if (mask & INTEGER) names.push("integer");
  else if (mask & FRACTION) names.push("non-integer number");
  return names.join(", ");
}
