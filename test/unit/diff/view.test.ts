// How a schema object is read under its dialect (src/diff/view.ts): every rule of the diff reads a
// keyword through its view, so a keyword read from the wrong draft, a bound kept from the looser of two
// keywords or a malformed value taken at its word would change verdicts everywhere. Each case states the
// whole view: subschemas as their JSON Pointer ("#/items"), maps as objects, nothing left out.
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../../src/diff/dialect.js";
import { Space, type Loc } from "../../../src/diff/document.js";
import { buildView, type View } from "../../../src/diff/view.js";

const load = (schema: unknown, dialect: Dialect): Loc =>
  new Space("OLD", undefined).load(schema, dialect, "https://schemawatch.invalid/old");

const isLoc = (value: object): value is Loc => "ptr" in value && "doc" in value;

/** The view as plain data: a subschema by its pointer, a map as an object. */
const plain = (value: unknown): unknown => {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value !== "object" || value === null) return value;
  if (isLoc(value)) return `#${value.ptr}`;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
};

/** Everything but the node, its location and its dialect (checked on their own below). */
const read = (schema: unknown, dialect: Dialect, ref?: Loc): Record<string, unknown> => {
  const { loc: _loc, raw: _raw, dialect: _dialect, ...rest } = buildView(load(schema, dialect), ref);
  return plain(rest) as Record<string, unknown>;
};

/** The view of a schema with no keyword; `prefixKeyword` is "prefixItems" in 2020-12 only. */
const EMPTY = {
  hasConst: false,
  prefix: [],
  prefixKeyword: "items",
  restKeyword: "items",
  uniqueItems: false,
  properties: {},
  patternProperties: {},
  required: [],
  dependentRequired: {},
  dependentSchemas: {},
  allOf: [],
  hasApplicators: false,
};
const EMPTY_2020 = { ...EMPTY, prefixKeyword: "prefixItems" };

const D4: Dialect = "draft-04";
const D7: Dialect = "draft-07";
const D19: Dialect = "2019-09";
const D20: Dialect = "2020-12";

describe("the node itself", () => {
  it("keeps the object, its location and its document's dialect", () => {
    const schema = { type: "string" };
    const loc = load(schema, D19);
    const view: View = buildView(loc, undefined);
    expect(view.loc).toBe(loc);
    expect(view.raw).toBe(schema);
    expect(view.dialect).toBe(D19);
    expect(read(schema, D19)).toEqual({ ...EMPTY, type: "string" });
  });

  it("reads `true` as the empty schema", () => {
    expect(buildView(load(true, D20), undefined).raw).toEqual({});
    expect(read(true, D20)).toEqual(EMPTY_2020);
    expect(read(true, D7)).toEqual(EMPTY);
  });
});

