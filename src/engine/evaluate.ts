import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import type { Version } from "../catalog/version.js";
import { directionOf, type Direction } from "./direction.js";

/** The outcome of one document against one reader version. */
export interface ReaderResult {
  reader: CatalogVersion;
  direction: Direction;
  passed: boolean;
  /** The first failing keyword, or null when the document passed. */
  keyword: string | null;
  /** The JSON Pointer of the first failure in the document, or null when it passed. */
  instancePath: string | null;
}

/**
 * Validates a parsed document against every non-retired version of a subject, in ascending version
 * order, and says the direction of each check relative to the declared writer version.
 */
export function evaluate(document: unknown, subject: CatalogSubject, writer?: Version): ReaderResult[] {
  return evaluateInto(createResults(subject), document, subject, writer);
}

/**
 * The hot-path form of `evaluate`: fills result objects the caller owns and reuses between records,
 * so validating a sampled record allocates nothing here beyond what ajv does. `results` must have been
 * made by `evaluate` (or `createResults`) for the same subject.
 */
export function evaluateInto(
  results: ReaderResult[],
  document: unknown,
  subject: CatalogSubject,
  writer?: Version,
): ReaderResult[] {
  const readers = subject.readers;
  for (let i = 0; i < readers.length; i++) {
    const reader = readers[i]!;
    const result = results[i]!;
    result.reader = reader;
    result.direction = directionOf(writer, reader.version);
    if (reader.validate(document)) {
      result.passed = true;
      result.keyword = null;
      result.instancePath = null;
    } else {
      const error = reader.validate.errors?.[0];
      result.passed = false;
      result.keyword = error?.keyword ?? "unknown";
      result.instancePath = error?.instancePath ?? "";
    }
  }
  return results;
}

/** Preallocated results for `evaluateInto`. */
export function createResults(subject: CatalogSubject): ReaderResult[] {
  return subject.readers.map((reader) => ({
    reader,
    direction: "undeclared" as Direction,
    passed: false,
    keyword: null,
    instancePath: null,
  }));
}
