// Candidate documents for one version, steered toward the other's edges (src/diff/witness/generate.ts):
// for each way through the accepting schema, the values of every type it allows, bounded per place,
// memoised, and cut to plain values past a depth or a work budget. Deterministic: exact lists.
import { describe, expect, it } from "vitest";
import { steeredValues } from "../../../../src/diff/witness/generate.js";
import { load, views } from "./load.js";

const documents = (accept: unknown, reject: unknown = {}, limit?: number): unknown[] => {
  const { generator, old, new: other } = load(accept, reject);
  return generator.documents(old.root, other.root, limit);
};
/** The first 24 values, in type order, for a place that accepts everything beside `{maximum: 3}`. */
const BESIDE_MAXIMUM_3: readonly unknown[] = [
  null,
  false,
  true,
  0,
  1,
  3,
  4,
  2,
  3.5,
  2.5,
  5,
  -1,
  10,
  0.5,
  1.5,
  -0.5,
  100,
  -100,
  2147483648,
  "",
  "a",
  "ab",
  "abc",
  "A",
];
const INTEGERS = [0, 1, -1, 2, 10, 100, -100, 2147483648, 9007199254740992];

describe("the values of each type a place allows", () => {
  it("null and the booleans are given whole", () => {
    expect(documents({ type: "null" })).toEqual([null]);
    expect(documents({ type: "boolean" })).toEqual([false, true]);
    expect(documents({ type: ["string", "null"], maxLength: 1 })).toEqual([
      null,
      "",
      "a",
      "A",
      "0",
      " ",
      "-",
    ]);
  });

  it("an enum or const gives its values that every schema of the scope accepts, and nothing else", () => {
    expect(documents({ enum: [1, "a", null, 2], type: "integer" })).toEqual([1, 2]);
    expect(documents({ enum: [1, 2, 3], allOf: [{ enum: [2, 3, 4] }] })).toEqual([2, 3]);
    expect(documents({ const: { a: 1 } })).toEqual([{ a: 1 }]);
  });

  it("a scope that allows no type gives nothing: by its `type`s, or by what the model knows", () => {
    expect(documents({ type: "string", allOf: [{ type: "integer" }] })).toEqual([]);
    expect(documents({ type: "string", not: {} })).toEqual([]);
    expect(documents(false)).toEqual([]);
    // Even listed values: nothing passes `not: {}`.
    expect(documents({ enum: [1], not: {} })).toEqual([]);
  });

  it("everything, in type order: null, booleans, numbers, strings, objects, arrays", () => {
    expect(documents({}, {}, 10)).toEqual([null, false, true, 0, 1, -1, 2, 10, 0.5, 1.5]);
    const all = documents(true, { maximum: 3 });
    expect(all.slice(0, 28)).toEqual([...BESIDE_MAXIMUM_3, "0", " ", "-", "a b"]);
    expect(all.length).toBe(111);
    expect(all.at(28)).toEqual({});
    expect(all.at(-1)).toEqual([{ x: 2 }]);
  });

  it("at most 16 numbers and 16 strings for one place", () => {
    expect(documents({ type: "number" }, { minimum: 5, maximum: 50, multipleOf: 5 })).toEqual([
      0, 1, 50, 51, 49, 50.5, 49.5, 52, 48, 5, 6, 4, 5.5, 4.5, 7, 3,
    ]);
    const long = (n: number) => "a".repeat(n);
    expect(
      documents({ type: "string" }, { minLength: 5, maxLength: 50, format: "date", enum: ["x", "y", "z"] }),
    ).toEqual([
      "",
      long(4),
      long(5),
      long(6),
      long(49),
      long(50),
      long(51),
      "x",
      "y",
      "z",
      "2020-01-01",
      "a",
      "2020-13-45",
      "ab",
      "abc",
      "A",
    ]);
  });

  it("the other version's edges come first, from every branch of it", () => {
    expect(documents({ type: "integer" }, { type: "integer", maximum: 10000 })).toEqual([
      0, 1, 10000, 10001, 9999, 10002, 9998, -1, 2, 10, 100, -100, 2147483648, 9007199254740992,
    ]);
    expect(documents({ type: "string" }, { anyOf: [{ maxLength: 2 }, { type: "integer" }] })).toEqual([
      "",
      "a",
      "aa",
      "aaa",
      "ab",
      "abc",
      "A",
      "0",
      " ",
      "-",
      "a b",
    ]);
  });
});

