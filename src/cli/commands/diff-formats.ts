import { basename } from "node:path";
import { readFormatFile } from "../../catalog/format-file.js";
import { versionFromFileName, type Version } from "../../catalog/version.js";
import { FORMAT_DIFFS, type AnyDiffResult } from "../../diff/formats.js";
import type { Policy } from "../../diff/vocabulary.js";
import { formatOfFile, JSON_FORMAT, type Format } from "../../formats/index.js";
import { usageError } from "../args.js";

/** A pair of schema files of a format with its own diff (src/diff/formats.ts), parsed and compared. */
export interface FormatPair {
  readonly result: AnyDiffResult;
  readonly names: { readonly old: string; readonly new: string };
  readonly before: Version | undefined;
  readonly after: Version | undefined;
}

/** Words for a format in messages: its name and the extension that chose it. */
function named(path: string, format: Format): string {
  return `${path} is ${format.name} (${format.extensions.join(", ")})`;
}

/**
 * OLD and NEW as files of a format other than JSON Schema, compared by that format's diff; undefined
 * when both are JSON Schema (the JSON engine compares them). Files of two formats are refused, naming
 * both: no diff reads a record of one as a record of the other.
 */
export async function formatPair(
  positionals: readonly string[],
  policy: Policy,
  /** A flag given that only JSON documents answer (--docs, --monitor), refused for another format. */
  jsonOnly: string | undefined,
): Promise<FormatPair | undefined> {
  const [oldPath, newPath] = positionals;
  if (oldPath === undefined || newPath === undefined) return undefined;
  // A file of no known extension is read as JSON Schema, as `diff` always has.
  const oldFormat = formatOfFile(oldPath) ?? JSON_FORMAT;
  const newFormat = formatOfFile(newPath) ?? JSON_FORMAT;
  if (oldFormat !== newFormat)
    throw usageError(
      "diff",
      `${named(oldPath, oldFormat)} but ${named(newPath, newFormat)}: diff compares two versions of one format`,
    );
  const entry = FORMAT_DIFFS.get(oldFormat.name);
  if (!entry) return undefined;
  if (jsonOnly !== undefined)
    throw usageError("diff", `${jsonOnly} reads JSON documents; ${oldPath} is ${oldFormat.name}`);
  const before = await readFormatFile(oldPath, oldFormat);
  const after = await readFormatFile(newPath, newFormat);
  return {
    result: entry.diff(before.schema, after.schema, policy),
    names: { old: oldPath, new: newPath },
    before: versionFromFileName(basename(oldPath)),
    after: versionFromFileName(basename(newPath)),
  };
}
