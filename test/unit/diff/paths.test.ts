// Where a change points when OLD's node and NEW's node live at different places (a property whose
// `$ref` moved from one definition to another): into NEW for what NEW has, into OLD for what only OLD
// had. One case per keyword family of src/diff/strings.ts, arrays.ts, scalars.ts and limits.ts.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas, type DiffOptions } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
// OLD's property `a` is defined at /$defs/x, NEW's at /$defs/y (draft-07: /definitions/...).
const moved = (old: object, next: object, dialect = D, options: DiffOptions = {}) => {
  const defs = dialect === D ? "$defs" : "definitions";
  const side = (name: string, def: object) => ({
    $schema: dialect,
    properties: { a: { $ref: `#/${defs}/${name}` } },
    [defs]: { [name]: def },
  });
  return diffSchemas(side("x", old), side("y", next), { witnesses: false, ...options }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
};
const S = { type: "string" };
const A = { type: "array" };

describe("paths of changes to a node that moved", () => {
  it("string limits and patterns", () => {
    expect(moved({ ...S, maxLength: 3 }, S)).toEqual([
      "max-length-removed /$defs/x/maxLength ok/breaks: maxLength 3 -> none: a looser limit accepts documents OLD rejected",
    ]);
    expect(moved(S, { ...S, maxLength: 3 })).toEqual([
      "max-length-added /$defs/y/maxLength breaks/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(moved({ ...S, minLength: 3 }, { ...S, minLength: 2 })).toEqual([
      "min-length-decreased /$defs/y/minLength ok/breaks: minLength 3 -> 2: a looser limit accepts documents OLD rejected",
    ]);
    expect(moved({ ...S, pattern: "^a" }, S)).toEqual([
      "pattern-removed /$defs/x/pattern ok/breaks: OLD required strings to match /^a/",
    ]);
    expect(moved(S, { ...S, pattern: "^a" })).toEqual([
      "pattern-added /$defs/y/pattern breaks/ok: NEW requires strings to match /^a/",
    ]);
    expect(moved({ ...S, pattern: "^a" }, { ...S, pattern: "^b" })).toEqual([
      "pattern-changed /$defs/y/pattern undecided/undecided: pattern /^a/ -> /^b/: regular expressions are not compared for inclusion",
    ]);
  });

  it("formats, annotated or asserted", () => {
    const why = "an annotation here (formats are asserted only in drafts 04 to 07 with --assert-formats)";
    expect(moved({ ...S, format: "email" }, S)).toEqual([
      `format-removed /$defs/x/format ok/ok: format email -> none: ${why}`,
    ]);
    expect(moved(S, { ...S, format: "email" })).toEqual([
      `format-added /$defs/y/format ok/ok: format none -> email: ${why}`,
    ]);
    expect(moved({ ...S, format: "email" }, { ...S, format: "uri" })).toEqual([
      `format-changed /$defs/y/format ok/ok: format email -> uri: ${why}`,
    ]);
    const asserted = (old: object, next: object) =>
      moved(old, next, D7, { compiler: new SchemaCompiler({ assertFormats: true }) });
    expect(asserted({ ...S, format: "email" }, S)).toEqual([
      "format-removed /definitions/x/format ok/breaks: OLD asserted format email",
    ]);
    expect(asserted(S, { ...S, format: "email" })).toEqual([
      "format-added /definitions/y/format breaks/ok: NEW asserts format email",
    ]);
    expect(asserted({ ...S, format: "email" }, { ...S, format: "uri" })).toEqual([
      "format-changed /definitions/y/format undecided/undecided: format email -> uri: formats are not compared structurally",
    ]);
    expect(asserted({ ...S, contentEncoding: "base64" }, S)).toEqual([
      "content-changed /definitions/x/contentEncoding ok/breaks: contentEncoding removed; asserted in this dialect (--assert-formats)",
    ]);
    expect(asserted(S, { ...S, contentEncoding: "base64" })).toEqual([
      "content-changed /definitions/y/contentEncoding breaks/ok: contentEncoding added; asserted in this dialect (--assert-formats)",
    ]);
    expect(asserted({ ...S, contentMediaType: "text/html" }, S)).toEqual([
      "content-changed /definitions/x/contentMediaType ok/ok: contentMediaType removed; the engine checks neither",
    ]);
  });

  it("array keywords", () => {
    expect(moved({ ...A, prefixItems: [{}, S] }, { ...A, prefixItems: [{}] })).toEqual([
      "tuple-item-removed /$defs/x/prefixItems/1 ok/breaks: NEW validates item 1 with nothing instead of its own schema",
    ]);
    expect(moved({ ...A, prefixItems: [{}] }, { ...A, prefixItems: [{}, S] })).toEqual([
      "tuple-item-added /$defs/y/prefixItems/1 breaks/ok: NEW gives item 1 its own schema; OLD validated it with nothing",
    ]);
    expect(moved({ ...A, items: S }, A)).toEqual([
      "items-extended /$defs/x/items ok/breaks: NEW accepts anything for items; OLD constrained them",
    ]);
    expect(moved({ ...A, minItems: 2 }, A)).toEqual([
      "min-items-removed /$defs/x/minItems ok/breaks: minItems 2 -> none: a looser limit accepts documents OLD rejected",
    ]);
    expect(moved({ ...A, uniqueItems: true }, A)).toEqual([
      "unique-items-removed /$defs/x/uniqueItems ok/breaks: NEW accepts arrays with duplicates",
    ]);
    expect(moved(A, { ...A, uniqueItems: true })).toEqual([
      "unique-items-added /$defs/y/uniqueItems breaks/ok: NEW rejects arrays with duplicates",
    ]);
    expect(moved({ ...A, contains: S }, A)).toEqual([
      "contains-removed /$defs/x/contains ok/breaks: OLD required an item matching contains",
    ]);
    expect(moved(A, { ...A, contains: S })).toEqual([
      "contains-added /$defs/y/contains breaks/ok: NEW requires an item matching contains",
    ]);
    expect(moved({ ...A, contains: S, minContains: 2 }, { ...A, contains: S })).toEqual([
      "min-contains-removed /$defs/x/minContains ok/breaks: minContains 2 -> none: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("annotations, type, enum and const", () => {
    expect(moved({ title: "x" }, {})).toEqual([
      "title-changed /$defs/x/title ok/ok: title removed; annotations do not affect validation",
    ]);
    expect(moved({}, { title: "x" })).toEqual([
      "title-changed /$defs/y/title ok/ok: title added; annotations do not affect validation",
    ]);
    expect(moved({ title: "x" }, { title: "y" })).toEqual([
      "title-changed /$defs/y/title ok/ok: title changed; annotations do not affect validation",
    ]);
    expect(moved(S, {})).toEqual([
      "type-removed /$defs/x/type ok/breaks: type string -> any type; NEW documents of type null, boolean, object, array, number fail OLD",
    ]);
    expect(moved({}, S)).toEqual([
      "type-added /$defs/y/type breaks/ok: type any type -> string; OLD documents of type null, boolean, object, array, number fail NEW",
    ]);
    expect(moved({ enum: [1, 2] }, {})).toEqual([
      "enum-removed /$defs/x/enum ok/breaks: OLD only allowed 1, 2; NEW drops the restriction",
    ]);
    expect(moved({}, { enum: [1, 2] })).toEqual(["enum-added /$defs/y/enum breaks/ok: NEW only allows 1, 2"]);
    expect(moved({ const: 1 }, {})).toEqual([
      "const-removed /$defs/x/const ok/breaks: OLD only allowed 1; NEW drops the restriction",
    ]);
    expect(moved({ enum: [1, 2] }, { enum: [1] })).toEqual([
      "enum-value-removed /$defs/y/enum breaks/ok: NEW no longer allows 2; OLD documents using it fail NEW",
    ]);
    expect(moved({ const: 1 }, { const: 2 })).toEqual([
      "const-changed /$defs/y/const breaks/breaks: const 1 -> 2",
    ]);
  });
});