describe("steered toward what the other version tests on purpose", () => {
  it("the value a `not` forbids, the edges an `if` tests, values of two oneOf branches at once", () => {
    expect(documents({ type: "integer" }, { not: { const: 7 } })).toEqual([...INTEGERS, 7]);
    expect(documents({ type: "integer" }, { if: { minimum: 1000 }, then: {} })).toEqual([
      ...INTEGERS,
      1000,
      1001,
      1002,
    ]);
    expect(documents({ type: "integer" }, { oneOf: [{ multipleOf: 7 }, { multipleOf: 11 }] })).toEqual([
      0, 1, 7, 14, 21, -7, 11, 22, 33, -11, 77, 231, -1, 2, 10, 100,
    ]);
  });

  it("each way through a steer is tried, three at most", () => {
    const forbidden = {
      not: { anyOf: [{ const: 1001 }, { const: 1002 }, { const: 1003 }, { const: 1004 }] },
    };
    expect(documents({ type: "integer" }, forbidden)).toEqual([...INTEGERS, 1001, 1002, 1003]);
  });

  it("each way through this version's schema gives its values", () => {
    expect(
      documents({
        anyOf: [
          { type: "integer", maximum: -5 },
          { type: "string", maxLength: 0 },
        ],
      }),
    ).toEqual([-5, -6, -7, -100, ""]);
  });

  it("only near the top of a document: from depth 4 on, no steering", () => {
    const { generator, old, new: other } = load({ type: "integer" }, { not: { const: 7 } });
    expect(generator.values([old.root], [other.root], 3)).toEqual([...INTEGERS, 7]);
    expect(generator.values([old.root], [other.root], 4)).toEqual(INTEGERS);
  });
});

describe("bounds on the search", () => {
  it("a place gets 24 values unless told otherwise", () => {
    const { generator, old, new: other } = load({}, { maximum: 3 });
    expect(generator.values([old.root], [other.root], 0)).toEqual(BESIDE_MAXIMUM_3);
  });

  it("nothing below depth 7", () => {
    const { generator, old } = load({});
    expect(generator.values([old.root], [], 7, 3)).toEqual([null, false, true]);
    expect(generator.values([old.root], [], 8, 3)).toEqual([]);
  });

  it("the same question is answered once, from the memo", () => {
    const { generator, old, new: other } = load({ type: "integer" }, { maximum: 3 });
    const first = generator.values([old.root], [other.root], 1, 5);
    expect(first).toEqual([0, 1, 3, 4, 2]);
    expect(generator.values([old.root], [other.root], 1, 5)).toBe(first);
    expect(generator.values([old.root], [other.root], 1, 6)).not.toBe(first);
    expect(generator.values([old.root], [other.root], 2, 5)).not.toBe(first);
    expect(generator.values([old.root], [], 1, 5)).not.toBe(first);
    expect(generator.values([other.root], [old.root], 1, 5)).not.toBe(first);
  });

  it("after 4000 places, only one plain value each, the other version's edges ignored", () => {
    const place = () => load({ type: "integer" }, { maximum: 3 });
    const busy = place();
    for (let i = 1; i <= 4000; i++) busy.generator.values([busy.old.root], [], 0, 100 + i);
    expect(busy.generator.values([busy.old.root], [busy.new.root], 0, 10)).toEqual([0]);
    const fresh = place();
    for (let i = 1; i <= 3999; i++) fresh.generator.values([fresh.old.root], [], 0, 100 + i);
    expect(fresh.generator.values([fresh.old.root], [fresh.new.root], 0, 10)).toEqual([
      0, 1, 3, 4, 2, 5, -1, 10, 100, -100,
    ]);
  });

  it("objects and arrays are built from their places' values", () => {
    expect(documents({ type: "array", items: { type: "boolean" }, maxItems: 2 })).toEqual([
      [],
      [false],
      [false, false],
      [true],
    ]);
    const closed = {
      type: "object",
      properties: { a: { type: "boolean" } },
      required: ["a"],
      additionalProperties: false,
    };
    expect(documents(closed)).toEqual([{ a: false }, { a: true }]);
    expect(documents({ ...closed, additionalProperties: true, maxProperties: 0 })).toEqual([]);
    const contains = {
      type: "array",
      items: { type: "integer" },
      maxItems: 1,
      uniqueItems: true,
      minItems: 1,
      contains: { const: 5 },
    };
    expect(documents(contains)).toEqual([[5]]);
  });
});

describe("finite values and the ways through choices, in the order they are tried", () => {
  it("the values the other version's finite set leaves out come right after the plainest", () => {
    const [hint] = views({ enum: ["a", "b", "c"] });
    expect(steeredValues(["a", "b", "c", "d", "e"], [hint!])).toEqual(["a", "d", "e", "b", "c"]);
    expect(steeredValues(["a", "b"], [])).toEqual(["a", "b"]);
    expect(steeredValues([], [hint!])).toEqual([]);
    // rust-toolchain: a target added past the 24 values a place keeps is still tried.
    const old = Array.from({ length: 30 }, (_, i) => `t${i}`);
    expect(documents({ enum: [...old, "new"] }, { enum: old }).slice(0, 2)).toEqual(["t0", "new"]);
  });

  it("values a `not` names go last", () => {
    const kinds = ["http", "queue"];
    expect(documents({ type: "string", enum: ["http", "queue", "sql"], not: { enum: kinds } })).toEqual([
      "sql",
      "http",
      "queue",
    ]);
  });

  it("a oneOf's second branch is tried within the limit: the first way keeps half, then they take turns", () => {
    const branches = { oneOf: [{ type: "integer" }, { type: "string", enum: ["s"] }] };
    expect(documents(branches, {}, 6)).toEqual([0, 1, -1, "s", 2, 10]);
    expect(documents(branches, {}, 4)).toEqual([0, 1, "s", -1]);
  });
});
