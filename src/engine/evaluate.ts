import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import type { Version } from "../catalog/version.js";
import type { ReaderCheck } from "../formats/format.js";
import { directionOf, type Direction } from "./direction.js";

/** The outcome of one document against one reader version. */
export interface ReaderResult {
  reader: CatalogVersion;
  direction: Direction;
  /** The reader reads the record (`ok` or `lossy`, src/formats/format.ts). */
  passed: boolean;
  /** It reads it, but drops or defaults data the writer sent (`lossy`): `keyword` and `instancePath` say what. */
  lossy?: boolean;
  /** The first failing keyword (a format's rule), or the lossy rule; null when the document passed whole. */
  keyword: string | null;
  /** The JSON Pointer of the first failure (or loss) in the document, or null when it passed whole. */
  instancePath: string | null;
}

const check: ReaderCheck = { outcome: "ok", rule: null, location: null };

/**
 * Validates a decoded record (JSON: the parsed document; another format: its `Decoded.value`) against
 * every non-retired version of a subject through the subject's format, in ascending version order, and
 * says the direction of each check relative to the declared writer version.
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
  const format = subject.format;
  for (let i = 0; i < readers.length; i++) {
    const reader = readers[i]!;
    const result = results[i]!;
    result.reader = reader;
    result.direction = directionOf(writer, reader.version);
    format.check(reader, document, check);
    result.passed = check.outcome !== "fails";
    result.lossy = check.outcome === "lossy";
    result.keyword = check.rule;
    result.instancePath = check.location;
  }
  return results;
}

/** Preallocated results for `evaluateInto`. */
export function createResults(subject: CatalogSubject): ReaderResult[] {
  return subject.readers.map((reader) => ({
    reader,
    direction: "undeclared" as Direction,
    passed: false,
    lossy: false,
    keyword: null,
    instancePath: null,
  }));
}
