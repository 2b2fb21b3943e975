import type { AnySchema, ErrorObject } from "ajv";
import { SchemawatchError, messageOf } from "../errors.js";
import {
  DEFAULT_DIALECT,
  dialectOf,
  engineOf,
  mayAssertFormats,
  type Dialect,
  type Engine,
} from "./dialect.js";
import { located, type Located } from "./base-uri.js";
import { heldDialect, readByVocabularies } from "./vocabulary.js";
import { compileAnnotated, usesAnnotations } from "./annotations.js";
import { deferredValidator } from "./deferred.js";
import { createAjv, namesPrototype, type AjvInstance } from "./engine.js";
import { prepare } from "./prepare.js";
import { mayReachMeta, metaDocuments } from "./meta-documents.js";
import { MetaSchemas } from "./meta.js";
import { PatternError } from "./regexp.js";
import { compilesSurely, type KeywordRules, type WalkCache } from "./sure-compile.js";
import { escapePointer, walkSchemas } from "./walk.js";

/** A compiled schema: true when the document is valid, with the first failure otherwise. */
export interface Validator {
  (document: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** A schema document and the absolute URI it was retrieved at. */
export interface SchemaDocument {
  /**
   * Where the document comes from: a file's URL, a registry version's URI, a shared file's. Its root
   * `$id`, resolved against it, is its base URI (src/catalog/base-uri.ts); this one stays an alias.
   */
  readonly uri: string;
  readonly json: unknown;
  /** What messages call it: a file path, or a registry subject and version. */
  readonly name: string;
}

/**
 * One version to compile: its document, the dialect it is read in (else its `$schema`, else the
 * compiler's default), and the documents its `$ref`s may reach (shared files, a registry's
 * `references`). Nothing else is visible to it: other versions with the same `$id` never interfere.
 */
export interface VersionInput extends SchemaDocument {
  readonly dialect?: Dialect;
  readonly refs?: readonly SchemaDocument[];
}

export interface CompilerOptions {
  /** The dialect of a schema without `$schema`; draft-07 unless told otherwise. */
  readonly defaultDialect?: Dialect;
  /** Make `format`, `contentEncoding` and `contentMediaType` assertions in drafts 04 to 07. */
  readonly assertFormats?: boolean;
}

/**
 * Compiles schema versions the way the live monitor and every offline command validate: each version
 * in its own ajv, checked first against its dialect's published meta-schema. Holds only the compiled
 * meta-schemas, so one compiler serves a whole catalog (or a registry's versions) cheaply.
 */
export class SchemaCompiler {
  readonly defaultDialect: Dialect;
  readonly assertFormats: boolean;
  readonly #meta = new MetaSchemas();
  /** Documents (shared files) that passed their meta-schema check, by dialect: checked once. */
  readonly #metaPassed = new WeakMap<object, Set<Dialect>>();
  /** Per engine and format setting: ajv's keyword rules, and the documents `compilesSurely` walked. */
  readonly #rules = new Map<string, { keywords: KeywordRules; walked: WalkCache }>();

  constructor(options: CompilerOptions = {}) {
    this.defaultDialect = options.defaultDialect ?? DEFAULT_DIALECT;
    this.assertFormats = options.assertFormats ?? false;
  }

  dialectOf(json: unknown, name: string): Dialect {
    return dialectOf(json, name, this.defaultDialect);
  }

  /** Does the engine assert `format` and `content*` in this dialect? */
  assertsFormats(dialect: Dialect): boolean {
    return this.assertFormats && mayAssertFormats(dialect);
  }

  /**
   * Compiles one version. Throws SCHEMA_INVALID naming the document, the JSON Pointer and the rule
   * (a meta-schema rule, an unresolvable `$ref`, a pattern that is no regular expression).
   */
  compileVersion(input: VersionInput): Validator {
    const dialect = input.dialect ?? heldDialect(input.json, input.name, input.refs, this.defaultDialect);
    this.#checkMeta(input, dialect);
    const root = { ...located(read(input, input.refs), dialect), dialect };
    return this.#compile(root, dialect, this.#refs(root, input.refs, dialect));
  }

  /**
   * `compileVersion`, with the code generation left to the first use when it is proven to succeed
   * (`compilesSurely`): the meta-schema and the referable documents are checked now, and whatever
   * could fail is, so a bad version throws here exactly as `compileVersion` would. A version the
   * proof does not cover is compiled now. Code generation is most of a version's load time.
   */
  compileOnFirstUse(input: VersionInput): Validator {
    const dialect = input.dialect ?? heldDialect(input.json, input.name, input.refs, this.defaultDialect);
    this.#checkMeta(input, dialect);
    const root = { ...located(read(input, input.refs), dialect), dialect };
    const refs = this.#refs(root, input.refs, dialect);
    const engine = engineOf(dialect);
    const rules = this.#rulesOf(engine, this.assertsFormats(dialect));
    // The proof is ajv's: a version of the annotation engine (schemasafe) is compiled at once.
    if (
      usesAnnotations([root, ...refs], dialect) ||
      !compilesSurely(root, refs, engine, rules.keywords, rules.walked)
    )
      return this.#compile(root, dialect, refs);
    return deferredValidator(() => this.#compile(root, dialect, refs));
  }

  #compile(input: Resource, dialect: Dialect, refs: readonly Resource[]): Validator {
    const engine = engineOf(dialect);
    const documents = [input, ...refs];
    // The dialect's own meta-schemas are documents a $ref may reach; held, never fetched.
    const all: readonly Resource[] = mayReachMeta(documents)
      ? [
          ...refs,
          ...metaDocuments(dialect)
            .filter((m) => !documents.some((d) => d.uri === m.uri))
            .map((m) => ({ ...m, dialect })),
        ]
      : refs;
    if (usesAnnotations(documents, dialect)) {
      try {
        const prepared = (d: Resource) => ({ ...d, json: prepare(d.json, d.uri, d.dialect, false) });
        const root = prepared({ ...input, dialect });
        // Each document is also known by its retrieval URI, the one object under both.
        const known = [root, ...all.map(prepared)];
        const aliases = known.flatMap((d) => (d.alias === undefined ? [] : [{ ...d, uri: d.alias }]));
        return compileAnnotated(root, [...known.slice(1), ...aliases], dialect);
      } catch (error) {
        throw compileError(error, input, refs);
      }
    }
    const ajv = createAjv(engine, this.assertsFormats(dialect), namesPrototype(documents));
    try {
      for (const ref of all) {
        const prepared = prepare(ref.json, ref.uri, ref.dialect) as AnySchema;
        // A boolean schema has no $id to be registered by.
        ajv.addSchema(prepared, typeof prepared === "boolean" ? ref.uri : undefined);
        // The same compiled document under its retrieval URI (ajv keeps one per schema object).
        if (ref.alias !== undefined) ajv.addSchema(prepared, ref.alias);
      }
      const root = prepare(input.json, input.uri, dialect) as AnySchema;
      if (input.alias !== undefined) ajv.addSchema(root, input.alias);
      return ajv.compile(root) as Validator;
    } catch (error) {
      throw compileError(error, input, refs);
    }
  }

  #rulesOf(engine: Engine, assertFormats: boolean): { keywords: KeywordRules; walked: WalkCache } {
    const key = `${engine} ${assertFormats}`;
    let rules = this.#rules.get(key);
    if (!rules) {
      const ajv: AjvInstance = createAjv(engine, assertFormats);
      rules = { keywords: (keyword) => ajv.getKeyword(keyword), walked: new WeakMap() };
      this.#rules.set(key, rules);
    }
    return rules;
  }

  #checkMeta(document: SchemaDocument, dialect: Dialect): void {
    const json = document.json;
    const passed = typeof json === "object" && json !== null ? this.#metaPassed.get(json) : undefined;
    if (passed?.has(dialect)) return;
    const problem = this.#meta.check(json, dialect);
    if (!problem) {
      if (typeof json === "object" && json !== null)
        this.#metaPassed.set(json, new Set([...(passed ?? []), dialect]));
      return;
    }
    throw new SchemawatchError(
      "SCHEMA_INVALID",
      `${document.name}: does not compile: #${problem.pointer}: ${problem.messages.join(" or ")} ` +
        `(rule ${problem.rule} of the ${dialect} meta-schema)`,
    );
  }

