import type { BodyPresence, FieldsVersion, FormatFields, MarkedField } from "../format.js";
import { deprecates, taggedDeprecated } from "../tags.js";
import { Kind, unqualified, type AvroSchema, type Node } from "./schema.js";

const ABSENT = 0;
const PRESENT = 1;
const UNKNOWN = 2;

/** Pointers deeper than this many segments are not followed: a bound on recursive records. */
const MAX_DEPTH = 16;

const avroOf = (version: FieldsVersion | undefined): AvroSchema | undefined =>
  version?.schema?.format === "avro" ? (version.schema as AvroSchema) : undefined;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** `Record.field` (the record's name without namespace) of every field the schema's JSON tags deprecated. */
function taggedFields(json: unknown, into: Set<string>): void {
  if (Array.isArray(json)) {
    for (const item of json) taggedFields(item, into);
    return;
  }
  if (!isObject(json)) return;
  // Stryker disable next-line ConditionalExpression: the JSON is a parsed Avro schema: an object with fields is a named record
  if (typeof json.name === "string" && Array.isArray(json.fields)) {
    for (const field of json.fields) {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a parsed record's fields are objects with names
      if (!isObject(field) || typeof field.name !== "string") continue;
      const tags = field["confluent:tags"];
      if (Array.isArray(tags) && deprecates(tags)) into.add(`${unqualified(json.name)}.${field.name}`);
    }
  }
  for (const value of Object.values(json)) taggedFields(value, into);
}

/** Every field under `root` by pointer (`*` for an array's items or a map's values), with its record. */
function walk(root: Node, visit: (pointer: string, key: string, record: Node) => void): void {
  const onPath = new Set<Node>();
  const go = (node: Node, pointer: string, depth: number): void => {
    if (depth >= MAX_DEPTH || onPath.has(node)) return;
    onPath.add(node);
    switch (node.kind) {
      case Kind.Record:
        for (const field of node.fields) {
          // Stryker disable next-line StringLiteral: an Avro name holds no "~" or "/"; escaped all the same
          const at = `${pointer}/${field.name.replaceAll("~", "~0").replaceAll("/", "~1")}`;
          visit(at, field.name, node);
          go(field.node, at, depth + 1);
        }
        break;
      case Kind.Array:
      case Kind.Map:
        go(node.items!, `${pointer}/*`, depth + 1);
        break;
      case Kind.Union:
        for (const branch of node.branches) go(branch, pointer, depth);
        break;
    }
    onPath.delete(node);
  };
  go(root, "", 0);
}

/**
 * Whether a record written with `root` carries the field at `path`: Avro writes every field of its
 * writer's schema, so it is a constant of the writer version. A field under a union, an array or a
 * map is present (the branch or the elements may lack it: erring towards "still in use"); a name no
 * record on the way has (by its name or an alias) is absent.
 */
function presenceIn(root: Node, path: readonly string[]): number {
  let node = root;
  for (const segment of path) {
    if (node.kind === Kind.Union || node.kind === Kind.Array || node.kind === Kind.Map) return PRESENT;
    // Stryker disable next-line ConditionalExpression: every node has its fields, empty but a record's
    if (node.kind !== Kind.Record) return ABSENT;
    const field = node.fields.find((f) => f.name === segment || f.aliases.includes(segment));
    if (field === undefined) return ABSENT;
    node = field.node;
  }
  return PRESENT;
}

// Stryker disable StringLiteral: an Avro name holds no "~" or "/"; unescaped all the same
const pathOf = (pointer: string): string[] =>
  pointer
    .split("/")
    .slice(1)
    .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
// Stryker restore StringLiteral

/**
 * The fields room's questions for Avro (format.ts `FormatFields`): a field is deprecated by its tag
 * (`DEPRECATED_TAG`, tags.ts), inline (`"confluent:tags"` on the field, as Confluent's data contracts
 * write them) or in the registered version's metadata tags under `Record.full.name.field`, or by the
 * `fields:` config (the fields room reads that); its presence in a record is read off the record's
 * writer version, never its body.
 */
export const AVRO_FIELDS: FormatFields = {
  deprecated(versions): MarkedField[] {
    const marked = new Map<string, { key: string; depth: number; deprecatedIn: string[] }>();
    for (const version of versions) {
      const schema = avroOf(version);
      if (schema === undefined || version.status === "retired") continue;
      const tagged = new Set<string>();
      taggedFields(schema.json, tagged);
      // Stryker disable next-line ConditionalExpression: a shortcut; the walk finds nothing tagged either
      if (tagged.size === 0 && schema.tags === undefined) continue;
      walk(schema.root, (pointer, key, record) => {
        if (
          !tagged.has(`${unqualified(record.name)}.${key}`) &&
          !taggedDeprecated(schema.tags, `${record.name}.${key}`)
        )
          return;
        const found = marked.get(pointer) ?? { key, depth: pathOf(pointer).length, deprecatedIn: [] };
        if (found.deprecatedIn.at(-1) !== version.version.text) found.deprecatedIn.push(version.version.text);
        marked.set(pointer, found);
      });
    }
    // Stryker disable ConditionalExpression,EqualityOperator: pointers are a Map's keys, never equal
    return [...marked]
      .sort(([a, x], [b, y]) => x.depth - y.depth || (a < b ? -1 : a > b ? 1 : 0))
      .map(([pointer, { key, deprecatedIn }]) => ({ pointer, key, deprecatedIn }));
    // Stryker restore ConditionalExpression,EqualityOperator
  },

  presence(_versions, pointers): BodyPresence {
    const paths = pointers.map(pathOf);
    const byWriter = new Map<AvroSchema, Uint8Array>();
    const verdicts = new Uint8Array(pointers.length);
    return {
      verdicts,
      check(writer, bytes) {
        const schema = avroOf(writer);
        if (schema === undefined || bytes === null) {
          verdicts.fill(UNKNOWN);
          return;
        }
        let known = byWriter.get(schema);
        // Stryker disable next-line ConditionalExpression: a cache; computed again, the verdicts are the same
        if (known === undefined)
          byWriter.set(schema, (known = Uint8Array.from(paths, (path) => presenceIn(schema.root, path))));
        verdicts.set(known);
      },
    };
  },
};
