// The numeric keywords' changes as a reader of the report sees them: the kind, where it is, both
// verdicts and the reason, exactly (src/diff/numbers.ts). The corpus checks the verdicts; this checks
// what is said about them.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../src/diff/index.js";

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