  /**
   * The referable documents, each checked and known by its base URI: without the version's own URI
   * and without repeats. A retrieval URI another document is already known by is no alias.
   */
  #refs(root: Resource, given: VersionInput["refs"], dialect: Dialect): Resource[] {
    const seen = new Set([root.uri, ...(root.alias === undefined ? [] : [root.alias])]);
    const out: Resource[] = [];
    for (const ref of given ?? []) {
      // A referenced document without $schema is compiled by the referring version's engine.
      const own = heldDialect(ref.json, ref.name, given, dialect);
      const at = located(read(ref, given), own);
      if (seen.has(at.uri)) continue;
      if (engineOf(own) !== engineOf(dialect)) {
        throw new SchemawatchError(
          "SCHEMA_INVALID",
          `${root.name}: does not compile: it is ${dialect} and may $ref ${ref.name}, which is ${own}; ` +
            "a schema and what it references are compiled in one dialect (draft-06 and draft-07 mix)",
        );
      }
      this.#checkMeta(ref, own);
      seen.add(at.uri);
      out.push({ ...at, dialect: own });
    }
    // A retrieval URI is an alias only where no document has it as its base or an earlier alias.
    return out.map(({ alias, ...ref }) => {
      if (alias === undefined || seen.has(alias)) return ref;
      seen.add(alias);
      return { ...ref, alias };
    });
  }
}

