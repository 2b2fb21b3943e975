// Views and generators over one schema, as the witness search reads them (no engine run).
import { SchemaCompiler } from "../../../../src/catalog/compiler.js";
import { loadSides } from "../../../../src/diff/sides.js";
import type { DiffOptions } from "../../../../src/diff/vocabulary.js";
import type { View } from "../../../../src/diff/view.js";
import { Generator } from "../../../../src/diff/witness/generate.js";

const D = "https://json-schema.org/draft/2020-12/schema";

/** OLD and NEW loaded into one model, 2020-12 unless a schema says otherwise. */
export function load(old: unknown, next: unknown = {}, options: DiffOptions = {}) {
  const withDialect = (s: unknown) =>
    typeof s === "object" && s !== null && !("$schema" in s) ? { $schema: D, ...s } : s;
  const loaded = loadSides(withDialect(old), withDialect(next), options);
  const { model } = loaded;
  return {
    ...loaded,
    generator: new Generator(model),
    oldView: model.view(model.deref(loaded.old.root)),
    newView: model.view(model.deref(loaded.new.root)),
  };
}

/** The root view of each schema, each loaded on its own. */
export function views(...schemas: unknown[]): View[] {
  return schemas.map((s) => load(s).oldView);
}

/** The same, where the engine asserts formats and content (drafts 04 to 07 with `assertFormats`). */
export function assertingViews(...schemas: unknown[]): View[] {
  const compiler = new SchemaCompiler({ assertFormats: true });
  return schemas.map((s) => load(s, {}, { compiler }).oldView);
}
