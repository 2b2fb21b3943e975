// `type`, `enum` and `const` as a reader of the report sees them (src/diff/scalars.ts): the kind, the
// path, both verdicts and the reason, exactly. Annotations are in annotations.test.ts.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const changes = (old: object, next: object) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );

describe("type", () => {
  it("narrowed breaks backward, widened forward, changed both, naming the types that fail", () => {
    expect(changes({ type: ["string", "null"] }, { type: "string" })).toEqual([
      "type-narrowed /type breaks/ok: type null, string -> string; OLD documents of type null fail NEW",
    ]);
    expect(changes({ type: "string" }, { type: ["string", "null"] })).toEqual([
      "type-widened /type ok/breaks: type string -> null, string; NEW documents of type null fail OLD",
    ]);
    expect(changes({ type: "string" }, { type: "integer" })).toEqual([
      "type-changed /type breaks/breaks: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
    ]);
  });

  it("added or removed is judged against any type, pointing where the keyword is", () => {
    expect(changes({}, { type: "integer" })).toEqual([
      "type-added /type breaks/ok: type any type -> integer; OLD documents of type null, boolean, object, array, string, non-integer number fail NEW",
    ]);
    expect(changes({ properties: { a: { type: "integer" } } }, { properties: { a: {} } })).toEqual([
      "type-removed /properties/a/type ok/breaks: type integer -> any type; NEW documents of type null, boolean, object, array, string, non-integer number fail OLD",
    ]);
  });

  it("integer is part of number; a list of every type but fractions is not any type", () => {
    expect(changes({ type: "number" }, { type: "integer" })).toEqual([
      "type-narrowed /type breaks/ok: type number -> integer; OLD documents of type non-integer number fail NEW",
    ]);
    expect(changes({ type: "integer" }, { type: "number" })).toEqual([
      "type-widened /type ok/breaks: type integer -> number; NEW documents of type non-integer number fail OLD",
    ]);
    const allButFractions = ["string", "boolean", "null", "object", "array", "integer"];
    expect(changes({ type: allButFractions }, { type: [...allButFractions.slice(0, 5), "number"] })).toEqual([
      "type-widened /type ok/breaks: type null, boolean, object, array, string, integer -> any type; NEW documents of type non-integer number fail OLD",
    ]);
  });

  it("is judged against the types the other side can really produce", () => {
    expect(changes({ enum: [1, 2] }, { enum: [1, 2], type: "integer" })).toEqual([
      "type-added /type ok/ok: type any type -> integer",
    ]);
    expect(changes({ enum: [1, "a"] }, { enum: [1, "a"], type: "integer" })).toEqual([
      "type-added /type breaks/ok: type any type -> integer; OLD documents of type string fail NEW",
    ]);
    expect(changes({ type: ["integer", "string"], enum: [1, 2] }, { type: "integer", enum: [1, 2] })).toEqual(
      ["type-narrowed /type ok/ok: type string, integer -> integer"],
    );
    expect(changes({ type: "integer", enum: [1, 2] }, { type: ["integer", "string"], enum: [1, 2] })).toEqual(
      ["type-widened /type ok/ok: type integer -> string, integer"],
    );
    expect(
      changes({ type: "integer", enum: [1, "a"] }, { type: ["integer", "string"], enum: [1, "a"] }),
    ).toEqual([
      "type-widened /type ok/breaks: type integer -> string, integer; NEW documents of type string fail OLD",
    ]);
  });

  it("the same types in another order or form are no type change", () => {
    const rewrite = "equivalent-rewrite  ok/ok: the documents differ but accept the same instances";
    expect(changes({ type: ["string", "null"] }, { type: ["null", "string"] })).toEqual([rewrite]);
    expect(changes({ type: "string" }, { type: ["string"] })).toEqual([rewrite]);
  });
});

