import { FORMAT_DIFFS, type AnyDiffResult } from "../../diff/formats.js";
import type { Policy } from "../../diff/vocabulary.js";
import { usageError } from "../args.js";
import type { ParsedSchema } from "../../formats/format.js";

/** A side of a comparison as far as its format goes: a file, a registered or a catalog version. */
interface Side {
  readonly file: { readonly path: string };
  readonly schema?: ParsedSchema | undefined;
}

/**
 * OLD and NEW compared by their format's own diff (src/diff/formats.ts) when either is of a format other
 * than JSON Schema; undefined when both are JSON Schema (the JSON engine compares them). Sides of two
 * formats are refused, naming both: no diff reads a record of one as a record of the other.
 */
export function formatCompare(
  before: Side,
  after: Side,
  policy: Policy,
  /** A flag given that only JSON documents answer (--docs, --monitor), refused for another format. */
  jsonOnly: string | undefined,
): AnyDiffResult | undefined {
  if (before.schema === undefined && after.schema === undefined) return undefined;
  const oldFormat = before.schema?.format ?? "json";
  const newFormat = after.schema?.format ?? "json";
  if (oldFormat !== newFormat)
    throw usageError(
      "diff",
      `${before.file.path} is ${oldFormat} but ${after.file.path} is ${newFormat}: ` +
        "diff compares two versions of one format",
    );
  const entry = FORMAT_DIFFS.get(oldFormat);
  if (!entry || !before.schema || !after.schema)
    throw usageError("diff", `${after.file.path}: no diff reads ${newFormat} schemas`);
  if (jsonOnly !== undefined)
    throw usageError("diff", `${jsonOnly} reads JSON documents; ${after.file.path} is ${newFormat}`);
  return entry.diff(before.schema, after.schema, policy);
}
