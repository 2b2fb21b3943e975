// The checks of one value against a schema's own keywords (src/diff/values.ts), read through the
// diff: a value an enum adds that the schema's other keywords reject is no new document ("rejected by
// NEW's other keywords"), and a keyword added over an enum is judged by the values themselves. The
// checks must say what the engine (ajv) says, edge for edge.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const changes = (old: object, next: object) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }, { witnesses: false }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );

/** Adds `value` to an enum beside `keywords`: true when the keywords let it through. */
const admits = (keywords: object, value: unknown): boolean => {
  const [change, ...more] = changes({ enum: [0], ...keywords }, { enum: [0, value], ...keywords });
  expect(more).toEqual([]);
  const shown = JSON.stringify(value);
  if (change === `enum-value-added /enum ok/breaks: NEW allows ${shown}; OLD rejects it`) return true;
  expect(change).toBe(`enum-value-added /enum ok/ok: NEW allows ${shown} (rejected by NEW's other keywords)`);
  return false;
};

describe("multipleOf, as the engine reads it", () => {
  it("the quotient must be an integer exactly: 0.3 and 0.7 are no multiples of 0.1, 0.2 and 0.4 are", () => {
    // ajv computes 0.3 / 0.1 = 2.9999999999999996 and rejects 0.3. The diff used to allow a 1e-9
    // tolerance and called this change ok both ways.
    expect(changes({ enum: [0.3, 0.7] }, { enum: [0.3, 0.7], multipleOf: 0.1 })).toEqual([
      "multiple-of-added /multipleOf breaks/ok: multipleOf none -> 0.1",
    ]);
    expect(changes({ enum: [0.2, 0.4, "x"] }, { enum: [0.2, 0.4, "x"], multipleOf: 0.1 })).toEqual([
      "multiple-of-added /multipleOf ok/ok: multipleOf none -> 0.1",
    ]);
    expect(admits({ multipleOf: 0.1 }, 0.3)).toBe(false);
    expect(admits({ multipleOf: 0.1 }, 0.4)).toBe(true);
  });

  it("a divisor is no multiple of another unless the engine's quotient is an integer", () => {
    // Every multiple of 0.3 would be a multiple of 0.1 in real numbers, but 0.3 itself fails
    // multipleOf 0.1 in the engine: narrowing the step from 0.3 to 0.1 breaks backward.
    expect(changes({ type: "number", multipleOf: 0.3 }, { type: "number", multipleOf: 0.1 })).toEqual([
      "multiple-of-changed /multipleOf breaks/breaks: multipleOf 0.3 -> 0.1",
    ]);
    expect(changes({ type: "number", multipleOf: 0.2 }, { type: "number", multipleOf: 0.1 })).toEqual([
      "multiple-of-reduced /multipleOf ok/breaks: multipleOf 0.2 -> 0.1",
    ]);
  });

  it("a value half-way between two multiples is no multiple, below or above", () => {
    expect(admits({ multipleOf: 1 }, 2.5)).toBe(false);
    expect(admits({ multipleOf: 1 }, -2.5)).toBe(false);
    expect(admits({ multipleOf: 2 }, 3)).toBe(false);
    expect(admits({ multipleOf: 2 }, -4)).toBe(true);
  });
});

describe("numeric bounds", () => {
  it("an inclusive bound admits its edge, an exclusive one does not", () => {
    expect(admits({ maximum: 5 }, 5)).toBe(true);
    expect(admits({ maximum: 5 }, 6)).toBe(false);
    expect(admits({ exclusiveMaximum: 5 }, 5)).toBe(false);
    expect(admits({ exclusiveMaximum: 5 }, 4.5)).toBe(true);
    expect(admits({ minimum: -5 }, -5)).toBe(true);
    expect(admits({ minimum: -5 }, -6)).toBe(false);
    expect(admits({ exclusiveMinimum: -5 }, -5)).toBe(false);
    expect(admits({ exclusiveMinimum: -5 }, -4.5)).toBe(true);
  });

  it("never reject a value that is not a number", () => {
    expect(admits({ maximum: 0, minimum: 0, multipleOf: 7 }, "s")).toBe(true);
  });
});

describe("types", () => {
  it("a value of another type is rejected; integer is part of number", () => {
    expect(admits({ type: "integer" }, "s")).toBe(false);
    expect(admits({ type: "integer" }, 1.5)).toBe(false);
    expect(admits({ type: "integer" }, 3)).toBe(true);
    expect(admits({ type: ["number", "null"] }, 1.5)).toBe(true);
    expect(admits({ type: ["number", "null"] }, null)).toBe(true);
    expect(admits({ type: ["number", "null"] }, false)).toBe(false);
  });
});

describe("string length and pattern", () => {
  it("lengths count code points and admit their edges", () => {
    expect(admits({ minLength: 2 }, "ab")).toBe(true);
    expect(admits({ minLength: 2 }, "a")).toBe(false);
    expect(admits({ maxLength: 2 }, "ab")).toBe(true);
    expect(admits({ maxLength: 2 }, "abc")).toBe(false);
    expect(admits({ maxLength: 2 }, "😀😀")).toBe(true);
  });

  it("a pattern admits what it matches anywhere, in unicode mode", () => {
    expect(admits({ pattern: "b" }, "abc")).toBe(true);
    expect(admits({ pattern: "^b" }, "abc")).toBe(false);
    expect(admits({ pattern: "^.$" }, "😀")).toBe(true);
  });

  it("never reject a value that is not a string", () => {
    expect(admits({ minLength: 5, pattern: "^z" }, 3)).toBe(true);
  });
});

describe("array and object sizes", () => {
  it("item counts admit their edges; uniqueItems rejects duplicates", () => {
    expect(admits({ minItems: 2 }, [1, 2])).toBe(true);
    expect(admits({ minItems: 2 }, [1])).toBe(false);
    expect(admits({ maxItems: 1 }, [1])).toBe(true);
    expect(admits({ maxItems: 1 }, [1, 2])).toBe(false);
    expect(admits({ uniqueItems: true }, [1, 2])).toBe(true);
    expect(admits({ uniqueItems: true }, [1, 1])).toBe(false);
    expect(admits({ minItems: 3, uniqueItems: true }, "s")).toBe(true);
  });

  it("property counts admit their edges; required names must be present", () => {
    expect(admits({ minProperties: 1 }, { a: 1 })).toBe(true);
    expect(admits({ minProperties: 1 }, {})).toBe(false);
    expect(admits({ maxProperties: 1 }, { a: 1 })).toBe(true);
    expect(admits({ maxProperties: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(admits({ required: ["a"] }, { a: null })).toBe(true);
    expect(admits({ required: ["a"] }, { b: 1 })).toBe(false);
    expect(admits({ minProperties: 3, required: ["z"] }, [1])).toBe(true);
  });
});
