import { describe, expect, it } from "vitest";
import { ShapeKeys, shapeOf, shapeTypeOf } from "../../../src/pipeline/shape.js";

describe("shapeOf", () => {
  it("lists the key paths and value types of a flat document, sorted, with the root", () => {
    expect(shapeOf({ id: 1, event: "view", amount: 1.5 }).paths).toEqual([
      "/amount:number",
      "/event:string",
      "/id:integer",
      ":object",
    ]);
  });

  it("collapses array elements to * and keeps empty containers, null and booleans apart", () => {
    const document = {
      id: 7,
      items: [
        { sku: "a", qty: 2 },
        { sku: "b", price: 1.5, tags: [] },
      ],
      matrix: [[1], [2, 3]],
      meta: {},
      note: null,
      ok: true,
    };
    expect(shapeOf(document).paths).toEqual([
      "/id:integer",
      "/items/*/price:number",
      "/items/*/qty:integer",
      "/items/*/sku:string",
      "/items/*/tags:empty-array",
      "/items/*:object",
      "/items:array",
      "/matrix/*/*:integer",
      "/matrix/*:array",
      "/matrix:array",
      "/meta:empty-object",
      "/note:null",
      "/ok:boolean",
      ":object",
    ]);
  });

  it("escapes / and ~ in keys as JSON Pointer does", () => {
    expect(shapeOf({ "a/b": 1, "c~d": "x" }).paths).toEqual(["/a~1b:integer", "/c~0d:string", ":object"]);
  });

  it("gives a document that is not an object a shape too", () => {
    expect(shapeOf(3).paths).toEqual([":integer"]);
    expect(shapeOf([]).paths).toEqual([":empty-array"]);
    expect(shapeOf(["a", 1]).paths).toEqual(["/*:integer", "/*:string", ":array"]);
  });

  it("tells integers from other numbers", () => {
    expect(shapeTypeOf(12)).toBe("integer");
    expect(shapeTypeOf(1.5)).toBe("number");
    expect(shapeOf({ amount: 12 }).key).not.toBe(shapeOf({ amount: 1.5 }).key);
  });

  it("ignores key order, array length and element order", () => {
    const key = shapeOf({ id: 1, items: [{ a: 1 }, { b: "x" }] }).key;
    expect(shapeOf({ items: [{ b: "y" }, { a: 2 }, { a: 3 }], id: 9 }).key).toBe(key);
    expect(shapeOf({ items: [{ a: 1, b: "x" }], id: 1 }).key).toBe(key);
  });

  it("keeps keys stable: they name exported files and live in the state", () => {
    expect(shapeOf({ id: 1, event: "view" }).key).toBe("274fb235a7e5");
    expect(shapeOf({ id: 2, event: "buy", amount: 12 }).key).toBe("1f5bd3bd1a8a");
    expect(shapeOf({ id: 3, event: "view", amount: 1.5 }).key).toBe("4a41c22baf98");
  });
});

describe("ShapeKeys", () => {
  const documents: unknown[] = [
    { id: 1, event: "view" },
    { event: "view", id: 1 },
    { id: 1, event: "view", amount: 12 },
    { id: 1, event: "view", amount: 1.5 },
    { items: [] },
    { items: [1, 2, 3] },
    { items: [1, "a", 2] },
    { items: [{ a: 1 }, { a: 2 }, { b: null }] },
    { items: [[{ a: 1 }], [], [{ a: true }]] },
    { a: {} },
    { a: { b: {} } },
    { ab: 1 },
    { a: 1, b: 1 },
    [],
    [{}],
    "text",
    null,
  ];

  it("gives the key shapeOf gives, on first sight and from its cache", () => {
    const keys = new ShapeKeys();
    for (let round = 0; round < 3; round++) {
      for (const document of documents) expect(keys.key(document)).toBe(shapeOf(document).key);
    }
  });

  it("stays right when more shapes than its cache holds go through it", () => {
    const keys = new ShapeKeys();
    const many = Array.from({ length: 3000 }, (_, i) => ({ [`k${i}`]: i % 2 ? 1 : "x", id: i }));
    for (let round = 0; round < 2; round++) {
      for (const document of many) expect(keys.key(document)).toBe(shapeOf(document).key);
    }
  });
});
