import protobuf from "protobufjs";
import { SchemawatchError, messageOf } from "../../errors.js";
import type { ImportedPath, ParsedSchema, SchemaSource } from "../format.js";
import type { MetadataTags } from "../tags.js";
import { Models, type Msg } from "./model.js";
import type { ProtoReadPlan } from "./plan.js";

const { Root, Type, parse, common } = protobuf;
type Root = protobuf.Root;
type Type = protobuf.Type;

/** One version's `.proto` file, parsed and resolved with its imports. */
export interface ProtoSchema extends ParsedSchema {
  readonly format: "protobuf";
  readonly name: string;
  /** The file's package, or undefined. */
  readonly package: string | undefined;
  /** `proto2`, `proto3`, or the file's edition. */
  readonly syntax: string;
  readonly root: Root;
  /**
   * The file's own top-level messages in the order it declares them: the message index's first step.
   * Never empty for a subject's version (`parseProtoVersion`); empty for a file of enums only, which
   * another file imports.
   */
  readonly messages: readonly Type[];
  /** The file's own top-level enums, in its order. */
  readonly enums: readonly protobuf.Enum[];
  /** Their names, which Apicurio's `Ref` gives. */
  readonly names: ReadonlySet<string>;
  /** The messages as the decoder and the readers use them, built once. */
  readonly models: Models;
  /** How each reader version reads this version's records, made on the first record that needs it. */
  readonly plans: WeakMap<ProtoSchema, ProtoReadPlan>;
  /** The registered version's metadata tags (`SchemaSource.tags`), where it has any. */
  readonly tags?: MetadataTags;
  /**
   * The texts parsed, the file's own first, then each import's in the order read: two versions
   * whose texts differ where no message or field does differ only in comments, options or layout
   * (`diff` calls that a patch).
   */
  readonly texts: readonly string[];
}

/** Imports nested deeper than this are refused, as a loop would be: no real file needs so many. */
const MAX_IMPORT_DEPTH = 32;

/**
 * Parses `source` with protobufjs (field names as written, `keepCase`), its imports taken from its
 * references by import path, and `google/protobuf/*.proto` from protobufjs's bundled copies when no
 * reference gives them. Throws SCHEMA_INVALID naming the file for text that does not parse, an
 * import no reference gives, or a name that does not resolve. A file without a message (enums only:
 * a registry's reference subject, a shared file) parses: what a record is decoded as is the
 * version's question (`parseProtoVersion`), not the file's.
 */
export function parseProto(source: SchemaSource): ProtoSchema {
  const root = new Root();
  const seen = new Set<string>();
  const texts: string[] = [];
  const file = parseInto(root, source, source.name, byName(source.references), seen, 0, texts);
  try {
    root.resolveAll();
  } catch (error) {
    throw invalid(source.name, messageOf(error), error);
  }
  const scope = file.package === undefined ? root : root.lookup(file.package);
  const messages = file.names.map((name) => (scope as protobuf.Namespace | null)?.get(name));
  const types = messages.filter((m): m is Type => m instanceof Type);
  return {
    format: "protobuf",
    name: source.name,
    text: source.text,
    package: file.package,
    syntax: file.syntax,
    root,
    messages: types,
    enums: messages.filter((m): m is protobuf.Enum => m instanceof protobuf.Enum),
    names: new Set(types.map((t) => t.name)),
    models: new Models(),
    plans: new WeakMap(),
    texts,
    ...(source.tags !== undefined ? { tags: source.tags } : {}),
  };
}

/**
 * A subject's version: `parseProto`, refused when the file declares no message, since a record's
 * body is one of the version's messages (`messageAt`, `primaryOf`) and there would be nothing to
 * decode it as. Such a file is read only where another file imports it.
 */
export function parseProtoVersion(source: SchemaSource): ProtoSchema {
  const schema = parseProto(source);
  if (schema.messages.length === 0)
    throw new SchemawatchError(
      "SCHEMA_INVALID",
      `${source.name}: declares no message, and a subject's schema needs one to decode its records as: a .proto file of enums only can only be imported by another`,
    );
  return schema;
}

/**
 * A file as `diff` reads OLD or NEW (`Format.parseFile`): `parseProto`, refused only when it declares
 * neither a message nor an enum (an empty file, one of options or services only), where a comparison
 * would say "no change" of nothing a record or an importer could use.
 */
export function parseProtoFile(source: SchemaSource): ProtoSchema {
  const schema = parseProto(source);
  if (schema.messages.length === 0 && schema.enums.length === 0)
    throw new SchemawatchError(
      "SCHEMA_INVALID",
      `${source.name}: declares neither a message nor an enum: nothing in it is a record or what a record holds`,
    );
  return schema;
}

interface ParsedFile {
  package: string | undefined;
  syntax: string;
  /** The file's top-level declarations, in order (its messages are found among them). */
  names: string[];
}

