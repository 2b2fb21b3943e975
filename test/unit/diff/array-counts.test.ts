// Counts over an array's items as a reader of the report sees them (src/diff/arrays.ts with
// src/diff/limits.ts): minItems/maxItems, uniqueItems, contains with minContains/maxContains. Each case
// states the rule it guards and checks the kind, the path, both verdicts and the reason exactly.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const show = (old: object, next: object, witnesses: boolean) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }, { witnesses }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const changes = (old: object, next: object) => show(old, next, true);
// The rule's own verdict, before a witness search turns a `breaks` it cannot prove into `undecided`.
const rules = (old: object, next: object) => show(old, next, false);
const array = (more: object = {}) => ({ type: "array", ...more });
const values = (list: unknown[], more: object = {}) => ({ enum: list, ...more });

describe("minItems and maxItems", () => {
  it("a tighter count breaks backward, a looser one forward, with both values named", () => {
    expect(changes(array({ minItems: 1 }), array({ minItems: 2 }))).toEqual([
      "min-items-increased /minItems breaks/ok: minItems 1 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes(array({ minItems: 1 }), array())).toEqual([
      "min-items-removed /minItems ok/breaks: minItems 1 -> none: a looser limit accepts documents OLD rejected",
    ]);
    expect(changes(array({ maxItems: 3 }), array({ maxItems: 2 }))).toEqual([
      "max-items-decreased /maxItems breaks/ok: maxItems 3 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes(array({ maxItems: 0 }), array())).toEqual([
      "max-items-removed /maxItems ok/breaks: maxItems 0 -> none: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("minItems 0 is no limit at all", () => {
    expect(changes(array({ minItems: 0 }), array())).toEqual([
      "equivalent-rewrite  ok/ok: the documents differ but accept the same instances",
    ]);
  });

  it("constrains nothing on a side without arrays", () => {
    expect(rules({ type: "string", minItems: 1 }, { type: "string", minItems: 2 })).toEqual([
      "min-items-increased /minItems ok/ok: minItems 1 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules({ type: "string", maxItems: 1 }, { type: "string", maxItems: 2 })).toEqual([
      "max-items-increased /maxItems ok/ok: maxItems 1 -> 2: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("is settled by the arrays of an enum, at its edge too; a non-array never fails", () => {
    const list = [[1], [1, 2, 3], 5];
    expect(rules(values(list), values(list, { minItems: 1 }))).toEqual([
      "min-items-added /minItems ok/ok: minItems none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(values(list), values(list, { minItems: 2 }))).toEqual([
      "min-items-added /minItems breaks/ok: minItems none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(values(list), values(list, { maxItems: 3 }))).toEqual([
      "max-items-added /maxItems ok/ok: maxItems none -> 3: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(values(list), values(list, { maxItems: 2 }))).toEqual([
      "max-items-added /maxItems breaks/ok: maxItems none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("a tuple whose rest rejects every item holds at most its length", () => {
    const closed = { prefixItems: [true, true], items: false };
    expect(rules(array(closed), array({ ...closed, maxItems: 2 }))).toEqual([
      "max-items-added /maxItems ok/ok: maxItems none -> 2: OLD's other keywords already keep every document within it",
    ]);
    expect(rules(array(closed), array({ ...closed, maxItems: 1 }))).toEqual([
      "max-items-added /maxItems breaks/ok: maxItems none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(array({ ...closed, maxItems: 3 }), array({ ...closed, maxItems: 2 }))).toEqual([
      "max-items-decreased /maxItems ok/ok: maxItems 3 -> 2: OLD's other keywords already keep every document within it",
    ]);
    expect(rules(array({ ...closed, maxItems: 2 }), array(closed))).toEqual([
      "max-items-removed /maxItems ok/ok: maxItems 2 -> none: NEW's other keywords already keep every document within OLD's",
    ]);
  });

  it("an open rest, or unevaluatedItems (which in-place branches may evaluate), does not close the tuple", () => {
    const open = { prefixItems: [true, true], items: { type: "string" } };
    expect(rules(array(open), array({ ...open, maxItems: 2 }))).toEqual([
      "max-items-added /maxItems breaks/ok: maxItems none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    const unevaluated = { prefixItems: [true, true], unevaluatedItems: false };
    expect(rules(array(unevaluated), array({ ...unevaluated, maxItems: 2 }))).toEqual([
      "max-items-added /maxItems breaks/ok: maxItems none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(
      rules(array({ prefixItems: [true, true] }), array({ prefixItems: [true, true], maxItems: 2 })),
    ).toEqual([
      "max-items-added /maxItems breaks/ok: maxItems none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
  });
});

describe("uniqueItems", () => {
  it("added breaks backward, removed breaks forward; false is no constraint", () => {
    expect(changes(array(), array({ uniqueItems: true }))).toEqual([
      "unique-items-added /uniqueItems breaks/ok: NEW rejects arrays with duplicates",
    ]);
    expect(changes(array({ uniqueItems: true }), array({ uniqueItems: false }))).toEqual([
      "unique-items-removed /uniqueItems ok/breaks: NEW accepts arrays with duplicates",
    ]);
    expect(changes(array(), array({ uniqueItems: false }))).toEqual([
      "equivalent-rewrite  ok/ok: the documents differ but accept the same instances",
    ]);
  });

  it("constrains nothing on a side without arrays", () => {
    expect(changes({ type: "string" }, { type: "string", uniqueItems: true })).toEqual([
      "unique-items-added /uniqueItems ok/ok: NEW rejects arrays with duplicates",
    ]);
    expect(changes({ type: "string", uniqueItems: true }, { type: "string" })).toEqual([
      "unique-items-removed /uniqueItems ok/ok: NEW accepts arrays with duplicates",
    ]);
  });

  it("is settled by the arrays of an enum, duplicates told by JSON equality", () => {
    const unique = (list: unknown[]) => rules(values(list), values(list, { uniqueItems: true }));
    const ok = ["unique-items-added /uniqueItems ok/ok: NEW rejects arrays with duplicates"];
    const breaks = ["unique-items-added /uniqueItems breaks/ok: NEW rejects arrays with duplicates"];
    expect(unique([[1, 2], [1, { a: 1, b: 2 }], 3])).toEqual(ok);
    expect(unique([[1, 1], 3])).toEqual(breaks);
    expect(
      unique([
        [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      ]),
    ).toEqual(breaks);
    expect(
      unique([
        [
          [1, 2],
          [1, 2],
        ],
      ]),
    ).toEqual(breaks);
    expect(
      unique([
        [
          { a: 1, b: 2 },
          { b: 2, a: 3 },
        ],
      ]),
    ).toEqual(ok);
    expect(
      unique([
        [
          [1, 2],
          [1, 3],
        ],
      ]),
    ).toEqual(ok);
    expect(
      unique([
        [
          [1, 2],
          [1, 2, 3],
        ],
      ]),
    ).toEqual(ok);
    expect(unique([[{ a: 1 }, { a: 1, b: 1 }]])).toEqual(ok);
    expect(unique([[{ a: 1 }, { b: 1 }]])).toEqual(ok);
    expect(unique([[{ a: null }, { b: null }]])).toEqual(ok);
    expect(unique([[1, "1"]])).toEqual(ok);
    expect(unique([[[1], { "0": 1 }]])).toEqual(ok);
    expect(unique([[{ "0": 1 }, [1]]])).toEqual(ok);
    expect(unique([[[], { length: 0 }]])).toEqual(ok);
    expect(unique([[null, {}]])).toEqual(ok);
    expect(unique([[{}, null]])).toEqual(ok);
    const removed = (list: unknown[]) => rules(values(list, { uniqueItems: true }), values(list));
    expect(removed([[1, 2], 3])).toEqual([
      "unique-items-removed /uniqueItems ok/ok: NEW accepts arrays with duplicates",
    ]);
    expect(removed([[1, 1], 3])).toEqual([
      "unique-items-removed /uniqueItems ok/breaks: NEW accepts arrays with duplicates",
    ]);
  });
});

describe("contains", () => {
  it("added breaks backward, removed breaks forward", () => {
    expect(rules(array(), array({ contains: { type: "string" } }))).toEqual([
      "contains-added /contains breaks/ok: NEW requires an item matching contains",
    ]);
    expect(rules(array({ contains: { type: "string" } }), array())).toEqual([
      "contains-removed /contains ok/breaks: OLD required an item matching contains",
    ]);
  });

  it("one every item matches is met by any array with an item, unless more than one match is needed", () => {
    expect(rules(array({ minItems: 1 }), array({ minItems: 1, contains: true }))).toEqual([
      "contains-added /contains ok/ok: NEW requires an item matching contains",
    ]);
    expect(rules(array({ minItems: 1 }), array({ minItems: 1, contains: {} }))).toEqual([
      "contains-added /contains ok/ok: NEW requires an item matching contains",
    ]);
    expect(rules(array({ minItems: 1 }), array({ minItems: 1, contains: { type: "string" } }))).toEqual([
      "contains-added /contains breaks/ok: NEW requires an item matching contains",
    ]);
    expect(rules(array({ minItems: 0 }), array({ minItems: 0, contains: true }))).toEqual([
      "contains-added /contains breaks/ok: NEW requires an item matching contains",
    ]);
    expect(rules(array({ minItems: 2 }), array({ minItems: 2, contains: true, minContains: 1 }))).toEqual([
      "contains-added /contains ok/ok: NEW requires an item matching contains",
    ]);
    expect(rules(array({ minItems: 2 }), array({ minItems: 2, contains: true, minContains: 2 }))).toEqual([
      "contains-added /contains breaks/ok: NEW requires an item matching contains",
    ]);
    expect(rules(array({ minItems: 1 }), array({ minItems: 1, contains: true, minContains: 0 }))).toEqual([
      "contains-added /contains ok/ok: NEW requires an item matching contains",
    ]);
  });

  it("the same rule, the other way, for one removed", () => {
    expect(rules(array({ minItems: 1, contains: true }), array({ minItems: 1 }))).toEqual([
      "contains-removed /contains ok/ok: OLD required an item matching contains",
    ]);
    expect(rules(array({ minItems: 1, contains: { type: "string" } }), array({ minItems: 1 }))).toEqual([
      "contains-removed /contains ok/breaks: OLD required an item matching contains",
    ]);
    expect(rules(array({ contains: true }), array())).toEqual([
      "contains-removed /contains ok/breaks: OLD required an item matching contains",
    ]);
    expect(rules(array({ minItems: 1, contains: true, minContains: 1 }), array({ minItems: 1 }))).toEqual([
      "contains-removed /contains ok/ok: OLD required an item matching contains",
    ]);
    expect(rules(array({ minItems: 1, contains: true, minContains: 2 }), array({ minItems: 1 }))).toEqual([
      "contains-removed /contains ok/breaks: OLD required an item matching contains",
    ]);
  });

  it("constrains nothing on a side without arrays", () => {
    expect(rules({ type: "string" }, { type: "string", contains: { type: "string" } })).toEqual([
      "contains-added /contains ok/ok: NEW requires an item matching contains",
    ]);
    expect(rules({ type: "string", contains: { type: "string" } }, { type: "string" })).toEqual([
      "contains-removed /contains ok/ok: OLD required an item matching contains",
    ]);
  });

  it("a kept one is compared as a schema, with its counts as limits (minContains 1 is the default)", () => {
    const S = { type: "string" };
    expect(rules(array({ contains: S }), array({ contains: { type: "integer" } }))).toEqual([
      "type-changed /contains/type breaks/breaks: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
    ]);
    expect(rules(array({ contains: S }), array({ contains: S, minContains: 2 }))).toEqual([
      "min-contains-added /minContains breaks/ok: minContains none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(array({ contains: S, minContains: 2 }), array({ contains: S }))).toEqual([
      "min-contains-removed /minContains ok/breaks: minContains 2 -> none: a looser limit accepts documents OLD rejected",
    ]);
    expect(rules(array({ contains: S }), array({ contains: S, minContains: 1 }))).toEqual([
      "equivalent-rewrite  ok/ok: the documents differ but accept the same instances",
    ]);
    // minContains 0 lets arrays without a match through; its absence means 1.
    expect(rules(array({ contains: S, minContains: 0 }), array({ contains: S }))).toEqual([
      "min-contains-removed /minContains breaks/ok: minContains 0 -> none: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(array({ contains: S }), array({ contains: S, minContains: 0 }))).toEqual([
      "min-contains-added /minContains ok/breaks: minContains none -> 0: a looser limit accepts documents OLD rejected",
    ]);
    expect(rules(array({ contains: S }), array({ contains: S, maxContains: 2 }))).toEqual([
      "max-contains-added /maxContains breaks/ok: maxContains none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(array({ contains: S, maxContains: 2 }), array({ contains: S, maxContains: 3 }))).toEqual([
      "max-contains-increased /maxContains ok/breaks: maxContains 2 -> 3: a looser limit accepts documents OLD rejected",
    ]);
  });
});