/** The document as its meta-schema's vocabularies read it (src/catalog/vocabulary.ts). */
function read<D extends SchemaDocument>(document: D, held: VersionInput["refs"]): D {
  const json = readByVocabularies(document.json, document.name, held);
  return json === document.json ? document : { ...document, json };
}

/** A document the engines receive: known by its base URI and its retrieval URI, in its dialect. */
type Resource = SchemaDocument & Located & { readonly dialect: Dialect };

/** Compiles one version with a compiler of its own (for a single schema; a catalog shares one). */
export function compileVersion(input: VersionInput, options: CompilerOptions = {}): Validator {
  return new SchemaCompiler(options).compileVersion(input);
}

function compileError(error: unknown, input: Resource, refs: readonly Resource[]): SchemawatchError {
  const documents = [input, ...refs];
  let message: string;
  if (error instanceof PatternError) {
    const bad = error.pattern;
    const where = locate(documents, (node, key) => {
      if (key === "pattern") return node[key] === bad;
      const map = node[key];
      return key === "patternProperties" && isRecord(map) && Object.hasOwn(map, bad)
        ? `/${escapePointer(bad)}`
        : false;
    });
    message = `${where ?? input.name}: does not compile: ${error.message} (rule pattern: an ECMA-262 regular expression)`;
  } else if (isMissingRef(error)) {
    const missing = error.missingRef.replace(/#.*$/, "");
    const where = locate(documents, (node, key, document) => {
      const ref = node[key];
      return key === "$ref" && typeof ref === "string" && resolves(ref, document.uri) === missing;
    });
    message =
      `${where ?? input.name}: ${messageOf(error)} ` +
      "(remote refs are never fetched; put the referenced schema in the catalog or its shared files)";
  } else if (error instanceof RangeError) {
    message = `${input.name}: does not compile: ajv ran out of stack (${error.message})`;
  } else {
    message = `${input.name}: does not compile: ${messageOf(error)}`;
  }
  return new SchemawatchError("SCHEMA_INVALID", message, { cause: error });
}

function resolves(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href.replace(/#.*$/, "");
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isMissingRef(error: unknown): error is Error & { missingRef: string } {
  return error instanceof Error && typeof (error as { missingRef?: unknown }).missingRef === "string";
}

/** `name: #/pointer/keyword` of the first node where `match` holds (true, or a suffix to append). */
function locate(
  documents: readonly SchemaDocument[],
  match: (node: Record<string, unknown>, key: string, document: SchemaDocument) => boolean | string,
): string | undefined {
  for (const document of documents) {
    let found: string | undefined;
    walkSchemas(document.json, (node, pointer) => {
      for (const key of Object.keys(node)) {
        const hit = found === undefined ? match(node, key, document) : false;
        if (hit !== false) found = `${pointer}/${escapePointer(key)}${typeof hit === "string" ? hit : ""}`;
      }
    });
    if (found !== undefined) return `${document.name}: #${found}`;
  }
  return undefined;
}

/** The first failure of the last validation: the keyword and the instance path (JSON Pointer). */
export function firstFailure(validator: Validator): { keyword: string; instancePath: string } {
  const error = validator.errors?.[0];
  return { keyword: error?.keyword ?? "unknown", instancePath: error?.instancePath ?? "" };
}
