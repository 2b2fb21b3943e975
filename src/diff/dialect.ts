import type { Dialect } from "../catalog/dialect.js";

export type { Dialect } from "../catalog/dialect.js";
export { DEFAULT_DIALECT, DIALECTS, dialectOf } from "../catalog/dialect.js";

/**
 * Whether keywords beside `$ref` apply. The drafts before 2019-09 say they are ignored, but the engine
 * (ajv 8, which the monitor and every offline command validate with) applies them in every dialect, so
 * `diff` reads them as the engine does: `$ref` is one more conjunct. docs/diff.md states the rule.
 */
export function refSiblingsApply(_dialect: Dialect): boolean {
  return true;
}

/** Keywords ajv only evaluates from 2019-09 on (unevaluated*, dependentRequired, minContains, ...). */
export function hasModernKeywords(dialect: Dialect): boolean {
  return dialect === "2019-09" || dialect === "2020-12";
}
