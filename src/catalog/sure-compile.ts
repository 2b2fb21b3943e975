import type { Engine } from "./dialect.js";
import { EMPTY_ENUM } from "./engine.js";
import { schemaRegExp } from "./regexp.js";
import { DATA_KEYWORDS, MAPS, escapePointer } from "./walk.js";

/** A document as ajv receives it: registered under `uri` (the compiler sets its root id to it). */
export interface Compilable {
  readonly uri: string;
  readonly json: unknown;
}

/** What ajv knows of a keyword of an engine: the value types it compiles, the keywords it needs. */
export interface KeywordRule {
  readonly schemaType?: readonly string[];
  readonly dependencies?: readonly string[];
  readonly validateSchema?: unknown;
}

/** The keyword rules of the ajv a version is compiled by (`ajv.getKeyword`). */
export type KeywordRules = (keyword: string) => KeywordRule | boolean;

/**
 * Keywords whose compilation this check does not model (anchors, dynamic and recursive refs, async
 * schemas, OpenAPI's `nullable`, the engine's own stand-in for `enum: []`): a schema with one of them
 * is compiled at once, so that any failure stops loading as it always did.
 */
const UNMODELLED = new Set([
  "$anchor",
  "$dynamicAnchor",
  "$dynamicRef",
  "$recursiveAnchor",
  "$recursiveRef",
  "$async",
  "nullable",
  EMPTY_ENUM,
]);

/** Deeper than this, ajv's recursive code generation could run out of stack: compiled at once. */
const MAX_DEPTH = 48;

/**
 * ajv generates code recursively and nests each check inside the one before it, so a wide schema
 * runs out of stack too: measured, 2 000 sibling properties, or a chain of 186 `items: {$ref}`
 * (each `$ref` compiles its target within the referrer's compilation, about 20 keywords' worth of
 * stack). A version whose keywords plus 20 per `$ref` pass this is compiled at once: a third of the
 * smallest measured failure.
 */
const MAX_COST = 1_500;
const REF_COST = 20;

/** A JSON Pointer segment read the same with or without `~` unescaping and percent-decoding. */
const PLAIN_SEGMENT = /^[A-Za-z0-9_$.-]+$/;
/**
 * An absolute http(s) or file URI in the form both URL resolvers (WHATWG's, used here, and ajv's
 * RFC 3986 one) read alike: lower-case host, plain path characters, no query, no dot segments.
 */
const PLAIN_URI = /^(?:https?:\/\/[a-z0-9.-]+(?::[0-9]+)?|file:\/\/)(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9_.-]*)*$/;
const PLAIN_RELATIVE = /^[A-Za-z0-9_./-]+$/;

/** Documents walked before, by their JSON (for one engine and keyword set); null: not modelled. */
export type WalkCache = WeakMap<object, Walked | null>;

interface Walked {
  /** The JSON Pointers of the object subschemas: where a `$ref` may safely point. */
  readonly pointers: Set<string>;
  readonly refs: string[];
  /** Keywords and map entries, plus REF_COST per `$ref`. */
  readonly cost: number;
}

/**
 * Whether compiling a version with ajv is certain to succeed, proven without compiling it: a sound,
 * conservative check, so that the compilation itself can wait until a record needs the version. It
 * holds when every `$ref` points at a subschema that exists (in the version or a document it may
 * reach, by a plain pointer or a plain http(s) URI), every `pattern` is a regular expression, every
 * keyword's value has the type ajv compiles, nothing changes the base URI below a document's root,
 * and nothing this check does not model is present (`UNMODELLED`). The meta-schema check has passed
 * already. False means only "not proven": the version is then compiled at once, as it always was,
 * with the same error if it fails. test/unit/catalog/sure-compile.test.ts holds the proof to every schema
 * of the repository's fixtures.
 */
export function compilesSurely(
  root: Compilable,
  refs: readonly Compilable[],
  engine: Engine,
  keywords: KeywordRules,
  cache: WalkCache = new WeakMap(),
): boolean {
  const documents = new Map<string, Compilable>([[root.uri, root]]);
  for (const ref of refs) if (!documents.has(ref.uri)) documents.set(ref.uri, ref);
  const walked = new Map<Compilable, Walked>();
  let cost = 0;
  for (const document of documents.values()) {
    // A boolean document compiles; a `$ref` to one does not resolve in ajv (checked below).
    if (typeof document.json === "boolean") continue;
    const json = document.json;
    let result = typeof json === "object" && json !== null ? cache.get(json) : undefined;
    if (result === undefined) {
      result = walk(json, engine, keywords) ?? null;
      if (typeof json === "object" && json !== null) cache.set(json, result);
    }
    if (!result) return false;
    walked.set(document, result);
    cost += result.cost;
  }
  if (cost > MAX_COST) return false;
  for (const [document, { refs: found }] of walked) {
    for (const ref of found) if (!resolves(ref, document, root, documents, walked)) return false;
  }
  return true;
}

