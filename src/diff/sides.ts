import { SchemaCompiler } from "../catalog/compiler.js";
import { DEFAULT_DIALECT, dialectOf, type Dialect } from "./dialect.js";
import { isObject, Space, type Loc } from "./document.js";
import { Model } from "./model.js";
import type { DiffOptions } from "./types.js";
import type { EngineSide } from "./witness/prove.js";

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
    const resolve =
      (which === "old" ? options.oldResolveExternal : options.newResolveExternal) ?? options.resolveExternal;
    const space = new Space(name, resolve);
    const root = space.load(schema, dialect, base, compiler.assertsFormats(dialect));
    return { schema, root, space, name, dialect, base };
  };
  return { old: side(oldInput, "old"), new: side(newInput, "new"), model: new Model(), compiler };
}

/** A side as the engine compiles it, with its validator: what witnesses are checked against. */
export function engineSide(side: LoadedSide, compiler: SchemaCompiler): EngineSide {
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
  if (typeof id !== "string" || id === "") return base;
  try {
    return new URL(id, base).href.replace(/#.*$/, "");
  } catch {
    return base;
  }
}
