// A direction that every change leaves `undecided` is still broken when a document found on the way
// breaks it (src/diff/witness/prove.ts, `combined`): the changes break together, none alone, and one
// more change, `changes-combined`, carries that document as the direction's witness.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../../src/diff/index.js";
import type { Change } from "../../../../src/diff/vocabulary.js";
import { combined } from "../../../../src/diff/witness/prove.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const diff = (old: object, next: object) => diffSchemas({ $schema: D, ...old }, { $schema: D, ...next });
const line = (c: Change) => `${c.kind} ${c.path} ${c.backward}/${c.forward} ${JSON.stringify(c.witness)}`;

describe("changes that break together", () => {
  it("a required property swapped for another in a closed object: each direction broken by two changes at once", () => {
    const result = diff(
      { type: "object", properties: { a: {} }, required: ["a"], additionalProperties: false },
      { type: "object", properties: { b: {} }, required: ["b"], additionalProperties: false },
    );
    expect(result.changes.map(line)).toEqual([
      "property-removed-closed /properties/a undecided/ok undefined",
      "property-added-closed /properties/b ok/undecided undefined",
      "required-added /required/0 undecided/ok undefined",
      "required-removed /required/0 ok/undecided undefined",
      'changes-combined  breaks/ok {"backward":{"a":0}}',
      'changes-combined  ok/breaks {"forward":{"b":0}}',
    ]);
    expect(result.changes.at(-2)?.reason).toBe(
      "a document OLD accepts and NEW rejects, though no one change alone is shown to reject it (property-removed-closed at /properties/a, required-added at /required/0); a witness proves backward breaks",
    );
    expect([result.backward, result.forward, result.compatibility, result.bump]).toEqual([
      "breaks",
      "breaks",
      "NONE",
      "major",
    ]);
  });

  it("kustomization's replacement that may give a `sourceValue` instead of a `source` (a new oneOf branch)", () => {
    const pair = (source: string) => ({
      type: "object",
      properties: {
        [source]: source === "source" ? { type: "object" } : { type: "string" },
        targets: { type: "array" },
      },
      required: [source, "targets"],
      additionalProperties: false,
    });
    const result = diff(pair("source"), { oneOf: [pair("source"), pair("sourceValue")] });
    expect([result.backward, result.forward]).toEqual(["ok", "breaks"]);
    expect(result.changes.filter((c) => c.forward === "undecided").map((c) => c.kind)).toEqual([
      "property-removed-open",
      "property-removed-open",
      "additional-properties-opened",
      "required-removed",
      "required-removed",
    ]);
    expect(line(result.changes.at(-1)!)).toBe(
      'changes-combined  ok/breaks {"forward":{"sourceValue":"","targets":[]}}',
    );
  });

  it("is not added where a change alone is proven, nor where no document breaks", () => {
    const lowered = diff({ type: "integer", maximum: 10 }, { type: "integer", maximum: 5 });
    expect(lowered.changes.map(line)).toEqual(['maximum-decreased /maximum breaks/ok {"backward":6}']);
    // Patterns not compared for inclusion, and no generated string tells them apart.
    const same = diff({ type: "string", pattern: "^a+$" }, { type: "string", pattern: "^(a)+$" });
    expect(same.changes.map(line)).toEqual(["pattern-changed /pattern undecided/undecided undefined"]);
  });

  it("sits at the deepest place the undecided changes share, and names each", () => {
    const at = (kind: Change["kind"], path: string, forward: Change["forward"]): Change => ({
      kind,
      path,
      backward: "ok",
      forward,
      reason: "r",
    });
    const changes = [
      at("required-removed", "/definitions/R/required/0", "undecided"),
      at("additional-properties-opened", "/definitions/R/additionalProperties", "undecided"),
      at("type-removed", "/definitions/S/type", "ok"),
    ];
    expect(combined(changes, "forward", { x: 1 })).toEqual({
      kind: "changes-combined",
      path: "/definitions/R",
      backward: "ok",
      forward: "breaks",
      reason:
        "a document NEW accepts and OLD rejects, though no one change alone is shown to reject it (required-removed at /definitions/R/required/0, additional-properties-opened at /definitions/R/additionalProperties); a witness proves forward breaks",
      witness: { forward: { x: 1 } },
    });
    expect(combined([at("pattern-changed", "", "undecided")], "forward", 1).path).toBe("");
  });
});
