// Which keywords count (src/diff/keywords.ts): the ones ajv evaluates under a dialect constrain and are
// never reported as extensions; annotations, identification and unknown keywords constrain nothing.
// Two probes read the lists through the diff:
// - a `contains` added beside `minItems: 1` is ok backward only when its schema accepts everything;
// - a keyword's change is reported as `extension-changed` only when no validator knows it.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas, type DiffOptions } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D2019 = "https://json-schema.org/draft/2019-09/schema";
const D7 = "http://json-schema.org/draft-07/schema#";
const D4 = "http://json-schema.org/draft-04/schema#";
const run = (old: object, next: object, dialect: string, options: DiffOptions = {}) =>
  diffSchemas({ $schema: dialect, ...old }, { $schema: dialect, ...next }, { witnesses: false, ...options })
    .changes;

/** The backward verdict of requiring an item that matches `inner` in arrays that have an item. */
const containsProbe = (inner: object, dialect: string, options: DiffOptions = {}, root: object = {}) => {
  const [change, ...more] = run(
    { type: "array", minItems: 1, ...root },
    { type: "array", minItems: 1, ...root, contains: inner },
    dialect,
    options,
  );
  expect(more).toEqual([]);
  expect(change?.kind).toBe("contains-added");
  return change?.backward;
};
const extensions = (old: object, next: object, dialect: string) =>
  run(old, next, dialect)
    .filter((c) => c.kind === "extension-changed")
    .map((c) => c.path);

// One constraining value per keyword ajv evaluates in every dialect (draft-07 spelling).
const VALIDATION: Record<string, object> = {
  type: { type: "string" },
  enum: { enum: [1] },
  const: { const: 1 },
  multipleOf: { multipleOf: 2 },
  maximum: { maximum: 1 },
  exclusiveMaximum: { exclusiveMaximum: 1 },
  minimum: { minimum: 1 },
  exclusiveMinimum: { exclusiveMinimum: 1 },
  maxLength: { maxLength: 1 },
  minLength: { minLength: 1 },
  pattern: { pattern: "^a" },
  items: { items: false },
  additionalItems: { items: [true], additionalItems: false },
  maxItems: { maxItems: 0 },
  minItems: { minItems: 2 },
  uniqueItems: { uniqueItems: true },
  contains: { contains: false },
  maxProperties: { maxProperties: 0 },
  minProperties: { minProperties: 1 },
  required: { required: ["a"] },
  properties: { properties: { a: false } },
  patternProperties: { patternProperties: { "^a": false } },
  additionalProperties: { additionalProperties: false },
  dependencies: { dependencies: { a: ["b"] } },
  propertyNames: { propertyNames: false },
  allOf: { allOf: [false] },
  anyOf: { anyOf: [false] },
  oneOf: { oneOf: [false] },
  not: { not: {} },
  $ref: { $ref: "#/definitions/none" },
};
// The keywords ajv evaluates only from 2019-09 on.
const MODERN: Record<string, object> = {
  prefixItems: { prefixItems: [false] },
  unevaluatedItems: { unevaluatedItems: false },
  unevaluatedProperties: { unevaluatedProperties: false },
  dependentRequired: { dependentRequired: { a: ["b"] } },
  dependentSchemas: { dependentSchemas: { a: false } },
  minContains: { contains: true, minContains: 2 },
  maxContains: { contains: { type: "string" }, maxContains: 0 },
};
const none = { definitions: { none: false } };