/**
 * `known`: the references of the file and of every file that imported it on the way here, so that a
 * registry's flat list (Confluent resolves references transitively into one name→text map) and a
 * nested one both resolve.
 */
function parseInto(
  root: Root,
  source: SchemaSource,
  path: string,
  known: ReadonlyMap<string, SchemaSource>,
  seen: Set<string>,
  depth: number,
  texts: string[],
): ParsedFile {
  if (depth > MAX_IMPORT_DEPTH) throw invalid(source.name, `imports nest deeper than ${MAX_IMPORT_DEPTH}`);
  seen.add(path);
  texts.push(source.text);
  let parsed: protobuf.IParserResult;
  try {
    parsed = parse(source.text, root, { keepCase: true });
  } catch (error) {
    throw invalid(source.name, messageOf(error), error);
  }
  const pkg = parsed.package ?? undefined;
  // The first file parsed is the version's own, into an empty root: what its package holds now is
  // what it declares, in order, before its imports add to the same namespace.
  const scope = pkg === undefined ? root : root.lookup(pkg);
  const names =
    depth === 0 && scope instanceof protobuf.Namespace ? scope.nestedArray.map((n) => n.name) : [];
  for (const imported of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
    if (seen.has(imported)) continue;
    const reference = source.references.find((r) => importPathOf(r) === imported) ?? known.get(imported);
    if (reference !== undefined) {
      parseInto(
        root,
        reference,
        imported,
        new Map([...known, ...byName(reference.references)]),
        seen,
        depth + 1,
        texts,
      );
      continue;
    }
    const bundled = imported.startsWith("google/protobuf/") ? common.get(imported) : null;
    if (bundled === null || bundled === undefined)
      throw invalid(source.name, `imports "${imported}", which none of its references gives`);
    seen.add(imported);
    root.addJSON(bundled.nested ?? {});
  }
  return { package: pkg, syntax: syntaxOf(source.text), names };
}

/**
 * The import path a reference answers: its name, or, for a registry's reference, the name it is
 * registered under, which its display name ends with (`registry:main/money/versions/1 (reference
 * 'shop/money.proto')`, registry/compile.ts), or for a file the path it was imported by
 * (`/schemas/pay/common/money.proto (import 'common/money.proto')`, catalog/format-file.ts).
 */
function importPathOf(reference: SchemaSource): string {
  const named = /\((?:reference|import) '(.*)'\)$/.exec(reference.name);
  return named ? named[1]! : reference.name;
}

/**
 * The paths a `.proto` file's text imports (`import`, `import public`, `import weak`), in order, each
 * once; `builtIn` for the `google/protobuf/*.proto` files protobufjs bundles. Text that does not
 * parse imports nothing here: `parseProto` reports it.
 */
export function protoImports(text: string): ImportedPath[] {
  let parsed: protobuf.IParserResult;
  try {
    parsed = parse(text, new Root(), { keepCase: true });
  } catch {
    return [];
  }
  const paths = [...new Set([...(parsed.imports ?? []), ...(parsed.weakImports ?? [])])];
  return paths.map((path) => ({
    path,
    builtIn: path.startsWith("google/protobuf/") && (common.get(path) ?? null) !== null,
  }));
}

/** References by the import path they answer. */
const byName = (references: readonly SchemaSource[]): Map<string, SchemaSource> =>
  new Map(references.map((r) => [importPathOf(r), r]));

/** A file's syntax as it declares it: without a `syntax` or `edition` line, proto2. */
function syntaxOf(text: string): string {
  const declared = /^\s*(?:syntax|edition)\s*=\s*["']([^"']+)["']/m.exec(text);
  return declared ? declared[1]! : "proto2";
}

/**
 * The message a Confluent message-index path names, or undefined when it runs past the file's
 * messages. A nested step counts the message's nested messages in the order protobufjs keeps them,
 * which is the file's order; a `map` field's entry, which protoc lists among them, is not counted.
 */
export function messageAt(schema: ProtoSchema, indexes: readonly number[]): Msg | undefined {
  let type = schema.messages[indexes[0] ?? 0];
  for (let i = 1; i < indexes.length && type !== undefined; i++)
    type = type.nestedArray.filter((n): n is Type => n instanceof Type)[indexes[i]!];
  return type === undefined ? undefined : schema.models.of(type);
}

/**
 * The message a record of the version is read as when its framing names none: the file's first (a
 * version has one, `parseProtoVersion`).
 */
export function primaryOf(schema: ProtoSchema): Msg {
  return schema.models.of(schema.messages[0]!);
}

/** The file's message named `name` (Apicurio's `Ref`), or undefined. */
export function messageNamed(schema: ProtoSchema, name: string): Msg | undefined {
  const type = schema.messages.find((t) => t.name === name);
  return type === undefined ? undefined : schema.models.of(type);
}

function invalid(name: string, problem: string, cause?: unknown): SchemawatchError {
  return new SchemawatchError("SCHEMA_INVALID", `${name}: not a valid .proto file: ${problem}`, { cause });
}
