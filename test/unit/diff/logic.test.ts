// `not` and if/then/else as a reader of the report sees them (src/diff/logic.ts). Each case states the
// rule it guards and checks the kind, the path, both verdicts and the reason exactly. Witnesses are
// off: these are the engine's own verdicts, before a witness settles an `undecided` one.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas, type DiffOptions } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const changes = (old: object, next: object, options: DiffOptions = {}, dialect = D) =>
  diffSchemas(
    { $schema: dialect, ...old },
    { $schema: dialect, ...next },
    { witnesses: false, ...options },
  ).changes.map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`);
const S = { type: "string" };
const I = { type: "integer" };
const str = (more: object) => ({ type: "string", ...more });
const obj = (more: object = {}) => ({ type: "object", ...more });
const NOT_ADDED = "not-added /not %s/ok: NEW rejects documents matching its `not`";
const notAdded = (verdict: string) => NOT_ADDED.replace("%s", verdict);

describe("not", () => {
  it("compares two nots with the directions swapped", () => {
    expect(changes({ not: S }, { not: str({ maxLength: 3 }) })).toEqual([
      "max-length-added /not/maxLength ok/breaks: inside not, so the directions swap: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes({ not: str({ maxLength: 3 }) }, { not: S })).toEqual([
      "max-length-removed /not/maxLength breaks/ok: inside not, so the directions swap: maxLength 3 -> none: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("an added not is harmless when no document of OLD can match it", () => {
    expect(changes(S, { ...S, not: I })).toEqual([notAdded("ok")]);
    expect(changes(str({ pattern: "^b" }), { ...str({ pattern: "^b" }), not: { enum: ["a"] } })).toEqual([
      notAdded("ok"),
    ]);
    expect(changes(str({ minLength: 2 }), { ...str({ minLength: 2 }), not: { enum: ["a", 1] } })).toEqual([
      notAdded("ok"),
    ]);
  });

  it("a value it forbids is certainly valid under a side that is `true`", () => {
    const list = (old: unknown, next: unknown) =>
      diffSchemas(old, next, { witnesses: false }).changes.map(
        (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}`,
      );
    expect(list(true, { not: { const: "a" } })).toEqual(["not-added /not breaks/ok"]);
    expect(list({ not: { const: "a" } }, true)).toEqual(["not-removed /not ok/breaks"]);
  });

  it("an added not that matches everything breaks", () => {
    expect(changes(S, { ...S, not: {} })).toEqual([notAdded("breaks")]);
  });

  it("breaks when a value it forbids is certainly valid on both sides", () => {
    expect(changes(S, { ...S, not: { enum: ["a"] } })).toEqual([notAdded("breaks")]);
    expect(changes({}, { not: { const: "a" } })).toEqual([notAdded("breaks")]);
    expect(changes({}, { not: { enum: [null] } })).toEqual([notAdded("breaks")]);
    expect(changes(S, { ...S, not: { enum: ["a", "b"], maxLength: 1 } })).toEqual([notAdded("breaks")]);
  });

  it("is undecided when no forbidden value is certainly valid: objects, branches, asserted formats", () => {
    expect(changes({}, { not: { enum: [{ a: 1 }] } })).toEqual([notAdded("undecided")]);
    expect(changes(S, { ...S, not: str({ maxLength: 3 }) })).toEqual([notAdded("undecided")]);
    expect(changes(S, { ...S, not: { enum: ["a"], anyOf: [S, I] } })).toEqual([notAdded("undecided")]);
    expect(changes(S, { ...S, not: { enum: ["a"], not: I } })).toEqual([notAdded("undecided")]);
    expect(changes({ anyOf: [S] }, { anyOf: [S], not: { enum: ["a"] } })).toEqual([notAdded("undecided")]);
  });

  it("a format or content keyword counts only where formats are asserted", () => {
    const asserting = { compiler: new SchemaCompiler({ assertFormats: true }) };
    const email = { ...S, not: { enum: ["a"], format: "email" } };
    expect(changes(S, email, {}, D7)).toEqual([notAdded("breaks")]);
    expect(changes(S, email, asserting, D7)).toEqual([notAdded("undecided")]);
    const source = str({ format: "email" });
    expect(changes(source, { ...source, not: { enum: ["a@b.c"] } }, asserting, D7)).toEqual([
      notAdded("undecided"),
    ]);
    expect(changes(source, { ...source, not: { enum: ["a@b.c"] } }, {}, D7)).toEqual([notAdded("breaks")]);
    for (const content of [{ contentMediaType: "application/json" }, { contentEncoding: "base64" }]) {
      const media = { ...S, not: { enum: ["a"], ...content } };
      expect(changes(S, media, asserting, D7)).toEqual([notAdded("undecided")]);
      expect(changes(S, media, {}, D7)).toEqual([notAdded("breaks")]);
    }
  });

  it("a dropped not breaks forward by the same rules", () => {
    expect(changes({ ...S, not: str({ maxLength: 3 }) }, S)).toEqual([
      "not-removed /not ok/undecided: NEW accepts documents OLD's `not` rejected",
    ]);
    expect(changes({ ...S, not: I }, S)).toEqual([
      "not-removed /not ok/ok: NEW accepts documents OLD's `not` rejected",
    ]);
    expect(changes({ ...S, not: { enum: ["a"] } }, S)).toEqual([
      "not-removed /not ok/breaks: NEW accepts documents OLD's `not` rejected",
    ]);
  });
});

