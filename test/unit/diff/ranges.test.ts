// anyOf branches that each bound one measure of a type (src/diff/ranges.ts): together they take the
// whole type when their intervals leave no gap. OLD is `anyOf` (under `type` when given), NEW drops it;
// forward is ok exactly when the union is proven to cover. With witnesses off the verdict is the proof
// alone: a gap leaves forward `undecided`; with witnesses on, the document in the gap breaks it.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas } from "../../../src/diff/index.js";

const D4 = "http://json-schema.org/draft-04/schema#";
const D12 = "https://json-schema.org/draft/2020-12/schema";

/** backward/forward when OLD's anyOf (beside `more`) is dropped. */
const proof = (branches: object[], more: object = {}, witnesses = false): string => {
  const result = diffSchemas({ ...more, anyOf: branches }, more, { witnesses });
  return `${result.backward}/${result.forward}`;
};
/** The forward witness when the union leaves a gap. */
const gap = (branches: object[], more: object = {}): unknown => {
  const result = diffSchemas({ ...more, anyOf: branches }, more);
  expect(`${result.backward}/${result.forward}`).toBe("ok/breaks");
  return result.changes.find((c) => c.forward === "breaks")?.witness?.forward;
};

describe("lengths, item counts and property counts: integers from 0 up", () => {
  it.each([
    ["maxLength 5 or minLength 3 (overlapping)", [{ maxLength: 5 }, { minLength: 3 }], "ok/ok"],
    ["maxLength 5 or minLength 6 (adjacent)", [{ maxLength: 5 }, { minLength: 6 }], "ok/ok"],
    ["maxLength 5 or minLength 7: 6 is missing", [{ maxLength: 5 }, { minLength: 7 }], "ok/undecided"],
    [
      "three spans in any order",
      [{ minLength: 8 }, { maxLength: 2 }, { minLength: 3, maxLength: 7 }],
      "ok/ok",
    ],
    ["nothing below 1", [{ minLength: 1 }, { minLength: 4 }], "ok/undecided"],
    ["maxItems 2 or minItems 3", [{ maxItems: 2 }, { minItems: 3 }], "ok/ok"],
    ["maxItems 2 or minItems 4", [{ maxItems: 2 }, { minItems: 4 }], "ok/undecided"],
    ["maxProperties 0 or minProperties 1", [{ maxProperties: 0 }, { minProperties: 1 }], "ok/ok"],
    ["maxProperties 0 or minProperties 2", [{ maxProperties: 0 }, { minProperties: 2 }], "ok/undecided"],
  ])("%s", (_, branches, expected) => {
    expect(proof(branches)).toBe(expected);
  });

  it("typed branches cover their type; other types need their own branch", () => {
    const strings = [
      { type: "string", maxLength: 5 },
      { type: "string", minLength: 3 },
    ];
    expect(proof(strings, { type: "string" })).toBe("ok/ok");
    // Without a branch for the other types, a number is lost: known from the types alone.
    expect(proof(strings)).toBe("ok/breaks");
    expect(proof([...strings, { type: ["null", "boolean", "object", "array", "number"] }])).toBe("ok/ok");
  });

  it("a gap is broken by a document in it", () => {
    expect(gap([{ maxLength: 5 }, { minLength: 7 }])).toBe("aaaaaa");
    expect(gap([{ maxItems: 2 }, { minItems: 4 }])).toEqual([null, null, null]);
    expect(gap([{ maxProperties: 0 }, { minProperties: 2 }], { type: "object" })).toEqual({ x: 0 });
  });
});

