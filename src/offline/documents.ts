import { basename } from "node:path";
import { listJsonFiles } from "../catalog/load.js";
import { readJsonFile } from "../catalog/schema-file.js";

/** A sample document read from disk. */
export interface SampleDocument {
  readonly name: string;
  readonly path: string;
  readonly json: unknown;
}

/** Reads every `.json` file of a folder, sorted by name; a file that is not JSON stops with its name. */
export async function readDocumentFolder(folder: string): Promise<SampleDocument[]> {
  return readDocuments(await listJsonFiles(folder, "documents"));
}

export async function readDocuments(paths: readonly string[]): Promise<SampleDocument[]> {
  const documents: SampleDocument[] = [];
  for (const path of paths) documents.push({ name: basename(path), path, json: await readJsonFile(path) });
  return documents;
}
