import type { CatalogVersion } from "./types.js";
import { ANNOTATION_KEYWORDS } from "./reading.js";
import { backtrackingPatterns } from "./regexp.js";
import { walkSchemas } from "./walk.js";

/**
 * Whether validating a document against this version may take time beyond linear in the document:
 * a pattern left on the backtracking engine, `uniqueItems` (ajv compares object items pairwise),
 * `unevaluated*` and the dynamic scope (the annotation engine, src/catalog/annotations.ts),
 * asserted formats (their regular expressions are ajv-formats' own), or a `$ref` to a document this
 * version does not carry (a shared file, unseen here). Without any of them a validation is linear in
 * the document, itself bounded by `maxRecordBytes`, so it needs no watchdog to end; with one of them
 * it runs within the time budget. Errs towards true.
 */
export function mayRunLong(version: CatalogVersion, assertFormats: boolean): boolean {
  // A version of another format than JSON Schema decodes and checks in linear time (formats/format.ts).
  if (version.schema !== undefined) return false;
  const documents = [version.file.json, ...(version.refs ?? []).map((ref) => ref.json)];
  const carried = (version.refs ?? []).length > 0;
  return documents.some((json) => documentMayRunLong(json, assertFormats, carried));
}

function documentMayRunLong(json: unknown, assertFormats: boolean, refsCarried: boolean): boolean {
  if (backtrackingPatterns(json).length > 0) return true;
  let risky = false;
  walkSchemas(json, (node) => {
    if (node["uniqueItems"] === true) risky = true;
    // The annotation engine tracks evaluated properties in lists it searches for each key: time can
    // grow with the square of an object's size. (In drafts 04 to 07 these are no keywords: errs.)
    if (Object.keys(node).some((key) => ANNOTATION_KEYWORDS.has(key))) risky = true;
    if (assertFormats && typeof node["format"] === "string") risky = true;
    const ref = node["$ref"];
    if (typeof ref === "string" && !ref.startsWith("#") && !refsCarried) risky = true;
  });
  return risky;
}
