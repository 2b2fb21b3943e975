import { basename } from "node:path";
import { listJsonFiles } from "../catalog/load.js";
import { readJsonFile } from "../catalog/schema-file.js";
import { SchemawatchError } from "../errors.js";

/** A sample document read from disk. */
export interface SampleDocument {
  readonly name: string;
  readonly path: string;
  readonly json: unknown;
}

/**
 * Reads every `.json` file of a folder, sorted by name; a file that is not JSON stops with its name. A
 * folder without any is bad input too: a check over no documents would pass without checking anything.
 */
export async function readDocumentFolder(folder: string): Promise<SampleDocument[]> {
  const paths = await listJsonFiles(folder, "documents");
  if (paths.length === 0) {
    throw new SchemawatchError(
      "USAGE",
      `${folder}: no .json documents in this folder; a check over no documents would pass without checking anything`,
    );
  }
  return readDocuments(paths);
}

export async function readDocuments(paths: readonly string[]): Promise<SampleDocument[]> {
  const documents: SampleDocument[] = [];
  for (const path of paths) documents.push({ name: basename(path), path, json: await readJsonFile(path) });
  return documents;
}
