import { readdirSync, readFileSync } from "node:fs";
import { SchemaSet, type Validator } from "../../src/catalog/compiler.js";
import { dialectOf, idKeyword } from "../../src/catalog/dialect.js";
import type { Policy, Verdict } from "../../src/diff/index.js";

export interface Expectation {
  readonly backward: Verdict;
  readonly forward: Verdict;
  /** Exactly the kinds reported (order and repeats ignored). */
  readonly kinds?: readonly string[];
  readonly bump?: "none" | "patch" | "minor" | "major";
}

/**
 * One labelled pair. Without `policy` the case runs under both policies: `expect` for strict and
 * `lenient ?? expect` for lenient. `witness` documents prove a break with the real validator: the
 * backward one passes OLD and fails NEW, the forward one the reverse. `samples` pass wherever the
 * expected verdict says `ok` they must.
 */
export interface Case {
  readonly name: string;
  readonly old: unknown;
  readonly new: unknown;
  readonly policy?: Policy;
  readonly expect: Expectation;
  readonly lenient?: Expectation;
  readonly witness?: { readonly backward?: unknown; readonly forward?: unknown };
  readonly samples?: readonly unknown[];
}

export interface CorpusFile {
  readonly file: string;
  readonly cases: readonly Case[];
}

export function loadCorpus(): CorpusFile[] {
  const folder = new URL("./corpus/", import.meta.url);
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((file) => ({ file, cases: JSON.parse(readFileSync(new URL(file, folder), "utf8")) as Case[] }));
}

let counter = 0;
const sets = new Map<string, SchemaSet>();

/**
 * Compiles a schema with the catalog's own ajv setup, so labels are checked against the real validator.
 * One schema set per dialect keeps this fast; each schema gets a fresh base URI (same file name, so
 * relative references keep resolving) because OLD and NEW often share an `$id`.
 */
export function compile(json: unknown): Validator {
  if (typeof json === "boolean") return () => json;
  const dialect = dialectOf(json, "corpus");
  const key = idKeyword(dialect);
  const n = ++counter;
  let schema = json as Record<string, unknown> | boolean;
  const declared = typeof schema === "object" ? schema[key] : undefined;
  const name =
    typeof declared === "string"
      ? (new URL(declared, "https://x.invalid/").pathname.split("/").pop() ?? "")
      : "";
  const baseId = `https://schemawatch.test/corpus/${n}/${name || "schema.json"}`;
  if (typeof schema === "object") schema = { ...schema, [key]: baseId };
  let set = sets.get(dialect);
  if (!set) sets.set(dialect, (set = new SchemaSet()));
  const file = {
    path: `corpus-${n}`,
    name: "corpus.json",
    json: schema,
    dialect,
    declaredId: baseId,
    baseId,
  };
  return set.compile(file);
}