describe("numeric bounds", () => {
  const upper = (schema: object, dialect: Dialect = D20) => read(schema, dialect)["upper"];
  const lower = (schema: object, dialect: Dialect = D20) => read(schema, dialect)["lower"];
  const bound = (value: number, exclusive: boolean, keyword: string) => ({ value, exclusive, keyword });

  it("take the inclusive or the exclusive keyword alone", () => {
    expect(upper({ maximum: 5 })).toEqual(bound(5, false, "maximum"));
    expect(upper({ exclusiveMaximum: 5 })).toEqual(bound(5, true, "exclusiveMaximum"));
    expect(lower({ minimum: -2 })).toEqual(bound(-2, false, "minimum"));
    expect(lower({ exclusiveMinimum: -2 })).toEqual(bound(-2, true, "exclusiveMinimum"));
    expect(read({ maximum: 5 }, D20)).toEqual({ ...EMPTY_2020, upper: bound(5, false, "maximum") });
    expect(read({ minimum: 5 }, D20)).toEqual({ ...EMPTY_2020, lower: bound(5, false, "minimum") });
  });

  it("keep the tighter of the two; at the same value, the exclusive one", () => {
    expect(upper({ maximum: 4, exclusiveMaximum: 5 })).toEqual(bound(4, false, "maximum"));
    expect(upper({ maximum: 6, exclusiveMaximum: 5 })).toEqual(bound(5, true, "exclusiveMaximum"));
    expect(upper({ maximum: 5, exclusiveMaximum: 5 })).toEqual(bound(5, true, "exclusiveMaximum"));
    expect(lower({ minimum: 6, exclusiveMinimum: 5 })).toEqual(bound(6, false, "minimum"));
    expect(lower({ minimum: 4, exclusiveMinimum: 5 })).toEqual(bound(5, true, "exclusiveMinimum"));
    expect(lower({ minimum: 5, exclusiveMinimum: 5 })).toEqual(bound(5, true, "exclusiveMinimum"));
  });

  it("draft-04: the boolean exclusive keyword turns its plain bound exclusive", () => {
    expect(upper({ maximum: 5, exclusiveMaximum: true }, D4)).toEqual(bound(5, true, "maximum"));
    expect(upper({ maximum: 5, exclusiveMaximum: false }, D4)).toEqual(bound(5, false, "maximum"));
    expect(upper({ maximum: 5 }, D4)).toEqual(bound(5, false, "maximum"));
    expect(lower({ minimum: 1, exclusiveMinimum: true }, D4)).toEqual(bound(1, true, "minimum"));
    // Only `true` counts, and only beside a plain bound; a number there means nothing in draft-04.
    expect(upper({ maximum: 5, exclusiveMaximum: 1 }, D4)).toEqual(bound(5, false, "maximum"));
    expect(read({ exclusiveMaximum: true, exclusiveMinimum: 3 }, D4)).toEqual(EMPTY);
  });

  it("draft-06 on: a boolean exclusive keyword is no bound", () => {
    expect(read({ exclusiveMaximum: true, exclusiveMinimum: true }, D7)).toEqual(EMPTY);
    expect(upper({ maximum: 5, exclusiveMaximum: true }, D7)).toEqual(bound(5, false, "maximum"));
  });

  it("ignore values that are not finite numbers", () => {
    expect(read({ maximum: "5", minimum: Infinity, multipleOf: "2" }, D20)).toEqual(EMPTY_2020);
    expect(read({ exclusiveMaximum: Number.NaN, exclusiveMinimum: null }, D20)).toEqual(EMPTY_2020);
    expect(read({ multipleOf: Infinity }, D20)).toEqual(EMPTY_2020);
    expect(read({ multipleOf: 0.5 }, D20)).toEqual({ ...EMPTY_2020, multipleOf: 0.5 });
  });
});

describe("counts and strings", () => {
  it("read lengths, item and property counts; a minimum of 0 is no minimum", () => {
    const counts = {
      minLength: 1,
      maxLength: 0,
      minItems: 2,
      maxItems: 0,
      minProperties: 3,
      maxProperties: 0,
    };
    expect(read(counts, D7)).toEqual({ ...EMPTY, ...counts });
    expect(read({ minLength: 0, minItems: 0, minProperties: 0 }, D7)).toEqual(EMPTY);
  });

  it("ignore negative and non-finite counts and non-numbers", () => {
    const bad = { minLength: -1, maxLength: -1, maxItems: "3", minItems: Infinity, maxProperties: -0.5 };
    expect(read(bad, D7)).toEqual(EMPTY);
  });

  it("read pattern and format only when they are strings", () => {
    expect(read({ pattern: "^a", format: "date" }, D7)).toEqual({ ...EMPTY, pattern: "^a", format: "date" });
    expect(read({ pattern: 1, format: {} }, D7)).toEqual(EMPTY);
  });

  it("read type, enum and const as given; enum only as an array", () => {
    expect(read({ type: ["string", "null"], enum: ["a", null] }, D7)).toEqual({
      ...EMPTY,
      type: ["string", "null"],
      enumValues: ["a", null],
    });
    expect(read({ enum: "a" }, D7)).toEqual(EMPTY);
    // A `const` of null is a const all the same.
    expect(read({ const: null }, D7)).toEqual({ ...EMPTY, hasConst: true, constValue: null });
    expect(read({ const: 0 }, D7)).toEqual({ ...EMPTY, hasConst: true, constValue: 0 });
  });
});

