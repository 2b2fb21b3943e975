import { SchemawatchError } from "../errors.js";
import { compilePointer, type Pointer } from "../pipeline/pointer.js";
import { placeholderFor } from "./placeholder.js";
import { elementScope, memberScope, rootScope, type SchemaScope } from "./schema-scope.js";

/** A redacted copy of a document, and the configured pointers that matched something in it. */
export interface Redacted {
  readonly document: unknown;
  readonly redacted: readonly string[];
}

const POINTER = /^(\/([^~/]|~[01])*)*$/;

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A deep copy of a JSON value, so a kept example shares nothing with the pipeline's document. */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key in value) out[key] = copy(value[key]);
    return out;
  }
  return value;
}

/** Replaces every scalar under `value` (the value itself when it is one) by a placeholder. */
function replaceAll(value: unknown, scope: SchemaScope): unknown {
  if (Array.isArray(value))
    return value.map((element, i) => replaceAll(element, elementScope(scope, i, element)));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const key in value) out[key] = replaceAll(value[key], memberScope(scope, key, value[key]));
    return out;
  }
  return placeholderFor(value, scope);
}

function childScope(parent: Container, key: string, scope: SchemaScope): SchemaScope {
  return Array.isArray(parent)
    ? elementScope(scope, Number(key), parent[Number(key)])
    : memberScope(scope, key, parent[key]);
}

/** The keys of `parent` that a pointer token selects: `*` selects every element or member. */
function selected(parent: Container, token: string): string[] {
  if (Array.isArray(parent)) {
    if (token === "*") return parent.map((_, i) => String(i));
    return /^(0|[1-9]\d*)$/.test(token) && Number(token) < parent.length ? [token] : [];
  }
  if (token === "*") return Object.keys(parent);
  return Object.hasOwn(parent, token) ? [token] : [];
}

/**
 * Replaces the values at configured JSON Pointers by placeholders of the same type that still pass
 * the document's schema where they can (see docs/corpus.md for the rules and the cases that cannot
 * be met). A pointer may use `*` for every element of an array or member of an object; a pointer at
 * an object or array replaces every value inside it, so the example keeps its shape.
 */
export class Redactor {
  readonly pointers: readonly string[];
  readonly #compiled: readonly Pointer[];

  /** Throws CONFIG_INVALID for a pointer that is not a JSON Pointer. */
  constructor(pointers: readonly string[]) {
    for (const pointer of pointers) {
      if (!POINTER.test(pointer)) {
        throw new SchemawatchError(
          "CONFIG_INVALID",
          `corpus.redact: '${pointer}' is not a JSON Pointer (for example /email or /items/*/email)`,
        );
      }
    }
    this.pointers = [...pointers];
    this.#compiled = pointers.map(compilePointer);
  }

  /** A redacted deep copy of `document`; `schema` is the JSON Schema the placeholders should pass. */
  apply(document: unknown, schema?: unknown): Redacted {
    let result = copy(document);
    const redacted: string[] = [];
    for (let p = 0; p < this.#compiled.length; p++) {
      const tokens = this.#compiled[p]!;
      let matched = false;
      if (tokens.length === 0) {
        result = replaceAll(result, rootScope(schema, result));
        matched = true;
      } else if (isContainer(result)) {
        matched = this.#visit(result, tokens, 0, rootScope(schema, result));
      }
      if (matched) redacted.push(this.pointers[p]!);
    }
    return { document: result, redacted };
  }

  #visit(parent: Container, tokens: Pointer, depth: number, scope: SchemaScope): boolean {
    let matched = false;
    const last = depth === tokens.length - 1;
    for (const key of selected(parent, tokens[depth]!)) {
      const child = childScope(parent, key, scope);
      const record = parent as Record<string, unknown>;
      if (last) {
        record[key] = replaceAll(record[key], child);
        matched = true;
      } else {
        const value = record[key];
        if (isContainer(value) && this.#visit(value, tokens, depth + 1, child)) matched = true;
      }
    }
    return matched;
  }
}
