// Annotations, unknown keywords and the content keywords as a reader of the report sees them
// (`annotations` in src/diff/scalars.ts): the kind, the path, both verdicts and the reason, exactly.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas, type DiffOptions } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const across = (
  old: object,
  next: object,
  oldDialect: string,
  newDialect: string,
  options: DiffOptions = {},
) =>
  diffSchemas({ $schema: oldDialect, ...old }, { $schema: newDialect, ...next }, options).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const changes = (old: object, next: object) => across(old, next, D, D);
// draft-07 with --assert-formats: contentEncoding and contentMediaType are assertions.
const assertFormats = (witnesses = false): DiffOptions => ({
  compiler: new SchemaCompiler({ assertFormats: true }),
  witnesses,
});
const asserted = (old: object, next: object, witnesses = false) =>
  across(old, next, D7, D7, assertFormats(witnesses));
const string = (more: object = {}) => ({ type: "string", ...more });

describe("annotations", () => {
  it("are ok both ways, added, removed or changed, each under its own kind", () => {
    expect(changes({ title: "a" }, { title: "b" })).toEqual([
      "title-changed /title ok/ok: title changed; annotations do not affect validation",
    ]);
    expect(changes({}, { description: "b" })).toEqual([
      "description-changed /description ok/ok: description added; annotations do not affect validation",
    ]);
    expect(changes({ examples: [1] }, {})).toEqual([
      "examples-changed /examples ok/ok: examples removed; annotations do not affect validation",
    ]);
    expect(changes({ $comment: "a" }, { $comment: "b" })).toEqual([
      "comment-changed /$comment ok/ok: $comment changed; annotations do not affect validation",
    ]);
    expect(changes({ deprecated: false }, { deprecated: true })).toEqual([
      "deprecated-changed /deprecated ok/ok: deprecated changed; annotations do not affect validation",
    ]);
    expect(changes({ readOnly: true }, {})).toEqual([
      "read-only-changed /readOnly ok/ok: readOnly removed; annotations do not affect validation",
    ]);
    expect(changes({ writeOnly: true }, { writeOnly: false })).toEqual([
      "write-only-changed /writeOnly ok/ok: writeOnly changed; annotations do not affect validation",
    ]);
  });

  it("an equal value in another key order is no change", () => {
    expect(changes({ default: { a: 1, b: [1, 2] } }, { default: { b: [1, 2], a: 1 } })).toEqual([]);
  });

  it("content keywords are annotations where formats are not asserted", () => {
    expect(
      changes(string({ contentMediaType: "application/json" }), string({ contentMediaType: "text/plain" })),
    ).toEqual([
      "content-changed /contentMediaType ok/ok: contentMediaType changed; annotations do not affect validation",
    ]);
    expect(changes(string({ contentEncoding: "base64" }), string({ contentEncoding: "base32" }))).toEqual([
      "content-changed /contentEncoding ok/ok: contentEncoding changed; annotations do not affect validation",
    ]);
  });
});

describe("keywords validators do not know", () => {
  it("are extensions, ok both ways, added, removed or changed", () => {
    expect(changes({ "x-foo": 1 }, { "x-foo": 2 })).toEqual([
      "extension-changed /x-foo ok/ok: x-foo changed; validators ignore keywords they do not know",
    ]);
    expect(changes({}, { "x-foo": 1 })).toEqual([
      "extension-changed /x-foo ok/ok: x-foo added; validators ignore keywords they do not know",
    ]);
    expect(changes({ "x-foo": 1 }, {})).toEqual([
      "extension-changed /x-foo ok/ok: x-foo removed; validators ignore keywords they do not know",
    ]);
  });

  it("are extensions whatever their name, also the names every JavaScript object has", () => {
    for (const key of ["constructor", "toString", "hasOwnProperty"]) {
      expect(changes({ [key]: 1 }, { [key]: 2 })).toEqual([
        `extension-changed /${key} ok/ok: ${key} changed; validators ignore keywords they do not know`,
      ]);
    }
  });

  it("include the 2019 and 2020 keywords under draft-07", () => {
    expect(across({ prefixItems: [{ type: "string" }] }, {}, D7, D7)).toEqual([
      "extension-changed /prefixItems ok/ok: prefixItems removed; validators ignore keywords they do not know",
    ]);
    expect(across({}, { dependentRequired: { a: ["b"] } }, D7, D7)).toEqual([
      "extension-changed /dependentRequired ok/ok: dependentRequired added; validators ignore keywords they do not know",
    ]);
  });

  it("identification and containers are not reported as annotations", () => {
    const rewrite = "equivalent-rewrite  ok/ok: the documents differ but accept the same instances";
    expect(changes({ $anchor: "a" }, { $anchor: "b" })).toEqual([rewrite]);
    expect(changes({ $defs: { a: { type: "string" } } }, { $defs: { a: { type: "integer" } } })).toEqual([
      rewrite,
    ]);
  });
});

