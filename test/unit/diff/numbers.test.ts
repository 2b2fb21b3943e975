// The numeric keywords' changes as a reader of the report sees them: the kind, where it is, both
// verdicts and the reason, exactly (src/diff/numbers.ts). The corpus checks the verdicts; this checks
// what is said about them.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const changes = (old: object, next: object) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );

describe("numeric bounds and multipleOf, as reported", () => {
  it("names each bound's side, form and value on both sides", () => {
    expect(changes({ type: "number", maximum: 5 }, { type: "number", exclusiveMaximum: 5 })).toEqual([
      "exclusive-maximum-added /exclusiveMaximum breaks/ok: upper bound <= 5 -> < 5: numbers OLD accepted now fail",
    ]);
    expect(changes({ type: "number", exclusiveMinimum: 1 }, { type: "number" })).toEqual([
      "exclusive-minimum-removed /exclusiveMinimum ok/breaks: lower bound > 1 -> none: NEW accepts numbers OLD rejected",
    ]);
    expect(changes({ type: "number" }, { type: "number", minimum: 0 })).toEqual([
      "minimum-added /minimum breaks/ok: lower bound none -> >= 0: numbers OLD accepted now fail",
    ]);
    expect(changes({ type: "number", maximum: 3 }, { type: "number", maximum: 7 })).toEqual([
      "maximum-increased /maximum ok/breaks: upper bound <= 3 -> <= 7: NEW accepts numbers OLD rejected",
    ]);
  });

  it("says an integer's exclusive bound and the inclusive one below it let the same integers pass", () => {
    expect(changes({ type: "integer", exclusiveMaximum: 5 }, { type: "integer", maximum: 4 })).toEqual([
      "maximum-decreased /maximum ok/ok: upper bound < 5 -> <= 4: the same integers pass",
    ]);
    expect(changes({ type: "integer", minimum: 2 }, { type: "integer", exclusiveMinimum: 1 })).toEqual([
      "exclusive-minimum-decreased /exclusiveMinimum ok/ok: lower bound >= 2 -> > 1: the same integers pass",
    ]);
  });

  it("names multipleOf on both sides, none where it is absent", () => {
    expect(changes({ type: "number", multipleOf: 2 }, { type: "number" })).toEqual([
      "multiple-of-removed /multipleOf ok/breaks: multipleOf 2 -> none",
    ]);
    expect(changes({ type: "number" }, { type: "number", multipleOf: 3 })).toEqual([
      "multiple-of-added /multipleOf breaks/ok: multipleOf none -> 3",
    ]);
  });
});

