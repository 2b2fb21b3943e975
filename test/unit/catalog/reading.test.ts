import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import type { Dialect } from "../../../src/catalog/dialect.js";
import { idIgnored, refSiblingsIgnored } from "../../../src/catalog/reading.js";

// One case of each class of the JSON-Schema-Test-Suite's required tests that schemawatch answered
// wrongly or refused (issue 27), written here so that `npm test` holds them without the suite.
const compiler = new SchemaCompiler();
const compile = (json: unknown, dialect: Dialect, uri = "https://example.com/s.json") =>
  compiler.compileVersion({ uri, json, name: "s.json", dialect });
const answers = (validate: (d: unknown) => boolean, documents: unknown[]) =>
  documents.map((d) => validate(d));

describe("the reading a schema gets before it is evaluated", () => {
  it("ignores $ref siblings in drafts 04 to 07 only, and their id below the root", () => {
    const dialects: Dialect[] = ["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"];
    expect(dialects.map(refSiblingsIgnored)).toEqual([true, true, true, false, false]);
    expect(idIgnored({ $ref: "#/a", $id: "x" }, "draft-07", false)).toBe(true);
    expect(idIgnored({ $ref: "#/a", $id: "x" }, "draft-07", true)).toBe(false);
    expect(idIgnored({ $id: "x" }, "draft-07", false)).toBe(false);
    expect(idIgnored({ $ref: "#/a", $id: "x" }, "2020-12", false)).toBe(false);
  });
});

describe("validation as the JSON-Schema-Test-Suite says", () => {
  it("required and properties name own properties, never Object.prototype's", () => {
    const required = compile({ required: ["constructor", "__proto__"] }, "draft-07");
    expect(
      answers(required, [{}, { constructor: 1 }, JSON.parse('{"constructor":1,"__proto__":2}')]),
    ).toEqual([false, false, true]);
    const properties = compile(
      // Parsed, as a record is: in a literal, `__proto__:` sets the prototype instead.
      JSON.parse('{"properties":{"toString":{"type":"number"},"__proto__":{"type":"number"}}}'),
      "2020-12",
    );
    expect(
      answers(properties, [
        {},
        { toString: "x" },
        JSON.parse('{"__proto__":"x"}'),
        JSON.parse('{"__proto__":1}'),
      ]),
    ).toEqual([true, false, false, true]);
  });

  it("drafts 04 to 07 ignore keywords beside $ref; 2019-09 applies them", () => {
    const schema = {
      definitions: { list: { type: "array" } },
      $ref: "#/definitions/list",
      type: "object",
      maxItems: 1,
    };
    expect(answers(compile(schema, "draft-04"), [[1, 2], "x"])).toEqual([true, false]);
    expect(answers(compile(schema, "draft-07"), [[1, 2], "x"])).toEqual([true, false]);
    expect(
      answers(compile({ ...schema, $defs: schema.definitions, $ref: "#/$defs/list" }, "2019-09"), [
        [1, 2],
        [1],
        {},
      ]),
    ).toEqual([false, false, false]);
  });

  it("an $id beside $ref in draft-07 does not move the base URI the $ref resolves against", () => {
    const validate = compile(
      {
        $id: "http://example.com/base/",
        definitions: {
          inner: { $id: "http://example.com/other/foo.json", type: "string" },
          foo: { $id: "foo.json", type: "number" },
        },
        allOf: [{ $id: "http://example.com/other/", $ref: "foo.json" }],
      },
      "draft-07",
      "http://example.com/base/",
    );
    expect(answers(validate, [1, "a"])).toEqual([true, false]);
  });

  it("unevaluatedProperties sees what `if` evaluated, with no then or else", () => {
    const validate = compile(
      { if: { properties: { foo: { const: "then" } }, required: ["foo"] }, unevaluatedProperties: false },
      "2020-12",
    );
    expect(answers(validate, [{ foo: "then" }, { foo: "else" }, { bar: 1 }])).toEqual([true, false, false]);
    expect(validate.errors?.[0]).toMatchObject({ keyword: "unevaluatedProperties", instancePath: "" });
  });

  it("unevaluatedItems sees what `contains` evaluated", () => {
    const validate = compile(
      { contains: { type: "string" }, unevaluatedItems: { type: "number" } },
      "2020-12",
    );
    expect(
      answers(validate, [
        ["a", 1],
        ["a", true],
        ["a", "b"],
      ]),
    ).toEqual([true, false, true]);
  });

  it("$dynamicRef resolves to the outermost $dynamicAnchor in the dynamic scope", () => {
    const validate = compile(
      {
        $id: "https://example.com/strict",
        $ref: "list",
        $defs: {
          item: { $dynamicAnchor: "item", type: "string" },
          list: {
            $id: "list",
            type: "array",
            items: { $dynamicRef: "#item" },
            $defs: { any: { $dynamicAnchor: "item" } },
          },
        },
      },
      "2020-12",
      "https://example.com/strict",
    );
    expect(answers(validate, [["a"], [1]])).toEqual([true, false]);
  });

  it("$recursiveRef without $recursiveAnchor in the initial resource is a plain $ref", () => {
    const validate = compile(
      {
        $id: "https://example.com/root",
        anyOf: [{ type: "integer" }, { $ref: "#/$defs/tree" }],
        $defs: {
          tree: {
            $id: "tree",
            $recursiveAnchor: true,
            type: "object",
            additionalProperties: { $recursiveRef: "#" },
          },
        },
      },
      "2019-09",
      "https://example.com/root",
    );
    expect(answers(validate, [1, { a: { b: {} } }, { a: 1 }])).toEqual([true, true, false]);
  });

  it("a URN $id is a base URI a $ref can name with a pointer or an anchor", () => {
    const uri = "urn:uuid:deadbeef-1234-0000-0000-4321feebdaed";
    const validate = compile(
      {
        $id: uri,
        properties: { a: { $ref: `${uri}#/$defs/s` }, b: { $ref: `${uri}#n` } },
        $defs: { s: { type: "string" }, n: { $anchor: "n", type: "number" } },
      },
      "2020-12",
      uri,
    );
    expect(answers(validate, [{ a: "x", b: 1 }, { a: 1 }, { b: "x" }])).toEqual([true, false, false]);
  });

  it("a $ref to the dialect's own meta-schema compiles without fetching it", () => {
    const draft07 = compile({ $ref: "http://json-schema.org/draft-07/schema#" }, "draft-07");
    expect(answers(draft07, [{ type: "string" }, { type: 1 }])).toEqual([true, false]);
    const modern = compile({ $ref: "https://json-schema.org/draft/2020-12/schema" }, "2020-12");
    expect(answers(modern, [{ minLength: 1 }, { minLength: -1 }])).toEqual([true, false]);
  });

  it("an absolute-path $ref resolves against an embedded $id", () => {
    const validate = compile(
      {
        $id: "http://example.com/a.json",
        $defs: {
          x: { $id: "http://example.com/b/c.json", not: { $defs: { y: { $id: "d.json", type: "number" } } } },
        },
        allOf: [{ $ref: "/b/d.json" }],
      },
      "2020-12",
      "http://example.com/a.json",
    );
    expect(answers(validate, [1, "a"])).toEqual([true, false]);
  });
});
