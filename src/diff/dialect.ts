import type { Dialect } from "../catalog/dialect.js";

export type { Dialect } from "../catalog/dialect.js";
export { DIALECTS, dialectOf } from "../catalog/dialect.js";

/** Drafts before 2019-09 ignore every keyword beside `$ref`. */
export function refReplacesSiblings(dialect: Dialect): boolean {
  return dialect === "draft-04" || dialect === "draft-06" || dialect === "draft-07";
}

/** Keywords ajv only evaluates from 2019-09 on (unevaluated*, dependentRequired, minContains, ...). */
export function hasModernKeywords(dialect: Dialect): boolean {
  return dialect === "2019-09" || dialect === "2020-12";
}
