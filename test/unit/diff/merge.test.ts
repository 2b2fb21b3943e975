// A branch read together with its node (src/diff/merge.ts): what an anyOf branch's documents are when
// the node around it has keywords of its own. The merge must never be narrower than node AND branch,
// or an OLD document the node accepts could be proven to match a NEW branch it fails. Each case checks
// the kinds, paths, verdicts and reasons exactly; witnesses are off (the engine's own verdicts).
import { describe, expect, it } from "vitest";
import { Space, type Loc } from "../../../src/diff/document.js";
import { diffSchemas, type DiffOptions } from "../../../src/diff/index.js";
import { Model } from "../../../src/diff/model.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D2019 = "https://json-schema.org/draft/2019-09/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const D4 = "http://json-schema.org/draft-04/schema#";
const changes = (old: object, next: object, dialect = D, options: DiffOptions = {}) =>
  diffSchemas(
    { $schema: dialect, ...old },
    { $schema: dialect, ...next },
    { ...options, witnesses: false },
  ).changes.map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`);
const anyOf = (...branches: object[]) => ({ anyOf: branches });

describe("the node's keywords join each branch", () => {
  it("required names of node and branch add up", () => {
    const old = { type: "object", required: ["a"], ...anyOf({ required: ["b"] }, { required: ["c"] }) };
    expect(
      changes(old, { type: "object", ...anyOf({ required: ["a", "b"] }, { required: ["a", "c"] }) }),
    ).toEqual([
      'required-removed /required/0 ok/breaks: NEW no longer requires "a"; NEW documents without it fail OLD',
      'required-added /anyOf/0/required/0 ok/ok: NEW requires "a"; OLD documents without it fail NEW',
      'required-added /anyOf/1/required/0 ok/ok: NEW requires "a"; OLD documents without it fail NEW',
    ]);
  });

  it("types of node and branch intersect", () => {
    const old = { type: ["string", "integer"], ...anyOf({ type: ["integer", "null"] }, { type: "string" }) };
    expect(changes(old, anyOf({ type: "integer" }, { type: "string" }))).toEqual([
      "type-removed /type ok/ok: type string, integer -> any type",
      "type-narrowed /anyOf/0/type ok/ok: type null, integer -> integer; OLD documents of type null fail NEW",
    ]);
  });

  // The intersection keeps every type both name: NEW without one of them breaks backward.
  it.each([
    [
      "null",
      "string",
      "null, string",
      "null, string, integer -> string; OLD documents of type null, integer",
    ],
    [
      "boolean",
      "string",
      "boolean, string",
      "boolean, string, integer -> string; OLD documents of type boolean, integer",
    ],
    [
      "object",
      "string",
      "object, string",
      "object, string, integer -> string; OLD documents of type object, integer",
    ],
    [
      "array",
      "string",
      "array, string",
      "array, string, integer -> string; OLD documents of type array, integer",
    ],
    [
      "string",
      "boolean",
      "boolean, string",
      "boolean, string, integer -> boolean; OLD documents of type string, integer",
    ],
    ["integer", "string", "string, integer", "string, integer -> string; OLD documents of type integer"],
  ])("the intersection keeps %s", (kept, other, both, narrowed) => {
    const old = { type: [kept, other], ...anyOf({ type: [kept, other, "integer"] }) };
    expect(changes(old, anyOf({ type: other }))).toEqual([
      `type-removed /type ok/ok: type ${both} -> any type`,
      `type-narrowed /anyOf/0/type breaks/ok: type ${narrowed} fail NEW`,
    ]);
  });

  it("the intersection keeps fractions where both sides take any number", () => {
    const old = { type: ["number", "string"], ...anyOf({ type: ["number", "string", "null"] }) };
    expect(changes(old, anyOf({ type: ["integer", "string"] }))).toEqual([
      "type-removed /type ok/ok: type string, number -> any type",
      "type-narrowed /anyOf/0/type breaks/ok: type null, string, number -> string, integer; OLD documents of type null, non-integer number fail NEW",
    ]);
  });

  // Sliced type by type, the node would still save the verdict: the reason says it needed to.
  it("the intersection names no number where either side has none", () => {
    const old = { type: ["string", "null"], ...anyOf({ type: ["string", "integer"] }) };
    expect(changes(old, anyOf({ type: "string" }))).toEqual([
      "type-removed /type ok/ok: type null, string -> any type",
      "type-narrowed /anyOf/0/type ok/ok: type string, integer -> string; OLD documents of type integer fail NEW",
    ]);
  });

  // A schema is parsed JSON: "__proto__" is an own key like any other (an unknown keyword, inert).
  it('a branch keyword named "__proto__" stays a keyword and lends the merge nothing', () => {
    const branch = () => JSON.parse('{"__proto__": {"type": "string"}, "minLength": 1}') as object;
    // OLD accepts 5 (neither required nor minLength reads a number); NEW's only branch wants a string.
    expect(changes({ required: ["x"], ...anyOf(branch()) }, anyOf({ ...branch(), type: "string" }))).toEqual([
      'required-removed /required/0 ok/ok: NEW no longer requires "x"; NEW documents without it fail OLD',
      "type-added /anyOf/0/type breaks/ok: type any type -> string; OLD documents of type null, boolean, object, array, number fail NEW",
    ]);
  });
});

describe("keywords that read each other come from one side", () => {
  it("a branch's additionalProperties sees only the branch's properties and patterns", () => {
    const none = anyOf({ type: "object", maxProperties: 0 });
    expect(
      changes({ type: "object", properties: { a: {} }, ...anyOf({ additionalProperties: false }) }, none),
    ).toEqual([
      "type-removed /type ok/ok: type object -> any type",
      'property-removed-open /properties/a ok/ok: NEW is open for "a": under strict a NEW producer may send it with a value OLD rejects; under lenient NEW producers send only the properties NEW declares',
      "type-added /anyOf/0/type ok/ok: type any type -> object; OLD documents of type null, boolean, array, string, number fail NEW",
      "additional-properties-opened /anyOf/0/additionalProperties ok/breaks: NEW accepts keys no property or pattern names; OLD rejected them",
      "max-properties-added /anyOf/0/maxProperties ok/ok: maxProperties none -> 0: OLD's other keywords already keep every document within it",
    ]);
    const patterned = {
      type: "object",
      patternProperties: { "^a": {} },
      ...anyOf({ additionalProperties: false }),
    };
    expect(changes(patterned, none)).toEqual([
      "type-removed /type ok/ok: type object -> any type",
      "pattern-property-removed /patternProperties/^a ok/ok: NEW no longer gives keys matching /^a/ their own schema",
      "type-added /anyOf/0/type ok/ok: type any type -> object; OLD documents of type null, boolean, array, string, number fail NEW",
      "additional-properties-opened /anyOf/0/additionalProperties ok/breaks: NEW accepts keys no property or pattern names; OLD rejected them",
      "max-properties-added /anyOf/0/maxProperties ok/ok: maxProperties none -> 0: OLD's other keywords already keep every document within it",
    ]);
  });

  it("a branch's items sees only the branch's prefixItems", () => {
    const old = { type: "array", prefixItems: [{}], ...anyOf({ items: false }) };
    expect(changes(old, anyOf({ type: "array", maxItems: 0 }))).toEqual([
      "type-removed /type ok/ok: type array -> any type",
      "tuple-item-removed /prefixItems/0 ok/ok: NEW validates item 0 with nothing instead of its own schema",
      "type-added /anyOf/0/type ok/ok: type any type -> array; OLD documents of type null, boolean, object, string, number fail NEW",
      "items-opened /anyOf/0/items ok/ok: NEW accepts items; OLD rejected them",
      "max-items-added /anyOf/0/maxItems ok/ok: maxItems none -> 0: OLD's other keywords already keep every document within it",
    ]);
  });

  it("draft-07: a branch's items array sees only the branch's additionalItems", () => {
    const old = { type: "array", items: [{}, {}], additionalItems: false, ...anyOf({ items: [{}] }) };
    // [1, 2] is valid under OLD and fails NEW: a merge with OLD's additionalItems would allow one item.
    expect(changes(old, anyOf({ type: "array", maxItems: 1 }), D7)).toEqual([
      "type-removed /type ok/ok: type array -> any type",
      "tuple-item-removed /items/0 ok/ok: NEW validates item 0 with nothing instead of its own schema",
      "tuple-item-removed /items/1 ok/ok: NEW validates item 1 with nothing instead of its own schema",
      "additional-items-opened /additionalItems ok/ok: NEW accepts items after the tuple; OLD rejected them; compared type by type, forward holds",
      "type-added /anyOf/0/type breaks/ok: type any type -> array; OLD documents of type null, boolean, object, string, number fail NEW",
      "tuple-item-removed /anyOf/0/items/0 ok/ok: NEW validates item 0 with nothing instead of its own schema",
      "max-items-added /anyOf/0/maxItems breaks/ok: maxItems none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("a branch's contains is not counted by the node's maxContains", () => {
    const old = {
      type: "array",
      contains: { type: "string" },
      maxContains: 1,
      ...anyOf({ contains: { type: "integer" } }),
    };
    // [1, 2, "a"] is valid under OLD and has two integers.
    expect(changes(old, anyOf({ type: "array", contains: { type: "integer" }, maxContains: 1 }))).toEqual([
      "type-removed /type ok/ok: type array -> any type",
      "contains-removed /contains ok/breaks: OLD required an item matching contains",
      "type-added /anyOf/0/type breaks/ok: type any type -> array; OLD documents of type null, boolean, object, string, number fail NEW",
      "max-contains-added /anyOf/0/maxContains breaks/ok: maxContains none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("a branch's contains keeps its own minContains", () => {
    const old = { type: "array", minContains: 0, ...anyOf({ contains: { type: "string" } }) };
    expect(changes(old, anyOf({ type: "array", contains: { type: "string" } }))).toEqual([
      "type-removed /type ok/ok: type array -> any type",
      "type-added /anyOf/0/type ok/ok: type any type -> array; OLD documents of type null, boolean, object, string, number fail NEW",
    ]);
  });

  it("draft-04: a branch's boolean exclusive bound never applies to the node's bound", () => {
    const number = (more: object) => ({ type: "number", ...more });
    expect(
      changes(
        number({ maximum: 5, ...anyOf({ exclusiveMaximum: true }) }),
        anyOf(number({ maximum: 5, exclusiveMaximum: true })),
        D4,
      ),
    ).toEqual([
      "type-removed /type ok/ok: type number -> any type",
      "maximum-removed /maximum ok/ok: upper bound <= 5 -> none: NEW accepts numbers OLD rejected; compared type by type, forward holds",
      "type-added /anyOf/0/type breaks/ok: type any type -> number; OLD documents of type null, boolean, object, array, string fail NEW",
      "exclusive-maximum-added /anyOf/0/maximum breaks/ok: upper bound none -> < 5: numbers OLD accepted now fail",
    ]);
    expect(
      changes(
        number({ minimum: 5, ...anyOf({ exclusiveMinimum: true }) }),
        anyOf(number({ minimum: 5, exclusiveMinimum: true })),
        D4,
      ),
    ).toEqual([
      "type-removed /type ok/ok: type number -> any type",
      "minimum-removed /minimum ok/ok: lower bound >= 5 -> none: NEW accepts numbers OLD rejected; compared type by type, forward holds",
      "type-added /anyOf/0/type breaks/ok: type any type -> number; OLD documents of type null, boolean, object, array, string fail NEW",
      "exclusive-minimum-added /anyOf/0/minimum breaks/ok: lower bound none -> > 5: numbers OLD accepted now fail",
    ]);
  });
});

describe("the node's applicators stay on the node", () => {
  it("unevaluatedProperties is not merged into a branch, where it would not see the node's properties", () => {
    // {"a":1} is valid under OLD (a is evaluated by OLD's properties) and fails NEW's closed branch.
    const old = {
      type: "object",
      properties: { a: {} },
      unevaluatedProperties: false,
      ...anyOf({ properties: { b: {} } }),
    };
    expect(
      changes(old, anyOf({ type: "object", properties: { b: {} }, additionalProperties: false })),
    ).toEqual([
      "type-removed /type ok/ok: type object -> any type",
      'property-removed-open /properties/a ok/ok: NEW is open for "a": under strict a NEW producer may send it with a value OLD rejects; under lenient NEW producers send only the properties NEW declares',
      "unevaluated-properties-opened /unevaluatedProperties ok/breaks: NEW accepts keys no branch evaluated; OLD rejected them",
      "type-added /anyOf/0/type breaks/ok: type any type -> object; OLD documents of type null, boolean, array, string, number fail NEW",
      "additional-properties-closed /anyOf/0/additionalProperties breaks/ok: NEW rejects keys no property or pattern names; OLD accepted some",
    ]);
  });

  it("unevaluatedItems is not merged into a branch, where it would not see the node's prefixItems", () => {
    // [1, 2] is valid under OLD (two items evaluated by OLD's prefixItems) and fails NEW's closed tuple.
    const old = {
      type: "array",
      prefixItems: [{}, {}],
      unevaluatedItems: false,
      ...anyOf({ prefixItems: [{}] }),
    };
    expect(changes(old, anyOf({ type: "array", prefixItems: [{}], items: false }))).toEqual([
      "type-removed /type ok/ok: type array -> any type",
      "tuple-item-removed /prefixItems/0 ok/ok: NEW validates item 0 with nothing instead of its own schema",
      "tuple-item-removed /prefixItems/1 ok/ok: NEW validates item 1 with nothing instead of its own schema",
      "unevaluated-items-opened /unevaluatedItems ok/breaks: NEW accepts items no other keyword evaluated; OLD rejected them",
      "type-added /anyOf/0/type breaks/ok: type any type -> array; OLD documents of type null, boolean, object, string, number fail NEW",
      "items-closed /anyOf/0/items breaks/ok: NEW rejects items after the tuple; OLD accepted some",
    ]);
  });
});

describe("a condition's parts stay together", () => {
  // A `then` or `else` without its `if` does nothing; paired in a merge with the other side's `if`, it
  // would reject documents of the node AND branch. OLD accepts {} in each case; NEW rejects it.
  const sides = { type: ["object", "string"] };
  it("the node's if never meets the branch's then", () => {
    const old = { ...sides, if: { type: "object" }, then: true, ...anyOf({ then: false }) };
    expect(changes(old, anyOf({ ...sides, if: { type: "object" }, then: false }))).toEqual([
      "type-removed /type ok/ok: type object, string -> any type",
      "type-added /anyOf/0/type undecided/ok: type any type -> object, string; OLD documents of type null, boolean, array, number fail NEW",
      "if-added /anyOf/0/if undecided/ok: NEW adds an if/then/else condition",
      "if-removed /if ok/ok: NEW drops OLD's if/then/else condition",
    ]);
  });

  it.each([
    ["then", "object"],
    ["else", "string"],
  ])("the node's %s never meets the branch's if", (part, condition) => {
    const old = { ...sides, [part]: false, ...anyOf({ if: { type: condition } }) };
    expect(changes(old, anyOf({ ...sides, if: { type: condition }, [part]: false }))).toEqual([
      "type-removed /type ok/ok: type object, string -> any type",
      "type-added /anyOf/0/type breaks/ok: type any type -> object, string; OLD documents of type null, boolean, array, number fail NEW",
      `${part}-added /anyOf/0/${part} breaks/ok: NEW adds a \`${part}\` constraint`,
    ]);
  });
});