describe("keywords ajv evaluates", () => {
  it.each(Object.entries(VALIDATION))("%s constrains in draft-07 and in 2020-12", (_key, inner) => {
    expect(containsProbe(inner, D7, {}, none)).toBe("breaks");
    expect(containsProbe(inner, D, {}, none)).toBe("breaks");
  });

  it.each(Object.entries(MODERN))(
    "%s constrains from 2019-09 on and is an extension before",
    (_key, inner) => {
      expect(containsProbe(inner, D)).toBe("breaks");
      expect(containsProbe(inner, D2019)).toBe("breaks");
      expect(containsProbe(inner, D7)).toBe(Object.keys(inner).includes("contains") ? "breaks" : "ok");
    },
  );

  it.each(Object.entries(VALIDATION))("%s added is never reported as an extension", (_key, inner) => {
    expect(extensions(none, { ...none, ...inner }, D7)).toEqual([]);
  });

  it("nor is one of if, then, else, $ref, $recursiveRef or $dynamicRef", () => {
    const conditional = (then: object) => ({ if: { type: "string" }, then, else: { type: "integer" } });
    expect(extensions(conditional({ minLength: 1 }), conditional({ minLength: 2 }), D7)).toEqual([]);
    expect(
      extensions({ if: { minLength: 1 }, then: false }, { if: { minLength: 2 }, then: false }, D7),
    ).toEqual([]);
    expect(
      extensions({ if: { minLength: 1 }, else: false }, { if: { minLength: 1 }, else: true }, D7),
    ).toEqual([]);
    // A reference beside another keyword stays in its node (the engine applies both): it is a branch.
    const changes = (old: object, next: object, dialect: string) =>
      run(old, next, dialect).map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`);
    const defs = { $defs: { a: { minLength: 1 } } };
    expect(changes({ type: "string", ...defs }, { type: "string", $ref: "#/$defs/a", ...defs }, D)).toEqual([
      "all-of-branch-added /$ref breaks/ok: NEW adds a schema every document must also pass",
    ]);
    const node = (more: object) => ({ type: "object", properties: { n: { type: "object", ...more } } });
    const recursive = { $recursiveAnchor: true };
    expect(
      changes({ ...recursive, ...node({}) }, { ...recursive, ...node({ $recursiveRef: "#" }) }, D2019),
    ).toEqual([
      "all-of-branch-added /properties/n/$ref breaks/ok: NEW adds a schema every document must also pass",
    ]);
    const dynamic = { $dynamicAnchor: "node" };
    expect(
      changes({ ...dynamic, ...node({}) }, { ...dynamic, ...node({ $dynamicRef: "#node" }) }, D),
    ).toEqual([
      "all-of-branch-added /properties/n/$ref breaks/ok: NEW adds a schema every document must also pass",
    ]);
  });

  it.each(Object.entries(MODERN))("%s added is an extension in draft-07 only", (key, inner) => {
    expect(extensions({}, inner, D7)).toEqual([`/${key}`]);
    expect(extensions({}, inner, D2019)).toEqual([]);
    expect(extensions({}, inner, D)).toEqual([]);
  });
});

describe("keywords that constrain nothing", () => {
  it.each([
    ["title", { title: "x" }],
    ["description", { description: "x" }],
    ["examples", { examples: [1] }],
    ["default", { default: 1 }],
    ["$comment", { $comment: "x" }],
    ["deprecated", { deprecated: true }],
    ["readOnly", { readOnly: true }],
    ["writeOnly", { writeOnly: true }],
    ["contentSchema", { contentSchema: false }],
    ["$anchor", { $anchor: "a" }],
    ["$dynamicAnchor", { $dynamicAnchor: "a" }],
    ["$vocabulary", { $vocabulary: {} }],
    ["$defs", { $defs: { a: false } }],
    ["definitions", { definitions: { a: false } }],
    ["an unknown keyword", { "x-a": false }],
  ])("%s accepts everything", (_what, inner) => {
    expect(containsProbe(inner, D)).toBe("ok");
  });

  it("format and content are annotations unless asserted (drafts 04 to 07 with --assert-formats)", () => {
    const asserting = { compiler: new SchemaCompiler({ assertFormats: true }) };
    for (const inner of [
      { format: "email" },
      { contentMediaType: "application/json" },
      { contentEncoding: "base64" },
    ]) {
      expect(containsProbe(inner, D)).toBe("ok");
      expect(containsProbe(inner, D7)).toBe("ok");
      expect(containsProbe(inner, D, asserting)).toBe("ok");
      expect(containsProbe(inner, D7, asserting)).toBe("breaks");
    }
  });

  it("annotations are reported under their own kinds", () => {
    const kinds = (key: string) => run({ [key]: 1 }, { [key]: 2 }, D).map((c) => c.kind);
    expect(kinds("title")).toEqual(["title-changed"]);
    expect(kinds("description")).toEqual(["description-changed"]);
    expect(kinds("examples")).toEqual(["examples-changed"]);
    expect(kinds("default")).toEqual(["default-changed"]);
    expect(kinds("$comment")).toEqual(["comment-changed"]);
    expect(kinds("deprecated")).toEqual(["deprecated-changed"]);
    expect(kinds("readOnly")).toEqual(["read-only-changed"]);
    expect(kinds("writeOnly")).toEqual(["write-only-changed"]);
    expect(kinds("contentMediaType")).toEqual(["content-changed"]);
    expect(kinds("contentEncoding")).toEqual(["content-changed"]);
    expect(kinds("contentSchema")).toEqual(["content-changed"]);
  });

  it("identification and containers are neither annotations nor extensions", () => {
    const rewrite = ["equivalent-rewrite"];
    const kinds = (old: object, next: object, dialect = D) => run(old, next, dialect).map((c) => c.kind);
    expect(kinds({ $id: "https://a.test/x" }, { $id: "https://a.test/y" })).toEqual(["id-changed"]);
    expect(kinds({ id: "https://a.test/x" }, { id: "https://a.test/y" }, D4)).toEqual(["id-changed"]);
    expect(kinds({ $anchor: "a" }, { $anchor: "b" })).toEqual(rewrite);
    expect(kinds({ $dynamicAnchor: "a" }, { $dynamicAnchor: "b" })).toEqual(rewrite);
    expect(kinds({ $recursiveAnchor: true }, { $recursiveAnchor: false }, D2019)).toEqual(rewrite);
    expect(kinds({ $vocabulary: {} }, { $vocabulary: { "https://a.test/v": false } })).toEqual(rewrite);
    expect(kinds({ $defs: { a: 1 } }, { $defs: { a: 2 } })).toEqual(rewrite);
    expect(kinds({ definitions: { a: 1 } }, { definitions: { a: 2 } }, D7)).toEqual(rewrite);
    expect(diffSchemas({ $schema: D7 }, { $schema: D }).changes.map((c) => c.kind)).toEqual([
      "dialect-changed",
    ]);
  });
});
