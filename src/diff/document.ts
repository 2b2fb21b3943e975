import { SchemawatchError } from "../errors.js";
import { idIgnored } from "../catalog/reading.js";
import type { Dialect } from "./dialect.js";

/** A schema node and where it lives: the JSON Pointer within its document. */
export interface Loc {
  readonly node: unknown;
  readonly ptr: string;
  readonly doc: Doc;
}

export interface Doc {
  readonly space: Space;
  readonly root: unknown;
  readonly dialect: Dialect;
  /** Absolute URI of the document, without fragment. */
  readonly uri: string;
  /** "" for the schema under comparison; the URI for documents reached by an external `$ref`. */
  readonly label: string;
  readonly pointers: Map<object, string>;
  /** Base URI in effect inside each object node (after its own `$id`). */
  readonly bases: Map<object, string>;
  /** The engine asserts `format` and `content*` here (drafts 04 to 07 with assertions turned on). */
  readonly assertsFormats: boolean;
}

export type Json = Readonly<Record<string, unknown>>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SINGLE = [
  "additionalItems",
  "contains",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
];
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const MAPS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"];

export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * All documents one side of the comparison can reach: the schema itself and whatever external `$ref`s
 * pull in. Each side gets its own space, because OLD and NEW often share an `$id` and must not resolve
 * into each other.
 */
export class Space {
  private readonly docs: Doc[] = [];
  private readonly resources = new Map<string, Loc>();
  private readonly anchors = new Map<string, Loc>();

  // Set by `load` before any document is added; the initial values are never read.
  // Stryker disable next-line StringLiteral: never read (see above)
  private dialect: Dialect = "draft-07";
  // Stryker disable next-line BooleanLiteral: never read (see above)
  private assertsFormats = false;

  constructor(
    private readonly name: string,
    private readonly resolveExternal: ((uri: string) => unknown) | undefined,
  ) {}

  /**
   * Loads the main document of this side. Documents its `$ref`s reach are read in its dialect, as the
   * engine compiles them (a version and what it references share one ajv).
   */
  load(root: unknown, dialect: Dialect, defaultUri: string, assertsFormats = false): Loc {
    this.dialect = dialect;
    this.assertsFormats = assertsFormats;
    return this.add(root, defaultUri, "");
  }

  /**
   * Resolves every `$ref` of every document now, so that the external documents the engine needs are
   * known before anything is compared. A `$ref` that resolves to nothing is left for the comparison to
   * report where it matters.
   */
  preload(): void {
    for (let i = 0; i < this.docs.length; i++) {
      const doc = this.docs[i] as Doc;
      for (const [node, ptr] of [...doc.pointers]) {
        for (const key of ["$ref", "$recursiveRef", "$dynamicRef"]) {
          const ref = (node as Json)[key];
          if (typeof ref !== "string") continue;
          try {
            this.resolve({ node, ptr, doc }, ref);
          } catch {
            // reported by the comparison if it is reached
          }
        }
      }
    }
  }

  /** The documents outside the schema itself that its `$ref`s reach, by absolute URI. */
  externals(): Array<{ uri: string; json: unknown }> {
    return this.docs.filter((d) => d.label !== "").map((d) => ({ uri: d.uri, json: d.root }));
  }

  private add(root: unknown, uri: string, label: string): Loc {
    const dialect = this.dialect;
    const doc: Doc = {
      space: this,
      root,
      dialect,
      uri,
      label,
      pointers: new Map(),
      bases: new Map(),
      assertsFormats: this.assertsFormats,
    };
    this.docs.push(doc);
    const top: Loc = { node: root, ptr: "", doc };
    this.resources.set(uri, top);
    this.walk(doc, root, "", uri);
    return top;
  }

