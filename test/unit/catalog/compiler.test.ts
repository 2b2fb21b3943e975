import { describe, expect, it } from "vitest";
import { compileVersion, SchemaCompiler } from "../../../src/catalog/compiler.js";
import { loadSchemaFiles } from "../../../src/catalog/load.js";
import { writeTree } from "../../helpers/files.js";

const compiler = new SchemaCompiler();
const compile = (json: unknown, uri = "https://example.com/s.json") =>
  compiler.compileVersion({ uri, json, name: "s.json" });

describe("schemas as registries read them: draft-07 without $schema", () => {
  it("reads tuple items with additionalItems, definitions and dependencies as draft-07", () => {
    const validate = compile({
      type: "array",
      items: [{ $ref: "#/definitions/name" }, { type: "integer" }],
      additionalItems: false,
      definitions: { name: { type: "string" } },
    });
    expect([validate(["a", 1]), validate(["a", 1, 2]), validate([1])]).toEqual([true, false, false]);
    const dependent = compile({ dependencies: { amount: ["currency"], card: { required: ["cvc"] } } });
    expect([
      dependent({ amount: 1 }),
      dependent({ amount: 1, currency: "EUR" }),
      dependent({ card: 1 }),
    ]).toEqual([false, true, false]);
  });

  it("ignores keywords beside $ref in draft-07, as the draft says, and applies them from 2019-09 on", () => {
    const schema = {
      definitions: { s: { type: "string" } },
      properties: { a: { $ref: "#/definitions/s", maxLength: 3 } },
    };
    const validate = compile(schema);
    expect([validate({ a: "abc" }), validate({ a: "abcd" }), validate({ a: 1 })]).toEqual([
      true,
      true,
      false,
    ]);
    const modern = compileVersion({
      uri: "https://example.com/m.json",
      json: schema,
      name: "m.json",
      dialect: "2019-09",
    });
    expect([modern({ a: "abc" }), modern({ a: "abcd" })]).toEqual([true, false]);
    expect(modern.errors?.[0]).toMatchObject({ keyword: "maxLength", instancePath: "/a" });
  });

  it("takes another default dialect when told", () => {
    const modern = new SchemaCompiler({ defaultDialect: "2020-12" });
    const validate = modern.compileVersion({
      uri: "https://example.com/t.json",
      json: { prefixItems: [{ type: "string" }], items: false },
      name: "t.json",
    });
    expect([validate(["a"]), validate(["a", 1])]).toEqual([true, false]);
    expect(() => compile({ prefixItems: [{ type: "string" }], items: false })).not.toThrow();
  });
});

describe("every schema its meta-schema accepts compiles", () => {
  it("treats `id` as an unknown keyword in draft-06 and draft-07", () => {
    for (const $schema of [
      "http://json-schema.org/draft-06/schema#",
      "http://json-schema.org/draft-07/schema#",
    ]) {
      const validate = compile({
        $schema,
        id: "order",
        type: "object",
        properties: { id: { type: "integer" } },
      });
      expect([validate({ id: 1 }), validate({ id: "1" })]).toEqual([true, false]);
    }
  });

  it("compiles `enum: []` (it accepts nothing) and a repeated enum value", () => {
    const empty = compile({ properties: { kind: { enum: [] } } });
    expect([empty({}), empty({ kind: "a" })]).toEqual([true, false]);
    expect(empty.errors?.[0]).toMatchObject({ keyword: "enum", instancePath: "/kind" });
    const repeated = compile({ enum: ["a", "a", "b"] });
    expect([repeated("a"), repeated("c")]).toEqual([true, false]);
  });

  it("compiles patterns written for engines without the u flag", () => {
    const validate = compile({ type: "string", pattern: "^[a-z\\_]+$" });
    expect([validate("a_b"), validate("A")]).toEqual([true, false]);
  });

  it("registers a relative $id where refs look for it", async () => {
    const dir = await writeTree({
      "a.json": { $id: "something", type: "string" },
      "b.json": { $id: "schemas/b.json", properties: { c: { $ref: "c.json" } } },
      "schemas/c.json": { $id: "c.json", type: "integer" },
    });
    const [a, b] = await loadSchemaFiles([`${dir}/a.json`, `${dir}/b.json`, `${dir}/schemas/c.json`]);
    expect([a!.validate("x"), a!.validate(1)]).toEqual([true, false]);
    expect(b!.file.baseId).toBe(`file://${dir}/schemas/b.json`);
    expect([b!.validate({ c: 1 }), b!.validate({ c: "1" })]).toEqual([true, false]);
  });

  it("names the file, the JSON Pointer and the meta-schema rule of a schema that breaks it", () => {
    expect(() => compile({ properties: { a: { type: "strng" } } })).toThrow(
      "s.json: does not compile: #/properties/a/type: must be equal to one of the allowed values or must be array " +
        "(rule enum at #/definitions/simpleTypes/enum of the draft-07 meta-schema)",
    );
    expect(() =>
      compile({ $schema: "https://json-schema.org/draft/2020-12/schema", items: [{ type: "string" }] }),
    ).toThrow("s.json: does not compile: #/items: must be object,boolean");
    expect(() => compile({ $schema: "http://json-schema.org/draft-04/schema#", enum: [] })).toThrow(
      "s.json: does not compile: #/enum: must NOT have fewer than 1 items",
    );
  });

  it("names the pointer of a pattern that is no regular expression", () => {
    expect(() => compile({ properties: { a: { pattern: "(" } } })).toThrow(
      "s.json: #/properties/a/pattern: does not compile: /(/ is not a regular expression",
    );
    expect(() => compile({ patternProperties: { "[": { type: "string" } } })).toThrow(
      "s.json: #/patternProperties/[: does not compile",
    );
  });
});

