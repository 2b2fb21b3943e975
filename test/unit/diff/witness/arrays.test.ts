// Arrays the witness search tries (src/diff/witness/arrays.ts): the shortest one, lengths at both
// versions' limits, each position with each of its values, items matching `contains` at the counts
// either side names, and a repeated item where the other version wants unique items. Deterministic:
// each case lists the exact candidates, in order.
import { describe, expect, it } from "vitest";
import { load } from "./load.js";

const D7 = "http://json-schema.org/draft-07/schema#";
const arrays = (accept: object, reject: object = {}): unknown[] => {
  const { generator, old, new: other } = load({ type: "array", ...accept }, reject);
  return generator.documents(old.root, other.root);
};
const digits = { enum: [1, 2, 3] };

describe("lengths and positions", () => {
  it("the shortest array, then 1, 2 and 3 items, then each other value at each position", () => {
    expect(arrays({ items: { type: "boolean" } })).toEqual([[], [false], [false, false], [true]]);
    expect(arrays({ items: digits, minItems: 2, maxItems: 3 })).toEqual([
      [1, 1],
      [1, 1, 1],
      [2, 1],
      [3, 1],
      [1, 2],
      [1, 3],
    ]);
  });

  it("items the other version would reject come into the values of each position", () => {
    expect(arrays({ items: { type: "integer", maximum: 3 } }, { items: { maximum: 1 } })).toEqual([
      [],
      [0],
      [0, 0],
      [1],
      [2],
      [3],
      [-1],
      [-100],
    ]);
  });

  it("lengths either side of the other version's minItems and maxItems", () => {
    expect(arrays({ items: { enum: [1, 2] } }, { maxItems: 4 })).toEqual([
      [],
      [1],
      [1, 1],
      [1, 1, 1],
      [1, 1, 1, 1],
      [1, 1, 1, 1, 1],
      [2],
    ]);
    expect(
      arrays({ items: { type: "integer" }, maxItems: 2 }, { items: { maximum: 1 }, minItems: 2 }),
    ).toEqual([[], [0], [0, 0], [1], [2], [3], [-1], [10], [100], [-100], [2147483648], [9007199254740992]]);
  });

  it("no array longer than 100 items", () => {
    expect(arrays({ items: { const: 1 }, minItems: 101 })).toEqual([]);
    expect(arrays({ items: { const: 1 } }, { minItems: 150 })).toEqual([[], [1], [1, 1]]);
    expect(arrays({ items: { const: 1 }, minItems: 100 })).toEqual([Array(100).fill(1)]);
  });

  it("unique items: each position takes a value not used yet, or the length is skipped", () => {
    expect(arrays({ items: digits, uniqueItems: true })).toEqual([[], [1], [1, 2], [2], [3]]);
    expect(arrays({ items: { enum: [1, 2] }, uniqueItems: true, minItems: 3 })).toEqual([]);
    // Any view that wants unique items makes the scope's arrays unique.
    expect(arrays({ items: digits, allOf: [{ uniqueItems: true }] })).toEqual([[], [1], [1, 2], [2], [3]]);
  });
});

describe("tuples", () => {
  it("each position takes its own schema; past the tuple, the rest (items, or nothing)", () => {
    expect(arrays({ prefixItems: [{ const: "a" }, { type: "boolean" }], items: false })).toEqual([
      [],
      ["a"],
      ["a", false],
      ["a", true],
    ]);
    expect(arrays({ prefixItems: [{ const: "a" }, { type: "boolean" }], items: { const: 0 } })).toEqual([
      [],
      ["a"],
      ["a", false],
      ["a", false, 0],
      ["a", true],
    ]);
    expect(arrays({ $schema: D7, items: [{ const: "a" }], additionalItems: { const: 0 } })).toEqual([
      [],
      ["a"],
      ["a", 0],
    ]);
  });

  it("unevaluatedItems is the rest where no tuple comes first", () => {
    expect(arrays({ unevaluatedItems: { const: 0 } })).toEqual([[], [0], [0, 0]]);
    expect(arrays({ prefixItems: [{ const: "a" }], unevaluatedItems: { const: 0 } })).toEqual([
      [],
      ["a"],
      ["a", 0],
    ]);
  });

  it("the other version's tuple sets the lengths and positions tried, up to 4", () => {
    expect(arrays({ items: { enum: [1, 2] } }, { prefixItems: [{}, {}, {}, {}, {}, {}] })).toEqual([
      [],
      [1],
      [1, 1],
      [1, 1, 1, 1],
      [1, 1, 1, 1, 1],
      [2],
      [1, 2],
      [1, 1, 2],
      [1, 1, 1, 2],
    ]);
  });

  it("the first item past a tuple takes each value of the rest, steered by the other version's rest", () => {
    const two = [{ type: "string" }, { type: "string" }];
    expect(
      arrays(
        { $schema: D7, items: two, additionalItems: { type: "integer", maximum: 3 } },
        { $schema: D7, items: two, additionalItems: { type: "integer", maximum: 1 } },
      ).filter((a) => Array.isArray(a) && a.length === 3),
    ).toEqual([
      ["", "", 0],
      ["", "", 1],
      ["", "", 2],
      ["", "", 3],
      ["", "", -1],
      ["", "", -100],
    ]);
    expect(
      arrays(
        { prefixItems: [{ const: "a" }], items: { type: "integer", maximum: 3 } },
        { prefixItems: [{ const: "a" }], items: { type: "integer", maximum: 1 } },
      ),
    ).toEqual([[], ["a"], ["a", 0], ["a", 1], ["a", 2], ["a", 3], ["a", -1], ["a", -100]]);
    // Past a longer tuple too: the 6 positions keep their plainest values, the seventh varies.
    const six = Array.from({ length: 6 }, () => ({ const: "s" }));
    expect(
      arrays({ prefixItems: six, items: { enum: [1, 2] } }, { prefixItems: six, items: { const: 1 } }).filter(
        (a) => Array.isArray(a) && a.length === 7,
      ),
    ).toEqual([["s", "s", "s", "s", "s", "s", 2]]);
  });

  it("no item past the tuple where no version has a tuple with a rest, or none fits", () => {
    expect(
      arrays({ $schema: D7, items: [{ const: "a" }] }, { $schema: D7, items: [{ const: "a" }] }),
    ).toEqual([[], ["a"], ["a", null]]);
    expect(
      arrays(
        { prefixItems: [{ const: "a" }], items: false },
        { prefixItems: [{ const: "a" }], items: false },
      ),
    ).toEqual([[], ["a"]]);
  });

  it("a position's own values are tried at that position", () => {
    expect(
      arrays(
        { prefixItems: [{ type: "string", maxLength: 1 }], items: false, minItems: 1 },
        { prefixItems: [{ maxLength: 0 }] },
      ),
    ).toEqual([[""], ["a"], ["A"], ["0"], [" "], ["-"]]);
  });
});

