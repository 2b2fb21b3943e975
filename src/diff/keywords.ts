import { hasModernKeywords, type Dialect } from "./dialect.js";
import type { Loc } from "./document.js";
import type { View } from "./view.js";

/** Keywords that say nothing about validity; a node made only of these accepts every document. */
export const ANNOTATION_KEYWORDS: Readonly<Record<string, string>> = {
  title: "title-changed",
  description: "description-changed",
  examples: "examples-changed",
  default: "default-changed",
  $comment: "comment-changed",
  deprecated: "deprecated-changed",
  readOnly: "read-only-changed",
  writeOnly: "write-only-changed",
  contentMediaType: "content-changed",
  contentEncoding: "content-changed",
  contentSchema: "content-changed",
};

/** Identification and containers: compared elsewhere or not at all. */
export const STRUCTURAL_KEYWORDS = new Set([
  "$schema",
  "$id",
  "id",
  "$anchor",
  "$dynamicAnchor",
  "$recursiveAnchor",
  "$vocabulary",
  "$defs",
  "definitions",
]);

const VALIDATION = [
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "format",
  "items",
  "additionalItems",
  "maxItems",
  "minItems",
  "uniqueItems",
  "contains",
  "maxProperties",
  "minProperties",
  "required",
  "properties",
  "patternProperties",
  "additionalProperties",
  "dependencies",
  "propertyNames",
  "if",
  "then",
  "else",
  "allOf",
  "anyOf",
  "oneOf",
  "not",
  "$ref",
];
const MODERN = [
  "prefixItems",
  "unevaluatedItems",
  "unevaluatedProperties",
  "dependentRequired",
  "dependentSchemas",
  "minContains",
  "maxContains",
  "$recursiveRef",
  "$dynamicRef",
];

/** Keywords ajv evaluates under a dialect; any other key is an extension with no effect. */
export function isValidationKeyword(key: string, dialect: Dialect): boolean {
  if (VALIDATION.includes(key)) return true;
  return hasModernKeywords(dialect) && MODERN.includes(key);
}

const ASSERTABLE = new Set(["format", "contentEncoding", "contentMediaType"]);

/**
 * A keyword with no effect on validity under its node's dialect. `format` and `content*` count as
 * assertions only where the engine asserts them (drafts 04 to 07 with --assert-formats).
 */
export function isInert(key: string, view: View | Loc): boolean {
  const doc = "dialect" in view ? view.loc.doc : view.doc;
  if (ASSERTABLE.has(key)) return !doc.assertsFormats;
  // No annotation or identification keyword is a validation keyword: the first two tests only name
  // what the last one already says.
  // Stryker disable ConditionalExpression,LogicalOperator: the first two tests repeat the last (see above)
  return (
    Object.hasOwn(ANNOTATION_KEYWORDS, key) ||
    STRUCTURAL_KEYWORDS.has(key) ||
    !isValidationKeyword(key, doc.dialect)
  );
  // Stryker restore ConditionalExpression,LogicalOperator
}
