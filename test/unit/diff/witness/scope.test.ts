// The ways a document can satisfy a schema, as the witness search walks them
// (src/diff/witness/scope.ts): `allOf` and `$ref` inlined, one branch of each choice at a time, and
// the hints (every view through any branch) and steers (what `not`/`if` test, two `oneOf` branches at
// once) that aim documents at the other version's edges. Each scope is shown as the pointers of its
// schemas ("" is the root).
import { describe, expect, it } from "vitest";
import { expand, hintsOf } from "../../../../src/diff/witness/scope.js";
import { load } from "./load.js";

const scopes = (schema: object): string[][] => {
  const { model, old } = load(schema);
  return expand(model, [old.root]).map((scope) => {
    expect(scope.views.map((v) => v.loc.ptr)).toEqual(scope.locs.map((l) => l.ptr));
    return scope.locs.map((l) => l.ptr);
  });
};
const hints = (schema: object) => {
  const { model, old } = load(schema);
  const found = hintsOf(model, [old.root]);
  return { views: found.views.map((v) => v.loc.ptr), steers: found.steers.map((s) => s.map((l) => l.ptr)) };
};

describe("expand: one scope per way through the choices", () => {
  it("a schema without choices is one scope", () => {
    expect(scopes({ type: "string" })).toEqual([[""]]);
  });

  it("each branch of an anyOf or oneOf is a scope of its own", () => {
    expect(scopes({ anyOf: [{ type: "string" }, { type: "integer" }] })).toEqual([
      ["", "/anyOf/0"],
      ["", "/anyOf/1"],
    ]);
  });

  it("several choices: the first branch of each, then each other branch of one choice at a time", () => {
    expect(
      scopes({
        oneOf: [{ type: "string" }, { type: "integer" }, {}],
        anyOf: [{ minimum: 1 }, { maximum: 0 }],
      }),
    ).toEqual([
      ["", "/anyOf/0", "/oneOf/0"],
      ["", "/anyOf/1", "/oneOf/0"],
      ["", "/anyOf/0", "/oneOf/1"],
      ["", "/anyOf/0", "/oneOf/2"],
    ]);
  });

  it("if/then/else: the `if` with its `then`, or the `else`; a missing branch adds nothing", () => {
    expect(scopes({ if: { type: "string" }, then: { minLength: 1 }, else: { type: "integer" } })).toEqual([
      ["", "/if", "/then"],
      ["", "/else"],
    ]);
    expect(scopes({ if: { type: "string" } })).toEqual([["", "/if"], [""]]);
  });

  it("a branch that is `false` gives no scope; a `false` in allOf gives none at all", () => {
    expect(scopes({ if: { type: "string" }, else: false })).toEqual([["", "/if"]]);
    expect(scopes({ allOf: [{ type: "string" }, false] })).toEqual([]);
    expect(scopes({ anyOf: [false, { type: "string" }] })).toEqual([["", "/anyOf/1"]]);
  });

  it("allOf and $ref are inlined; a schema reached twice counts once", () => {
    expect(scopes({ allOf: [{ type: "string" }, { type: "string" }] })).toEqual([
      ["", "/allOf/0", "/allOf/1"],
    ]);
    expect(scopes({ allOf: [{ $ref: "#/$defs/a" }], $defs: { a: { minLength: 2 } } })).toEqual([
      ["", "/$defs/a"],
    ]);
    expect(scopes({ $ref: "#/$defs/a", maxLength: 3, $defs: { a: { minLength: 2 } } })).toEqual([
      ["", "/$defs/a"],
    ]);
    const twice = { allOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/a" }], $defs: { a: { minLength: 2 } } };
    expect(scopes(twice)).toEqual([["", "/$defs/a"]]);
    const cycle = { $ref: "#/$defs/a", $defs: { a: { allOf: [{ $ref: "#" }], minLength: 1 } } };
    expect(scopes(cycle)).toEqual([["/$defs/a"]]);
  });

  it("a choice inside a branch is expanded with it", () => {
    expect(scopes({ anyOf: [{ anyOf: [{ minimum: 1 }, { maximum: 0 }] }, { type: "string" }] })).toEqual([
      ["", "/anyOf/0", "/anyOf/0/anyOf/0"],
      ["", "/anyOf/0", "/anyOf/0/anyOf/1"],
      ["", "/anyOf/1"],
    ]);
  });

  it("other branches are tried three choices deep; below that only the first", () => {
    const nested = {
      anyOf: [{ anyOf: [{ anyOf: [{ anyOf: [{}, { a: 1 }] }, { b: 1 }] }, { c: 1 }] }, { d: 1 }],
    };
    const a = "/anyOf/0";
    expect(scopes({ allOf: [nested] }).map((s) => s.slice(2).join(" "))).toEqual([
      `/allOf/0${a} /allOf/0${a}${a} /allOf/0${a}${a}${a} /allOf/0${a}${a}${a}${a}`,
      `/allOf/0${a} /allOf/0${a}${a} /allOf/0${a}${a}/anyOf/1`,
      `/allOf/0${a} /allOf/0${a}/anyOf/1`,
      "/allOf/0/anyOf/1",
    ]);
  });

  it("at most 12 scopes", () => {
    const seven = { anyOf: Array.from({ length: 7 }, (_, i) => ({ minimum: i })) };
    const found = scopes({ allOf: [seven, structuredClone(seven)] });
    expect(found.length).toBe(12);
    expect(found.map((s) => s.slice(3).join(" "))).toEqual([
      ...[0, 1, 2, 3, 4, 5, 6].map((i) => `/allOf/0/anyOf/${i} /allOf/1/anyOf/0`),
      ...[1, 2, 3, 4, 5].map((i) => `/allOf/0/anyOf/0 /allOf/1/anyOf/${i}`),
    ]);
  });
  it("the twelfth scope is the first way through a branch that has several", () => {
    const plain = Array.from({ length: 11 }, (_, i) => ({ const: i }));
    const last = { anyOf: [{ const: 12 }, { const: 13 }, { const: 14 }] };
    const found = scopes({ anyOf: [...plain, last] });
    expect(found).toEqual([
      ...plain.map((_, i) => ["", `/anyOf/${i}`]),
      ["", "/anyOf/11", "/anyOf/11/anyOf/0"],
    ]);
  });
});

describe("hintsOf: every view through any branch, and the schemas worth satisfying on purpose", () => {
  it("a plain schema is its own hint and steers nowhere", () => {
    expect(hints({ type: "string" })).toEqual({ views: [""], steers: [] });
  });

  it("follows anyOf, then and else; steers to what `not` forbids and what `if` tests", () => {
    const schema = {
      anyOf: [{ type: "string" }, { type: "integer" }],
      not: { const: 1 },
      if: { minimum: 1 },
      then: { maximum: 2 },
      else: { maximum: 3 },
    };
    expect(hints(schema)).toEqual({
      views: ["", "/anyOf/0", "/anyOf/1", "/then", "/else"],
      steers: [["/not"], ["/if"]],
    });
  });

  it("steers to two oneOf branches at once, at most 12 pairs", () => {
    const found = hints({ oneOf: [{}, { a: 1 }, { b: 1 }, { c: 1 }, { d: 1 }, { e: 1 }] });
    expect(found.views).toEqual(["", "/oneOf/0", "/oneOf/1", "/oneOf/2", "/oneOf/3", "/oneOf/4", "/oneOf/5"]);
    const o = (i: number) => `/oneOf/${i}`;
    expect(found.steers).toEqual([
      [o(0), o(1)],
      [o(0), o(2)],
      [o(0), o(3)],
      [o(0), o(4)],
      [o(0), o(5)],
      [o(1), o(2)],
      [o(1), o(3)],
      [o(1), o(4)],
      [o(1), o(5)],
      [o(2), o(3)],
      [o(2), o(4)],
      [o(2), o(5)],
    ]);
    // Seven branches: the twelfth pair is in the middle of a row.
    const seven = hints({ oneOf: Array.from({ length: 7 }, (_, i) => ({ const: i })) }).steers;
    expect(seven.map((pair) => pair.map((p) => Number(p.slice(7))))).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [0, 6],
      [1, 2],
      [1, 3],
      [1, 4],
      [1, 5],
      [1, 6],
      [2, 3],
    ]);
    expect(hints({ oneOf: [{ a: 1 }, { b: 1 }, { c: 1 }] }).steers).toEqual([
      [o(0), o(1)],
      [o(0), o(2)],
      [o(1), o(2)],
    ]);
  });

  it("at most 32 views; allOf and $ref are followed, a schema reached twice counts once", () => {
    const wide = hints({ allOf: Array.from({ length: 40 }, (_, i) => ({ minimum: i })) });
    expect(wide.views).toEqual(["", ...Array.from({ length: 31 }, (_, i) => `/allOf/${i}`)]);
    expect(hints({ $ref: "#/$defs/a", $defs: { a: { minLength: 2 } } }).views).toEqual(["/$defs/a"]);
    expect(hints({ $ref: "#/$defs/a", maxLength: 1, $defs: { a: { minLength: 2 } } }).views).toEqual([
      "",
      "/$defs/a",
    ]);
    const twice = { anyOf: [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/a" }], $defs: { a: { minLength: 2 } } };
    expect(hints(twice).views).toEqual(["", "/$defs/a"]);
    expect(hints({ anyOf: [true, false, { minimum: 1 }] }).views).toEqual(["", "/anyOf/2"]);
  });
});

describe("expand: conditionals side by side", () => {
  it("after the first branch of each, every `else` at once, then one `then` at a time", () => {
    const when = (value: string) => ({
      if: { properties: { kind: { const: value } }, required: ["kind"] },
      then: { required: [value] },
    });
    // Each `if` tests kind for another value: taking two `then`s at once fits no document.
    expect(scopes({ allOf: [when("a"), when("b")] })).toEqual([
      ["", "/allOf/0", "/allOf/1", "/allOf/0/if", "/allOf/0/then", "/allOf/1/if", "/allOf/1/then"],
      ["", "/allOf/0", "/allOf/1"],
      ["", "/allOf/0", "/allOf/1", "/allOf/0/if", "/allOf/0/then"],
      ["", "/allOf/0", "/allOf/1", "/allOf/1/if", "/allOf/1/then"],
      ["", "/allOf/0", "/allOf/1", "/allOf/1/if", "/allOf/1/then"],
      ["", "/allOf/0", "/allOf/1", "/allOf/0/if", "/allOf/0/then"],
    ]);
    // One conditional alone keeps its two ways.
    expect(scopes(when("a"))).toEqual([["", "/if", "/then"], [""]]);
  });
});
