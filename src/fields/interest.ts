import type { VersionStatus } from "../catalog/types.js";
import { MAX_FIELDS } from "../config/fields.js";
import type { FieldsConfig } from "../config/types.js";
import type { FormatFields, ParsedSchema } from "../formats/format.js";
import { byPriority, configuredFields, excluded, type SchemaFacts } from "./configured.js";

/**
 * Fields a subject's traffic is watched for, found in its schemas without configuration: every
 * property marked `deprecated: true` in a version that is not retired (whose drain is the question),
 * and every optional property of the newest active version (whose presence says when it can be made
 * required). A field is named by its JSON Pointer, `*` standing for any item of an array
 * (`/items/*\/sku`).
 */
export interface FieldOfInterest {
  readonly pointer: string;
  /** The property name the pointer ends with (unescaped): what the presence check looks for. */
  readonly key: string;
  /** The non-retired versions that mark it `deprecated: true`, in the catalog's (ascending) order. */
  readonly deprecatedIn: readonly string[];
  /** The newest active version when the field is optional there; undefined otherwise. */
  readonly optionalIn: string | undefined;
  /** The field that replaces this one (config `fields.replaces`): it is deprecated, whatever the schemas say. */
  readonly replacedBy?: string;
  /** The field this one replaces (config `fields.replaces`): optional until a version requires it. */
  readonly replaces?: string;
  /** Named by the config's `fields.add`. */
  readonly added?: boolean;
}

export interface SubjectFields {
  /**
   * At most the cap: the fields the config names first (they always fit: config/fields.ts), then
   * deprecated fields, then optional ones; shallower first, then by pointer.
   */
  readonly fields: readonly FieldOfInterest[];
  /** Fields of interest past the cap, left untracked. */
  readonly overflow: number;
  /** `$ref`s not followed (another document, an anchor, a missing target), each once, sorted. */
  readonly unresolvedRefs: readonly string[];
  /** True when a version's walk stopped at its budget of schema nodes (see MAX_NODES). */
  readonly truncated: boolean;
}

/** Fields tracked per subject (src/config/fields.ts says why); the ones past it are counted as `overflow`. */
export { MAX_FIELDS };
/** Schema nodes one version's walk visits at most: refs reused at many places multiply them. */
export const MAX_NODES = 20_000;
/** Pointers deeper than this many segments are not followed: a bound on recursive shapes. */
const MAX_DEPTH = 16;

/** What the walk reads of a version: a CatalogVersion has it. */
export interface VersionSchema {
  readonly version: { readonly text: string };
  readonly status: VersionStatus;
  readonly file: { readonly json: unknown };
  /** A binary format's parsed schema (what its `FormatFields` reads); absent for JSON Schema. */
  readonly schema?: ParsedSchema;
}

/**
 * The fields of interest of a subject's versions (in the catalog's ascending order), with what the
 * config adds, marks as replaced, or leaves out. `binary`: the subject's format's answers when it is
 * not JSON Schema (`Format.fields`): its deprecated fields only, a field the config names being
 * deprecated or nothing (no "ready to require" for a binary format: docs/fields.md).
 */
