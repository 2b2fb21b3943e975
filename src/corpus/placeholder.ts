import { sampleForPattern } from "./pattern.js";
import { jsonTypeOf, type SchemaScope } from "./schema-scope.js";

/** Placeholders for well-known string formats, shortest last, so a `maxLength` can still be met. */
const FORMATS: Readonly<Record<string, readonly string[]>> = {
  email: ["user@example.com", "a@b.co"],
  "idn-email": ["user@example.com", "a@b.co"],
  "date-time": ["2000-01-01T00:00:00Z"],
  "iso-date-time": ["2000-01-01T00:00:00Z"],
  date: ["2000-01-01"],
  time: ["00:00:00Z"],
  "iso-time": ["00:00:00Z"],
  duration: ["P1D"],
  uuid: ["00000000-0000-4000-8000-000000000000"],
  uri: ["https://example.com/", "a:b"],
  url: ["https://example.com/"],
  iri: ["https://example.com/", "a:b"],
  "uri-reference": ["https://example.com/", "a"],
  "iri-reference": ["https://example.com/", "a"],
  "uri-template": ["https://example.com/"],
  hostname: ["example.com", "a"],
  "idn-hostname": ["example.com", "a"],
  ipv4: ["192.0.2.1"],
  ipv6: ["2001:db8::1"],
  "json-pointer": ["/redacted", ""],
  "json-pointer-uri-fragment": ["#/redacted", "#"],
  "relative-json-pointer": ["0"],
  regex: ["redacted"],
  byte: ["cmVkYWN0ZWQ=", ""],
};

const REDACTED = "redacted";

function numbers(scope: SchemaScope, keyword: string): number[] {
  const out: number[] = [];
  for (const schema of scope.schemas) {
    const value = schema[keyword];
    if (typeof value === "number") out.push(value);
  }
  return out;
}

function strings(scope: SchemaScope, keyword: string): string[] {
  const out: string[] = [];
  for (const schema of scope.schemas) {
    const value = schema[keyword];
    if (typeof value === "string") out.push(value);
  }
  return out;
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function stringPlaceholder(scope: SchemaScope): string {
  const minLength = Math.max(0, ...numbers(scope, "minLength"));
  const maxLength = Math.min(Infinity, ...numbers(scope, "maxLength"));
  const patterns = strings(scope, "pattern").flatMap((p) => {
    try {
      return [new RegExp(p, "u")];
    } catch {
      return [];
    }
  });
  const fits = (text: string): boolean => {
    const length = codePoints(text);
    return length >= minLength && length <= maxLength && patterns.every((p) => p.test(text));
  };
  const format = strings(scope, "format").find((f) => Object.hasOwn(FORMATS, f));
  if (format !== undefined) {
    // When no placeholder of the format meets the other limits, one that at least has the format is
    // the smaller miss: "redacted" would break the format and the limits alike.
    const known = FORMATS[format]!;
    return known.find(fits) ?? known[0]!;
  }
  const candidates = [REDACTED];
  for (const pattern of strings(scope, "pattern")) {
    const sample = sampleForPattern(pattern, minLength);
    if (sample !== undefined) candidates.push(sample);
  }
  const padded = REDACTED.padEnd(minLength, "x");
  candidates.push(Number.isFinite(maxLength) ? padded.slice(0, maxLength) : padded);
  return candidates.find(fits) ?? REDACTED;
}

interface Bounds {
  minimum: number;
  maximum: number;
  exclusiveMinimum: number;
  exclusiveMaximum: number;
}

function boundsOf(scope: SchemaScope): Bounds {
  const bounds = {
    minimum: -Infinity,
    maximum: Infinity,
    exclusiveMinimum: -Infinity,
    exclusiveMaximum: Infinity,
  };
  for (const schema of scope.schemas) {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
    // Draft 4 spells exclusive limits as booleans beside minimum/maximum; later drafts as numbers.
    if (typeof exclusiveMinimum === "number") {
      bounds.exclusiveMinimum = Math.max(bounds.exclusiveMinimum, exclusiveMinimum);
    }
    if (typeof exclusiveMaximum === "number") {
      bounds.exclusiveMaximum = Math.min(bounds.exclusiveMaximum, exclusiveMaximum);
    }
    if (typeof minimum === "number") {
      if (exclusiveMinimum === true) bounds.exclusiveMinimum = Math.max(bounds.exclusiveMinimum, minimum);
      else bounds.minimum = Math.max(bounds.minimum, minimum);
    }
    if (typeof maximum === "number") {
      if (exclusiveMaximum === true) bounds.exclusiveMaximum = Math.min(bounds.exclusiveMaximum, maximum);
      else bounds.maximum = Math.min(bounds.maximum, maximum);
    }
  }
  return bounds;
}

function numberPlaceholder(scope: SchemaScope, original: number): number {
  const bounds = boundsOf(scope);
  const steps = numbers(scope, "multipleOf").filter((m) => m > 0);
  const wantsInteger = Number.isInteger(original) || scope.schemas.some((s) => s["type"] === "integer");
  const fits = (n: number): boolean =>
    Number.isFinite(n) &&
    n >= bounds.minimum &&
    n <= bounds.maximum &&
    n > bounds.exclusiveMinimum &&
    n < bounds.exclusiveMaximum &&
    (!wantsInteger || Number.isInteger(n)) &&
    // The test ajv applies, so a float step is only met by values it accepts.
    steps.every((m) => n % m === 0);
  const low = Math.max(bounds.minimum, bounds.exclusiveMinimum);
  const high = Math.min(bounds.maximum, bounds.exclusiveMaximum);
  const step = steps[0] ?? (wantsInteger ? 1 : undefined);
  const candidates: number[] = [];
  // A value that was not an integer keeps a fraction when it can, so the example keeps its shape.
  if (!wantsInteger) candidates.push(0.5, ...(step !== undefined ? [step] : []), low + 0.5, high - 0.5);
  candidates.push(0);
  if (step !== undefined) {
    const first = Math.ceil(low / step) * step;
    const last = Math.floor(high / step) * step;
    candidates.push(first, first + step, last, last - step);
  } else {
    candidates.push(low, (low + high) / 2, high);
  }
  return candidates.find(fits) ?? 0;
}

/**
 * A placeholder for one scalar value: of the same JSON type, and passing the schemas of `scope` where
 * it can. `const` gives the const, `enum` its first value of the same type (else its first value).
 */
export function placeholderFor(original: unknown, scope: SchemaScope): unknown {
  for (const schema of scope.schemas) if ("const" in schema) return schema["const"];
  const type = jsonTypeOf(original);
  for (const schema of scope.schemas) {
    const values = schema["enum"];
    if (Array.isArray(values) && values.length > 0) {
      return values.find((v) => jsonTypeOf(v) === type) ?? values[0];
    }
  }
  switch (type) {
    case "string":
      return stringPlaceholder(scope);
    case "integer":
    case "number":
      return numberPlaceholder(scope, original as number);
    case "boolean":
      return false;
    default:
      return original === undefined ? null : original;
  }
}