describe("if/then/else added, dropped or changed", () => {
  const ifA = { if: { required: ["a"] } };
  it("a condition whose branches accept everything changes nothing", () => {
    expect(changes(obj(), obj(ifA))).toEqual(["if-added /if ok/ok: NEW adds an if/then/else condition"]);
    expect(changes(obj({ ...ifA, then: {} }), obj())).toEqual([
      "if-removed /if ok/ok: NEW drops OLD's if/then/else condition",
    ]);
    expect(changes(obj({ ...ifA, then: true }), obj({ if: { required: ["c"] }, else: {} }))).toEqual([
      "if-changed /if ok/ok: the `if` condition changed, so documents move between `then` and `else`",
    ]);
  });

  it("is undecided unless every document of the other side satisfies its branches", () => {
    const then = { ...ifA, then: { required: ["b"] } };
    expect(changes(obj(), obj(then))).toEqual([
      "if-added /if undecided/ok: NEW adds an if/then/else condition",
    ]);
    expect(changes(obj({ required: ["b"] }), obj({ required: ["b"], ...then }))).toEqual([
      "if-added /if ok/ok: NEW adds an if/then/else condition",
    ]);
    expect(changes(obj(then), obj())).toEqual([
      "if-removed /if ok/undecided: NEW drops OLD's if/then/else condition",
    ]);
    expect(changes(obj({ required: ["b"], ...then }), obj({ required: ["b"] }))).toEqual([
      "if-removed /if ok/ok: NEW drops OLD's if/then/else condition",
    ]);
    const other = { if: { required: ["c"] }, then: { required: ["b"] } };
    expect(changes(obj(then), obj(other))).toEqual([
      "if-changed /if undecided/undecided: the `if` condition changed, so documents move between `then` and `else`",
    ]);
    expect(changes(obj({ required: ["b"], ...then }), obj({ required: ["b"], ...other }))).toEqual([
      "if-changed /if ok/ok: the `if` condition changed, so documents move between `then` and `else`",
    ]);
  });

  it("a condition narrowed or widened, not only rewritten, moves documents between the branches", () => {
    const then = { then: { required: ["b"] } };
    const narrow = { if: { required: ["a", "c"] }, ...then };
    const moved =
      "if-changed /if undecided/undecided: the `if` condition changed, so documents move between `then` and `else`";
    expect(changes(obj({ ...ifA, ...then }), obj(narrow))).toEqual([moved]);
    expect(changes(obj(narrow), obj({ ...ifA, ...then }))).toEqual([moved]);
  });

  it("the branches are checked against the other side's documents, not their own side's", () => {
    // NEW's documents all hold NEW's `then` (NEW requires b); OLD's need not.
    const then = { then: { required: ["b"] } };
    const held = obj({ required: ["b"], ...ifA, ...then });
    expect(changes(obj(), held)).toEqual([
      'required-added /required/0 breaks/ok: NEW requires "b"; OLD documents without it fail NEW',
      "if-added /if undecided/ok: NEW adds an if/then/else condition",
    ]);
    expect(changes(held, obj())).toEqual([
      'required-removed /required/0 ok/breaks: NEW no longer requires "b"; NEW documents without it fail OLD',
      "if-removed /if ok/undecided: NEW drops OLD's if/then/else condition",
    ]);
    const other = obj({ required: ["b"], if: { required: ["c"] }, ...then });
    expect(changes(obj({ ...ifA, ...then }), other)).toEqual([
      'required-added /required/0 breaks/ok: NEW requires "b"; OLD documents without it fail NEW',
      "if-changed /if undecided/ok: the `if` condition changed, so documents move between `then` and `else`",
    ]);
    expect(changes(other, obj({ ...ifA, ...then }))).toEqual([
      'required-removed /required/0 ok/breaks: NEW no longer requires "b"; NEW documents without it fail OLD',
      "if-changed /if ok/undecided: the `if` condition changed, so documents move between `then` and `else`",
    ]);
  });

  it("then read with if keeps the enclosing object's rules: a property it closes never arrives", () => {
    // The conditional sits in an allOf branch; the enclosing object admits only `a`, so `then`'s `p`
    // is never present and only its `required` matters, which `if` already demands.
    const closed = (branch: object) =>
      obj({ properties: { a: {} }, additionalProperties: false, allOf: [branch] });
    const conditional = { ...ifA, then: { required: ["a"], properties: { p: S } } };
    expect(changes(closed({}), closed(conditional))).toEqual([
      "if-added /allOf/0/if ok/ok: NEW adds an if/then/else condition",
    ]);
    expect(changes(closed(conditional), closed({}))).toEqual([
      "if-removed /allOf/0/if ok/ok: NEW drops OLD's if/then/else condition",
    ]);
  });

  it("a branch binds only where it applies: then never when the side excludes if, else never when all pass it", () => {
    const never = { properties: { b: {} }, additionalProperties: false };
    expect(changes(obj(never), obj({ ...never, ...ifA, then: { required: ["b"] } }))).toEqual([
      "if-added /if ok/ok: NEW adds an if/then/else condition",
    ]);
    expect(
      changes(obj({ required: ["a"] }), obj({ required: ["a"], ...ifA, else: { required: ["b"] } })),
    ).toEqual(["if-added /if ok/ok: NEW adds an if/then/else condition"]);
    // then binds the documents that pass if: read together with it, a then that repeats it holds.
    const repeat = { ...ifA, then: { required: ["a"] } };
    expect(changes(obj(), obj(repeat))).toEqual(["if-added /if ok/ok: NEW adds an if/then/else condition"]);
    expect(changes(obj(repeat), obj())).toEqual([
      "if-removed /if ok/ok: NEW drops OLD's if/then/else condition",
    ]);
  });
});