export function fieldsOfInterest(
  versions: readonly VersionSchema[],
  max = MAX_FIELDS,
  config?: FieldsConfig,
  binary?: FormatFields,
): SubjectFields {
  if (binary !== undefined) return binaryFields(versions, max, config, binary);
  const deprecated = new Map<string, string[]>();
  const unresolved = new Set<string>();
  let truncated = false;
  const properties = new Map<string, Walked>();
  const walked = (json: unknown): Map<string, Walked> => {
    const result = walkProperties(json);
    for (const ref of result.unresolved) unresolved.add(ref);
    truncated ||= result.truncated;
    return result.properties;
  };
  let newestActive: VersionSchema | undefined;
  for (const version of versions) {
    if (version.status === "retired") continue;
    if (version.status === "active") newestActive = version;
    for (const [pointer, found] of walked(version.file.json)) {
      if (!properties.has(pointer)) properties.set(pointer, found);
      if (!found.deprecated) continue;
      const list = deprecated.get(pointer) ?? [];
      list.push(version.version.text);
      deprecated.set(pointer, list);
    }
  }
  const optional = new Set<string>();
  const required = new Set<string>();
  if (newestActive) {
    for (const [pointer, found] of walked(newestActive.file.json)) {
      (found.required ? required : optional).add(pointer);
      properties.set(pointer, found);
    }
  }
  const all: FieldOfInterest[] = [];
  for (const [pointer, found] of properties) {
    const deprecatedIn = deprecated.get(pointer) ?? [];
    const optionalIn = optional.has(pointer) ? newestActive!.version.text : undefined;
    if (deprecatedIn.length === 0 && optionalIn === undefined) continue;
    all.push({ pointer, key: found.key, deprecatedIn, optionalIn });
  }
  all.sort(byPriority);
  // The config's fields first: they always fit under the cap (config/fields.ts refuses more).
  const named = config ? configuredFields(all, config, schemaFacts(versions, newestActive, required)) : [];
  return { ...capped(all, named, config, max), unresolvedRefs: [...unresolved].sort(), truncated };
}

/** The config's fields first, then the schemas' not excluded, at most `max`; the rest counted. */
function capped(
  all: readonly FieldOfInterest[],
  named: readonly FieldOfInterest[],
  config: FieldsConfig | undefined,
  max: number,
): { fields: FieldOfInterest[]; overflow: number } {
  const pointers = new Set(named.map((f) => f.pointer));
  const listed = config
    ? [...named, ...all.filter((f) => !pointers.has(f.pointer) && !excluded(f.pointer, config.exclude))]
    : all;
  return { fields: listed.slice(0, max), overflow: Math.max(0, listed.length - max) };
}

function binaryFields(
  versions: readonly VersionSchema[],
  max: number,
  config: FieldsConfig | undefined,
  binary: FormatFields,
): SubjectFields {
  const all: FieldOfInterest[] = binary
    .deprecated(versions)
    .map(({ pointer, key, deprecatedIn }) => ({ pointer, key, deprecatedIn, optionalIn: undefined }));
  all.sort(byPriority);
  const newestActive = versions.filter((v) => v.status === "active").at(-1);
  const named = config
    ? configuredFields(all, config, schemaFacts(versions, newestActive, new Set())).map((f) =>
        f.optionalIn === undefined ? f : { ...f, optionalIn: undefined },
      )
    : [];
  return { ...capped(all, named, config, max), unresolvedRefs: [], truncated: false };
}

function schemaFacts(
  versions: readonly VersionSchema[],
  newestActive: VersionSchema | undefined,
  required: ReadonlySet<string>,
): SchemaFacts {
  return {
    newestActive: newestActive?.version.text,
    newest: newestActive?.version.text ?? versions.filter((v) => v.status !== "retired").at(-1)?.version.text,
    required,
  };
}