describe("numbers: exclusive bounds, and integers against numbers", () => {
  it.each([
    ["maximum 5 or exclusiveMinimum 5", [{ maximum: 5 }, { exclusiveMinimum: 5 }], "ok/ok"],
    ["exclusiveMaximum 5 or minimum 5", [{ exclusiveMaximum: 5 }, { minimum: 5 }], "ok/ok"],
    ["maximum 5 or minimum 5", [{ maximum: 5 }, { minimum: 5 }], "ok/ok"],
    [
      "exclusiveMaximum 5 or exclusiveMinimum 5: 5 is left",
      [{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }],
      "ok/undecided",
    ],
    ["maximum 5 or minimum 6: the fractions between", [{ maximum: 5 }, { minimum: 6 }], "ok/undecided"],
    [
      "maximum and exclusiveMaximum together: the tighter counts",
      [{ maximum: 6, exclusiveMaximum: 5 }, { minimum: 5.5 }],
      "ok/undecided",
    ],
    [
      "a middle range closing both gaps",
      [{ exclusiveMaximum: 0 }, { minimum: 0, maximum: 1 }, { exclusiveMinimum: 1 }],
      "ok/ok",
    ],
    ["no lower bound anywhere is needed", [{ minimum: 0 }, { minimum: 10 }], "ok/undecided"],
    [
      "an integer branch holds the one point left",
      [{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }, { type: "integer", minimum: 5, maximum: 5 }],
      "ok/ok",
    ],
    [
      "an integer branch cannot hold 5.5",
      [{ exclusiveMaximum: 5.5 }, { exclusiveMinimum: 5.5 }, { type: "integer" }],
      "ok/undecided",
    ],
    [
      "integer branches alone leave the fractions",
      [
        { type: "integer", maximum: 5 },
        { type: "integer", minimum: 5 },
      ],
      "ok/breaks",
    ],
  ])("%s", (_, branches, expected) => {
    expect(proof(branches)).toBe(expected);
  });

  it("where NEW admits integers only, the integers between the bounds are what must be covered", () => {
    const integer = { type: "integer" };
    expect(proof([{ maximum: 5 }, { minimum: 6 }], integer)).toBe("ok/ok");
    expect(proof([{ maximum: 5 }, { minimum: 5.5 }], integer)).toBe("ok/ok");
    expect(proof([{ exclusiveMaximum: 5 }, { exclusiveMinimum: 4 }], integer)).toBe("ok/ok");
    expect(proof([{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }], integer)).toBe("ok/undecided");
    expect(proof([{ maximum: 5 }, { minimum: 6.5 }], integer)).toBe("ok/undecided");
    expect(gap([{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }], integer)).toBe(5);
    expect(gap([{ maximum: 5 }, { minimum: 6.5 }], integer)).toBe(6);
  });

  it("draft-04 folds the boolean exclusive forms into the bounds", () => {
    const d4 = { $schema: D4 };
    expect(proof([{ maximum: 5 }, { minimum: 5, exclusiveMinimum: true }], d4)).toBe("ok/ok");
    expect(
      proof(
        [
          { maximum: 5, exclusiveMaximum: false },
          { minimum: 5, exclusiveMinimum: true },
        ],
        d4,
      ),
    ).toBe("ok/ok");
    expect(
      proof(
        [
          { maximum: 5, exclusiveMaximum: true },
          { minimum: 5, exclusiveMinimum: true },
        ],
        d4,
      ),
    ).toBe("ok/undecided");
  });

  it("a gap is broken by a document in it", () => {
    expect(gap([{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }])).toBe(5);
    expect(gap([{ maximum: 5 }, { minimum: 6 }])).toBe(5.5);
  });
});

describe("a branch that is more than a bound counts for nothing", () => {
  it.each([
    ["a pattern", [{ maxLength: 5 }, { minLength: 3, pattern: "^a" }]],
    ["multipleOf", [{ maximum: 5 }, { exclusiveMinimum: 5, multipleOf: 0.5 }]],
    ["a nested anyOf", [{ maxLength: 5 }, { minLength: 3, anyOf: [{ pattern: "a" }, { pattern: "b" }] }]],
    ["a not", [{ maxLength: 5 }, { minLength: 3, not: { const: "abcdef" } }]],
    ["a $ref beside it", [{ maxLength: 5 }, { minLength: 3, $ref: "#/definitions/s" }]],
    ["a malformed bound", [{ maxLength: 5 }, { minLength: 3.5 }]],
  ])("%s", (_, branches) => {
    expect(proof(branches, { definitions: { s: { pattern: "^a" } } })).toBe("ok/undecided");
  });

  it("an asserted format is a constraint; an annotation is not", () => {
    const branches = [{ maxLength: 5 }, { minLength: 3, format: "email" }];
    expect(proof(branches)).toBe("ok/ok");
    const asserting = { compiler: new SchemaCompiler({ assertFormats: true }), witnesses: false };
    const result = diffSchemas({ anyOf: branches }, {}, asserting);
    expect(`${result.backward}/${result.forward}`).toBe("ok/undecided");
  });

  it("other branches still cover without it", () => {
    expect(proof([{ maxLength: 5 }, { minLength: 3 }, { pattern: "^a" }])).toBe("ok/ok");
  });

  it("oneOf is not a union: overlapping bounds reject what both take", () => {
    const result = diffSchemas({ oneOf: [{ maxLength: 5 }, { minLength: 3 }] }, {});
    expect([result.backward, result.forward]).toEqual(["ok", "breaks"]);
    // Both branches take a number (and a string of 3 to 5).
    expect(result.changes.find((c) => c.forward === "breaks")?.witness?.forward).toBe(0);
  });
});

