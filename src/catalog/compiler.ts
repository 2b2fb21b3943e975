import type { AnySchema, ErrorObject } from "ajv";
import { SchemawatchError, messageOf } from "../errors.js";
import {
  declaredDialect,
  DEFAULT_DIALECT,
  dialectOf,
  engineOf,
  idKeyword,
  mayAssertFormats,
  type Dialect,
  type Engine,
} from "./dialect.js";
import { idIgnored, refSiblingsIgnored } from "./reading.js";
import { compileAnnotated, usesAnnotations } from "./annotations.js";
import { deferredValidator } from "./deferred.js";
import { createAjv, EMPTY_ENUM, namesPrototype, type AjvInstance } from "./engine.js";
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

/** A schema document and the absolute URI it is known by (its `$id`, resolved where it came from). */
export interface SchemaDocument {
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
    const dialect = input.dialect ?? this.dialectOf(input.json, input.name);
    this.#checkMeta(input, dialect);
    return this.#compile(input, dialect, this.#refs(input, dialect));
  }

  /**
   * `compileVersion`, with the code generation left to the first use when it is proven to succeed
   * (`compilesSurely`): the meta-schema and the referable documents are checked now, and whatever
   * could fail is, so a bad version throws here exactly as `compileVersion` would. A version the
   * proof does not cover is compiled now. Code generation is most of a version's load time.
   */
  compileOnFirstUse(input: VersionInput): Validator {
    const dialect = input.dialect ?? this.dialectOf(input.json, input.name);
    this.#checkMeta(input, dialect);
    const refs = this.#refs(input, dialect);
    const engine = engineOf(dialect);
    const rules = this.#rulesOf(engine, this.assertsFormats(dialect));
    // The proof is ajv's: a version of the annotation engine (schemasafe) is compiled at once.
    if (
      usesAnnotations([input, ...refs], dialect) ||
      !compilesSurely(input, refs, engine, rules.keywords, rules.walked)
    )
      return this.#compile(input, dialect, refs);
    return deferredValidator(() => this.#compile(input, dialect, refs));
  }

  #compile(
    input: VersionInput,
    dialect: Dialect,
    refs: ReadonlyArray<SchemaDocument & { dialect: Dialect }>,
  ): Validator {
    const engine = engineOf(dialect);
    const documents = [input, ...refs];
    // The dialect's own meta-schemas are documents a $ref may reach; held, never fetched.
    const all = mayReachMeta(documents)
      ? [
          ...refs,
          ...metaDocuments(dialect)
            .filter((m) => !documents.some((d) => d.uri === m.uri))
            .map((m) => ({ ...m, dialect })),
        ]
      : refs;
    if (usesAnnotations(documents, dialect)) {
      try {
        const prepared = (d: SchemaDocument & { dialect: Dialect }) => ({
          ...d,
          json: prepare(d.json, d.uri, d.dialect, false),
        });
        return compileAnnotated(prepared({ ...input, dialect }), all.map(prepared), dialect);
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
      }
      return ajv.compile(prepare(input.json, input.uri, dialect) as AnySchema) as Validator;
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

  /** The referable documents, each checked, without the version's own URI and without repeats. */
  #refs(input: VersionInput, dialect: Dialect): Array<SchemaDocument & { dialect: Dialect }> {
    const seen = new Set([input.uri]);
    const out: Array<SchemaDocument & { dialect: Dialect }> = [];
    for (const ref of input.refs ?? []) {
      if (seen.has(ref.uri)) continue;
      seen.add(ref.uri);
      const declared = declaredDialect(ref.json, ref.name);
      // A referenced document without $schema is compiled by the referring version's engine.
      const own = declared ?? dialect;
      if (engineOf(own) !== engineOf(dialect)) {
        throw new SchemawatchError(
          "SCHEMA_INVALID",
          `${input.name}: does not compile: it is ${dialect} and may $ref ${ref.name}, which is ${own}; ` +
            "a schema and what it references are compiled in one dialect (draft-06 and draft-07 mix)",
        );
      }
      this.#checkMeta(ref, own);
      out.push({ ...ref, dialect: own });
    }
    return out;
  }
}

/** Compiles one version with a compiler of its own (for a single schema; a catalog shares one). */
export function compileVersion(input: VersionInput, options: CompilerOptions = {}): Validator {
  return new SchemaCompiler(options).compileVersion(input);
}

/**
 * The document as the engine receives it: its root `$id` set to the absolute URI (so a relative `$id`
 * such as `schemas/a.json` is registered where refs look for it), an `$id` beside `$ref` dropped where
 * the dialect ignores it (src/catalog/reading.ts), and, for ajv, `enum: []` made compilable.
 */
function prepare(json: unknown, uri: string, dialect: Dialect, forAjv = true): unknown {
  if (typeof json !== "object" || json === null) return json;
  const copy = structuredClone(json) as Record<string, unknown>;
  const id = idKeyword(dialect);
  walkSchemas(copy, (node) => {
    if (node !== copy && idIgnored(node, dialect, false)) Reflect.deleteProperty(node, id);
    if (!forAjv) return;
    // ajv's ignoreKeywordsWithRef skips every keyword beside `$ref` but `type`, checked before them.
    if (refSiblingsIgnored(dialect) && typeof node["$ref"] === "string") delete node["type"];
    if (!refSiblingsIgnored(dialect) && (node === copy || node[id] !== undefined)) refBesideId(node);
    if (dialect !== "draft-04" && Array.isArray(node["enum"]) && node["enum"].length === 0) {
      delete node["enum"];
      node[EMPTY_ENUM] = true;
    }
    protoAsPattern(node);
  });
  copy[id] = uri;
  return copy;
}

/**
 * ajv 8 runs out of stack compiling a `$ref` that sits beside an `$id` (2019-09 on, where `$ref` resolves
 * against that `$id`) when the target's own `$ref` is a pointer: `{"$id": "b.json", "$defs": {...},
 * "$ref": "#/$defs/inner"}` reached from another resource. The same `$ref` inside `allOf` means the same
 * (from 2019-09 on `$ref` is an applicator like `allOf`, annotations included) and ajv compiles it.
 */
function refBesideId(node: Record<string, unknown>): void {
  const ref = node["$ref"];
  if (typeof ref !== "string") return;
  const allOf = Array.isArray(node["allOf"]) ? node["allOf"] : [];
  delete node["$ref"];
  node["allOf"] = [...allOf, { $ref: ref }];
}

const PROTO = "__proto__";
const PROTO_PATTERN = "^__proto__$";

/**
 * ajv skips a property named `__proto__` in `properties` (a guard against prototype pollution), so a
 * record's own `__proto__` would go unchecked; the same schema as a pattern of exactly that name is
 * checked, and `additionalProperties` and `unevaluatedProperties` read a pattern's match alike.
 */
function protoAsPattern(node: Record<string, unknown>): void {
  const properties = node["properties"];
  if (!isRecord(properties) || !Object.hasOwn(properties, PROTO)) return;
  const patterns = isRecord(node["patternProperties"]) ? node["patternProperties"] : {};
  if (Object.hasOwn(patterns, PROTO_PATTERN)) return;
  Object.defineProperty(patterns, PROTO_PATTERN, {
    value: properties[PROTO],
    enumerable: true,
    writable: true,
    configurable: true,
  });
  node["patternProperties"] = patterns;
}

function compileError(
  error: unknown,
  input: VersionInput,
  refs: readonly SchemaDocument[],
): SchemawatchError {
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
