// The array keywords' changes as a reader of the report sees them (src/diff/arrays.ts): tuples and
// their rest, minItems/maxItems, uniqueItems, contains with minContains/maxContains. Each case states
// the rule it guards and checks the kind, the path, both verdicts and the reason exactly.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const show = (old: object, next: object, witnesses: boolean, dialect = D) =>
  diffSchemas({ $schema: dialect, ...old }, { $schema: dialect, ...next }, { witnesses }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const changes = (old: object, next: object) => show(old, next, true);
// The rule's own verdict, before a witness search turns a `breaks` it cannot prove into `undecided`.
const rules = (old: object, next: object, dialect = D) => show(old, next, false, dialect);
const array = (more: object = {}) => ({ type: "array", ...more });
const S = { type: "string" };
const I = { type: "integer" };

describe("tuple items", () => {
  it("an item given its own schema is judged against the rest OLD validated it with", () => {
    expect(changes(array({ prefixItems: [S] }), array({ prefixItems: [S, I] }))).toEqual([
      "tuple-item-added /prefixItems/1 breaks/ok: NEW gives item 1 its own schema; OLD validated it with nothing",
    ]);
    expect(changes(array({ prefixItems: [S], items: I }), array({ prefixItems: [S, I] }))).toEqual([
      "tuple-item-added /prefixItems/1 ok/ok: NEW gives item 1 its own schema; OLD validated it with items",
      "items-extended /items ok/breaks: NEW accepts anything for items after the tuple; OLD constrained them",
    ]);
    expect(changes(array({ prefixItems: [S], items: false }), array({ prefixItems: [S, I] }))).toEqual([
      "tuple-item-added /prefixItems/1 ok/breaks: NEW gives item 1 its own schema; OLD validated it with items",
      "items-opened /items ok/breaks: NEW accepts items after the tuple; OLD rejected them",
    ]);
  });

  it("an item that loses its own schema is judged against the rest NEW validates it with", () => {
    expect(changes(array({ prefixItems: [S, I] }), array({ prefixItems: [S] }))).toEqual([
      "tuple-item-removed /prefixItems/1 ok/breaks: NEW validates item 1 with nothing instead of its own schema",
    ]);
    expect(changes(array({ prefixItems: [S, I] }), array({ prefixItems: [S], items: I }))).toEqual([
      "tuple-item-removed /prefixItems/1 ok/ok: NEW validates item 1 with items instead of its own schema",
      "items-narrowed /items breaks/ok: NEW constrains items after the tuple; OLD accepted anything",
    ]);
    expect(changes(array({ prefixItems: [S, I] }), array({ prefixItems: [S], items: S }))).toEqual([
      "tuple-item-removed /prefixItems/1 breaks/breaks: NEW validates item 1 with items instead of its own schema",
      "items-narrowed /items breaks/ok: NEW constrains items after the tuple; OLD accepted anything",
    ]);
  });

  it("draft-07 tuples name items and additionalItems", () => {
    expect(rules(array({ items: [S], additionalItems: I }), array({ items: [S, I] }), D7)).toEqual([
      "tuple-item-added /items/1 ok/ok: NEW gives item 1 its own schema; OLD validated it with additionalItems",
      "additional-items-extended /additionalItems ok/breaks: NEW accepts anything for items after the tuple; OLD constrained them",
    ]);
    expect(rules(array({ items: [S, I] }), array({ items: [S], additionalItems: I }), D7)).toEqual([
      "tuple-item-removed /items/1 ok/ok: NEW validates item 1 with additionalItems instead of its own schema",
      "additional-items-narrowed /additionalItems breaks/ok: NEW constrains items after the tuple; OLD accepted anything",
    ]);
    expect(rules(array({ items: [S], additionalItems: false }), array({ items: [S] }), D7)).toEqual([
      "additional-items-opened /additionalItems ok/breaks: NEW accepts items after the tuple; OLD rejected them",
    ]);
  });

  it("unevaluatedItems beside a tuple is its rest", () => {
    expect(rules(array({ prefixItems: [S], unevaluatedItems: I }), array({ prefixItems: [S, I] }))).toEqual([
      "tuple-item-added /prefixItems/1 ok/ok: NEW gives item 1 its own schema; OLD validated it with unevaluatedItems",
      "unevaluated-items-extended /unevaluatedItems ok/breaks: NEW accepts anything for items after the tuple; OLD constrained them",
    ]);
  });

  it("a position maxItems excludes never holds an item: the side that excludes it is ok", () => {
    const old = array({ prefixItems: [{}], items: S, maxItems: 2 });
    expect(rules(old, array({ prefixItems: [{}, I], maxItems: 2 }))).toEqual([
      "tuple-item-added /prefixItems/1 breaks/breaks: NEW gives item 1 its own schema; OLD validated it with items",
      "items-extended /items ok/ok: NEW accepts anything for items after the tuple; OLD constrained them",
    ]);
    // NEW holds at most one item: item 1 of NEW never exists, so forward is ok.
    expect(rules(old, array({ prefixItems: [{}, I], maxItems: 1 }))).toEqual([
      "tuple-item-added /prefixItems/1 breaks/ok: NEW gives item 1 its own schema; OLD validated it with items",
      "items-extended /items ok/ok: NEW accepts anything for items after the tuple; OLD constrained them",
      "max-items-decreased /maxItems breaks/ok: maxItems 2 -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    // OLD held at most one item: no OLD document has an item 1 for NEW to reject.
    expect(
      rules(array({ prefixItems: [S], maxItems: 1 }), array({ prefixItems: [S, I], maxItems: 2 })),
    ).toEqual([
      "tuple-item-added /prefixItems/1 ok/ok: NEW gives item 1 its own schema; OLD validated it with nothing",
      "max-items-increased /maxItems ok/breaks: maxItems 1 -> 2: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("the same holds for an item that loses its own schema", () => {
    const old = array({ prefixItems: [{}, I] });
    expect(rules(old, array({ prefixItems: [{}], items: S, maxItems: 2 }))).toEqual([
      "tuple-item-removed /prefixItems/1 breaks/breaks: NEW validates item 1 with items instead of its own schema",
      "items-narrowed /items breaks/ok: NEW constrains items after the tuple; OLD accepted anything",
      "max-items-added /maxItems breaks/ok: maxItems none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(rules(old, array({ prefixItems: [{}], items: S, maxItems: 1 }))).toEqual([
      "tuple-item-removed /prefixItems/1 breaks/ok: NEW validates item 1 with items instead of its own schema",
      "items-narrowed /items breaks/ok: NEW constrains items after the tuple; OLD accepted anything",
      "max-items-added /maxItems breaks/ok: maxItems none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(
      rules(array({ prefixItems: [{}, I], maxItems: 1 }), array({ prefixItems: [{}], items: S })),
    ).toEqual([
      "tuple-item-removed /prefixItems/1 ok/breaks: NEW validates item 1 with items instead of its own schema",
      "items-narrowed /items ok/ok: NEW constrains items after the tuple; OLD accepted anything",
      "max-items-removed /maxItems ok/breaks: maxItems 1 -> none: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("a changed item of a side without arrays is ok in that direction", () => {
    expect(rules({ type: "string", prefixItems: [S] }, { type: "string", prefixItems: [I] })).toEqual([
      "type-changed /prefixItems/0/type ok/ok: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
    ]);
    expect(
      rules({ type: ["string", "array"], prefixItems: [S] }, { type: "string", prefixItems: [I] }),
    ).toEqual([
      "type-narrowed /type breaks/ok: type array, string -> string; OLD documents of type array fail NEW",
      "type-changed /prefixItems/0/type breaks/ok: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
    ]);
  });
});

describe("the rest of the items", () => {
  it("without a tuple it is all the items", () => {
    expect(rules(array({ items: S }), array())).toEqual([
      "items-extended /items ok/breaks: NEW accepts anything for items; OLD constrained them",
    ]);
    expect(rules(array(), array({ items: S }))).toEqual([
      "items-narrowed /items breaks/ok: NEW constrains items; OLD accepted anything",
    ]);
    expect(rules(array(), array({ unevaluatedItems: false }))).toEqual([
      "unevaluated-items-closed /unevaluatedItems breaks/ok: NEW rejects items; OLD accepted some",
    ]);
  });

  it("is moot on a side whose maxItems leaves no room after the tuple", () => {
    const rest = (items: object, maxItems: number) => array({ prefixItems: [{}], items, maxItems });
    expect(rules(rest(S, 1), rest(I, 1))).toEqual([
      "type-changed /items/type ok/ok: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
    ]);
    expect(rules(rest(S, 1), rest(I, 2))).toEqual([
      "type-changed /items/type ok/breaks: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
      "max-items-increased /maxItems ok/breaks: maxItems 1 -> 2: a looser limit accepts documents OLD rejected",
    ]);
    expect(rules(rest(S, 2), rest(I, 1))).toEqual([
      "type-changed /items/type breaks/ok: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
      "max-items-decreased /maxItems breaks/ok: maxItems 2 -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(
      rules(array({ prefixItems: [{}], items: S, maxItems: 1 }), array({ prefixItems: [{}], maxItems: 1 })),
    ).toEqual([
      "items-extended /items ok/ok: NEW accepts anything for items after the tuple; OLD constrained them",
    ]);
    expect(
      rules(array({ prefixItems: [{}], items: S, maxItems: 2 }), array({ prefixItems: [{}], maxItems: 2 })),
    ).toEqual([
      "items-extended /items ok/breaks: NEW accepts anything for items after the tuple; OLD constrained them",
    ]);
  });

  it("unevaluatedItems with in-place branches is compared as its own schema", () => {
    const branch = { allOf: [{ prefixItems: [true] }] };
    expect(rules(array(branch), array({ ...branch, unevaluatedItems: false }))).toEqual([
      "unevaluated-items-closed /unevaluatedItems breaks/ok: NEW rejects items no other keyword evaluated; OLD accepted some",
    ]);
    expect(rules(array({ ...branch, unevaluatedItems: false }), array(branch))).toEqual([
      "unevaluated-items-opened /unevaluatedItems ok/breaks: NEW accepts items no other keyword evaluated; OLD rejected them",
    ]);
    expect(
      rules(array({ items: S, ...branch, unevaluatedItems: S }), array({ items: S, ...branch })),
    ).toEqual([
      "unevaluated-items-extended /unevaluatedItems ok/breaks: NEW accepts anything for items no other keyword evaluated; OLD constrained them",
    ]);
  });
});
