import { idKeyword, type Dialect } from "./dialect.js";

/**
 * A document as the engines receive it: known by its base URI (`uri`), the one its relative `$ref`s
 * resolve against, and also by the URI it was retrieved at (`alias`) when that differs.
 */
export interface Located {
  readonly uri: string;
  readonly alias?: string;
}

/**
 * The base URI of a document retrieved at `retrieval` (a file's URL, a registry version's URI): its
 * root `$id` (draft-04: `id`) resolved against `retrieval`, else `retrieval` itself, as the
 * specification says (2020-12 core, "Initial Base URI"), without a fragment. A root `$id` that is no
 * URI reference leaves the retrieval URI the base, as the registry and `diff` always took it (a
 * catalog file with one is refused when read, src/catalog/schema-file.ts).
 */
export function baseUriOf(json: unknown, retrieval: string, dialect: Dialect): string {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return retrieval;
  const id = (json as Record<string, unknown>)[idKeyword(dialect)];
  if (typeof id !== "string" || id === "") return retrieval;
  try {
    return new URL(id, retrieval).href.replace(/#.*$/, "");
  } catch {
    return retrieval;
  }
}

/** The document known by its base URI, and by its retrieval URI as an alias when the two differ. */
export function located<D extends { readonly uri: string; readonly json: unknown }>(
  document: D,
  dialect: Dialect,
): Omit<D, "uri"> & Located {
  const base = baseUriOf(document.json, document.uri, dialect);
  return base === document.uri ? document : { ...document, uri: base, alias: document.uri };
}