describe("then and else under an unchanged condition", () => {
  const ifA = { if: { required: ["a"] } };
  it("added or dropped, each breaks the direction whose documents it binds", () => {
    expect(changes(obj(ifA), obj({ ...ifA, then: { required: ["b"] } }))).toEqual([
      "then-added /then breaks/ok: NEW adds a `then` constraint",
    ]);
    expect(changes(obj({ ...ifA, then: { required: ["b"] } }), obj(ifA))).toEqual([
      "then-removed /then ok/breaks: NEW drops OLD's `then` constraint",
    ]);
    expect(changes(obj(ifA), obj({ ...ifA, else: { required: ["b"] } }))).toEqual([
      "else-added /else breaks/ok: NEW adds a `else` constraint",
    ]);
    expect(changes(obj({ ...ifA, else: { required: ["b"] } }), obj(ifA))).toEqual([
      "else-removed /else ok/breaks: NEW drops OLD's `else` constraint",
    ]);
  });

  it("else is not read with if: an else that repeats the condition rejects every document it binds", () => {
    expect(changes(obj(ifA), obj({ ...ifA, else: { required: ["a"] } }))).toEqual([
      "else-added /else breaks/ok: NEW adds a `else` constraint",
    ]);
    expect(changes(obj({ ...ifA, else: { required: ["a"] } }), obj(ifA))).toEqual([
      "else-removed /else ok/breaks: NEW drops OLD's `else` constraint",
    ]);
  });

  it("a then that accepts everything is no constraint", () => {
    const same = "equivalent-rewrite  ok/ok: the documents differ but accept the same instances";
    expect(changes(obj(ifA), obj({ ...ifA, then: {} }))).toEqual([same]);
    expect(changes(obj({ ...ifA, else: true }), obj(ifA))).toEqual([same]);
  });

  it("then is read with if: a then that repeats the condition adds nothing", () => {
    expect(changes(obj(ifA), obj({ ...ifA, then: { required: ["a"] } }))).toEqual([
      "then-added /then ok/ok: NEW adds a `then` constraint",
    ]);
    expect(changes(obj({ ...ifA, then: { required: ["a"] } }), obj(ifA))).toEqual([
      "then-removed /then ok/ok: NEW drops OLD's `then` constraint",
    ]);
  });

  it("a branch idle on a side: then when it excludes if, else when every document passes it", () => {
    const never = { properties: { a: false }, ...ifA };
    expect(changes(obj(never), obj({ ...never, then: { required: ["b"] } }))).toEqual([
      "then-added /then ok/ok: NEW adds a `then` constraint",
    ]);
    expect(changes(obj({ ...never, then: { required: ["b"] } }), obj(never))).toEqual([
      "then-removed /then ok/ok: NEW drops OLD's `then` constraint",
    ]);
    const always = { required: ["a"], ...ifA };
    expect(changes(obj(always), obj({ ...always, else: { required: ["b"] } }))).toEqual([
      "else-added /else ok/ok: NEW adds a `else` constraint",
    ]);
    expect(changes(obj({ ...always, else: { required: ["b"] } }), obj(always))).toEqual([
      "else-removed /else ok/ok: NEW drops OLD's `else` constraint",
    ]);
  });

  it("a branch changed is compared as a branch, with the keywords its node repeats proven", () => {
    expect(
      changes(obj({ ...ifA, then: { required: ["b"] } }), obj({ ...ifA, then: { required: ["b", "c"] } })),
    ).toEqual([
      'required-added /then/required/1 breaks/ok: NEW requires "c"; OLD documents without it fail NEW',
    ]);
    const b = { required: ["b"], ...ifA };
    expect(
      changes(
        obj({ ...b, then: { maxProperties: 3 } }),
        obj({ ...b, then: { maxProperties: 3, required: ["b"] } }),
      ),
    ).toEqual(['required-added /then/required/0 ok/ok: NEW requires "b"; OLD documents without it fail NEW']);
    expect(
      changes(
        obj({ ...b, then: { maxProperties: 3, required: ["b"] } }),
        obj({ ...b, then: { maxProperties: 3 } }),
      ),
    ).toEqual([
      'required-removed /then/required/0 ok/ok: NEW no longer requires "b"; NEW documents without it fail OLD',
    ]);
  });

  it("a branch's changes are proven together: an annotation beside them does not exempt the rest", () => {
    const b = { required: ["b"], ...ifA };
    expect(
      changes(
        obj({ ...b, then: { maxProperties: 3 } }),
        obj({ ...b, then: { maxProperties: 3, required: ["b"], title: "t" } }),
      ),
    ).toEqual([
      "title-changed /then/title ok/ok: title added; annotations do not affect validation",
      'required-added /then/required/0 ok/ok: NEW requires "b"; OLD documents without it fail NEW',
    ]);
  });
});

