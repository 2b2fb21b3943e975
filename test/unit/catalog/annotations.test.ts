import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { isDeferred } from "../../../src/catalog/deferred.js";
import type { Dialect } from "../../../src/catalog/dialect.js";

// The classes of the JSON-Schema-Test-Suite's 2019-09 and 2020-12 tests that need annotations or the
// dynamic scope (issue 27), as the annotation engine (src/catalog/annotations.ts, schemasafe with the
// changes of src/catalog/schemasafe.ts) answers them.
const compiler = new SchemaCompiler();
const compile = (json: unknown, dialect: Dialect, uri = "https://example.com/s.json") =>
  compiler.compileVersion({ uri, json, name: "s.json", dialect });
const answers = (validate: (d: unknown) => boolean, documents: unknown[]) =>
  documents.map((d) => validate(d));

describe("unevaluatedItems", () => {
  it("counts an item `contains` matched as evaluated, and none when minContains is 0 and none match", () => {
    const validate = compile(
      { contains: { type: "string" }, minContains: 0, unevaluatedItems: false },
      "2020-12",
    );
    expect(answers(validate, [[], ["a", "b"], ["a", 1], [1]])).toEqual([true, true, false, false]);
  });

  it("counts the items of a nested items as evaluated only at their own depth", () => {
    const validate = compile(
      { prefixItems: [{ items: { type: "number" } }], unevaluatedItems: false },
      "2020-12",
    );
    expect(answers(validate, [[[1, 2]], [[1], 2], [["a"]]])).toEqual([true, false, false]);
  });

  it("2019-09: items as an array and additionalItems evaluate, an `if` without then counts", () => {
    const validate = compile(
      { items: [{ type: "string" }], if: { items: [true, { const: 1 }] }, unevaluatedItems: false },
      "2019-09",
    );
    expect(answers(validate, [["a"], ["a", 1], ["a", 2]])).toEqual([true, true, false]);
  });
});