describe("nested and 2020-12", () => {
  it("a covering anyOf inside a property is equivalent to the bare type", () => {
    const old = {
      $schema: D12,
      type: "object",
      properties: { name: { type: "string", anyOf: [{ maxLength: 5 }, { minLength: 3 }] } },
    };
    const next = { $schema: D12, type: "object", properties: { name: { type: "string" } } };
    const result = diffSchemas(old, next, { witnesses: false });
    expect([result.backward, result.forward]).toEqual(["ok", "ok"]);
  });

  it("a branch whose own anyOf covers its type takes the whole type, in anyOf and oneOf", () => {
    const strings = { type: "string", anyOf: [{ maxLength: 5 }, { minLength: 3 }] };
    for (const keyword of ["anyOf", "oneOf"]) {
      const result = diffSchemas(
        { [keyword]: [strings, { type: "number" }] },
        { type: ["string", "number"] },
        { witnesses: false },
      );
      expect([keyword, result.backward, result.forward]).toEqual([keyword, "ok", "ok"]);
    }
  });

  it("an anyOf added that covers every array is no break either way", () => {
    const result = diffSchemas(
      { $schema: D12, type: "array" },
      { $schema: D12, type: "array", anyOf: [{ maxItems: 2 }, { minItems: 3 }] },
      { witnesses: false },
    );
    expect([result.backward, result.forward]).toEqual(["ok", "ok"]);
  });
});

describe("integer branches take the integers of their interval only", () => {
  const integer = { type: "integer" };
  const int = (bounds: object) => ({ type: "integer", ...bounds });

  it.each([
    [
      "maximum 4 or exclusiveMinimum 5: 5 is in neither",
      [int({ maximum: 4 }), int({ exclusiveMinimum: 5 })],
      5,
    ],
    [
      "exclusiveMaximum 5 or minimum 6: 5 is in neither",
      [int({ exclusiveMaximum: 5 }), int({ minimum: 6 })],
      5,
    ],
    ["maximum 4.5 or minimum 5.5: 5 is in neither", [int({ maximum: 4.5 }), int({ minimum: 5.5 })], 5],
    [
      "exclusiveMaximum 4.5 or exclusiveMinimum 5.5: 5 is in neither",
      [int({ exclusiveMaximum: 4.5 }), int({ exclusiveMinimum: 5.5 })],
      5,
    ],
  ])("%s", (_, branches, missing) => {
    expect(proof(branches, integer)).toBe("ok/undecided");
    expect(gap(branches, integer)).toBe(missing);
  });

  it.each([
    ["maximum 4 or exclusiveMinimum 4", [int({ maximum: 4 }), int({ exclusiveMinimum: 4 })]],
    ["exclusiveMaximum 5 or minimum 5", [int({ exclusiveMaximum: 5 }), int({ minimum: 5 })]],
    ["maximum 4.5 or minimum 4.5", [int({ maximum: 4.5 }), int({ minimum: 4.5 })]],
    [
      "exclusiveMaximum 5.5 or exclusiveMinimum 4.5",
      [int({ exclusiveMaximum: 5.5 }), int({ exclusiveMinimum: 4.5 })],
    ],
  ])("%s: every integer", (_, branches) => {
    expect(proof(branches, integer)).toBe("ok/ok");
  });

  it("among numbers, an integer branch holds the one point left only when its interval has it", () => {
    const open = [{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }];
    expect(proof([...open, int({ minimum: 5, maximum: 5 })])).toBe("ok/ok");
    expect(proof([...open, int({ minimum: 4.5, maximum: 5.5 })])).toBe("ok/ok");
    expect(proof([...open, int({ exclusiveMinimum: 4, exclusiveMaximum: 6 })])).toBe("ok/ok");
    for (const point of [
      int({ exclusiveMinimum: 5 }),
      int({ exclusiveMaximum: 5 }),
      int({ minimum: 6 }),
      int({ maximum: 4 }),
      int({ minimum: 5.5 }),
      int({ exclusiveMinimum: 4.5, exclusiveMaximum: 5 }),
    ]) {
      expect([point, proof([...open, point])]).toEqual([point, "ok/undecided"]);
      expect([point, gap([...open, point])]).toEqual([point, 5]);
    }
  });

  it("an integer branch holds no fraction between real spans", () => {
    const branches = [{ exclusiveMaximum: 5 }, int({ minimum: 5, maximum: 6 }), { exclusiveMinimum: 6 }];
    expect(proof(branches)).toBe("ok/undecided");
    expect(gap(branches)).toBe(5.5);
  });

  it("where NEW admits integers only, an exclusive fraction starts at the next integer", () => {
    expect(proof([{ maximum: 5 }, { exclusiveMinimum: 5.5 }], integer)).toBe("ok/ok");
    expect(proof([{ exclusiveMaximum: 5.5 }, { minimum: 6 }], integer)).toBe("ok/ok");
    expect(proof([{ maximum: 4 }, { minimum: 5 }], integer)).toBe("ok/ok");
    expect(proof([{ maximum: 4 }, { minimum: 6 }], integer)).toBe("ok/undecided");
  });
});

