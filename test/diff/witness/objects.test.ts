// Objects the witness search tries (src/diff/witness/composite.ts): the base object (the required keys
// with plain values), then one change at a time, round-robin over keys: each key either version names
// with each of its values, keys their dependents bring, counts at either side's min/maxProperties,
// names at the edges of the other side's propertyNames, and an unknown key. Deterministic: exact lists.
import { describe, expect, it } from "vitest";
import { budget, MAX_LENGTH } from "../../../src/diff/witness/composite.js";
import { load } from "./load.js";

const objects = (accept: object, reject: object = {}): unknown[] => {
  const { generator, old, new: other } = load({ type: "object", ...accept }, reject);
  return generator.documents(old.root, other.root);
};
const bool = { type: "boolean" };
const zero = { additionalProperties: { const: 0 } };

describe("bounds", () => {
  it("3000 variations at the top of a document, 64 one or two levels down, 12 below; 100 keys at most", () => {
    expect([budget(0), budget(1), budget(2), budget(3), budget(7)]).toEqual([3000, 64, 64, 12, 12]);
    expect(MAX_LENGTH).toBe(100);
  });
});

describe("the base object and the keys varied one at a time", () => {
  it("required keys with their first value, then each other value", () => {
    expect(objects({ properties: { a: bool }, required: ["a"], additionalProperties: false })).toEqual([
      { a: false },
      { a: true },
    ]);
    expect(objects({ properties: { a: bool }, additionalProperties: false })).toEqual([
      {},
      { a: false },
      { a: true },
    ]);
  });

  it("a key no version declares: x, else extra, x-unknown, zz9, else x-schemawatch", () => {
    expect(objects({ properties: { x: bool, extra: bool, "x-unknown": bool }, ...zero })).toEqual([
      {},
      { x: false },
      { extra: false },
      { "x-unknown": false },
      { zz9: 0 },
      { x: true },
      { extra: true },
      { "x-unknown": true },
    ]);
    expect(objects({ patternProperties: { "^x": bool, "^e": bool, "^z": bool }, ...zero })).toEqual([
      {},
      { x: false },
      { e: false },
      { z: false },
      { "x-schemawatch": false },
      { x: true },
      { e: true },
      { z: true },
      { "x-schemawatch": true },
    ]);
  });

  it("a key's schema: its property, the patterns it matches, else additionalProperties", () => {
    const both = {
      properties: { a: bool },
      patternProperties: { "^a": { const: true } },
      additionalProperties: false,
    };
    expect(objects(both)).toEqual([{}, { a: true }]);
  });

  it("unevaluatedProperties applies to keys no schema of the scope declares", () => {
    expect(objects({ allOf: [{ properties: { a: bool } }], unevaluatedProperties: false })).toEqual([
      {},
      { a: false },
      { a: true },
    ]);
    expect(objects({ allOf: [{ properties: { a: bool } }], unevaluatedProperties: { const: 0 } })).toEqual([
      {},
      { a: false },
      { x: 0 },
      { a: true },
    ]);
  });

  it("names matching a pattern: its samples, then samples with digits", () => {
    expect(objects({ patternProperties: { "^p[0-9]$": bool }, additionalProperties: false })).toEqual([
      {},
      { p0: false },
      { p9: false },
      { p0: true },
      { p9: true },
    ]);
  });

  it("a key is never given a value its schema rejects whole, nor a name propertyNames rejects", () => {
    expect(objects({ properties: { a: false }, required: ["a"] })).toEqual([]);
    expect(objects({ propertyNames: false })).toEqual([{}]);
    expect(objects({ propertyNames: { maxLength: 1 }, ...zero })).toEqual([{}, { x: 0 }]);
    expect(objects({ propertyNames: true, ...zero })).toEqual([{}, { x: 0 }]);
  });
});

