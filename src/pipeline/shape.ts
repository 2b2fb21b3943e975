import { createHash } from "node:crypto";

/** A JSON value's type as a shape sees it: integers apart from other numbers, empty containers apart. */
export type ShapeType =
  "null" | "boolean" | "integer" | "number" | "string" | "object" | "array" | "empty-object" | "empty-array";

/** The shape of a document: the set of key paths and value types it has. */
export interface Shape {
  /** 12 hex digits: the first 48 bits of the SHA-256 of `paths` as JSON. */
  readonly key: string;
  /**
   * Sorted `pointer:type` entries, such as `/id:integer` and `/items:array`. Pointers are JSON Pointers
   * (the root is the empty pointer) in which the token `*` stands for every element of an array, so the
   * elements of `/items` share the entries of `/items/*` (docs/corpus.md has examples).
   */
  readonly paths: readonly string[];
}

/** The number of hex digits of a shape key. */
export const SHAPE_KEY_LENGTH = 12;

export function shapeTypeOf(value: unknown): ShapeType {
  if (value === null) return "null";
  if (Array.isArray(value)) return value.length === 0 ? "empty-array" : "array";
  switch (typeof value) {
    case "boolean":
      return "boolean";
    case "number":
      return Number.isInteger(value) ? "integer" : "number";
    case "string":
      return "string";
    case "object":
      for (const _ in value) return "object";
      return "empty-object";
    default:
      // Not a JSON value; only a caller outside the pipeline can pass one. It still gets a stable shape.
      return "null";
  }
}

function escapeToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function collect(value: unknown, pointer: string, into: Set<string>): void {
  const type = shapeTypeOf(value);
  into.add(`${pointer}:${type}`);
  if (type === "array") {
    for (const element of value as unknown[]) collect(element, `${pointer}/*`, into);
  } else if (type === "object") {
    const object = value as Record<string, unknown>;
    for (const key in object) collect(object[key], `${pointer}/${escapeToken(key)}`, into);
  }
}

/** The shape of a document, with its key. Allocates; the hot path uses `ShapeKeys`. */
export function shapeOf(document: unknown): Shape {
  const set = new Set<string>();
  collect(document, "", set);
  const paths = [...set].sort();
  // JSON keeps the list unambiguous whatever characters the keys hold.
  const key = createHash("sha256").update(JSON.stringify(paths)).digest("hex").slice(0, SHAPE_KEY_LENGTH);
  return { key, paths };
}

// Tokens of the structural fingerprint. Key lengths are mixed in as length + KEY_BASE, so a key can
// never be mistaken for a type or an end marker: the token stream decodes one way only.
const NULL = 1;
const BOOLEAN = 2;
const INTEGER = 3;
const NUMBER = 4;
const STRING = 5;
const OBJECT = 6;
const ARRAY = 7;
const EMPTY_OBJECT = 8;
const EMPTY_ARRAY = 9;
const OBJECT_END = 10;
const ARRAY_END = 11;
const KEY_BASE = 16;
const M1 = 0x9e3779b1;
const M2 = 0x85ebca77;
const SEED1 = 0x811c9dc5 | 0;
const SEED2 = 0x1b873593;
const ELEMENT_SEED1 = 0x2545f491;
const ELEMENT_SEED2 = 0x27d4eb2f;

function tagOf(value: unknown): number {
  switch (typeof value) {
    case "string":
      return STRING;
    case "number":
      return Number.isInteger(value) ? INTEGER : NUMBER;
    case "boolean":
      return BOOLEAN;
    case "object":
      if (value === null) return NULL;
      if (Array.isArray(value)) return value.length === 0 ? EMPTY_ARRAY : ARRAY;
      for (const _ in value) return OBJECT;
      return EMPTY_OBJECT;
    default:
      return NULL;
  }
}

