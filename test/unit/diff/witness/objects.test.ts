// Objects the witness search tries (src/diff/witness/composite.ts): the base object (the required keys
// with plain values), then one change at a time, round-robin over keys: each key either version names
// with each of its values, keys their dependents bring, counts at either side's min/maxProperties,
// names at the edges of the other side's propertyNames, and an unknown key. Deterministic: exact lists.
import { describe, expect, it } from "vitest";
import { budget, MAX_LENGTH } from "../../../../src/diff/witness/composite.js";
import { load } from "./load.js";

const objects = (accept: object, reject: object = {}): unknown[] => {
  const { generator, old, new: other } = load({ type: "object", ...accept }, reject);
  return generator.documents(old.root, other.root);
};
/** The same at a given depth of the document, without the 4000-document cap. */
const at = (depth: number, accept: object, reject: object = {}): unknown[] => {
  const { generator, old, new: other } = load({ type: "object", ...accept }, reject);
  return generator.values([old.root], [other.root], depth, 1000);
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
    // A pattern takes only the names it matches.
    expect(objects({ patternProperties: { "^a": bool }, ...zero })).toEqual([
      {},
      { a: false },
      { x: 0 },
      { a: true },
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

  it("a key a pattern of another schema of the scope matches is evaluated: unevaluatedProperties stays off it", () => {
    expect(
      objects({ allOf: [{ patternProperties: { "^a": bool } }], unevaluatedProperties: { const: 0 } }),
    ).toEqual([{}, { a: false }, { x: 0 }, { a: true }]);
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

  it("filling up to minProperties with a pattern's names: a digit after its sample, or before it", () => {
    const only = (pattern: string) => ({
      patternProperties: { [pattern]: { const: 0 } },
      additionalProperties: false,
      minProperties: 5,
    });
    expect(objects(only("^k"))).toEqual([{ k: 0, k1: 0, k2: 0, k3: 0, k4: 0 }]);
    expect(objects(only("k$"))).toEqual([{ k: 0, "1k": 0, "2k": 0, "3k": 0, "4k": 0 }]);
    // A name with digits the pattern does not match is not one of its names ("1k" would take 1).
    const open = {
      patternProperties: { "^k": { const: 0 } },
      additionalProperties: { const: 1 },
      minProperties: 5,
    };
    expect(objects(open)).toEqual([{ k: 0, x: 1, k1: 0, k2: 0, k3: 0 }]);
    // A pattern with fewer names than the count: the search for more stops, and no object is built.
    expect(objects(only("^k$"))).toEqual([]);
  });

  it("minProperties fills the base object, so each variation carries the count too; up to 100 keys", () => {
    const filled = { properties: { a: bool }, required: ["a"], ...zero };
    expect(objects({ ...filled, minProperties: 2 })).toEqual([
      { a: false, x: 0 },
      { a: true, x: 0 },
    ]);
    // The fill starts from the required keys.
    expect(objects({ required: ["a"], minProperties: 3, ...zero })).toEqual([{ a: 0, x: 0, x1: 0 }]);
    const sizes = (minProperties: number) =>
      objects({ ...filled, minProperties }).map((o) => [
        (o as { a: boolean }).a,
        Object.keys(o as object).length,
      ]);
    expect(sizes(100)).toEqual([
      [false, 100],
      [true, 100],
    ]);
    expect(sizes(101)).toEqual([]);
  });

  it("a key gets 48 values in an object one level down, 16 further down", () => {
    const many = {
      type: "object",
      properties: { a: { enum: Array.from({ length: 60 }, (_, i) => i) } },
      additionalProperties: false,
    };
    const { generator, old } = load(many);
    // The base object, then one object per other value; below depth 2 the budget of 12 cuts first.
    expect([1, 2, 3].map((depth) => generator.values([old.root], [], depth, 1000).length)).toEqual([
      49, 17, 12,
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

  it("the keys its dependent schemas declare", () => {
    expect(objects(zero, { dependentSchemas: { p: { properties: { q: {} } } } })).toEqual([
      {},
      { p: 0 },
      { q: 0 },
      { x: 0 },
      { p: 0, q: 0 },
      { p: 0, x: 0 },
    ]);
  });

  it("the keys its dependent schemas declare only above depth 6", () => {
    const dependent = { dependentSchemas: { p: { properties: { q: {} } } } };
    expect(at(5, zero, dependent)).toEqual([
      {},
      { p: 0 },
      { q: 0 },
      { x: 0 },
      { p: 0, q: 0 },
      { p: 0, x: 0 },
    ]);
    expect(at(6, zero, dependent)).toEqual([{}, { p: 0 }, { x: 0 }]);
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
    // A count the base object already has adds nothing: twelve places one level down (depth 3), the
    // object of one key (count 1) is {a: 0} again; the base is not offered again for count 0.
    const many = {
      properties: { a: { enum: Array.from({ length: 40 }, (_, i) => i) } },
      additionalProperties: false,
    };
    expect(at(3, many, { maxProperties: 0 })).toEqual([{}, ...Array.from({ length: 10 }, (_, a) => ({ a }))]);
    // 100 keys at most: no object of 101.
    expect(objects(zero, { maxProperties: 100 }).map((o) => Object.keys(o as object).length)).toEqual([
      0, 100, 1,
    ]);
  });
});

describe("dependents", () => {
  it("dependentRequired adds keys to the base, transitively", () => {
    expect(objects({ required: ["a"], dependentRequired: { a: ["b"], b: ["c"] }, ...zero })).toEqual([
      { a: 0, b: 0, c: 0 },
      { a: 0, b: 0, c: 0, x: 0 },
    ]);
    // Whatever order the keys come in.
    expect(
      objects({ required: ["a"], dependentRequired: { c: ["d"], b: ["c"], a: ["b"] }, ...zero }),
    ).toEqual([
      { a: 0, b: 0, c: 0, d: 0 },
      { a: 0, b: 0, c: 0, d: 0, x: 0 },
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
    // Three other ways at most, the last first.
    const six = {
      required: ["a"],
      dependentSchemas: { a: { anyOf: ["b", "c", "d", "e", "f", "g"].map((k) => ({ required: [k] })) } },
      ...zero,
    };
    expect(objects(six)).toEqual([
      { a: 0, b: 0 },
      { a: 0, e: 0 },
      { a: 0, d: 0 },
      { a: 0, c: 0 },
      { a: 0, b: 0, x: 0 },
    ]);
    // An other way that leaves a required key without a value gives no plain object.
    const unsatisfiable = {
      required: ["a"],
      dependentSchemas: {
        a: { anyOf: [{ required: ["b"] }, { required: ["c"], properties: { c: false } }] },
      },
      ...zero,
    };
    expect(objects(unsatisfiable)).toEqual([
      { a: 0, b: 0 },
      { a: 0, b: 0, x: 0 },
    ]);
    expect(objects({ required: ["a"], dependentSchemas: { a: false }, ...zero })).toEqual([]);
  });

  it("a present key's dependent schema joins the scope only above depth 6", () => {
    const mine = { required: ["a"], dependentSchemas: { a: { required: ["b"] } }, ...zero };
    expect(at(5, mine)).toEqual([
      { a: 0, b: 0 },
      { a: 0, b: 0, x: 0 },
    ]);
    expect(at(6, mine)).toEqual([{ a: 0 }, { a: 0, x: 0 }]);
  });

  it("a key with dependents varies the other keys: 32 objects near the top, 8 further down, none from depth 6", () => {
    const many = {
      properties: { a: { enum: Array.from({ length: 40 }, (_, i) => i) }, p: { const: 0 } },
      additionalProperties: false,
      dependentRequired: { p: [] },
    };
    const withP = (depth: number) => at(depth, many).filter((o) => Object.hasOwn(o as object, "p")).length;
    expect([withP(0), withP(2)]).toEqual([32, 8]);
    const few = { properties: { p: { const: 0 } }, ...zero, dependentRequired: { p: [] } };
    expect(at(5, few)).toEqual([{}, { p: 0 }, { x: 0 }, { p: 0, x: 0 }]);
    expect(at(6, few)).toEqual([{}, { p: 0 }, { x: 0 }]);
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