describe("compileVersion: a document, its base URI and what it references", () => {
  it("compiles a registry-style schema whose references come by URI, without files", () => {
    const validate = compileVersion({
      uri: "https://registry.example/subjects/order/versions/3",
      name: "order version 3",
      json: { type: "object", properties: { total: { $ref: "money.json" } }, required: ["total"] },
      refs: [
        {
          uri: "https://registry.example/subjects/order/versions/money.json",
          name: "money version 1",
          json: { type: "object", required: ["cents"], properties: { cents: { type: "integer" } } },
        },
      ],
    });
    expect([validate({ total: { cents: 1 } }), validate({ total: { cents: "1" } })]).toEqual([true, false]);
  });

  it("takes a boolean schema as a reference", () => {
    const validate = compileVersion({
      uri: "https://example.com/a.json",
      name: "a.json",
      json: { properties: { never: { $ref: "never.json" } } },
      refs: [{ uri: "https://example.com/never.json", name: "never.json", json: false }],
    });
    expect([validate({}), validate({ never: 1 })]).toEqual([true, false]);
  });

  it("keeps versions that share an $id apart", () => {
    const shared = "https://example.com/schemas/event.json";
    const v1 = compile(
      {
        $id: shared,
        properties: { n: { $ref: "#/definitions/n" } },
        definitions: { n: { type: "integer" } },
      },
      shared,
    );
    const v2 = compile(
      { $id: shared, properties: { n: { $ref: "#/definitions/n" } }, definitions: { n: { type: "string" } } },
      shared,
    );
    expect([v1({ n: 1 }), v1({ n: "1" }), v2({ n: 1 }), v2({ n: "1" })]).toEqual([true, false, false, true]);
  });

  it("refuses a reference in another dialect family, naming both", () => {
    expect(() =>
      compileVersion({
        uri: "https://example.com/a.json",
        name: "a.json",
        json: { $ref: "b.json" },
        refs: [
          {
            uri: "https://example.com/b.json",
            name: "b.json",
            json: { $schema: "https://json-schema.org/draft/2020-12/schema" },
          },
        ],
      }),
    ).toThrow("a.json: does not compile: it is draft-07 and may $ref b.json, which is 2020-12");
  });
});

describe("format and content: annotations unless asserted (drafts 04 to 07)", () => {
  const schema = { type: "string", format: "email" };
  const content = { type: "string", contentEncoding: "base64", contentMediaType: "application/json" };

  it("are annotations by default", () => {
    expect(compile(schema)("not an email")).toBe(true);
    expect(compile(content)("!")).toBe(true);
  });

  it("are assertions in draft-07 with assertFormats", () => {
    const asserting = new SchemaCompiler({ assertFormats: true });
    const run = (json: unknown) =>
      asserting.compileVersion({ uri: "https://example.com/f.json", json, name: "f.json" });
    expect([run(schema)("a@example.com"), run(schema)("not an email")]).toEqual([true, false]);
    const validate = run(content);
    expect([validate("e30="), validate("!"), validate("YQ==")]).toEqual([true, false, false]);
    expect(validate.errors?.[0]?.keyword).toBe("contentMediaType");
  });

  it("stay annotations in 2020-12 even with assertFormats", () => {
    const asserting = new SchemaCompiler({ assertFormats: true });
    const validate = asserting.compileVersion({
      uri: "https://example.com/f.json",
      json: { $schema: "https://json-schema.org/draft/2020-12/schema", ...schema },
      name: "f.json",
    });
    expect(validate("not an email")).toBe(true);
  });
});
