import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";

/**
 * Which fields of a subject are profiled, read from the schema alone (never from traffic, so the
 * metrics' `field` label is bounded by what schemas declare).
 */

/**
 * `number`: a sketch of its values; `length`: a sketch of a string's lengths; `values`: the share of
 * each value (an enum or a short string set the config names).
 */
export type FieldKind = "number" | "length" | "values";

export interface ProfiledField {
  /** The JSON Pointer, with `*` for every element of an array (`/items/*\/price`). */
  readonly pointer: string;
  readonly kind: FieldKind;
  /** The pointer's tokens, unescaped. */
  readonly path: readonly string[];
  /**
   * An enum's values as their text: any other value a record sends is counted as `(other)`, never by
   * name (a crafted stream of distinct values would otherwise name each).
   */
  readonly enum?: ReadonlySet<string>;
}

export interface FieldSelection {
  readonly fields: readonly ProfiledField[];
  /** Fields the schema or the config named past `maxFields`: not profiled, counted. */
  readonly overflow: number;
  /** Fields left out because they lie at or under a `corpus.redact` pointer. */
  readonly redacted: number;
}

export interface FieldOptions {
  /** At most this many fields per subject. */
  readonly maxFields: number;
  /** An enum of more values than this is not a short set: left out. */
  readonly maxValues: number;
  /** Pointers profiled whatever the schema says (first, so the bound never drops them). */
  readonly include: readonly string[];
  /** Pointers never profiled, with everything under them. */
  readonly exclude: readonly string[];
  /** `corpus.redact`: never profiled, with everything under them (their statistics could reveal them). */
  readonly redact: readonly string[];
}

/** The version whose schema names the fields: the newest active one, else the newest. */
export function profiledVersion(subject: CatalogSubject): CatalogVersion | undefined {
  const versions = subject.versions;
  for (let i = versions.length - 1; i >= 0; i--) if (versions[i]!.status === "active") return versions[i];
  return versions[versions.length - 1];
}

/** The fields to profile in documents of `schema`. Pure: the same schema and options give the same list. */
export function selectFields(schema: unknown, options: FieldOptions): FieldSelection {
  // A string the config names is a short set of values; any other declared string, its length.
  const declared = new Map<string, FieldKind | "string">();
  const enums = new Map<string, ReadonlySet<string>>();
  walk(schema, schema, [], { declared, enums }, new Set(), options.maxValues);
  const fields: ProfiledField[] = [];
  const seen = new Set<string>();
  let overflow = 0;
  let redacted = 0;
  const excluded = options.exclude.map(parsePointer);
  const redactions = options.redact.map(parsePointer);
  const consider = (pointer: string, kind: FieldKind) => {
    if (seen.has(pointer)) return;
    seen.add(pointer);
    const path = parsePointer(pointer);
    if (redactions.some((r) => covers(r, path))) return void redacted++;
    if (excluded.some((e) => covers(e, path))) return;
    if (fields.length >= options.maxFields) return void overflow++;
    const values = kind === "values" ? enums.get(pointer) : undefined;
    fields.push(values ? { pointer, kind, path, enum: values } : { pointer, kind, path });
  };
  for (const pointer of options.include) {
    const kind = declared.get(pointer);
    consider(pointer, kind === "string" ? "values" : (kind ?? "number"));
  }
  for (const [pointer, kind] of declared) if (kind !== "string") consider(pointer, kind);
  // Lengths last: within the bound, a subject's numbers and enums come first.
  for (const [pointer, kind] of declared) if (kind === "string") consider(pointer, "length");
  return { fields, overflow, redacted };
}

/** Whether a profiled pointer lies at or under one of `rules` (`corpus.redact`, `stats.exclude`). */
export function coveredBy(pointer: string, rules: readonly string[]): boolean {
  const path = parsePointer(pointer);
  return rules.some((rule) => covers(parsePointer(rule), path));
}

/** Whether `rule` (a redact or exclude pointer) is `path` or one of its ancestors; `*` matches any token. */
function covers(rule: readonly string[], path: readonly string[]): boolean {
  if (rule.length > path.length) return false;
  for (let i = 0; i < rule.length; i++) {
    if (rule[i] !== path[i] && rule[i] !== "*" && path[i] !== "*") return false;
  }
  return true;
}