describe("real spans: order, nesting and the ends they share", () => {
  it.each([
    ["in either order", [{ exclusiveMinimum: 5 }, { maximum: 5 }], "ok/ok"],
    ["overlapping open ends", [{ exclusiveMaximum: 5 }, { exclusiveMinimum: 4 }], "ok/ok"],
    ["a span inside another", [{ maximum: 10 }, { minimum: 3, maximum: 5 }, { minimum: 10 }], "ok/ok"],
    [
      "a single point closing the gap",
      [{ exclusiveMaximum: 5 }, { minimum: 5, maximum: 5 }, { exclusiveMinimum: 5 }],
      "ok/ok",
    ],
    [
      "a later span ending at the same point, closed",
      [{ exclusiveMaximum: 5 }, { minimum: 3, maximum: 5 }, { exclusiveMinimum: 5 }],
      "ok/ok",
    ],
    [
      "a later span ending at the same point, open: the first already took it",
      [{ maximum: 5 }, { minimum: 3, exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }],
      "ok/ok",
    ],
    [
      "a closed end inside the reach says nothing of the reach's own end",
      [{ exclusiveMaximum: 5 }, { minimum: 1, maximum: 2 }, { exclusiveMinimum: 5 }],
      "ok/undecided",
    ],
    [
      "two spans from the same point, the open one first",
      [{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }, { minimum: 5 }],
      "ok/ok",
    ],
    [
      "two spans from the same point, the closed one first",
      [{ exclusiveMaximum: 5 }, { minimum: 5 }, { exclusiveMinimum: 5 }],
      "ok/ok",
    ],
  ])("%s", (_, branches, expected) => {
    expect(proof(branches)).toBe(expected);
  });

  it("an empty span takes nothing and leaves no gap", () => {
    expect(proof([{ maximum: 5 }, { minimum: 7, maximum: 6 }, { minimum: 5 }])).toBe("ok/ok");
    expect(proof([{ maxLength: 5 }, { minLength: 7, maxLength: 6 }, { minLength: 6 }])).toBe("ok/ok");
    expect(proof([{ maximum: 5 }, { minimum: 5.5, maximum: 5.2 }, { minimum: 6 }])).toBe("ok/undecided");
    expect(proof([{ maxLength: 5 }, { minLength: 7, maxLength: 6 }, { minLength: 7 }])).toBe("ok/undecided");
    const open = [{ exclusiveMaximum: 5 }, { exclusiveMinimum: 5 }];
    expect(proof([...open, { exclusiveMinimum: 5, maximum: 5 }])).toBe("ok/undecided");
    expect(proof([...open, { minimum: 5, exclusiveMaximum: 5 }])).toBe("ok/undecided");
  });

  it("counts: a span inside another, given out of order", () => {
    expect(proof([{ minLength: 11 }, { minLength: 3, maxLength: 5 }, { maxLength: 10 }])).toBe("ok/ok");
  });
});

describe("bounds a validator reads otherwise are not bounds", () => {
  it.each([
    ["a negative maxLength (takes nothing)", [{ maxLength: 5 }, { minLength: 6, maxLength: -1 }]],
    [
      "a minimum past the largest number (takes nothing)",
      [{ maximum: 5 }, { minimum: 5, maximum: Infinity }],
    ],
    [
      "a boolean exclusiveMinimum outside draft-04",
      [{ maximum: 5 }, { minimum: 5, exclusiveMinimum: false }],
    ],
  ])("%s", (_, branches) => {
    expect(proof(branches)).toBe("ok/undecided");
  });

  it("draft-04: a number in exclusiveMinimum is a later draft's bound, not draft-04's", () => {
    const d4 = { $schema: D4 };
    expect(proof([{ maximum: 5 }, { minimum: 5, exclusiveMinimum: 7 }], d4)).toBe("ok/undecided");
    expect(proof([{ maximum: 5 }, { minimum: 5, exclusiveMinimum: false }], d4)).toBe("ok/ok");
  });
});