describe("arrays: tuples and the rest", () => {
  it("2020-12: prefixItems is the tuple, items the rest", () => {
    expect(read({ prefixItems: [true, false], items: false }, D20)).toEqual({
      ...EMPTY_2020,
      prefix: ["#/prefixItems/0", "#/prefixItems/1"],
      rest: "#/items",
    });
  });

  it("2020-12: array-form items is read as the older tuple, with additionalItems as the rest", () => {
    expect(read({ items: [true], prefixItems: [false], additionalItems: false }, D20)).toEqual({
      ...EMPTY_2020,
      prefix: ["#/items/0"],
      prefixKeyword: "items",
      rest: "#/additionalItems",
      restKeyword: "additionalItems",
    });
  });

  it("before 2020-12: array-form items is the tuple and prefixItems means nothing", () => {
    expect(read({ items: [true, { type: "string" }], additionalItems: true }, D19)).toEqual({
      ...EMPTY,
      prefix: ["#/items/0", "#/items/1"],
      rest: "#/additionalItems",
      restKeyword: "additionalItems",
    });
    expect(read({ prefixItems: [true] }, D19)).toEqual(EMPTY);
    expect(read({ items: [false] }, D7)).toEqual({ ...EMPTY, prefix: ["#/items/0"] });
  });

  it("a schema-form items is the rest and additionalItems beside it means nothing", () => {
    expect(read({ items: false, additionalItems: true }, D7)).toEqual({ ...EMPTY, rest: "#/items" });
    expect(read({ additionalItems: false }, D7)).toEqual(EMPTY);
  });

  it("2019-09 on: unevaluatedItems is the rest when nothing else is and no branch evaluates items", () => {
    expect(read({ unevaluatedItems: false }, D20)).toEqual({
      ...EMPTY_2020,
      rest: "#/unevaluatedItems",
      restKeyword: "unevaluatedItems",
      unevaluatedItems: "#/unevaluatedItems",
    });
    expect(read({ items: [true], unevaluatedItems: false }, D19)).toEqual({
      ...EMPTY,
      prefix: ["#/items/0"],
      rest: "#/unevaluatedItems",
      restKeyword: "unevaluatedItems",
      unevaluatedItems: "#/unevaluatedItems",
    });
    expect(read({ items: true, unevaluatedItems: false }, D20)).toEqual({
      ...EMPTY_2020,
      rest: "#/items",
      unevaluatedItems: "#/unevaluatedItems",
    });
    expect(read({ unevaluatedItems: false, allOf: [true] }, D20)).toEqual({
      ...EMPTY_2020,
      unevaluatedItems: "#/unevaluatedItems",
      allOf: ["#/allOf/0"],
      hasApplicators: true,
    });
    expect(read({ unevaluatedItems: false }, D7)).toEqual(EMPTY);
  });

  it("uniqueItems only when true; contains with its counts from 2019-09 on", () => {
    expect(read({ uniqueItems: true }, D7)).toEqual({ ...EMPTY, uniqueItems: true });
    expect(read({ uniqueItems: "true" }, D7)).toEqual(EMPTY);
    expect(read({ contains: false, minContains: 0, maxContains: 2 }, D19)).toEqual({
      ...EMPTY,
      contains: "#/contains",
      minContains: 0,
      maxContains: 2,
    });
    expect(read({ contains: false, minContains: 0, maxContains: 2 }, D7)).toEqual({
      ...EMPTY,
      contains: "#/contains",
    });
  });
});