export function parsePointer(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function formatPointer(path: readonly string[]): string {
  return path.map((t) => "/" + (t === "*" ? t : t.replace(/~/g, "~0").replace(/\//g, "~1"))).join("");
}

// A schema nests fields this deep at most: deeper ones are not profiled (nor walked: a recursive
// schema without $ref, written out, would otherwise be walked forever).
const MAX_DEPTH = 8;

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

/** What the walk finds: each pointer's kind, and the values of each enum. */
interface Declared {
  readonly declared: Map<string, FieldKind | "string">;
  readonly enums: Map<string, ReadonlySet<string>>;
}

function walk(
  node: unknown,
  root: unknown,
  path: string[],
  out: Declared,
  refs: Set<string>,
  maxValues: number,
): void {
  if (!isNode(node) || path.length > MAX_DEPTH) return;
  const ref = node["$ref"];
  if (typeof ref === "string") {
    // Only references within the document (`#…`, or its own `$id` with such a fragment, absolute or
    // relative to it): one to another subject's schema is not followed.
    const target = resolveLocal(root, ref);
    if (target !== undefined && !refs.has(ref)) {
      refs.add(ref);
      walk(target, root, path, out, refs, maxValues);
      refs.delete(ref);
    }
  }
  for (const keyword of ["allOf", "anyOf", "oneOf"]) {
    const list = node[keyword];
    if (Array.isArray(list)) for (const sub of list) walk(sub, root, path, out, refs, maxValues);
  }
  const kind = leafKind(node, maxValues);
  if (kind && path.length > 0) {
    const pointer = formatPointer(path);
    if (!out.declared.has(pointer)) {
      out.declared.set(pointer, kind);
      if (kind === "values") out.enums.set(pointer, new Set((node["enum"] as unknown[]).map(String)));
    }
  }
  const properties = node["properties"];
  if (isNode(properties)) {
    for (const name of Object.keys(properties))
      walk(properties[name], root, [...path, name], out, refs, maxValues);
  }
  const items = node["items"];
  if (isNode(items)) walk(items, root, [...path, "*"], out, refs, maxValues);
}

function leafKind(node: Node, maxValues: number): FieldKind | "string" | undefined {
  const values = node["enum"];
  if (Array.isArray(values)) {
    const scalar = values.every(
      (v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean",
    );
    return scalar && values.length <= maxValues ? "values" : undefined;
  }
  const type = node["type"];
  const types = Array.isArray(type) ? type : [type];
  if (types.includes("number") || types.includes("integer")) return "number";
  return types.includes("string") ? "string" : undefined;
}

/**
 * The target of a `$ref` within `root`: a fragment (`#/$defs/money`), or the root's own `$id` with
 * one, as written or relative to the `$id`; undefined for another document, an anchor, a pointer that
 * cannot be decoded or a missing target.
 */
function resolveLocal(root: unknown, ref: string): unknown {
  const hash = ref.indexOf("#");
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  if (hash !== 0 && !isOwnId(root, hash === -1 ? ref : ref.slice(0, hash))) return undefined;
  if (fragment !== "" && !fragment.startsWith("/")) return undefined;
  let tokens: string[];
  try {
    tokens = parsePointer(decodeURIComponent(fragment));
  } catch {
    return undefined;
  }
  let node = root;
  for (const token of tokens) {
    if (!isNode(node) || !Object.hasOwn(node, token)) return undefined;
    node = node[token];
  }
  return node;
}

/** Whether `base` (a `$ref` without its fragment) names the root schema's own `$id`. */
function isOwnId(root: unknown, base: string): boolean {
  const id = isNode(root) ? root["$id"] : undefined;
  if (typeof id !== "string") return false;
  const own = id.replace(/#.*$/, "");
  if (base === own) return true;
  try {
    return new URL(base, own).href === new URL(own).href;
  } catch {
    // A `$id` that is no absolute URI (a bare name): only the same text names it.
    return false;
  }
}

/** Most values of one field read from one document (an array of 10,000 prices costs 100 inserts). */
export const MAX_VALUES_PER_RECORD = 100;

/**
 * Calls `visit` with each value at `path` in `document` (every element for `*`), at most
 * MAX_VALUES_PER_RECORD; returns how many it visited.
 */
export function readValues(
  document: unknown,
  path: readonly string[],
  visit: (value: unknown) => void,
): number {
  if (path.indexOf("*") >= 0) return descend(document, path, 0, visit, MAX_VALUES_PER_RECORD);
  // The common case, one value at most: a loop, no recursion.
  let node = document;
  for (let i = 0; i < path.length; i++) {
    node = child(node, path[i]!);
    if (node === undefined) return 0;
  }
  if (node === undefined) return 0;
  visit(node);
  return 1;
}

/** The member or element `token` names, or undefined. */
function child(node: unknown, token: string): unknown {
  if (typeof node !== "object" || node === null) return undefined;
  if (Array.isArray(node)) return /^(0|[1-9]\d*)$/.test(token) ? node[Number(token)] : undefined;
  return Object.hasOwn(node, token) ? (node as Record<string, unknown>)[token] : undefined;
}

/** Visits at most `budget` values under `node` from `path[at]` on; returns how many it visited. */
function descend(
  node: unknown,
  path: readonly string[],
  at: number,
  visit: (value: unknown) => void,
  budget: number,
): number {
  if (budget <= 0) return 0;
  if (at === path.length) {
    if (node === undefined) return 0;
    visit(node);
    return 1;
  }
  const token = path[at]!;
  if (token !== "*") return descend(child(node, token), path, at + 1, visit, budget);
  if (typeof node !== "object" || node === null) return 0;
  let visited = 0;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length && visited < budget; i++)
      visited += descend(node[i], path, at + 1, visit, budget - visited);
  } else {
    const record = node as Record<string, unknown>;
    for (const key in record) {
      if (visited >= budget) break;
      visited += descend(record[key], path, at + 1, visit, budget - visited);
    }
  }
  return visited;
}