  private walk(doc: Doc, node: unknown, ptr: string, base: string): void {
    if (!isObject(node) || doc.pointers.has(node)) return;
    doc.pointers.set(node, ptr);
    const loc: Loc = { node, ptr, doc };
    let here = base;
    const id = idIgnored(node, doc.dialect, ptr === "")
      ? undefined
      : node[doc.dialect === "draft-04" ? "id" : "$id"];
    if (typeof id === "string") {
      const legacy = doc.dialect === "draft-04" || doc.dialect === "draft-06" || doc.dialect === "draft-07";
      const absolute = safeUrl(id, base);
      if (absolute) {
        const fragment = absolute.hash.slice(1);
        absolute.hash = "";
        if (!id.startsWith("#")) {
          here = absolute.href;
          this.resources.set(here, loc);
        }
        if (fragment !== "" && legacy) this.anchors.set(`${absolute.href}#${fragment}`, loc);
      }
    }
    doc.bases.set(node, here);
    for (const key of ["$anchor", "$dynamicAnchor"]) {
      const anchor = node[key];
      if (typeof anchor === "string") this.anchors.set(`${here}#${anchor}`, loc);
    }
    for (const key of SINGLE) this.walk(doc, node[key], `${ptr}/${key}`, here);
    const items = node["items"];
    if (Array.isArray(items)) items.forEach((item, i) => this.walk(doc, item, `${ptr}/items/${i}`, here));
    else this.walk(doc, items, `${ptr}/items`, here);
    for (const key of LISTS) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((item, i) => this.walk(doc, item, `${ptr}/${key}/${i}`, here));
    }
    for (const key of MAPS) {
      const map = node[key];
      if (!isObject(map)) continue;
      for (const [name, value] of Object.entries(map)) {
        this.walk(doc, value, `${ptr}/${key}/${escapePointer(name)}`, here);
      }
    }
  }

  /** The node a `$ref` (or `$recursiveRef`, `$dynamicRef`, resolved statically) in `from` names. */
  resolve(from: Loc, ref: string): Loc {
    const base = isObject(from.node) ? (from.doc.bases.get(from.node) ?? from.doc.uri) : from.doc.uri;
    const absolute = safeUrl(ref, base);
    if (!absolute) throw this.invalid(from, ref, "is not a valid URI reference");
    const fragment = absolute.hash.slice(1);
    absolute.hash = "";
    const resource = this.resources.get(absolute.href) ?? this.fetch(from, ref, absolute.href);
    if (fragment === "") return resource;
    if (fragment.startsWith("/")) return this.pointer(from, ref, resource, fragment);
    const anchored = this.anchors.get(`${absolute.href}#${this.decode(from, ref, fragment)}`);
    if (!anchored) throw this.invalid(from, ref, "names an anchor that does not exist");
    return anchored;
  }

  private fetch(from: Loc, ref: string, uri: string): Loc {
    const found = this.resolveExternal?.(uri);
    if (found === undefined) throw this.invalid(from, ref, `points outside the schema (${uri})`);
    // A copy per side: the resolver may hand both sides the same object, and nodes are keyed by identity.
    const external: unknown = structuredClone(found);
    return this.add(external, uri, uri);
  }

  private pointer(from: Loc, ref: string, resource: Loc, fragment: string): Loc {
    let node = resource.node;
    let ptr = resource.ptr;
    for (const raw of fragment.split("/").slice(1)) {
      const segment = this.decode(from, ref, raw).replace(/~1/g, "/").replace(/~0/g, "~");
      // An index past the end names nothing, as a missing key does (ajv cannot resolve either).
      if (Array.isArray(node) && /^\d+$/.test(segment) && Number(segment) < node.length)
        node = node[Number(segment)];
      else if (isObject(node) && Object.hasOwn(node, segment)) node = node[segment];
      else throw this.invalid(from, ref, "points to nothing");
      ptr = `${ptr}/${escapePointer(segment)}`;
    }
    const known = isObject(node) ? resource.doc.pointers.get(node) : undefined;
    return { node, ptr: known ?? ptr, doc: resource.doc };
  }

  /** A malformed percent escape (`%zz`) makes the reference invalid, not the comparison crash. */
  private decode(from: Loc, ref: string, text: string): string {
    try {
      return decodeURIComponent(text);
    } catch {
      throw this.invalid(from, ref, "is not a valid URI reference");
    }
  }

  private invalid(from: Loc, ref: string, problem: string): SchemawatchError {
    const where = from.doc.label === "" ? this.name : from.doc.label;
    return new SchemawatchError(
      "SCHEMA_INVALID",
      `${where}: $ref ${JSON.stringify(ref)} at #${from.ptr} ${problem}`,
    );
  }
}

function safeUrl(reference: string, base: string): URL | undefined {
  return URL.parse(reference, base) ?? undefined;
}

/** A pointer for a change report: external documents carry their URI. */
export function formatPath(doc: Doc, ptr: string): string {
  return doc.label === "" ? ptr : `${doc.label}#${ptr}`;
}

/** A child location; objects keep the pointer recorded when the document was indexed. */
export function child(loc: Loc, node: unknown, ...segments: string[]): Loc {
  const known = isObject(node) ? loc.doc.pointers.get(node) : undefined;
  return { node, ptr: known ?? `${loc.ptr}/${segments.map(escapePointer).join("/")}`, doc: loc.doc };
}
