import { readdirSync, readFileSync } from "node:fs";
import { SchemaCompiler, type Validator } from "../../../src/catalog/compiler.js";
import { dialectOf, type Dialect } from "../../../src/catalog/dialect.js";
import type { Policy, Verdict } from "../../../src/diff/index.js";

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
 * expected verdict says `ok` they must. `defaultDialect` (else the file's) is the dialect of a schema
 * without `$schema`; `assertFormats` makes `format` and `content*` assertions (drafts 04 to 07).
 */
export interface Case {
  readonly name: string;
  readonly old: unknown;
  readonly new: unknown;
  readonly policy?: Policy;
  readonly expect: Expectation;
  readonly lenient?: Expectation;
  readonly witness?: { readonly backward?: unknown; readonly forward?: unknown };
  /**
   * The truth by validation semantics where `expect` says `undecided` (diff cannot tell, but the label
   * must): `ok` is checked by a counterexample search, `breaks` by a `witness`.
   */
  readonly semantics?: { readonly backward?: "ok" | "breaks"; readonly forward?: "ok" | "breaks" };
  readonly samples?: readonly unknown[];
  readonly defaultDialect?: Dialect;
  readonly assertFormats?: boolean;
}

/** A labelled case with the settings it runs under filled in from its file. */
export interface LoadedCase extends Case {
  readonly defaultDialect: Dialect;
  readonly assertFormats: boolean;
}

export interface CorpusFile {
  readonly file: string;
  readonly cases: readonly LoadedCase[];
}

/**
 * Reads test/unit/diff/corpus/*.json: `{ "defaultDialect": …, "cases": [...] }`. Files written before
 * draft-07 became the default dialect say 2020-12, which their schemas without `$schema` assume.
 */
export function loadCorpus(): CorpusFile[] {
  const folder = new URL("./corpus/", import.meta.url);
  return readdirSync(folder)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((file) => {
      const json = JSON.parse(readFileSync(new URL(file, folder), "utf8")) as {
        defaultDialect: Dialect;
        assertFormats?: boolean;
        cases: Case[];
      };
      const cases = json.cases.map((entry) => ({
        ...entry,
        defaultDialect: entry.defaultDialect ?? json.defaultDialect,
        assertFormats: entry.assertFormats ?? json.assertFormats ?? false,
      }));
      return { file, cases };
    });
}

const compilers = new Map<string, SchemaCompiler>();

/** One compiler per setting: it holds the compiled meta-schemas, which are the expensive part. */
export function compilerFor(entry: Pick<LoadedCase, "defaultDialect" | "assertFormats">): SchemaCompiler {
  const key = `${entry.defaultDialect}|${entry.assertFormats}`;
  let compiler = compilers.get(key);
  if (!compiler) {
    compiler = new SchemaCompiler({
      defaultDialect: entry.defaultDialect,
      assertFormats: entry.assertFormats,
    });
    compilers.set(key, compiler);
  }
  return compiler;
}

let counter = 0;

/**
 * Compiles one side of a case with the catalog's own compiler, so labels are checked against the real
 * validator. Each schema gets a base URI of its own (keeping its file name, so relative references
 * keep resolving), as a version in the catalog does.
 */
export function compile(json: unknown, entry: LoadedCase): Validator {
  const compiler = compilerFor(entry);
  const dialect = dialectOf(json, "corpus", entry.defaultDialect);
  const declared =
    typeof json === "object" && json !== null
      ? (json as Record<string, unknown>)[dialect === "draft-04" ? "id" : "$id"]
      : undefined;
  const name =
    typeof declared === "string"
      ? (new URL(declared, "https://x.invalid/").pathname.split("/").pop() ?? "")
      : "";
  // An absolute `$id` (a URN, say) is the URI the catalog knows the schema by, and what its refs name.
  const absolute = typeof declared === "string" && URL.canParse(declared) ? declared.replace(/#.*$/, "") : "";
  const uri = absolute || `https://schemawatch.test/corpus/${++counter}/${name || "schema.json"}`;
  return compiler.compileVersion({ uri, json, name: `corpus ${uri}`, dialect });
}
