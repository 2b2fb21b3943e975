import { describe, expect, it } from "vitest";
import { readValues, selectFields, type FieldOptions } from "../../../src/stats/fields.js";

const options: FieldOptions = { maxFields: 20, maxValues: 20, include: [], exclude: [], redact: [] };

const order = {
  type: "object",
  definitions: { money: { type: "number" } },
  properties: {
    id: { type: "string" },
    amount: { type: "integer" },
    currency: { enum: ["EUR", "USD"] },
    customer: {
      type: "object",
      properties: { age: { type: ["integer", "null"] }, email: { type: "string" } },
    },
    items: {
      type: "array",
      items: { type: "object", properties: { price: { $ref: "#/definitions/money" } } },
    },
    tags: { enum: Array.from({ length: 21 }, (_, i) => `t${i}`) },
  },
};

const pointers = (o: Partial<FieldOptions>) => {
  const selection = selectFields(order, { ...options, ...o });
  return {
    fields: selection.fields.map((f) => `${f.pointer} ${f.kind}`),
    overflow: selection.overflow,
    redacted: selection.redacted,
  };
};

describe("selectFields", () => {
  it("profiles every number and short enum the schema declares, nested by pointer, in schema order, then strings' lengths", () => {
    expect(pointers({})).toEqual({
      fields: [
        "/amount number",
        "/currency values",
        "/customer/age number",
        "/items/*/price number",
        "/id length",
        "/customer/email length",
      ],
      overflow: 0,
      redacted: 0,
    });
  });

  it("bounds the fields per subject and counts the rest", () => {
    expect(pointers({ maxFields: 2 })).toEqual({
      fields: ["/amount number", "/currency values"],
      overflow: 4,
      redacted: 0,
    });
  });

  it("puts named fields first (so the bound never drops them), a named string as values, and leaves excluded ones out", () => {
    expect(pointers({ maxFields: 3, include: ["/id", "/items/*/price"], exclude: ["/customer"] })).toEqual({
      fields: ["/id values", "/items/*/price number", "/amount number"],
      overflow: 1,
      redacted: 0,
    });
  });

  it("never profiles a corpus.redact pointer nor anything under it, even when named", () => {
    expect(pointers({ include: ["/customer/age"], redact: ["/customer", "/items/0/price"] })).toEqual({
      fields: ["/amount number", "/currency values", "/id length"],
      overflow: 0,
      redacted: 3,
    });
  });

  it("follows a recursive $ref once and ends", () => {
    const tree = {
      $defs: {
        node: { type: "object", properties: { weight: { type: "number" }, child: { $ref: "#/$defs/node" } } },
      },
      $ref: "#/$defs/node",
    };
    expect(selectFields(tree, options).fields.map((f) => f.pointer)).toEqual(["/weight"]);
  });

  it("follows a $ref to the document's own $id, absolute or relative to it, as the field verdicts' walk does (issue 42)", () => {
    const schema = {
      $id: "https://example.com/schemas/payment/1.1.json",
      $defs: { money: { type: "number" }, code: { enum: ["EUR", "USD"] }, note: { type: "string" } },
      type: "object",
      properties: {
        amount: { $ref: "https://example.com/schemas/payment/1.1.json#/$defs/money" },
        currency: { $ref: "1.1.json#/$defs/code" },
        fee: { $ref: "/schemas/payment/1.1.json#/%24defs/money" },
        memo: { $ref: "https://example.com/schemas/payment/1.1.json#/$defs/note" },
        // Another document, a malformed escape and an anchor: not read (unresolved, never a crash).
        rate: { $ref: "https://example.com/schemas/rates.json#/$defs/money" },
        odd: { $ref: "1.1.json#/%E0%A4%A" },
        tag: { $ref: "#money" },
      },
    };
    expect(selectFields(schema, options).fields.map((f) => [f.pointer, f.kind])).toEqual([
      ["/amount", "number"],
      ["/currency", "values"],
      ["/fee", "number"],
      ["/memo", "length"],
    ]);
  });
});

describe("readValues", () => {
  const read = (document: unknown, path: string[]) => {
    const seen: unknown[] = [];
    const n = readValues(document, path, (v) => seen.push(v));
    return { n, seen };
  };

  it("reads every element under *, and nothing where the document has no value", () => {
    const doc = { items: [{ price: 3 }, { sku: "a" }, { price: 4.5 }], amount: 0 };
    expect(read(doc, ["items", "*", "price"])).toEqual({ n: 2, seen: [3, 4.5] });
    expect(read(doc, ["amount"])).toEqual({ n: 1, seen: [0] });
    expect(read(doc, ["missing", "x"])).toEqual({ n: 0, seen: [] });
  });

  it("reads at most 100 values of one field from one record", () => {
    const doc = { items: Array.from({ length: 1000 }, (_, i) => ({ price: i })) };
    expect(read(doc, ["items", "*", "price"]).n).toBe(100);
  });
});