describe("unevaluated* across a $dynamicRef or $recursiveRef (threw: Cannot read properties of null)", () => {
  it("2020-12: what the dynamic target evaluated is evaluated", () => {
    const validate = compile(
      {
        $id: "https://example.com/derived",
        $ref: "./base",
        $defs: {
          derived: { $dynamicAnchor: "addons", properties: { bar: { type: "string" } } },
          base: {
            $id: "./base",
            unevaluatedProperties: false,
            properties: { foo: { type: "string" } },
            $dynamicRef: "#addons",
            $defs: { none: { $dynamicAnchor: "addons" } },
          },
        },
      },
      "2020-12",
      "https://example.com/derived",
    );
    expect(answers(validate, [{ foo: "a", bar: "b" }, { foo: "a", baz: 1 }, { bar: 1 }])).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("2019-09: what the recursive target evaluated is evaluated", () => {
    const validate = compile(
      {
        $id: "https://example.com/extended-tree",
        $recursiveAnchor: true,
        $ref: "./tree",
        properties: { name: { type: "string" } },
        $defs: {
          tree: {
            $id: "./tree",
            $recursiveAnchor: true,
            type: "object",
            properties: { node: true, branches: { unevaluatedProperties: false, $recursiveRef: "#" } },
            required: ["node"],
          },
        },
      },
      "2019-09",
      "https://example.com/extended-tree",
    );
    expect(
      answers(validate, [
        { name: "a", node: 1, branches: { name: "b", node: 2 } },
        { name: "a", node: 1, branches: { foo: "b", node: 2 } },
      ]),
    ).toEqual([true, false]);
  });

  it("a $ref cycle reports what the inner call evaluated", () => {
    const validate = compile(
      {
        $defs: {
          node: {
            properties: { name: { type: "string" }, child: { $ref: "#/$defs/node" } },
            unevaluatedProperties: false,
          },
        },
        $ref: "#/$defs/node",
      },
      "2020-12",
    );
    expect(
      answers(validate, [{ name: "a", child: { name: "b", child: {} } }, { child: { other: 1 } }]),
    ).toEqual([true, false]);
  });
});

describe("the dynamic scope", () => {
  it("a $ref into another resource's subschema enters that resource's dynamic scope", () => {
    const resource = (id: string, next: unknown, length?: number) => ({
      $id: id,
      $defs: {
        stuff: next,
        length: length === undefined ? { maxLength: 1 } : { $dynamicAnchor: "length", maxLength: length },
      },
    });
    const validate = compile(
      {
        $id: "https://example.com/base",
        $ref: "first#/$defs/stuff",
        $defs: {
          first: resource("first", { $ref: "second#/$defs/stuff" }),
          second: resource("second", { $ref: "third#/$defs/stuff" }, 2),
          third: resource("third", { $dynamicRef: "#length" }, 3),
        },
      },
      "2020-12",
      "https://example.com/base",
    );
    expect(answers(validate, ["hi", "hey"])).toEqual([true, false]);
  });
});

describe("a catalog file without $id (its URI a file: URL)", () => {
  it("resolves a $dynamicRef to its root's $dynamicAnchor and a relative $ref to a shared file", () => {
    const tree = compile(
      {
        $dynamicAnchor: "node",
        type: "object",
        properties: { name: { type: "string" }, children: { items: { $dynamicRef: "#node" } } },
        unevaluatedProperties: false,
      },
      "2020-12",
      "file:///schemas/tree/1.json",
    );
    expect(answers(tree, [{ children: [{ name: "a" }] }, { children: [{ name: 1 }] }, { x: 1 }])).toEqual([
      true,
      false,
      false,
    ]);
    const shared = compiler.compileVersion({
      uri: "file:///schemas/event/1.json",
      json: { properties: { amount: { $ref: "../common/money.json" } }, unevaluatedProperties: false },
      name: "1.json",
      dialect: "2020-12",
      refs: [{ uri: "file:///schemas/common/money.json", json: { type: "number" }, name: "money.json" }],
    });
    expect(answers(shared, [{ amount: 1 }, { amount: "1" }, { other: 1 }])).toEqual([true, false, false]);
  });
});

describe("what ajv's versions ignore, the annotation engine ignores", () => {
  it("an unknown format, OpenAPI's discriminator and vendor keywords", () => {
    const validate = compile(
      {
        "x-vendor": { a: 1 },
        discriminator: { propertyName: "kind" },
        properties: { id: { type: "integer", format: "int64" }, format: { type: "string" } },
        unevaluatedProperties: false,
      },
      "2020-12",
    );
    expect(answers(validate, [{ id: 1, format: "x" }, { id: "1" }, { other: 1 }])).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("is compiled at load, not deferred: ajv's proof does not cover it", () => {
    const json = { properties: { a: { type: "string" } }, unevaluatedProperties: false };
    const input = { uri: "https://example.com/s.json", json, name: "s.json" };
    expect(isDeferred(compiler.compileOnFirstUse({ ...input, dialect: "2020-12" }))).toBe(false);
    const { unevaluatedProperties: _, ...plain } = json;
    expect(isDeferred(compiler.compileOnFirstUse({ ...input, json: plain, dialect: "2020-12" }))).toBe(true);
  });
});

describe("nested relative refs (ajv ran out of stack compiling them)", () => {
  it("a $ref beside an $id resolves against that $id, relative or URN", () => {
    const relative = compile(
      {
        $id: "http://example.com/defs1.json",
        properties: {
          foo: {
            $id: "defs2.json",
            $defs: { inner: { properties: { bar: { type: "string" } } } },
            $ref: "#/$defs/inner",
          },
        },
        $ref: "defs2.json",
      },
      "2020-12",
      "http://example.com/defs1.json",
    );
    expect(
      answers(relative, [{ foo: { bar: "a" }, bar: "a" }, { foo: { bar: 1 }, bar: "a" }, { bar: 1 }]),
    ).toEqual([true, false, false]);
    const urn = "urn:uuid:deadbeef-4321-ffff-ffff-1234feebdaed";
    const nested = compile(
      { $ref: urn, $defs: { foo: { $id: urn, $defs: { bar: { type: "string" } }, $ref: "#/$defs/bar" } } },
      "2019-09",
    );
    expect(answers(nested, ["bar", 12])).toEqual([true, false]);
  });
});

describe("patterns under the annotation engine", () => {
  const schema = (pattern: string) => ({
    unevaluatedProperties: false,
    properties: { a: { type: "string", pattern } },
    patternProperties: { "^(x+x+)+y$": true },
  });

  it("a pattern that backtracks natively runs in linear time, in pattern and patternProperties", () => {
    const validate = compile(schema("^(a+)+$"), "2020-12");
    const started = performance.now();
    expect(validate({ a: `${"a".repeat(50_000)}!` })).toBe(false);
    expect(validate({ [`${"x".repeat(50_000)}`]: 1 })).toBe(false);
    expect(answers(validate, [{ a: "aaa" }, { xxy: 1 }])).toEqual([true, true]);
    // Natively, 2^50000 ways to fail: this never ends.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("a pattern valid only without the u flag compiles, and reads as ajv's versions read it", () => {
    const validate = compile(schema("^[a-z\\_]+$"), "2020-12");
    expect(answers(validate, [{ a: "a_b" }, { a: "A" }])).toEqual([true, false]);
  });

  it("a pattern that is no regular expression refuses the version, naming where it is", () => {
    expect(() => compile(schema("^(a$"), "2020-12")).toThrow(
      /s\.json: #\/properties\/a\/pattern: does not compile: \/\^\(a\$\/ is not a regular expression/,
    );
  });
});
