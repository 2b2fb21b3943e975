// A `then`/`else` read together with its node's `properties` (src/diff/merge.ts, mergedProperties):
// a name both declare is bound by both schemas, so a branch that restates what the node already
// says changes nothing, and one that says more still breaks. Witnesses off: the engine's own verdicts.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D7 = "http://json-schema.org/draft-07/schema#";
const node = (data: object, then: object) => ({
  $schema: D7,
  type: "object",
  properties: { case: { enum: ["lower", "upper"] }, data },
  if: { properties: { case: { const: "lower" } } },
  then: { properties: { data: then } },
});
const changes = (old: object, next: object) =>
  diffSchemas(old, next, { witnesses: false }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );

describe("then and else beside the node's properties", () => {
  it("a type the node already gives the property is no change (Apicurio's Conditional: then)", () => {
    const string = { type: "string" };
    expect(changes(node(string, { pattern: "[a-z]*" }), node(string, string))).toEqual([
      "type-added /then/properties/data/type ok/ok: type any type -> string; OLD documents of type null, boolean, object, array, number fail NEW",
      "pattern-removed /then/properties/data/pattern ok/ok: OLD required strings to match /[a-z]*/",
    ]);
  });

  it("a type narrower than the node's still breaks backward", () => {
    const either = { type: ["string", "number"] };
    expect(changes(node(either, {}), node(either, { type: "string" }))).toEqual([
      "type-added /then/properties/data/type breaks/ok: type any type -> string; OLD documents of type null, boolean, object, array, number fail NEW",
    ]);
  });
});