function resolves(
  ref: string,
  from: Compilable,
  root: Compilable,
  documents: ReadonlyMap<string, Compilable>,
  walked: ReadonlyMap<Compilable, Walked>,
): boolean {
  if (ref === "#") return true;
  const hash = ref.indexOf("#");
  const base = hash < 0 ? ref : ref.slice(0, hash);
  const fragment = hash < 0 ? "" : ref.slice(hash + 1);
  let target = from;
  if (base !== "") {
    // An absolute ref names its document whatever the base; a relative one needs a plain base.
    const absolute = PLAIN_URI.test(base);
    if (!absolute && !(PLAIN_RELATIVE.test(base) && PLAIN_URI.test(from.uri))) return false;
    let uri: string;
    try {
      uri = absolute ? base : new URL(base, from.uri).href;
    } catch {
      return false;
    }
    const other = documents.get(uri);
    // Only another document: a self-reference by URI, or one back to the version, is not modelled.
    if (!PLAIN_URI.test(uri) || !other || other === from || other === root) return false;
    target = other;
  }
  const pointers = walked.get(target)?.pointers;
  if (!pointers) return false;
  if (fragment === "") return base !== "";
  if (!fragment.startsWith("/")) return false;
  const segments = fragment.slice(1).split("/");
  return segments.every((s) => PLAIN_SEGMENT.test(s)) && pointers.has(fragment);
}

/** Every object subschema of a document, checked; undefined when something is not modelled. */
function walk(json: unknown, engine: Engine, keywords: KeywordRules): Walked | undefined {
  if (!isRecord(json)) return undefined;
  const pointers = new Set<string>();
  const refs: string[] = [];
  let cost = 0;
  const pending: Array<[Record<string, unknown>, string, number]> = [[json, "", 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [node, pointer, depth] = next;
    if (depth > MAX_DEPTH) return undefined;
    pointers.add(pointer);
    for (const [key, value] of Object.entries(node)) {
      cost++;
      if (UNMODELLED.has(key)) return undefined;
      // Only the root's id is set by the compiler; an id below it moves the base URI of refs.
      if (pointer !== "" && (key === "$id" || key === "id") && typeof value === "string") return undefined;
      if (!valueFits(key, value, node, keywords)) return undefined;
      if (key === "$ref" && typeof value === "string") {
        refs.push(value);
        cost += REF_COST;
      }
      if (key === "pattern" && typeof value === "string" && !schemaRegExp(value)) return undefined;
      if (key === "enum" && engine === "draft-04" && Array.isArray(value) && value.length === 0)
        return undefined;
      if (DATA_KEYWORDS.has(key) || typeof value !== "object" || value === null) continue;
      const at = `${pointer}/${escapePointer(key)}`;
      if (MAPS.has(key) && !Array.isArray(value)) {
        for (const [name, child] of Object.entries(value)) {
          cost++;
          if (key === "patternProperties" && !schemaRegExp(name)) return undefined;
          // Arrays under a map (draft-07 `dependencies` lists) hold property names, no subschemas.
          if (isRecord(child)) pending.push([child, `${at}/${escapePointer(name)}`, depth + 1]);
        }
      } else if (Array.isArray(value)) {
        value.forEach((item, i) => {
          if (isRecord(item)) pending.push([item, `${at}/${i}`, depth + 1]);
        });
      } else pending.push([value as Record<string, unknown>, at, depth + 1]);
    }
  }
  return { pointers, refs, cost };
}

/** Whether ajv accepts the value of a keyword it compiles: its type, and the keywords it needs beside it. */
function valueFits(key: string, value: unknown, node: Record<string, unknown>, keywords: KeywordRules) {
  const rule = keywords(key);
  if (typeof rule !== "object") return true;
  if (rule.validateSchema) return false;
  if (rule.dependencies?.some((d) => !Object.hasOwn(node, d))) return false;
  if (!rule.schemaType || rule.schemaType.length === 0) return true;
  return rule.schemaType.some((type) =>
    type === "array" ? Array.isArray(value) : type === "object" ? isRecord(value) : typeof value === type,
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