describe("references in a merge resolve where they were written", () => {
  // The branch lives under another base URI (a resource of its own): in the merge, the node's `$ref`
  // would name the branch's `#/$defs/s` (integer) instead of the node's (string).
  const branchResource = {
    $id: "https://example.com/inner/b.json",
    $defs: { s: { type: "integer" } },
    type: ["string", "integer"],
  };
  it.each(["$ref", "$dynamicRef"])("the node's %s stays on the node", (keyword) => {
    const old = {
      $id: "https://example.com/root.json",
      $defs: { s: { type: "string" }, b: branchResource },
      [keyword]: "#/$defs/s",
      ...anyOf({ $ref: "inner/b.json" }),
    };
    expect(changes(old, anyOf({ type: "integer" }))).toEqual([
      'id-changed /$id ok/ok: $id "https://example.com/root.json" -> null',
      "all-of-branch-removed /$ref ok/breaks: NEW drops a schema every document had to pass",
      "type-narrowed /anyOf/0/type breaks/ok: type string, integer -> integer; OLD documents of type string fail NEW",
    ]);
  });

  it("draft 2019-09: the node's $recursiveRef stays on the node", () => {
    // "#" names the root of the resource it is written in: OLD's root (string or object) for the node,
    // inner/b.json (integer) in a merge with a branch from there. OLD's p takes strings.
    const inner = {
      $id: "https://example.com/inner/b.json",
      type: "integer",
      $defs: { x: { type: ["string", "integer"] } },
    };
    const p = { $recursiveRef: "#", maxLength: 5, ...anyOf({ $ref: "inner/b.json#/$defs/x" }) };
    const old = {
      $id: "https://example.com/root.json",
      type: ["string", "object"],
      $defs: { b: inner },
      properties: { p },
    };
    expect(changes(old, { properties: { p: anyOf({ type: "integer" }) } }, D2019)).toEqual([
      'id-changed /$id ok/ok: $id "https://example.com/root.json" -> null',
      "type-removed /type ok/breaks: type object, string -> any type; NEW documents of type null, boolean, array, number fail OLD",
      "max-length-removed /properties/p/maxLength ok/ok: maxLength 5 -> none: a looser limit accepts documents OLD rejected",
      "all-of-branch-removed /properties/p/$ref ok/breaks: NEW drops a schema every document had to pass",
      "type-narrowed /properties/p/anyOf/0/type breaks/ok: type string, integer -> integer; OLD documents of type string fail NEW",
    ]);
  });

  it("the branch's own $ref resolves against the branch's base URI", () => {
    // Inside c.json, #/$defs/s is a string; at the document's root it is an integer. Merged with the
    // node's maxLength, the branch is within NEW's branch, which saves its maxLength.
    const c = {
      $id: "https://example.com/c.json",
      $defs: { s: { type: "string" } },
      maxLength: 3,
      ...anyOf({ $ref: "#/$defs/s", minLength: 1 }),
    };
    expect(
      changes(
        { $defs: { s: { type: "integer" } }, properties: { p: c } },
        { properties: { p: anyOf({ type: "string", minLength: 1, maxLength: 3 }) } },
      ),
    ).toEqual([
      "max-length-removed /properties/p/maxLength ok/ok: maxLength 3 -> none: a looser limit accepts documents OLD rejected; compared type by type, forward holds",
      "type-added /properties/p/anyOf/0/type ok/ok: type any type -> string",
      "max-length-added /properties/p/anyOf/0/maxLength ok/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
      "all-of-branch-removed /properties/p/anyOf/0/$ref ok/ok: NEW drops a schema every document had to pass",
    ]);
  });

  it("a branch in another document is not merged: the node's subschemas resolve in their own", () => {
    // Merged into ext.json, the node's "a" would read ext.json's #/$defs/s (integer); it is a string.
    const ext = { $defs: { s: { type: "integer" } }, type: "object", required: ["a"] };
    const old = {
      $id: "https://example.com/root.json",
      $defs: { s: { type: "string" } },
      properties: { a: { $ref: "#/$defs/s" } },
      ...anyOf({ $ref: "https://example.com/ext.json" }),
    };
    const resolveExternal = (uri: string) => (uri === "https://example.com/ext.json" ? ext : undefined);
    expect(
      changes(old, anyOf({ type: "object", required: ["a"], properties: { a: { type: "integer" } } }), D, {
        resolveExternal,
      }),
    ).toEqual([
      'id-changed /$id ok/ok: $id "https://example.com/root.json" -> null',
      'property-removed-open /properties/a ok/breaks: NEW is open for "a": under strict a NEW producer may send it with a value OLD rejects; under lenient NEW producers send only the properties NEW declares',
      'property-added-open /anyOf/0/properties/a breaks/ok: OLD was open for "a": under strict an OLD producer may already send it with any value; under lenient OLD producers send only the properties OLD declares',
    ]);
  });
});

// Views, type masks and the engine's other caches are keyed by node: a merge is made once per node
// and branch, and not at all when the node adds nothing.
describe("Model.merge", () => {
  const load = (schema: object) => {
    const root = new Space("OLD", undefined).load(schema, "2020-12", "https://schemawatch.invalid/old");
    const model = new Model();
    const view = model.view(root);
    return { model, view, branches: view.anyOf as readonly Loc[] };
  };

  it("gives the branch itself when the node has nothing of its own to add", () => {
    const { model, view, branches } = load({ title: "t", $defs: {}, ...anyOf({ type: "string" }) });
    expect(model.merge(view, branches[0] as Loc)).toBe(branches[0]);
  });

  it("gives the same merged node for the same node and branch, whatever was merged between", () => {
    const { model, view, branches } = load({ minLength: 1, ...anyOf({ type: "string" }, { maxLength: 3 }) });
    const first = model.merge(view, branches[0] as Loc);
    expect(first.node).toEqual({ minLength: 1, type: ["string"] });
    expect(model.merge(view, branches[1] as Loc).node).toEqual({ minLength: 1, maxLength: 3 });
    expect(model.merge(view, branches[0] as Loc)).toBe(first);
  });
});
