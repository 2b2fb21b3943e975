import avro from "avsc";
import { SchemawatchError, messageOf } from "../../errors.js";
import type { ParsedSchema, SchemaSource } from "../format.js";
import type { MetadataTags } from "../tags.js";

/** The kinds of Avro schema a node can be (the spec's primitive and complex types). */
export const enum Kind {
  Null,
  Boolean,
  Int,
  Long,
  Float,
  Double,
  Bytes,
  String,
  Record,
  Enum,
  Fixed,
  Array,
  Map,
  Union,
}

export interface FieldNode {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly node: Node;
  readonly hasDefault: boolean;
}

/**
 * One Avro schema, as decoding and resolution read it: avsc parsed and checked it (names, namespaces,
 * defaults, references), and this is its plain shape. Named types keep their full name and aliases;
 * a recursive type is the same node again. Logical types are read as their underlying type.
 */
export interface Node {
  readonly kind: Kind;
  /** Full name of a record, enum or fixed; "" for the others. */
  readonly name: string;
  readonly aliases: readonly string[];
  readonly fields: readonly FieldNode[];
  readonly symbols: readonly string[];
  /** The enum's default symbol's index, or -1. */
  readonly enumDefault: number;
  readonly size: number;
  /** Array items, map values. */
  readonly items: Node | undefined;
  readonly branches: readonly Node[];
  /** Whether decoding it writes to the trace (it holds a union, an enum, an array or a map). */
  traced: boolean;
}

/** A parsed Avro version. `json` is its schema as written (what the page and `file.json` show). */
export interface AvroSchema extends ParsedSchema {
  readonly format: "avro";
  readonly root: Node;
  readonly json: unknown;
  /** The registered version's metadata tags (`SchemaSource.tags`), where it has any. */
  readonly tags?: MetadataTags;
}

type AvscType = avro.Type & Record<string, unknown>;

/**
 * Parses an Avro schema with its references (named types registered under other subjects), each
 * parsed first into a registry of its own for this version: one version's types never leak into
 * another's. Throws SCHEMA_INVALID naming the source (and the reference) when avsc refuses it.
 */
export function parseAvro(source: SchemaSource): AvroSchema {
  const registry: Record<string, avro.Type> = {};
  const parsed = new Set<SchemaSource>();
  const parseInto = (s: SchemaSource, what: string): { type: avro.Type; json: unknown } => {
    for (const reference of s.references)
      if (!parsed.has(reference)) {
        parsed.add(reference);
        parseInto(reference, `${what}: its reference ${reference.name}`);
      }
    let json: unknown;
    try {
      json = JSON.parse(s.text) as unknown;
    } catch (error) {
      throw new SchemawatchError("SCHEMA_INVALID", `${what}: not valid JSON: ${messageOf(error)}`, {
        cause: error,
      });
    }
    try {
      return { type: avro.Type.forSchema(json as avro.Schema, { registry, wrapUnions: true }), json };
    } catch (error) {
      throw new SchemawatchError("SCHEMA_INVALID", `${what}: not a valid Avro schema: ${messageOf(error)}`, {
        cause: error,
      });
    }
  };
  const { type, json } = parseInto(source, source.name);
  return {
    format: "avro",
    root: nodeOf(type, new Map(), new Set()),
    json,
    ...(source.tags !== undefined ? { tags: source.tags } : {}),
  };
}

const PRIMITIVES: Record<string, Kind> = {
  null: Kind.Null,
  boolean: Kind.Boolean,
  int: Kind.Int,
  long: Kind.Long,
  float: Kind.Float,
  double: Kind.Double,
  bytes: Kind.Bytes,
  string: Kind.String,
};

function nodeOf(type: avro.Type, seen: Map<avro.Type, Node>, open: Set<Node>): Node {
  const known = seen.get(type);
  if (known) return known;
  const t = type as AvscType;
  const typeName = t.typeName;
  const base = {
    name: t.name ?? "",
    aliases: t.aliases ?? [],
    fields: [] as FieldNode[],
    symbols: [] as string[],
    enumDefault: -1,
    size: 0,
    items: undefined as Node | undefined,
    branches: [] as Node[],
    traced: false,
  };
  const primitive = PRIMITIVES[typeName];
  if (primitive !== undefined) return { kind: primitive, ...base };
  if (typeName === "record" || typeName === "error") {
    const node: Node = { kind: Kind.Record, ...base };
    seen.set(type, node);
    open.add(node);
    for (const field of t["fields"] as Array<{
      name: string;
      aliases: string[];
      type: avro.Type;
      defaultValue(): unknown;
    }>) {
      base.fields.push({
        name: field.name,
        aliases: field.aliases ?? [],
        node: nodeOf(field.type, seen, open),
        hasDefault: field.defaultValue() !== undefined,
      });
    }
    // A record reached again while it is being built (a recursive type) is taken as traced: errs safe.
    node.traced = base.fields.some((f) => f.node.traced || open.has(f.node));
    open.delete(node);
    return node;
  }
  if (typeName === "enum") {
    const symbols = t["symbols"] as string[];
    const fallback = t["default"] as string | undefined;
    const node: Node = {
      kind: Kind.Enum,
      ...base,
      symbols,
      enumDefault: fallback === undefined ? -1 : symbols.indexOf(fallback),
      traced: true,
    };
    seen.set(type, node);
    return node;
  }
  if (typeName === "fixed") return { kind: Kind.Fixed, ...base, size: t["size"] as number };
  if (typeName === "array" || typeName === "map") {
    const node: Node = { kind: typeName === "array" ? Kind.Array : Kind.Map, ...base, traced: true };
    seen.set(type, node);
    (node as { items: Node }).items = nodeOf(
      (typeName === "array" ? t["itemsType"] : t["valuesType"]) as avro.Type,
      seen,
      open,
    );
    return node;
  }
  if (typeName.startsWith("union")) {
    const node: Node = { kind: Kind.Union, ...base, traced: true };
    seen.set(type, node);
    for (const branch of t["types"] as avro.Type[]) base.branches.push(nodeOf(branch, seen, open));
    return node;
  }
  // A logical type avsc was not told about is its underlying type already; anything else is a bug.
  throw new SchemawatchError("SCHEMA_INVALID", `an Avro type schemawatch does not read: ${typeName}`);
}

/** A named type's name without its namespace: what the spec's resolution compares. */
export function unqualified(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}
