import { passesContent } from "../../catalog/engine.js";
import { FRACTION, INTEGER } from "../typeset.js";
import { isMultiple, passesNumber, passesPattern, passesStringLength, testPattern } from "../values.js";
import type { View } from "../view.js";
import { patternSamples } from "./regex.js";

/**
 * Numbers a scope accepts, near the edges that matter: its own bounds and those of the other
 * schema (`hints`), either side of each, multiples of every `multipleOf` in sight.
 */
export function numbers(views: readonly View[], hints: readonly View[], mask: number): number[] {
  // In order of interest: the other schema's edges, this one's, multiples, then plain numbers.
  const seeds: number[] = [0, 1];
  const edges = (list: readonly View[]): void => {
    for (const view of list) {
      for (const bound of [view.upper, view.lower]) {
        if (!bound) continue;
        for (const delta of [0, 1, -1, 0.5, -0.5, 2, -2]) seeds.push(bound.value + delta);
      }
      // Stryker disable next-line ArrayDeclaration,ConditionalExpression: fits() drops whatever is not a finite number
      for (const value of view.enumValues ?? []) if (typeof value === "number") seeds.push(value);
      // Stryker disable next-line ConditionalExpression: fits() drops whatever is not a finite number
      if (typeof view.constValue === "number") seeds.push(view.constValue);
    }
  };
  edges(hints);
  edges(views);
  const steps = [...new Set([...views, ...hints].flatMap((v) => (v.multipleOf ? [v.multipleOf] : [])))];
  const anchors = [...seeds];
  for (const step of steps) {
    for (const k of [1, 2, 3, -1, 0.5, 1.5]) seeds.push(step * k);
    for (const anchor of anchors)
      seeds.push(Math.round(anchor / step) * step, Math.floor(anchor / step) * step);
  }
  // Stryker disable next-line EqualityOperator: one step's product and three times it are already seeds (k = 1, 3)
  if (steps.length > 1) {
    const product = steps.reduce((a, b) => a * b, 1);
    seeds.push(product, product * 3);
  }
  seeds.push(-1, 2, 10, 0.5, 1.5, -0.5, 100, -100, 2147483648, 9007199254740992);
  const kind = (n: number): number => (Number.isInteger(n) ? INTEGER : FRACTION);
  const fits = (n: number): boolean =>
    Number.isFinite(n) &&
    (mask & kind(n)) !== 0 &&
    views.every(
      // Stryker disable next-line ConditionalExpression: passesNumber checks multipleOf as well
      (view) => passesNumber(view, n) && (view.multipleOf === undefined || isMultiple(n, view.multipleOf)),
    );
  // Stryker disable next-line UnaryOperator: 0 is the first seed, so the Set keeps 0 for -0 either way
  return [...new Set(seeds.map((n) => (Object.is(n, -0) ? 0 : n)))].filter(fits);
}

// Valid examples of the formats ajv-formats knows, and one of the content encodings and media types.
const FORMAT_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  date: ["2020-01-01"],
  time: ["12:00:00Z"],
  "date-time": ["2020-01-01T12:00:00Z"],
  "iso-time": ["12:00:00Z"],
  "iso-date-time": ["2020-01-01T12:00:00Z"],
  duration: ["P1D"],
  uri: ["https://example.com/a"],
  "uri-reference": ["a/b"],
  "uri-template": ["https://example.com/{id}"],
  url: ["https://example.com/a"],
  email: ["a@example.com"],
  "idn-email": ["a@example.com"],
  hostname: ["example.com"],
  "idn-hostname": ["example.com"],
  ipv4: ["127.0.0.1"],
  ipv6: ["::1"],
  regex: ["^a"],
  uuid: ["123e4567-e89b-12d3-a456-426614174000"],
  "json-pointer": ["/a"],
  "json-pointer-uri-fragment": ["#/a"],
  "relative-json-pointer": ["0/a"],
  byte: ["YQ=="],
  password: ["secret"],
  // Stryker disable next-line StringLiteral,ArrayDeclaration: "a" is among the strings tried next anyway
  binary: ["a"],
};