// Two 32-bit lanes walk the document in its own key order. `lane2` carries the second lane out of a
// call without allocating; it belongs to one ShapeKeys instance.
function walkObject(object: Record<string, unknown>, h1: number, h2: number, lane2: Int32Array): number {
  for (const key in object) {
    const length = key.length;
    h1 = Math.imul(h1 ^ (length + KEY_BASE), M1);
    h2 = Math.imul(h2 ^ (length + KEY_BASE), M2);
    for (let i = 0; i < length; i++) {
      const code = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ code, M1);
      h2 = Math.imul(h2 ^ code, M2);
    }
    const value = object[key];
    const tag = tagOf(value);
    h1 = Math.imul(h1 ^ tag, M1);
    h2 = Math.imul(h2 ^ tag, M2);
    if (tag === OBJECT) {
      h1 = walkObject(value as Record<string, unknown>, h1, h2, lane2);
      h2 = lane2[0]!;
    } else if (tag === ARRAY) {
      h1 = walkArray(value as unknown[], h1, h2, lane2);
      h2 = lane2[0]!;
    }
  }
  lane2[0] = Math.imul(h2 ^ OBJECT_END, M2);
  return Math.imul(h1 ^ OBJECT_END, M1);
}

function walkArray(array: readonly unknown[], h1: number, h2: number, lane2: Int32Array): number {
  // Each element is fingerprinted on its own and a run of equal elements counts once, so arrays of one
  // element shape hit the same cache entry whatever their length.
  let previous1 = 0;
  let previous2 = 0;
  for (let i = 0; i < array.length; i++) {
    const value = array[i];
    const tag = tagOf(value);
    let e1 = Math.imul(ELEMENT_SEED1 ^ tag, M1);
    let e2 = Math.imul(ELEMENT_SEED2 ^ tag, M2);
    if (tag === OBJECT) {
      e1 = walkObject(value as Record<string, unknown>, e1, e2, lane2);
      e2 = lane2[0]!;
    } else if (tag === ARRAY) {
      e1 = walkArray(value as unknown[], e1, e2, lane2);
      e2 = lane2[0]!;
    }
    if (e1 !== previous1 || e2 !== previous2) {
      h1 = Math.imul(h1 ^ e1, M1);
      h2 = Math.imul(h2 ^ e2, M2);
      previous1 = e1;
      previous2 = e2;
    }
  }
  lane2[0] = Math.imul(h2 ^ ARRAY_END, M2);
  return Math.imul(h1 ^ ARRAY_END, M1);
}

const CACHE_SIZE = 1024;

/**
 * Shape keys for the hot path. A 64-bit fingerprint of the document's structure in its own key order
 * costs about as much as reading the keys once and allocates nothing; it indexes a small cache of
 * canonical keys, which are computed (sorted paths, SHA-256) only when a fingerprint is new. Documents
 * with the same keys in another order have other fingerprints but the same key.
 */
export class ShapeKeys {
  readonly #lane2 = new Int32Array(1);
  readonly #h1 = new Int32Array(CACHE_SIZE);
  readonly #h2 = new Int32Array(CACHE_SIZE);
  readonly #keys: (string | undefined)[] = new Array<string | undefined>(CACHE_SIZE).fill(undefined);

  /** The same key as `shapeOf(document).key`. */
  key(document: unknown): string {
    const lane2 = this.#lane2;
    const tag = tagOf(document);
    let h1 = Math.imul(SEED1 ^ tag, M1);
    let h2 = Math.imul(SEED2 ^ tag, M2);
    if (tag === OBJECT) {
      h1 = walkObject(document as Record<string, unknown>, h1, h2, lane2);
      h2 = lane2[0]!;
    } else if (tag === ARRAY) {
      h1 = walkArray(document as unknown[], h1, h2, lane2);
      h2 = lane2[0]!;
    }
    const slot = (h1 ^ (h2 >>> 16)) & (CACHE_SIZE - 1);
    const cached = this.#keys[slot];
    if (cached !== undefined && this.#h1[slot] === h1 && this.#h2[slot] === h2) return cached;
    const key = shapeOf(document).key;
    this.#h1[slot] = h1;
    this.#h2[slot] = h2;
    this.#keys[slot] = key;
    return key;
  }
}
