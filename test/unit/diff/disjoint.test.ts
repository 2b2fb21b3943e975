// When are two schemas proven to share no document (src/diff/disjoint.ts)? Seen where the report
// depends on it: OLD gains a oneOf whose first branch is OLD itself, and the verdict is ok only when
// the second branch is proven disjoint from OLD (else an OLD document may match both). A proof that
// is wrong would let a oneOf reject OLD documents unnoticed; witnesses are off (the engine's verdicts).
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const OK = "one-of-added /oneOf ok/ok: NEW requires oneOf; every OLD document matches a branch";
const BOTH =
  "one-of-added /oneOf undecided/ok: NEW requires oneOf: a document may match more than one branch of oneOf";
/** The oneOf change when NEW is `oneOf: [OLD, other]`. */
const verdict = (old: object, other: unknown) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, oneOf: [old, other] }, { witnesses: false })
    .changes.map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`)
    .filter((line) => line.startsWith("one-of"));
const cases = (rows: [string, object, unknown, boolean][]) =>
  it.each(rows)("%s", (_, old, other, disjoint) =>
    expect(verdict(old, other)).toEqual([disjoint ? OK : BOTH]),
  );

const num = (more: object) => ({ type: "number", ...more });
const str = (more: object) => ({ type: "string", ...more });
const arr = (more: object) => ({ type: "array", ...more });
const obj = (more: object) => ({ type: "object", ...more });

describe("numbers: one range ends before the other starts", () => {
  cases([
    ["maximum 5, minimum 6", num({ maximum: 5 }), num({ minimum: 6 }), true],
    ["maximum 5, minimum 5 share 5", num({ maximum: 5 }), num({ minimum: 5 }), false],
    ["maximum 5, exclusiveMinimum 5", num({ maximum: 5 }), num({ exclusiveMinimum: 5 }), true],
    ["exclusiveMaximum 5, minimum 5", num({ exclusiveMaximum: 5 }), num({ minimum: 5 }), true],
    ["minimum 6, maximum 5", num({ minimum: 6 }), num({ maximum: 5 }), true],
    ["minimum 5, maximum 5 share 5", num({ minimum: 5 }), num({ maximum: 5 }), false],
    ["exclusiveMinimum 5, maximum 5", num({ exclusiveMinimum: 5 }), num({ maximum: 5 }), true],
    // An exclusive end only matters where the two ends meet: 6 passes both.
    ["exclusiveMaximum 10, minimum 5", num({ exclusiveMaximum: 10 }), num({ minimum: 5 }), false],
    ["integers", { type: "integer", maximum: 5 }, { type: "integer", minimum: 6 }, true],
    ["the other side untyped: the shared types are numbers", num({ maximum: 5 }), { minimum: 6 }, true],
    [
      "OLD also strings, the other numbers only",
      { type: ["number", "string"], maximum: 5 },
      num({ minimum: 6 }),
      true,
    ],
    ["both untyped: a string passes both", { maximum: 5 }, { minimum: 6 }, false],
  ]);
});

describe("strings and arrays: one's maximum length below the other's minimum", () => {
  cases([
    ["maxLength 2, minLength 3", str({ maxLength: 2 }), str({ minLength: 3 }), true],
    ["maxLength 2, minLength 2", str({ maxLength: 2 }), str({ minLength: 2 }), false],
    ["minLength 3, maxLength 2", str({ minLength: 3 }), str({ maxLength: 2 }), true],
    ["minLength 2, maxLength 2", str({ minLength: 2 }), str({ maxLength: 2 }), false],
    ["maxLength 2, no minimum", str({ maxLength: 2 }), str({}), false],
    ["lengths without types: a number passes both", { maxLength: 2 }, { minLength: 3 }, false],
    ["maxItems 2, minItems 3", arr({ maxItems: 2 }), arr({ minItems: 3 }), true],
    ["maxItems 2, minItems 2", arr({ maxItems: 2 }), arr({ minItems: 2 }), false],
    ["minItems 3, maxItems 2", arr({ minItems: 3 }), arr({ maxItems: 2 }), true],
    ["minItems 2, maxItems 2", arr({ minItems: 2 }), arr({ maxItems: 2 }), false],
    ["items without types: a number passes both", { maxItems: 2 }, { minItems: 3 }, false],
  ]);
});

describe("objects: a discriminator, or a required key the other side cannot have", () => {
  const kind = (value: string) => obj({ required: ["kind"], properties: { kind: { const: value } } });
  cases([
    ["both require kind, with different values", kind("a"), kind("b"), true],
    ["both require kind, with the same value", kind("a"), kind("a"), false],
    ["the other side does not require kind", kind("a"), obj({ properties: { kind: { const: "b" } } }), false],
    [
      "the other side's kind only inside an anyOf",
      kind("a"),
      obj({ required: ["kind"], anyOf: [{ properties: { kind: { const: "b" } } }] }),
      false,
    ],
    [
      "OLD requires x, the other side is closed without x",
      obj({ required: ["x"] }),
      obj({ properties: { y: {} }, additionalProperties: false }),
      true,
    ],
    [
      "OLD requires x, the other side is closed with x",
      obj({ required: ["x"] }),
      obj({ properties: { x: {} }, additionalProperties: false }),
      false,
    ],
    [
      "OLD requires x, the other side is open",
      obj({ required: ["x"] }),
      obj({ properties: { y: {} } }),
      false,
    ],
    [
      "the other side requires x, OLD is closed without x",
      obj({ properties: { y: {} }, additionalProperties: false }),
      obj({ required: ["x"] }),
      true,
    ],
    [
      "a required key proves nothing while both sides also take strings",
      { type: ["string", "object"], required: ["x"] },
      { type: ["string", "object"], properties: { y: {} }, additionalProperties: false },
      false,
    ],
  ]);

  const nested = (depth: number, value: string): object =>
    depth === 0 ? { const: value } : obj({ required: ["k"], properties: { k: nested(depth - 1, value) } });
  cases([
    ["a discriminator four objects deep", nested(4, "a"), nested(4, "b"), true],
    ["five deep is past the bound", nested(5, "a"), nested(5, "b"), false],
  ]);
});

describe("finite sets of values", () => {
  cases([
    ["two enums without a common value", { enum: [1, 2] }, { enum: [3] }, true],
    ["two enums sharing 2", { enum: [1, 2] }, { enum: [2, 3] }, false],
    ["an enum whose values all fail the other side", { enum: ["a", "b"] }, str({ minLength: 2 }), true],
    ["an enum with a value the other side takes", { enum: ["a", "bb"] }, str({ minLength: 2 }), false],
    ["the other side's values all fail OLD", str({ minLength: 2 }), { enum: ["a"] }, true],
    ["the other side's value passes OLD", str({ minLength: 2 }), { enum: ["aa"] }, false],
    // Every value must fail: one that passes OLD is a document both sides take.
    ["one of the other side's values passes OLD", str({ minLength: 2 }), { enum: ["a", "bb"] }, false],
    ["true overlaps everything", str({}), true, false],
  ]);
});