/** Strings few patterns match: punctuation, a letter past ASCII, a line break. */
const OUTSIDE = ["!", "#", "é", "a\n", "~"];

/**
 * Strings a scope accepts: samples of its patterns, the lengths at its limits and the other schema's,
 * values the other schema lists, examples of any format or content either side names.
 */
export function strings(views: readonly View[], hints: readonly View[]): string[] {
  let min = 0;
  let max = Infinity;
  for (const view of views) {
    min = Math.max(min, view.minLength ?? 0);
    max = Math.min(max, view.maxLength ?? Infinity);
  }
  // Stryker disable next-line MethodExpression,ConditionalExpression: an absent pattern gives no samples
  const patterns = views.map((v) => v.pattern).filter((p): p is string => p !== undefined);
  const samples = patterns.flatMap((p) => patternSamples(p, 8));
  // Stryker disable next-line StringLiteral: an empty base is filled with "a" all the same
  const bases = samples.length > 0 ? samples.slice(0, 3) : ["a"];
  // A string of a given length: a sample's last character (or a letter) repeated, or the sample cut.
  const sized = (length: number): string[] =>
    length < 0 || length > 256
      ? []
      : bases.map((base) => {
          const chars = [...base];
          const fill = chars[chars.length - 1] ?? "a";
          // Stryker disable next-line EqualityOperator: at equal length both branches give the base itself
          return chars.length >= length
            ? chars.slice(0, length).join("")
            : base + fill.repeat(length - chars.length);
        });
  // In order of interest: the plainest value, the other schema's edges, this one's, then plain strings.
  const seeds: string[] = [...samples.slice(0, 1), ...sized(min), ""];
  for (const view of [...hints, ...views]) {
    for (const length of [view.minLength, view.maxLength]) {
      if (length !== undefined) for (const delta of [-1, 0, 1]) seeds.push(...sized(length + delta));
    }
    for (const value of [...(view.enumValues ?? []), ...(view.hasConst ? [view.constValue] : [])]) {
      if (typeof value === "string") seeds.push(value);
    }
    if (view.format) seeds.push(...(FORMAT_EXAMPLES[view.format] ?? []), "a", "2020-13-45");
    // Stryker disable next-line ConditionalExpression,LogicalOperator: this scope's own samples are seeds already, and come first
    if (view.pattern && !patterns.includes(view.pattern)) {
      seeds.push(...patternSamples(view.pattern, 4));
      // And outside it: a pattern the other version drops is broken by a string it never matched.
      const pattern = view.pattern;
      // The words it names are probes too (`^(?!.*(local|meta))` forbids them), alone and inside.
      const words = [...new Set(pattern.match(/[A-Za-z]{3,}/g) ?? [])].slice(0, 4);
      const probes = [...OUTSIDE, ...words.flatMap((w) => [w, `a${w}`, `${w}a`])];
      seeds.push(...probes.filter((probe) => testPattern(pattern, probe) === false).slice(0, 4));
    }
    const raw = view.raw;
    if (typeof raw["contentEncoding"] === "string" || typeof raw["contentMediaType"] === "string") {
      seeds.push("e30=", "{}", "YQ==", "!", "not json");
    }
  }
  seeds.push(...samples, ...sized(min + 1));
  // Stryker disable next-line ConditionalExpression,ArithmeticOperator: each view's maxLength and one less are seeds already; past 256 sized() gives nothing
  if (Number.isFinite(max)) seeds.push(...sized(max), ...sized(max - 1));
  seeds.push("a", "ab", "abc", "A", "0", " ", "-", "a b");
  const fits = (s: string): boolean =>
    views.every(
      (view) => passesStringLength(view, s) && passesPattern(view, s) !== false && contentFits(view, s),
    );
  return [...new Set(seeds)].filter(fits);
}

/** Content is only checked where the engine asserts it; elsewhere it is an annotation. */
function contentFits(view: View, value: string): boolean {
  if (!view.loc.doc.assertsFormats) return true;
  const raw = view.raw;
  return passesContent(value, raw["contentEncoding"], raw["contentMediaType"]);
}