describe("const", () => {
  it("a changed value breaks both ways and names both values as JSON", () => {
    expect(changes({ const: 1 }, { const: 2 })).toEqual(["const-changed /const breaks/breaks: const 1 -> 2"]);
    expect(changes({ const: { a: 1 } }, { const: { a: 1, b: 2 } })).toEqual([
      'const-changed /const breaks/breaks: const {"a":1} -> {"a":1,"b":2}',
    ]);
    expect(changes({ const: { a: 1 } }, { const: { b: 1 } })).toEqual([
      'const-changed /const breaks/breaks: const {"a":1} -> {"b":1}',
    ]);
    expect(changes({ const: [1, 2] }, { const: [1, 2, 3] })).toEqual([
      "const-changed /const breaks/breaks: const [1,2] -> [1,2,3]",
    ]);
    expect(changes({ const: [1, 2] }, { const: [2, 1] })).toEqual([
      "const-changed /const breaks/breaks: const [1,2] -> [2,1]",
    ]);
  });

  it("JSON equality: key order does not matter, 1 and 1.0 are the same number", () => {
    expect(changes({ const: 1 }, { const: 1.0 })).toEqual([]);
    expect(changes({ const: { a: 1, b: [1, { c: 2 }] } }, { const: { b: [1, { c: 2 }], a: 1 } })).toEqual([]);
  });

  it("added narrows to one value, removed lifts it", () => {
    expect(changes({}, { const: 1 })).toEqual(["const-added /const breaks/ok: NEW only allows 1"]);
    expect(changes({ const: 1 }, {})).toEqual([
      "const-removed /const ok/breaks: OLD only allowed 1; NEW drops the restriction",
    ]);
  });
});

describe("enum", () => {
  it("a value added breaks forward, a value removed backward, each named", () => {
    expect(changes({ enum: [1, 2] }, { enum: [1, 2, 3] })).toEqual([
      "enum-value-added /enum ok/breaks: NEW allows 3; OLD rejects it",
    ]);
    expect(changes({ enum: [1, 2, 3] }, { enum: [1, 2] })).toEqual([
      "enum-value-removed /enum breaks/ok: NEW no longer allows 3; OLD documents using it fail NEW",
    ]);
    expect(changes({ enum: [1, 2, 3] }, { enum: [2, 4] })).toEqual([
      "enum-value-added /enum ok/breaks: NEW allows 4; OLD rejects it",
      "enum-value-removed /enum breaks/ok: NEW no longer allows 1, 3; OLD documents using it fail NEW",
    ]);
  });

  it("a value the schema rejects anyway does not count", () => {
    expect(changes({ enum: [1, 2], type: "integer" }, { enum: [1, 2, "x"], type: "integer" })).toEqual([
      'enum-value-added /enum ok/ok: NEW allows "x" (rejected by NEW\'s other keywords)',
    ]);
    expect(changes({ enum: [1, 2, "x"], type: "integer" }, { enum: [1, 2], type: "integer" })).toEqual([
      'enum-value-removed /enum ok/ok: NEW no longer allows "x" (OLD rejected it anyway)',
    ]);
  });

  it("between const and enum: values compared as sets, under the keyword NEW uses", () => {
    expect(changes({ const: 1 }, { enum: [1, 2] })).toEqual([
      "enum-value-added /enum ok/breaks: NEW allows 2; OLD rejects it",
    ]);
    expect(changes({ enum: [1, 2] }, { const: 1 })).toEqual([
      "enum-value-removed /const breaks/ok: NEW no longer allows 2; OLD documents using it fail NEW",
    ]);
    // const with an enum beside it: the values both allow.
    expect(changes({ enum: [1, 2], const: 1 }, { enum: [1, 2], const: 2 })).toEqual([
      "enum-value-added /enum ok/breaks: NEW allows 2; OLD rejects it",
      "enum-value-removed /enum breaks/ok: NEW no longer allows 1; OLD documents using it fail NEW",
    ]);
  });

  it("added narrows to its values, removed lifts them", () => {
    expect(changes({}, { enum: [1, 2] })).toEqual(["enum-added /enum breaks/ok: NEW only allows 1, 2"]);
    expect(changes({ enum: [1, 2] }, {})).toEqual([
      "enum-removed /enum ok/breaks: OLD only allowed 1, 2; NEW drops the restriction",
    ]);
  });

  it("a value list longer than 120 characters is cut to 117 and an ellipsis", () => {
    const fits = "a".repeat(118); // 120 characters as JSON
    expect(changes({ enum: [fits] }, {})).toEqual([
      `enum-removed /enum ok/breaks: OLD only allowed "${fits}"; NEW drops the restriction`,
    ]);
    const long = "a".repeat(119);
    expect(changes({ enum: [long] }, {})).toEqual([
      `enum-removed /enum ok/breaks: OLD only allowed "${"a".repeat(116)}...; NEW drops the restriction`,
    ]);
  });
});