describe("content keywords asserted (draft-07, --assert-formats)", () => {
  it("a media type the engine parses as JSON rejects strings: adding one breaks backward, removing one forward", () => {
    expect(asserted(string(), string({ contentMediaType: "application/json" }))).toEqual([
      "content-changed /contentMediaType breaks/ok: contentMediaType added; asserted in this dialect (--assert-formats)",
    ]);
    expect(asserted(string({ contentMediaType: "application/json" }), string())).toEqual([
      "content-changed /contentMediaType ok/breaks: contentMediaType removed; asserted in this dialect (--assert-formats)",
    ]);
    expect(
      asserted(string({ contentMediaType: "application/json" }), string({ contentMediaType: "text/plain" })),
    ).toEqual([
      "content-changed /contentMediaType ok/breaks: contentMediaType changed; asserted in this dialect (--assert-formats)",
    ]);
  });

  it("two media types read alike accept the same strings, whatever their names", () => {
    expect(
      asserted(
        string({ contentMediaType: "application/json" }),
        string({ contentMediaType: "application/ld+json" }),
      ),
    ).toEqual([
      "content-changed /contentMediaType ok/ok: contentMediaType changed; the engine checks both as JSON",
    ]);
    expect(
      asserted(string({ contentMediaType: "text/html" }), string({ contentMediaType: "text/plain" })),
    ).toEqual([
      "content-changed /contentMediaType ok/ok: contentMediaType changed; the engine checks neither",
    ]);
    expect(asserted(string({ contentMediaType: "text/html" }), string())).toEqual([
      "content-changed /contentMediaType ok/ok: contentMediaType removed; the engine checks neither",
    ]);
  });

  it("JSON media types are told by application/, an optional suffix +json and a word boundary, in any case", () => {
    const from = (type: unknown) =>
      asserted(string({ contentMediaType: type }), string({ contentMediaType: "text/plain" }));
    const checked =
      "content-changed /contentMediaType ok/breaks: contentMediaType changed; asserted in this dialect (--assert-formats)";
    const unchecked =
      "content-changed /contentMediaType ok/ok: contentMediaType changed; the engine checks neither";
    expect(from("APPLICATION/JSON")).toEqual([checked]);
    expect(from("application/vnd.a-b+json")).toEqual([checked]);
    expect(from("application/json;charset=utf-8")).toEqual([checked]);
    expect(from("application/jsonx")).toEqual([unchecked]);
    expect(from("xapplication/json")).toEqual([unchecked]);
    expect(from("application/x+jsonl")).toEqual([unchecked]);
    expect(from(5)).toEqual([unchecked]);
  });

  it("contentEncoding is asserted whatever its value; a changed one is for a witness to show", () => {
    expect(asserted(string(), string({ contentEncoding: "base64" }))).toEqual([
      "content-changed /contentEncoding breaks/ok: contentEncoding added; asserted in this dialect (--assert-formats)",
    ]);
    expect(asserted(string({ contentEncoding: "base64" }), string())).toEqual([
      "content-changed /contentEncoding ok/breaks: contentEncoding removed; asserted in this dialect (--assert-formats)",
    ]);
    expect(asserted(string({ contentEncoding: "base64" }), string({ contentEncoding: "base32" }))).toEqual([
      "content-changed /contentEncoding breaks/breaks: contentEncoding changed; asserted in this dialect (--assert-formats)",
    ]);
  });

  it("constrains nothing on a side that holds no strings", () => {
    const int = { type: "integer" };
    expect(asserted({ ...int, contentEncoding: "base64" }, { ...int, contentEncoding: "base32" })).toEqual([
      "content-changed /contentEncoding ok/ok: contentEncoding changed; asserted in this dialect (--assert-formats)",
    ]);
  });

  it("a content keyword kept as it was is no change, asserted on both sides or on neither", () => {
    const kept = string({ contentEncoding: "base64", contentMediaType: "application/json" });
    expect(asserted({ ...kept, title: "a" }, { ...kept, title: "b" })).toEqual([
      "title-changed /title ok/ok: title changed; annotations do not affect validation",
    ]);
    expect(changes({ ...kept, title: "a" }, { ...kept, title: "b" })).toEqual([
      "title-changed /title ok/ok: title changed; annotations do not affect validation",
    ]);
  });

  it("contentSchema stays an annotation", () => {
    expect(
      asserted(string({ contentSchema: { type: "string" } }), string({ contentSchema: { type: "integer" } })),
    ).toEqual([
      "content-changed /contentSchema ok/ok: contentSchema changed; annotations do not affect validation",
    ]);
  });
});