describe("contains", () => {
  it("the shortest array holds a matching item; then two, and either side's counts ±1", () => {
    expect(arrays({ items: digits, contains: { const: 3 } })).toEqual([[3], [], [3, 1], [3, 3], [3, 3, 1]]);
    expect(arrays({ items: digits, contains: { const: 3 }, minContains: 2, maxContains: 3 })).toEqual([
      [3],
      [],
      [3, 1],
      [3, 3],
      [3, 3, 1],
      [3, 3, 3],
      [3, 3, 3, 1],
      [3, 3, 3, 3],
      [3, 3, 3, 3, 1],
    ]);
    expect(arrays({ items: digits, contains: { const: 3 } }, { maxContains: 1 })).toEqual([
      [3],
      [],
      [3, 1],
      [3, 3],
      [3, 3, 1],
    ]);
  });

  it("the other version's contains is aimed at too", () => {
    expect(arrays({ items: digits }, { contains: { const: 3 }, minContains: 2 })).toEqual([
      [],
      [1],
      [1, 1],
      [2],
      [3],
      [3, 3],
      [3, 3, 1],
      [3, 1],
      [3, 3, 3],
      [3, 3, 3, 1],
    ]);
    expect(arrays({ items: digits }, { contains: { const: 3 }, maxContains: 0 })).toEqual([
      [],
      [1],
      [1, 1],
      [2],
      [3],
      [3, 3],
      [3, 3, 1],
      [3, 1],
    ]);
  });

  it("matching items go after the tuple positions that cannot hold one", () => {
    const tuple = [{ const: "a" }, { const: "b" }];
    expect(arrays({ prefixItems: tuple, items: digits, contains: { const: 3 } })).toEqual([
      ["a", "b", 3],
      [],
      ["a"],
      ["a", "b"],
      ["a", "b", 3, 1],
      ["a", "b", 3, 3],
      ["a", "b", 3, 3, 1],
    ]);
    const early = [{ const: "a" }, { enum: ["b", 3] }];
    expect(arrays({ prefixItems: early, items: digits, contains: { const: 3 } })).toEqual([
      ["a", 3],
      [],
      ["a"],
      ["a", 3, 1],
      // The first item past the tuple with each value of the rest.
      ["a", 3, 2],
      ["a", 3, 3],
      ["a", 3, 3, 1],
    ]);
    expect(arrays({ prefixItems: tuple, items: false, contains: { const: 3 } })).toEqual([
      [],
      ["a"],
      ["a", "b"],
    ]);
  });

  it("unique items among the matching ones, and a length limit", () => {
    expect(arrays({ items: digits, contains: { const: 3 }, uniqueItems: true, minContains: 2 })).toEqual([
      [3],
      [],
      [3, 1],
    ]);
    expect(arrays({ items: { type: "integer" }, contains: { const: 3 }, maxItems: 1 })).toEqual([[3], []]);
    const two = { items: { enum: [1, 2, 3, 4] }, contains: { enum: [3, 4] }, uniqueItems: true };
    // Two matching items, distinct: [3, 4], then one more item.
    expect(arrays(two)).toEqual([[3], [], [3, 1], [4], [3, 4], [3, 4, 2]]);
  });
});

describe("where the other version wants unique items", () => {
  it("an array that repeats the first value, when the length allows two", () => {
    const tuple = { prefixItems: [{ enum: [1, 2] }, { const: 2 }], items: false };
    expect(arrays(tuple, { uniqueItems: true })).toEqual([[], [1], [1, 2], [2], [1, 1]]);
    expect(arrays(tuple)).toEqual([[], [1], [1, 2], [2]]);
    expect(arrays({ ...tuple, maxItems: 1 }, { uniqueItems: true })).toEqual([[], [1], [2]]);
    // Any branch of the other version that wants unique items.
    expect(arrays(tuple, { anyOf: [{ uniqueItems: true }, { minItems: 0 }] })).toEqual([
      [],
      [1],
      [1, 2],
      [2],
      [1, 1],
    ]);
    const three = { prefixItems: [{ enum: [1, 2] }, { const: 2 }, { const: 2 }], items: false, minItems: 3 };
    expect(arrays(three, { uniqueItems: true })).toEqual([
      [1, 2, 2],
      [2, 2, 2],
      [1, 1, 1],
    ]);
  });
});
