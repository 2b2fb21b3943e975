import type { BodyPresence, FieldsVersion, FormatFields } from "../format.js";
import { taggedDeprecated, type MetadataTags } from "../tags.js";
import type { Msg } from "./model.js";
import { primaryOf, type ProtoSchema } from "./parse.js";
import { MAX_PATH, ProtoPresence } from "./presence.js";

/**
 * A field of a subject's records. Protobuf names a field by number (a rename is safe on the wire, a
 * reused number is not), so a field is its number path (`2.5`: field 5 of the message in field 2),
 * shown by the names the newest version that has it gives it (`/lines/*\/sku`).
 */
export interface ProtoField {
  /** The number path, dotted: what evidence is kept under. */
  readonly id: string;
  readonly numbers: readonly number[];
  /** A JSON Pointer by the newest version's names (`*` for any element of a list or map). */
  readonly pointer: string;
  /** The name the pointer ends with. */
  readonly key: string;
  /**
   * The versions (by their label) that mark it `[deprecated = true]` or whose registry metadata tags
   * it `DEPRECATED` (under its full name, `shop.Order.amount`), in the order given.
   */
  readonly deprecatedIn: readonly string[];
}

/** A version as the walk reads it. */
export interface ProtoVersion {
  readonly label: string;
  readonly retired: boolean;
  readonly schema: ProtoSchema;
}

export interface Found {
  readonly numbers: number[];
  readonly pointer: string;
  readonly key: string;
  readonly deprecated: boolean;
}

/**
 * The fields marked `[deprecated = true]`, or tagged `DEPRECATED` in the registered version's
 * metadata (tags.ts), in a version that is not retired, in the file's first
 * message and the messages under it (a message already on the path is not entered again, so a
 * recursive message's copies of its own fields are not tracked; at most `MAX_PATH` steps), named by
 * the newest version (last in `versions`) that has the number path; shallower first, then by number.
 */
export function deprecatedFields(versions: readonly ProtoVersion[]): ProtoField[] {
  const deprecatedIn = new Map<string, string[]>();
  const named = new Map<string, Found>();
  for (const version of versions) {
    for (const found of walk(primaryOf(version.schema), version.schema.tags)) {
      const id = found.numbers.join(".");
      named.set(id, found);
      if (!version.retired && found.deprecated)
        deprecatedIn.set(id, [...(deprecatedIn.get(id) ?? []), version.label]);
    }
  }
  return [...deprecatedIn]
    .map(([id, labels]) => {
      const found = named.get(id)!;
      return { id, numbers: found.numbers, pointer: found.pointer, key: found.key, deprecatedIn: labels };
    })
    .sort((a, b) => compareNumbers(a.numbers, b.numbers));
}

/**
 * Every field under `root` by number path, depth first, each message type once per path; deprecated
 * when marked so, or when `tags` (a registered version's metadata tags) tag its full name.
 */
export function walk(root: Msg, tags?: MetadataTags): Found[] {
  const out: Found[] = [];
  const visit = (msg: Msg, numbers: number[], pointer: string, onPath: Set<Msg>): void => {
    if (numbers.length >= MAX_PATH) return;
    for (const field of msg.fields.values()) {
      const path = [...numbers, field.number];
      const at = `${pointer}/${escape(field.name)}`;
      const deprecated = field.deprecated || taggedDeprecated(tags, `${msg.fullName}.${field.name}`);
      out.push({ numbers: path, pointer: at, key: field.name, deprecated });
      // Stryker disable next-line OptionalChaining: a parsed map always has its entry message and its field 2
      const inner = field.map ? field.message?.fields.get(2)?.message : field.message;
      if (inner === undefined || onPath.has(inner)) continue;
      // A map's values: the entry's field 2 on the wire, `*` in the pointer.
      const next = field.map ? [...path, 2] : path;
      onPath.add(inner);
      visit(inner, next, field.repeated ? `${at}/*` : at, onPath);
      onPath.delete(inner);
    }
  };
  visit(root, [], "", new Set([root]));
  return out;
}

/** Number paths in order: shallower first, then by number, step by step. */
function compareNumbers(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return a.length - b.length;
  // Stryker disable next-line EqualityOperator: two paths of one length that agree throughout are one field
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** A JSON Pointer segment (RFC 6901). */
// Stryker disable next-line StringLiteral: a Protobuf name holds no "~" or "/"; escaped all the same
const escape = (name: string): string => name.replaceAll("~", "~0").replaceAll("/", "~1");

const UNKNOWN = 2;

/** The versions that are Protobuf, as the walk reads them. */
function protoVersions(versions: readonly FieldsVersion[]): ProtoVersion[] {
  return versions.flatMap((v) =>
    v.schema?.format === "protobuf"
      ? [{ label: v.version.text, retired: v.status === "retired", schema: v.schema as ProtoSchema }]
      : [],
  );
}

/**
 * The fields room's questions (format.ts `FormatFields`): fields marked `[deprecated = true]`, and
 * the tag scan (presence.ts) for every record, a field being its number path as the newest version
 * that has its pointer names it. A pointer no version has (a config's name) is unknown in every
 * record; a record of no known writer version is unknown for every field.
 */
export const PROTOBUF_FIELDS: FormatFields = {
  deprecated: (versions) =>
    deprecatedFields(protoVersions(versions)).map(({ pointer, key, deprecatedIn }) => ({
      pointer,
      key,
      deprecatedIn,
    })),

  presence(versions, pointers): BodyPresence {
    const protos = protoVersions(versions);
    const numbersOf = new Map<string, number[]>();
    for (const version of protos)
      for (const found of walk(primaryOf(version.schema))) numbersOf.set(found.pointer, found.numbers);
    // Each number path scanned once: an old and a new name of one field share it.
    const paths: number[][] = [];
    const pathIndex = new Map<string, number>();
    const slot = pointers.map((pointer) => {
      const numbers = numbersOf.get(pointer);
      if (numbers === undefined) return -1;
      const id = numbers.join(".");
      let at = pathIndex.get(id);
      if (at === undefined) pathIndex.set(id, (at = paths.push(numbers) - 1));
      return at;
    });
    // One scan per writer version: its framing names its own first message (Apicurio's `Ref`).
    const scans = new Map<ProtoSchema, ProtoPresence>();
    const found = new Uint8Array(paths.length);
    const verdicts = new Uint8Array(pointers.length);
    return {
      verdicts,
      check(writer, bytes, start) {
        if (writer?.schema?.format !== "protobuf") {
          verdicts.fill(UNKNOWN);
          return;
        }
        const schema = writer.schema as ProtoSchema;
        let scan = scans.get(schema);
        // Stryker disable next-line ConditionalExpression: a cache; a new scan gives the same verdicts
        if (scan === undefined) scans.set(schema, (scan = new ProtoPresence(schema, paths)));
        scan.check(bytes, start, found);
        // Stryker disable next-line EqualityOperator: verdicts[length] is past the Uint8Array
        for (let i = 0; i < verdicts.length; i++) verdicts[i] = slot[i]! < 0 ? UNKNOWN : found[slot[i]!]!;
      },
    };
  },
};
