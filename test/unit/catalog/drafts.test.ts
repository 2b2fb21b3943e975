import { describe, expect, it } from "vitest";
import { loadSchemaFiles } from "../../../src/catalog/load.js";
import { writeTree } from "../../helpers/files.js";

async function compile(schema: unknown) {
  const dir = await writeTree({ "s.json": schema });
  const [loaded] = await loadSchemaFiles([`${dir}/s.json`]);
  return loaded!;
}

describe("JSON Schema dialects, chosen by $schema", () => {
  it("draft-04: boolean exclusiveMaximum and `id`", async () => {
    const { file, validate } = await compile({
      $schema: "http://json-schema.org/draft-04/schema#",
      id: "https://example.com/price/1.0.json",
      type: "number",
      maximum: 10,
      exclusiveMaximum: true,
    });
    expect(file.dialect).toBe("draft-04");
    expect(file.declaredId).toBe("https://example.com/price/1.0.json");
    expect([validate(9.5), validate(10)]).toEqual([true, false]);
  });

  it("draft-06: const and numeric exclusiveMaximum", async () => {
    const { file, validate } = await compile({
      $schema: "http://json-schema.org/draft-06/schema#",
      type: "object",
      properties: { kind: { const: "a" }, n: { exclusiveMaximum: 3 } },
    });
    expect(file.dialect).toBe("draft-06");
    expect([validate({ kind: "a", n: 2 }), validate({ kind: "b" }), validate({ n: 3 })]).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("draft-07: if/then/else", async () => {
    const { file, validate } = await compile({
      $schema: "http://json-schema.org/draft-07/schema#",
      if: { properties: { event: { const: "buy" } } },
      then: { required: ["amount"] },
    });
    expect(file.dialect).toBe("draft-07");
    expect([
      validate({ event: "buy", amount: 1 }),
      validate({ event: "buy" }),
      validate({ event: "view" }),
    ]).toEqual([true, false, true]);
  });

  it("2019-09: dependentRequired and unevaluatedProperties", async () => {
    const { file, validate } = await compile({
      $schema: "https://json-schema.org/draft/2019-09/schema",
      allOf: [{ properties: { id: { type: "integer" } } }],
      properties: { amount: {}, currency: {} },
      dependentRequired: { amount: ["currency"] },
      unevaluatedProperties: false,
    });
    expect(file.dialect).toBe("2019-09");
    expect(validate({ id: 1, amount: 1, currency: "EUR" })).toBe(true);
    expect(validate({ id: 1, amount: 1 })).toBe(false);
    expect(validate({ id: 1, x: 1 })).toBe(false);
  });

  it("2020-12: prefixItems", async () => {
    const { file, validate } = await compile({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
      items: false,
    });
    expect(file.dialect).toBe("2020-12");
    expect([validate(["a"]), validate(["a", 1]), validate([1])]).toEqual([true, false, false]);
  });

  it("reports the first failing keyword and path", async () => {
    const { validate } = await compile({
      type: "object",
      properties: { items: { type: "array", items: { type: "integer" } } },
    });
    expect(validate({ items: [1, "two"] })).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: "type", instancePath: "/items/1" });
  });

  it("refuses an unknown $schema, naming the file", async () => {
    const dir = await writeTree({ "s.json": { $schema: "https://example.com/my-meta" } });
    await expect(loadSchemaFiles([`${dir}/s.json`])).rejects.toThrow(
      `${dir}/s.json: its $schema 'https://example.com/my-meta' is a meta-schema schemawatch does not hold`,
    );
  });

  it("never fetches a remote ref", async () => {
    const dir = await writeTree({ "s.json": { $ref: "https://json-schema.example.net/remote.json" } });
    await expect(loadSchemaFiles([`${dir}/s.json`])).rejects.toThrow(
      /s\.json: #\/\$ref: can't resolve reference .*remote refs are never fetched/,
    );
  });
});
