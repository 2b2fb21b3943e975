// The string keywords' changes as a reader of the report sees them (src/diff/strings.ts): minLength,
// maxLength, pattern and format. Each case states the rule it guards and checks the kind, the path,
// both verdicts and the reason exactly.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas, type DiffOptions } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const show = (old: object, next: object, options: DiffOptions = {}, dialect = D) =>
  diffSchemas({ $schema: dialect, ...old }, { $schema: dialect, ...next }, options).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const changes = (old: object, next: object) => show(old, next);
// The rule's own verdict, before a witness search turns a `breaks` it cannot prove into `undecided`.
const rules = (old: object, next: object) => show(old, next, { witnesses: false });
// Formats are assertions only in drafts 04 to 07 with --assert-formats.
const asserted = (old: object, next: object, witnesses = true) =>
  show(old, next, { compiler: new SchemaCompiler({ assertFormats: true }), witnesses }, D7);
const string = (more: object = {}) => ({ type: "string", ...more });
const values = (list: unknown[], more: object = {}) => ({ enum: list, ...more });

describe("minLength and maxLength", () => {
  it("a tighter length breaks backward, a looser one forward, named on both sides", () => {
    expect(changes(string(), string({ minLength: 2 }))).toEqual([
      "min-length-added /minLength breaks/ok: minLength none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes(string({ maxLength: 3 }), string({ maxLength: 5 }))).toEqual([
      "max-length-increased /maxLength ok/breaks: maxLength 3 -> 5: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("is settled by the values of an enum, counting code points, never failing a non-string", () => {
    expect(changes(values(["ab", "abc", 1]), values(["ab", "abc", 1], { minLength: 2 }))).toEqual([
      "min-length-added /minLength ok/ok: minLength none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes(values(["ab", "abc", 1]), values(["ab", "abc", 1], { maxLength: 2 }))).toEqual([
      "max-length-added /maxLength breaks/ok: maxLength none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes(values(["ab", 1], { maxLength: 2 }), values(["ab", 1]))).toEqual([
      "max-length-removed /maxLength ok/ok: maxLength 2 -> none: a looser limit accepts documents OLD rejected",
    ]);
    expect(changes(values(["ab", "abc"], { minLength: 3 }), values(["ab", "abc"]))).toEqual([
      "min-length-removed /minLength ok/breaks: minLength 3 -> none: a looser limit accepts documents OLD rejected",
    ]);
    // Two astral characters are four UTF-16 units but two code points, as ajv counts them.
    expect(changes(values(["ab", "😀😀", 1]), values(["ab", "😀😀", 1], { maxLength: 2 }))).toEqual([
      "max-length-added /maxLength ok/ok: maxLength none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
  });
});

describe("pattern", () => {
  it("adding one breaks backward, removing one breaks forward", () => {
    expect(changes(string(), string({ pattern: "^a" }))).toEqual([
      "pattern-added /pattern breaks/ok: NEW requires strings to match /^a/",
    ]);
    expect(changes(string({ pattern: "^a" }), string())).toEqual([
      "pattern-removed /pattern ok/breaks: OLD required strings to match /^a/",
    ]);
  });

  it("one that matches every string constrains nothing", () => {
    expect(changes(string(), string({ pattern: ".*" }))).toEqual([
      "pattern-added /pattern ok/ok: NEW requires strings to match /.*/",
    ]);
    expect(changes(string({ pattern: ".*" }), string())).toEqual([
      "pattern-removed /pattern ok/ok: OLD required strings to match /.*/",
    ]);
  });

  it("constrains nothing on a side that holds no strings", () => {
    expect(changes({ type: "integer" }, { type: "integer", pattern: "^a" })).toEqual([
      "pattern-added /pattern ok/ok: NEW requires strings to match /^a/",
    ]);
    expect(changes({ type: "integer", pattern: "^a" }, { type: "integer" })).toEqual([
      "pattern-removed /pattern ok/ok: OLD required strings to match /^a/",
    ]);
  });

  it("is settled by the strings of an enum; a non-string always passes", () => {
    const match = ["ab", "ac", 1];
    expect(changes(values(match), values(match, { pattern: "^a" }))).toEqual([
      "pattern-added /pattern ok/ok: NEW requires strings to match /^a/",
    ]);
    expect(changes(values(match, { pattern: "^a" }), values(match))).toEqual([
      "pattern-removed /pattern ok/ok: OLD required strings to match /^a/",
    ]);
    const some = ["ab", "bc", 1];
    expect(changes(values(some), values(some, { pattern: "^a" }))).toEqual([
      "pattern-added /pattern breaks/ok: NEW requires strings to match /^a/",
    ]);
  });

  it("a changed one is undecided each way unless it matches everything or the values settle it", () => {
    expect(rules(string({ pattern: "^a" }), string({ pattern: "^b" }))).toEqual([
      "pattern-changed /pattern undecided/undecided: pattern /^a/ -> /^b/: regular expressions are not compared for inclusion",
    ]);
    expect(rules(string({ pattern: "^a" }), string({ pattern: ".*" }))).toEqual([
      "pattern-changed /pattern ok/undecided: pattern /^a/ -> /.*/: regular expressions are not compared for inclusion",
    ]);
    expect(rules(string({ pattern: ".*" }), string({ pattern: "^a" }))).toEqual([
      "pattern-changed /pattern undecided/ok: pattern /.*/ -> /^a/: regular expressions are not compared for inclusion",
    ]);
    const list = ["ab", "ac", 1];
    expect(rules(values(list, { pattern: "^a" }), values(list, { pattern: "^[ab]" }))).toEqual([
      "pattern-changed /pattern ok/ok: pattern /^a/ -> /^[ab]/: regular expressions are not compared for inclusion",
    ]);
    expect(rules(values(list, { pattern: "^a" }), values(list, { pattern: "^ab" }))).toEqual([
      "pattern-changed /pattern breaks/ok: pattern /^a/ -> /^ab/: regular expressions are not compared for inclusion",
    ]);
  });

  it("a witness turns an undecided changed pattern into a proven break", () => {
    expect(changes(string({ pattern: "^a" }), string({ pattern: "^b" }))).toEqual([
      "pattern-changed /pattern breaks/breaks: pattern /^a/ -> /^b/: regular expressions are not compared for inclusion; a witness proves backward breaks; a witness proves forward breaks",
    ]);
  });
});

describe("format where formats are annotations", () => {
  it("any change is ok both ways and says why, with none for an absent side", () => {
    const why = "an annotation here (formats are asserted only in drafts 04 to 07 with --assert-formats)";
    expect(changes(string(), string({ format: "email" }))).toEqual([
      `format-added /format ok/ok: format none -> email: ${why}`,
    ]);
    expect(changes(string({ format: "email" }), string())).toEqual([
      `format-removed /format ok/ok: format email -> none: ${why}`,
    ]);
    expect(changes(string({ format: "email" }), string({ format: "uri" }))).toEqual([
      `format-changed /format ok/ok: format email -> uri: ${why}`,
    ]);
  });

  it("draft-07 without --assert-formats is an annotation too", () => {
    expect(show(string(), string({ format: "email" }), {}, D7)).toEqual([
      "format-added /format ok/ok: format none -> email: an annotation here (formats are asserted only in drafts 04 to 07 with --assert-formats)",
    ]);
  });
});

describe("format where it is asserted (draft-07, --assert-formats)", () => {
  it("adding one breaks backward, removing one breaks forward", () => {
    expect(asserted(string(), string({ format: "email" }))).toEqual([
      "format-added /format breaks/ok: NEW asserts format email",
    ]);
    expect(asserted(string({ format: "email" }), string())).toEqual([
      "format-removed /format ok/breaks: OLD asserted format email",
    ]);
  });

  it("a number format constrains numbers", () => {
    expect(asserted({ type: "number" }, { type: "number", format: "int32" })).toEqual([
      "format-added /format breaks/ok: NEW asserts format int32",
    ]);
  });

  it("constrains nothing on a side with neither strings nor numbers", () => {
    const bool = { type: "boolean" };
    expect(asserted(bool, { ...bool, format: "email" })).toEqual([
      "format-added /format ok/ok: NEW asserts format email",
    ]);
    expect(asserted({ ...bool, format: "email" }, bool)).toEqual([
      "format-removed /format ok/ok: OLD asserted format email",
    ]);
    expect(asserted({ ...bool, format: "email" }, { ...bool, format: "uri" })).toEqual([
      "format-changed /format ok/ok: format email -> uri: formats are not compared structurally",
    ]);
  });

  it("a changed one is undecided each way; a witness proves each break", () => {
    expect(asserted(string({ format: "email" }), string({ format: "uri" }), false)).toEqual([
      "format-changed /format undecided/undecided: format email -> uri: formats are not compared structurally",
    ]);
    expect(asserted(string({ format: "email" }), string({ format: "uri" }))).toEqual([
      "format-changed /format breaks/breaks: format email -> uri: formats are not compared structurally; a witness proves backward breaks; a witness proves forward breaks",
    ]);
  });
});

describe("the same format asserted on one side only (a dialect change under --assert-formats)", () => {
  // Each side is read under its own dialect: draft-07 asserts `format`, 2020-12 only annotates it, so
  // moving a schema from draft-07 to 2020-12 lets through strings OLD rejected ("x" is no email).
  // Until this was guarded the pair was reported ok both ways.
  const across = (old: object, next: object, oldDialect: string, newDialect: string, witnesses = false) =>
    diffSchemas(
      { $schema: oldDialect, ...old },
      { $schema: newDialect, ...next },
      {
        compiler: new SchemaCompiler({ assertFormats: true }),
        witnesses,
      },
    ).changes.map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`);
  const toModern =
    "dialect-changed /$schema ok/ok: dialect draft-07 -> 2020-12; each side is read under its own";
  const toDraft7 =
    "dialect-changed /$schema ok/ok: dialect 2020-12 -> draft-07; each side is read under its own";

  it("breaks forward when only OLD asserted it, backward when only NEW asserts it", () => {
    const email = string({ format: "email" });
    expect(across(email, email, D7, D)).toEqual([
      toModern,
      "format-removed /format ok/breaks: OLD asserted format email",
    ]);
    expect(across(email, email, D, D7)).toEqual([
      toDraft7,
      "format-added /format breaks/ok: NEW asserts format email",
    ]);
  });

  it("is never called compatible: no witness undoes the format alone, the dialect breaks with it", () => {
    const email = string({ format: "email" });
    expect(across(email, email, D7, D, true)).toEqual([
      toModern,
      "format-removed /format ok/undecided: OLD asserted format email; no witness found (no generated document that breaks is rejected because of this change)",
      "changes-combined  ok/breaks: a document NEW accepts and OLD rejects, though no one change alone is shown to reject it (format-removed at /format); a witness proves forward breaks",
    ]);
  });

  it("a format that differs is judged by what each side asserts", () => {
    expect(across(string({ format: "email" }), string({ format: "uri" }), D, D7)).toEqual([
      toDraft7,
      "format-added /format breaks/ok: NEW asserts format uri",
    ]);
    expect(across(string({ format: "email" }), string({ format: "uri" }), D7, D)).toEqual([
      toModern,
      "format-removed /format ok/breaks: OLD asserted format email",
    ]);
  });
});
