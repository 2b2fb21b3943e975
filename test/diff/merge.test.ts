// A branch read together with its node (src/diff/merge.ts): what an anyOf branch's documents are when
// the node around it has keywords of its own. The merge must never be narrower than node AND branch,
// or an OLD document the node accepts could be proven to match a NEW branch it fails. Each case checks
// the kinds, paths, verdicts and reasons exactly; witnesses are off (the engine's own verdicts).
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D4 = "http://json-schema.org/draft-04/schema#";
const changes = (old: object, next: object, dialect = D) =>
  diffSchemas({ $schema: dialect, ...old }, { $schema: dialect, ...next }, { witnesses: false }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
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
});