describe("conditionals: annotations, one trivial side, else, and not without a finite set", () => {
  const ifA = { if: { required: ["a"] } };
  const then = { then: { required: ["b"] } };
  it("an annotation edited in if or then is that change alone", () => {
    expect(changes(obj({ ...ifA, ...then }), obj({ if: { required: ["a"], title: "t" }, ...then }))).toEqual([
      "title-changed /if/title ok/ok: title added; annotations do not affect validation",
    ]);
    expect(changes(obj({ ...ifA, ...then }), obj({ ...ifA, then: { required: ["b"], title: "t" } }))).toEqual(
      ["title-changed /then/title ok/ok: title added; annotations do not affect validation"],
    );
  });

  it("a changed condition is ok in the direction whose target's branches accept everything", () => {
    const other = { if: { required: ["c"] }, ...then };
    expect(changes(obj({ ...ifA, then: true }), obj(other))).toEqual([
      "if-changed /if undecided/ok: the `if` condition changed, so documents move between `then` and `else`",
    ]);
    expect(changes(obj(other), obj({ ...ifA, then: true }))).toEqual([
      "if-changed /if ok/undecided: the `if` condition changed, so documents move between `then` and `else`",
    ]);
  });

  it("an else binds the documents that fail if", () => {
    expect(changes(obj(), obj({ ...ifA, else: { required: ["b"] } }))).toEqual([
      "if-added /if undecided/ok: NEW adds an if/then/else condition",
    ]);
    expect(changes(obj({ ...ifA, else: { required: ["b"] } }), obj())).toEqual([
      "if-removed /if ok/undecided: NEW drops OLD's if/then/else condition",
    ]);
  });

  it("asserted formats change nothing for a not without format or content", () => {
    const asserting = { compiler: new SchemaCompiler({ assertFormats: true }) };
    expect(changes(S, { ...S, not: { enum: ["a"] } }, asserting, D7)).toEqual([notAdded("breaks")]);
  });

  it("a not without a finite set of values is undecided unless disjoint (a witness settles it)", () => {
    const both = { type: ["string", "integer"] };
    expect(changes(both, { ...both, not: S })).toEqual([notAdded("undecided")]);
  });
});