describe("numeric changes settled by the values of an enum", () => {
  it("a bound passes the values it admits, at its edge too, and never a non-number", () => {
    const low = [1, 2, "x"];
    expect(changes({ enum: low }, { enum: low, maximum: 2 })).toEqual([
      "maximum-added /maximum ok/ok: upper bound none -> <= 2: numbers OLD accepted now fail",
    ]);
    expect(changes({ enum: low }, { enum: low, exclusiveMaximum: 2 })).toEqual([
      "exclusive-maximum-added /exclusiveMaximum breaks/ok: upper bound none -> < 2: numbers OLD accepted now fail",
    ]);
    expect(changes({ enum: low, maximum: 2 }, { enum: low })).toEqual([
      "maximum-removed /maximum ok/ok: upper bound <= 2 -> none: NEW accepts numbers OLD rejected",
    ]);
    expect(changes({ enum: low, exclusiveMaximum: 2 }, { enum: low })).toEqual([
      "exclusive-maximum-removed /exclusiveMaximum ok/breaks: upper bound < 2 -> none: NEW accepts numbers OLD rejected",
    ]);
    const high = [2, 3, "x"];
    expect(changes({ enum: high }, { enum: high, minimum: 2 })).toEqual([
      "minimum-added /minimum ok/ok: lower bound none -> >= 2: numbers OLD accepted now fail",
    ]);
    expect(changes({ enum: high }, { enum: high, exclusiveMinimum: 2 })).toEqual([
      "exclusive-minimum-added /exclusiveMinimum breaks/ok: lower bound none -> > 2: numbers OLD accepted now fail",
    ]);
    expect(changes({ enum: high, minimum: 2 }, { enum: high })).toEqual([
      "minimum-removed /minimum ok/ok: lower bound >= 2 -> none: NEW accepts numbers OLD rejected",
    ]);
    expect(changes({ enum: high, exclusiveMinimum: 2 }, { enum: high })).toEqual([
      "exclusive-minimum-removed /exclusiveMinimum ok/breaks: lower bound > 2 -> none: NEW accepts numbers OLD rejected",
    ]);
  });

  it("multipleOf checks each value, and never a non-number", () => {
    expect(changes({ enum: [2, 4, "x"] }, { enum: [2, 4, "x"], multipleOf: 2 })).toEqual([
      "multiple-of-added /multipleOf ok/ok: multipleOf none -> 2",
    ]);
    expect(changes({ enum: [2, 3, "x"] }, { enum: [2, 3, "x"], multipleOf: 2 })).toEqual([
      "multiple-of-added /multipleOf breaks/ok: multipleOf none -> 2",
    ]);
    expect(changes({ enum: [2, 4, "x"], multipleOf: 2 }, { enum: [2, 4, "x"] })).toEqual([
      "multiple-of-removed /multipleOf ok/ok: multipleOf 2 -> none",
    ]);
    expect(changes({ enum: [2, 3, "x"], multipleOf: 2 }, { enum: [2, 3, "x"] })).toEqual([
      "multiple-of-removed /multipleOf ok/breaks: multipleOf 2 -> none",
    ]);
  });
});

describe("integers", () => {
  it("an integer-only side behaves as if it carried multipleOf 1", () => {
    expect(changes({ type: "integer" }, { type: "integer", multipleOf: 1 })).toEqual([
      "multiple-of-added /multipleOf ok/ok: multipleOf none -> 1",
    ]);
    expect(changes({ type: "integer", multipleOf: 1 }, { type: "integer" })).toEqual([
      "multiple-of-removed /multipleOf ok/ok: multipleOf 1 -> none",
    ]);
    expect(changes({ type: "integer" }, { type: "number", multipleOf: 0.5 })).toEqual([
      "type-widened /type ok/breaks: type integer -> number; NEW documents of type non-integer number fail OLD",
      "multiple-of-added /multipleOf ok/ok: multipleOf none -> 0.5",
    ]);
    expect(changes({ type: "number", multipleOf: 0.5 }, { type: "integer" })).toEqual([
      "type-narrowed /type breaks/ok: type number -> integer; OLD documents of type non-integer number fail NEW",
      "multiple-of-removed /multipleOf ok/ok: multipleOf 0.5 -> none",
    ]);
  });

  it("a fractional bound is the integer inside it, inclusive or exclusive", () => {
    expect(changes({ type: "integer", maximum: 4 }, { type: "integer", exclusiveMaximum: 4.5 })).toEqual([
      "exclusive-maximum-increased /exclusiveMaximum ok/ok: upper bound <= 4 -> < 4.5: the same integers pass",
    ]);
    expect(changes({ type: "integer", minimum: 4 }, { type: "integer", exclusiveMinimum: 3.5 })).toEqual([
      "exclusive-minimum-decreased /exclusiveMinimum ok/ok: lower bound >= 4 -> > 3.5: the same integers pass",
    ]);
    expect(changes({ type: "integer", maximum: 4.5 }, { type: "integer", maximum: 4 })).toEqual([
      "maximum-decreased /maximum ok/ok: upper bound <= 4.5 -> <= 4: the same integers pass",
    ]);
    expect(changes({ type: "integer", minimum: 3.5 }, { type: "integer", minimum: 4 })).toEqual([
      "minimum-increased /minimum ok/ok: lower bound >= 3.5 -> >= 4: the same integers pass",
    ]);
  });
});