/** A property as one version declares it. */
interface Walked {
  readonly key: string;
  /** Listed in `required` by a schema that always applies at its parent. */
  required: boolean;
  /** Marked `deprecated: true` by a schema that always applies at it. */
  deprecated: boolean;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Every named property of one schema document, by pointer. What applies at a place unconditionally
 * (the schema itself, its `$ref` target, `allOf` members) decides `required` and `deprecated`; the
 * properties of `anyOf`, `oneOf`, `then`, `else` and `dependentSchemas` (`dependencies`) branches are
 * fields too, but
 * what those branches require or deprecate holds only for some documents, so it is not read.
 * Property names from `patternProperties` or `additionalProperties` are not known, so not fields;
 * `not`, `if` and `contains` describe documents rather than declare their fields. Keywords beside a
 * `$ref` are read in every draft (drafts 04 to 07 ignore them when validating): an author who writes
 * `deprecated: true` there means it, and a field too many costs only a search.
 */
function walkProperties(root: unknown): {
  properties: Map<string, Walked>;
  unresolved: string[];
  truncated: boolean;
} {
  const properties = new Map<string, Walked>();
  const unresolved: string[] = [];
  /** Pointers some schema that always applies at their parent lists in `required`. */
  const required = new Set<string>();
  const rootId = isObject(root) && typeof root.$id === "string" ? root.$id.replace(/#.*$/, "") : undefined;
  /** The schemas being expanded on the current path: a `$ref` back into one is recursion, not followed. */
  const expanding = new Set<object>();
  let budget = MAX_NODES;
  let truncated = false;

  const property = (pointer: string, key: string): Walked => {
    let found = properties.get(pointer);
    if (!found) properties.set(pointer, (found = { key, required: false, deprecated: false }));
    return found;
  };

  const walk = (node: unknown, pointer: string, depth: number, always: boolean): void => {
    if (!isObject(node) || expanding.has(node)) return;
    if (budget-- <= 0) {
      truncated = true;
      return;
    }
    expanding.add(node);
    try {
      if (always && node.deprecated === true && properties.has(pointer))
        property(pointer, "").deprecated = true;
      for (const keyword of ["$ref", "$recursiveRef", "$dynamicRef"] as const) {
        const ref = node[keyword];
        if (typeof ref !== "string") continue;
        const target = resolveLocal(root, ref, rootId);
        if (target === undefined) unresolved.push(ref);
        else walk(target, pointer, depth, always);
      }
      // `required` may name properties an `allOf` member or a `$ref` declares: applied after the walk.
      if (always && Array.isArray(node.required)) {
        for (const name of node.required)
          if (typeof name === "string") required.add(`${pointer}/${escapeSegment(name)}`);
      }
      if (depth < MAX_DEPTH && isObject(node.properties)) {
        for (const [name, schema] of Object.entries(node.properties)) {
          const at = `${pointer}/${escapeSegment(name)}`;
          property(at, name);
          walk(schema, at, depth + 1, true);
        }
      }
      if (depth < MAX_DEPTH) {
        const items = `${pointer}/*`;
        for (const keyword of ["items", "additionalItems", "unevaluatedItems"] as const) {
          const value = node[keyword];
          if (Array.isArray(value)) for (const item of value) walk(item, items, depth + 1, true);
          else walk(value, items, depth + 1, true);
        }
        if (Array.isArray(node.prefixItems))
          for (const item of node.prefixItems) walk(item, items, depth + 1, true);
      }
      if (Array.isArray(node.allOf)) for (const member of node.allOf) walk(member, pointer, depth, always);
      for (const keyword of ["anyOf", "oneOf"] as const) {
        const branches = node[keyword];
        if (Array.isArray(branches)) for (const branch of branches) walk(branch, pointer, depth, false);
      }
      walk(node.then, pointer, depth, false);
      walk(node.else, pointer, depth, false);
      // draft-07's `dependencies` holds schemas (and arrays of names, which walk skips) by name.
      for (const keyword of ["dependentSchemas", "dependencies"] as const) {
        const branches = node[keyword];
        if (isObject(branches))
          for (const branch of Object.values(branches)) walk(branch, pointer, depth, false);
      }
    } finally {
      expanding.delete(node);
    }
  };
  walk(root, "", 0, true);
  for (const pointer of required) {
    const found = properties.get(pointer);
    if (found) found.required = true;
  }
  return { properties, unresolved, truncated };
}

/**
 * The target of a `$ref` inside the same document (`#`, `#/$defs/money`, or the document's own `$id`
 * with such a fragment); undefined for another document, an anchor (`#money`) or a missing target.
 */
function resolveLocal(root: unknown, ref: string, rootId: string | undefined): unknown {
  const hash = ref.indexOf("#");
  const base = hash === -1 ? ref : ref.slice(0, hash);
  if (base !== "" && base !== rootId) return undefined;
  const fragment = hash === -1 ? "" : ref.slice(hash + 1);
  if (fragment !== "" && !fragment.startsWith("/")) return undefined;
  let node = root;
  if (fragment === "") return node;
  for (const raw of fragment.slice(1).split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(segment)) node = node[Number(segment)];
    else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/** A property name as a pointer segment (RFC 6901). */
function escapeSegment(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
