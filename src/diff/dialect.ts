import type { Dialect } from "../catalog/dialect.js";
import { refSiblingsIgnored } from "../catalog/reading.js";

export type { Dialect } from "../catalog/dialect.js";
export { DEFAULT_DIALECT, DIALECTS, dialectOf } from "../catalog/dialect.js";

/**
 * Whether keywords beside `$ref` apply: from 2019-09 on, where `$ref` is one more conjunct. Drafts 04
 * to 07 ignore them, and so does the validator (src/catalog/reading.ts, the reading both share).
 */
export function refSiblingsApply(dialect: Dialect): boolean {
  return !refSiblingsIgnored(dialect);
}

/** Keywords ajv only evaluates from 2019-09 on (unevaluated*, dependentRequired, minContains, ...). */
export function hasModernKeywords(dialect: Dialect): boolean {
  return dialect === "2019-09" || dialect === "2020-12";
}