describe("the same content keyword asserted on one side only (a dialect change under --assert-formats)", () => {
  // Each side is read under its own dialect: draft-07 asserts content, 2020-12 only annotates it, so
  // moving a schema from draft-07 to 2020-12 lets through strings OLD rejected (no JSON, no base64).
  // Until this was guarded the pair was reported ok both ways.
  const toModern =
    "dialect-changed /$schema ok/ok: dialect draft-07 -> 2020-12; each side is read under its own";
  const toDraft7 =
    "dialect-changed /$schema ok/ok: dialect 2020-12 -> draft-07; each side is read under its own";

  it("breaks forward when only OLD asserted it, backward when only NEW asserts it", () => {
    const json = string({ contentMediaType: "application/json" });
    expect(across(json, json, D7, D, assertFormats())).toEqual([
      toModern,
      "content-changed /contentMediaType ok/breaks: contentMediaType kept; asserted in OLD's dialect only (--assert-formats)",
    ]);
    expect(across(json, json, D, D7, assertFormats())).toEqual([
      toDraft7,
      "content-changed /contentMediaType breaks/ok: contentMediaType kept; asserted in NEW's dialect only (--assert-formats)",
    ]);
    const base64 = string({ contentEncoding: "base64" });
    expect(across(base64, base64, D7, D, assertFormats())).toEqual([
      toModern,
      "content-changed /contentEncoding ok/breaks: contentEncoding kept; asserted in OLD's dialect only (--assert-formats)",
    ]);
    expect(across(base64, base64, D, D7, assertFormats())).toEqual([
      toDraft7,
      "content-changed /contentEncoding breaks/ok: contentEncoding kept; asserted in NEW's dialect only (--assert-formats)",
    ]);
  });

  it("is never called compatible: no witness undoes the keyword alone, the dialect breaks with it", () => {
    const json = string({ contentMediaType: "application/json" });
    expect(across(json, json, D7, D, assertFormats(true))).toEqual([
      toModern,
      "content-changed /contentMediaType ok/undecided: contentMediaType kept; asserted in OLD's dialect only (--assert-formats); no witness found (no generated document that breaks is rejected because of this change)",
      "changes-combined  ok/breaks: a document NEW accepts and OLD rejects, though no one change alone is shown to reject it (content-changed at /contentMediaType); a witness proves forward breaks",
    ]);
  });

  it("a media type the engine does not check is no change, whichever dialect reads it", () => {
    const plain = string({ contentMediaType: "text/plain" });
    expect(across(plain, plain, D7, D, assertFormats())).toEqual([toModern]);
  });
});