describe("names the other version gives", () => {
  it("its properties, required keys and dependents' keys, each with this version's values", () => {
    const other = {
      properties: { c: {} },
      required: ["d"],
      dependentRequired: { p: ["q"] },
      dependentSchemas: { r: {} },
    };
    // With a key that has dependents present, the other keys vary against it.
    expect(objects(zero, other)).toEqual([
      {},
      { c: 0 },
      { d: 0 },
      { p: 0 },
      { r: 0 },
      { x: 0 },
      { p: 0, c: 0 },
      { r: 0, c: 0 },
      { p: 0, d: 0 },
      { r: 0, d: 0 },
      { p: 0, r: 0 },
      { r: 0, p: 0 },
      { p: 0, x: 0 },
      { r: 0, x: 0 },
      { p: 0, r: 0, c: 0 },
      { r: 0, p: 0, c: 0 },
      { p: 0, r: 0, d: 0 },
      { r: 0, p: 0, d: 0 },
      { p: 0, r: 0, x: 0 },
      { r: 0, p: 0, x: 0 },
    ]);
  });

  it("not where this version rejects the key", () => {
    const closed = { properties: { a: bool }, additionalProperties: false };
    expect(objects(closed, { properties: { c: { const: 1 } }, required: ["d"] })).toEqual([
      {},
      { a: false },
      { a: true },
    ]);
  });

  it("the keys a `not` names: what the other version forbids is carried on purpose", () => {
    expect(objects(zero, { not: { required: ["k"], properties: { m: {} } } })).toEqual([
      {},
      { k: 0 },
      { m: 0 },
      { x: 0 },
      { k: 0, m: 0 },
      { k: 0, x: 0 },
    ]);
  });

  it("names at the edges of its propertyNames, that this version's propertyNames allows", () => {
    expect(objects(zero, { propertyNames: { maxLength: 2 } })).toEqual([
      {},
      { x: 0 },
      { "": 0 },
      { a: 0 },
      { aa: 0 },
      { aaa: 0 },
      { ab: 0 },
      { abc: 0 },
    ]);
    expect(
      objects({ ...zero, propertyNames: { pattern: "^[a-z]+$" } }, { propertyNames: { maxLength: 2 } }),
    ).toEqual([{}, { x: 0 }, { az: 0 }, { a: 0 }, { z: 0 }, { zx: 0 }, { xx: 0 }]);
  });

  it("counts at its maxProperties and minProperties, filled with fresh keys", () => {
    expect(objects(zero, { maxProperties: 2 })).toEqual([
      {},
      { x: 0, x1: 0 },
      { x: 0, x1: 0, x2: 0 },
      { x: 0 },
    ]);
    expect(objects(zero, { minProperties: 3 })).toEqual([
      {},
      { x: 0, x1: 0, x2: 0 },
      { x: 0, x1: 0 },
      { x: 0 },
    ]);
  });
});

describe("dependents", () => {
  it("dependentRequired adds keys to the base, transitively", () => {
    expect(objects({ required: ["a"], dependentRequired: { a: ["b"], b: ["c"] }, ...zero })).toEqual([
      { a: 0, b: 0, c: 0 },
      { a: 0, b: 0, c: 0, x: 0 },
    ]);
  });

  it("a present key's dependent schema joins the scope; its other branches give plain objects", () => {
    const branches = {
      required: ["a"],
      dependentSchemas: { a: { anyOf: [{ required: ["b"] }, { required: ["c"] }] } },
      ...zero,
    };
    expect(objects(branches)).toEqual([
      { a: 0, b: 0 },
      { a: 0, c: 0 },
      { a: 0, b: 0, x: 0 },
    ]);
    const impossible = {
      required: ["a"],
      dependentSchemas: { a: { properties: { b: { const: 5 } }, required: ["b"] } },
      ...zero,
    };
    expect(objects(impossible)).toEqual([]);
  });

  it("a key with dependents, once present, brings what they require", () => {
    expect(objects({ properties: { a: bool }, dependentRequired: { a: ["b"] }, ...zero })).toEqual([
      {},
      { a: false, b: 0 },
      { x: 0 },
      { a: true, b: 0 },
      { a: false, b: 0, x: 0 },
    ]);
  });
});
