import type { SchemaDocument } from "../../catalog/compiler.js";
import { loadSharedDocuments } from "../../catalog/load.js";
import { documentOf, readSchemaFile } from "../../catalog/schema-file.js";
import type { Dialect } from "../../catalog/dialect.js";
import { SchemawatchError } from "../../errors.js";

/** `--ref` in `parseCommandArgs` form: repeatable. */
export const REF_FLAGS = { ref: { type: "string", multiple: true } } as const;

export const REF_FLAGS_HELP = `  --ref FILE|DIR       a schema document that $refs name, matched by its $id (a folder: every .json
                       file in it); --ref URL=FILE maps a URL to a file whatever its $id. Repeatable.
                       Nothing is ever fetched from the network`;

/** `--ref URL=FILE`: the URL (no fragment) and the file that stands for it. */
const MAPPING = /^([a-z][a-z0-9+.-]*:[^=]*)=(.+)$/i;

/**
 * The documents `--ref` names, by the URI `$ref`s reach them at: a file or a folder's files by their
 * `$id` (else their file URL), or `URL=FILE` by the URL. Two documents for one URI are refused, as
 * the config's shared files are.
 */
export async function refDocuments(
  values: readonly string[] | undefined,
  defaultDialect: Dialect,
): Promise<SchemaDocument[]> {
  const mapped: SchemaDocument[] = [];
  const paths: string[] = [];
  for (const value of values ?? []) {
    const mapping = MAPPING.exec(value);
    if (!mapping) {
      paths.push(value);
      continue;
    }
    const uri = mapping[1]!.replace(/#$/, "");
    const file = await readSchemaFile(mapping[2]!, defaultDialect);
    mapped.push({ ...documentOf(file), uri });
  }
  // By `$id` (its base), not by the file URL `documentOf` gives: a `$ref` names the `$id`, and the
  // diff engine looks external documents up by the URI a `$ref` resolves to.
  const byId = (await loadSharedDocuments(paths, defaultDialect)).map((file) => ({
    ...documentOf(file),
    uri: file.baseId,
  }));
  const out = new Map<string, SchemaDocument>();
  for (const document of [...mapped, ...byId]) {
    const existing = out.get(document.uri);
    if (existing) {
      throw new SchemawatchError(
        "USAGE",
        `--ref: ${document.name} and ${existing.name} both stand for ${document.uri}; a $ref to it would be ambiguous`,
      );
    }
    out.set(document.uri, document);
  }
  return [...out.values()];
}

/** A compile error about a `$ref` nothing resolves gets the flag that would resolve it. */
export function withRefHint(error: unknown): unknown {
  if (error instanceof SchemawatchError && /can't resolve reference/.test(error.message)) {
    return new SchemawatchError(
      error.code,
      `${error.message}; give the referenced schema with --ref FILE|DIR`,
      {
        cause: error,
      },
    );
  }
  return error;
}