describe("objects", () => {
  it("properties, patterns, the rest, names and required names (once each, strings only)", () => {
    const schema = {
      properties: { a: true, "x/y": false },
      patternProperties: { "^p": false },
      additionalProperties: false,
      propertyNames: false,
      required: ["a", 1, "b", "a"],
    };
    expect(read(schema, D7)).toEqual({
      ...EMPTY,
      properties: { a: "#/properties/a", "x/y": "#/properties/x~1y" },
      patternProperties: { "^p": "#/patternProperties/^p" },
      additionalProperties: "#/additionalProperties",
      propertyNames: "#/propertyNames",
      required: ["a", "b"],
    });
  });

  it("malformed maps and lists are empty", () => {
    expect(
      read({ properties: ["a"], patternProperties: "x", required: "a", dependencies: ["a"] }, D7),
    ).toEqual(EMPTY);
    expect(read({ dependentRequired: ["a"], dependentSchemas: [false] }, D20)).toEqual(EMPTY_2020);
  });

  it("unevaluatedProperties from 2019-09 on only", () => {
    expect(read({ unevaluatedProperties: false }, D19)).toEqual({
      ...EMPTY,
      unevaluatedProperties: "#/unevaluatedProperties",
    });
    expect(read({ unevaluatedProperties: false }, D7)).toEqual(EMPTY);
  });

  it("dependencies: a list of names is required names, anything else a schema", () => {
    const schema = { dependencies: { a: ["b", 2, "c"], d: false, e: { required: ["f"] } } };
    expect(read(schema, D7)).toEqual({
      ...EMPTY,
      dependentRequired: { a: { value: ["b", "c"], keyword: "dependencies" } },
      dependentSchemas: {
        d: { value: "#/dependencies/d", keyword: "dependencies" },
        e: { value: "#/dependencies/e", keyword: "dependencies" },
      },
      hasApplicators: true,
    });
  });

  it("dependentRequired and dependentSchemas from 2019-09 on; the newer keyword wins a name", () => {
    const schema = {
      dependencies: { a: ["x"], b: true },
      dependentRequired: { a: ["b", 3], c: "d" },
      dependentSchemas: { b: false },
    };
    expect(read(schema, D19)).toEqual({
      ...EMPTY,
      dependentRequired: {
        a: { value: ["b"], keyword: "dependentRequired" },
        c: { value: [], keyword: "dependentRequired" },
      },
      dependentSchemas: { b: { value: "#/dependentSchemas/b", keyword: "dependentSchemas" } },
      hasApplicators: true,
    });
    expect(read({ dependentRequired: { a: ["b"] }, dependentSchemas: { b: false } }, D7)).toEqual(EMPTY);
  });
});

describe("in-place applicators", () => {
  it("allOf, anyOf and oneOf by position; an empty allOf applies nothing, an empty anyOf does", () => {
    expect(read({ allOf: [true, false] }, D7)).toEqual({
      ...EMPTY,
      allOf: ["#/allOf/0", "#/allOf/1"],
      hasApplicators: true,
    });
    expect(read({ allOf: [] }, D7)).toEqual(EMPTY);
    expect(read({ anyOf: [] }, D7)).toEqual({ ...EMPTY, anyOf: [], hasApplicators: true });
    expect(read({ oneOf: [false] }, D7)).toEqual({ ...EMPTY, oneOf: ["#/oneOf/0"], hasApplicators: true });
    expect(read({ allOf: {}, anyOf: "a", oneOf: null }, D7)).toEqual(EMPTY);
  });

  it("if/then/else only with an if; not on its own", () => {
    expect(read({ if: true, then: false, else: true }, D7)).toEqual({
      ...EMPTY,
      if: "#/if",
      then: "#/then",
      else: "#/else",
      hasApplicators: true,
    });
    expect(read({ if: false }, D7)).toEqual({ ...EMPTY, if: "#/if", hasApplicators: true });
    expect(read({ then: false, else: false }, D7)).toEqual(EMPTY);
    expect(read({ not: false }, D7)).toEqual({ ...EMPTY, not: "#/not" });
  });

  it("a `$ref` the caller resolved is one more applicator", () => {
    const target = load(false, D7);
    const view = buildView(load({ $ref: "#/definitions/x" }, D7), target);
    expect(view.ref).toBe(target);
    expect(view.hasApplicators).toBe(true);
  });
});
