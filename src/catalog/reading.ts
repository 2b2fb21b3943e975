import type { Dialect } from "./dialect.js";

/**
 * How a schema is read before anything evaluates it: the one reading the validator (src/catalog/
 * compiler.ts) and `diff` (src/diff/) share, so that a break the diff proves is one the validator
 * sees. docs/validation.md gives the reasons.
 */

/**
 * Drafts 04, 06 and 07 ignore every keyword beside `$ref` ("All other properties in a `$ref` object
 * MUST be ignored"); from 2019-09 on `$ref` is one keyword among others.
 */
export function refSiblingsIgnored(dialect: Dialect): boolean {
  return dialect === "draft-04" || dialect === "draft-06" || dialect === "draft-07";
}

/**
 * Whether the `$id` (draft-04: `id`) of a schema object is ignored: beside a `$ref` in the drafts that
 * ignore its siblings, where it must not move the base URI the `$ref` resolves against. A document's
 * root keeps its id: that is the URI the catalog knows the document by.
 */
export function idIgnored(node: Readonly<Record<string, unknown>>, dialect: Dialect, root: boolean): boolean {
  return !root && refSiblingsIgnored(dialect) && typeof node["$ref"] === "string";
}

/**
 * Keywords that make a 2019-09 or 2020-12 schema depend on annotations or on the dynamic scope, which
 * ajv 8 evaluates wrongly in cases the JSON-Schema-Test-Suite holds (`if` without `then`, `contains`,
 * nested `items`, most of `$dynamicRef`): such a schema is compiled by the annotation engine
 * (src/catalog/annotations.ts) instead.
 */
export const ANNOTATION_KEYWORDS: ReadonlySet<string> = new Set([
  "unevaluatedProperties",
  "unevaluatedItems",
  "$dynamicRef",
  "$dynamicAnchor",
  "$recursiveRef",
  "$recursiveAnchor",
]);

/** Does the dialect evaluate annotations (`unevaluated*`) and a dynamic scope at all? */
export function hasAnnotationKeywords(dialect: Dialect): boolean {
  return dialect === "2019-09" || dialect === "2020-12";
}
