import { SchemaCompiler } from "../catalog/compiler.js";
import { metaDocuments } from "../catalog/meta-documents.js";
import { DEFAULT_DIALECT, dialectOf, type Dialect } from "./dialect.js";
import { isObject, Space, type Loc } from "./document.js";
import { Model } from "./model.js";
import type { DiffOptions } from "./vocabulary.js";
import type { EngineSide } from "./witness/proof-context.js";

/** One version loaded for comparison: its document (a private copy), dialect and reachable documents. */
export interface LoadedSide {
  readonly schema: unknown;
  readonly root: Loc;
  readonly space: Space;
  readonly name: string;
  readonly dialect: Dialect;
  readonly base: string;
}

export interface Loaded {
  readonly old: LoadedSide;
  readonly new: LoadedSide;
  readonly model: Model;
  readonly compiler: SchemaCompiler;
}

/** Loads OLD and NEW, each in a space of its own: two versions often share an `$id`. */
export function loadSides(oldInput: unknown, newInput: unknown, options: DiffOptions): Loaded {
  const compiler =
    // Stryker disable next-line ObjectLiteral,LogicalOperator: every compile here names its side's dialect; the compiler's default is never read
    options.compiler ?? new SchemaCompiler({ defaultDialect: options.defaultDialect ?? DEFAULT_DIALECT });
  const defaultDialect = options.defaultDialect ?? compiler.defaultDialect;
  const side = (input: unknown, which: "old" | "new"): LoadedSide => {
    // Nodes are tracked by identity; a copy keeps a caller's shared sub-objects from meeting both sides.
    const schema: unknown = structuredClone(input);
    const name = (which === "old" ? options.oldName : options.newName) ?? which.toUpperCase();
    const dialect =
      (which === "old" ? options.oldDialect : options.newDialect) ?? dialectOf(schema, name, defaultDialect);
    const base =
      (which === "old" ? options.oldBaseUri : options.newBaseUri) ?? `https://schemawatch.invalid/${which}`;
    const given =
      (which === "old" ? options.oldResolveExternal : options.newResolveExternal) ?? options.resolveExternal;
    // The dialect's meta-schemas are documents a $ref may reach, as the validator holds them.
    const held = metaDocuments(dialect);
    const resolve = (uri: string): unknown => given?.(uri) ?? held.find((m) => m.uri === uri)?.json;
    const space = new Space(name, resolve);
    const root = space.load(schema, dialect, base, compiler.assertsFormats(dialect));
    return { schema, root, space, name, dialect, base };
  };
  return { old: side(oldInput, "old"), new: side(newInput, "new"), model: new Model(), compiler };
}

/** A side as the engine compiles it, with its validator: what witnesses are checked against. */
export function engineSide(side: LoadedSide, compiler: SchemaCompiler): EngineSide {
  // The comparison resolves each $ref it walks, and it walks every applicator (a removed preload
  // survives every test); this guards a $ref it might skip, which would otherwise fail the compile below.
  // Stryker disable next-line CallExpression: see above
  side.space.preload();
  const uri = rootUri(side.schema, side.dialect, side.base);
  const refs = side.space.externals().map((ref) => ({ ...ref, name: ref.uri }));
  const validate = compiler.compileVersion({
    uri,
    json: side.schema,
    name: side.name,
    dialect: side.dialect,
    refs,
  });
  return { root: side.root, uri, name: side.name, dialect: side.dialect, refs, validate };
}

/** The URI the engine knows a side by: its root `$id` resolved against its base, else the base. */
function rootUri(schema: unknown, dialect: Dialect, base: string): string {
  const id = isObject(schema) ? schema[dialect === "draft-04" ? "id" : "$id"] : undefined;
  // An empty id resolves to the base itself.
  if (typeof id !== "string") return base;
  try {
    // Stryker disable next-line Regex: ajv drops a root id's fragment itself; this keeps the URI exact in messages
    return new URL(id, base).href.replace(/#.*$/, "");
  } catch {
    return base;
  }
}
