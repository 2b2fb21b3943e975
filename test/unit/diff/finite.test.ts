// A side whose values are a known finite set of scalars, compared value by value (src/diff/finite.ts):
// real schemas rewrite an `enum` as a `oneOf` of `const`s with a description each, or as an `anyOf`
// of a type and a `const`; keyword by keyword those look like changes, value by value they accept the
// same documents. Each value is judged exactly under the other side, or nothing is proven.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas } from "../../../src/diff/index.js";
import { acceptsScalar, finiteSuperset } from "../../../src/diff/finite.js";
import { load } from "./witness/load.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const verdicts = (old: object, next: object) => {
  const result = diffSchemas({ $schema: D, ...old }, { $schema: D, ...next });
  return { backward: result.backward, forward: result.forward };
};

describe("value by value", () => {
  it("an enum rewritten as a oneOf of consts accepts the same documents: ok both ways", () => {
    const old = { properties: { o: { enum: ["any", "natural"] } } };
    const next = {
      properties: {
        o: {
          oneOf: [
            { const: "any", description: "a" },
            { const: "natural", description: "n" },
          ],
        },
      },
    };
    expect(verdicts(old, next)).toEqual({ backward: "ok", forward: "ok" });
  });

  it("booleans and a const as an anyOf of a type and a const: ok both ways", () => {
    const old = { enum: [false, true, "allow-non-blocking"] };
    const next = { anyOf: [{ type: "boolean" }, { type: "string", const: "allow-non-blocking" }] };
    expect(verdicts(old, next)).toEqual({ backward: "ok", forward: "ok" });
  });

  it("a value the other side rejects still breaks, with its witness", () => {
    const result = diffSchemas(
      { $schema: D, enum: ["a", "b"] },
      { $schema: D, oneOf: [{ const: "a" }, { const: "b" }, { const: "c" }] },
    );
    expect({ backward: result.backward, forward: result.forward }).toEqual({
      backward: "ok",
      forward: "breaks",
    });
    expect(
      result.changes.flatMap((c) => (c.witness?.forward === undefined ? [] : [c.witness.forward])),
    ).toEqual(["c"]);
  });
});

describe("finiteSuperset and acceptsScalar", () => {
  it("know a finite set only from enum, const, booleans and branches that are each finite", () => {
    const { model, old } = load({ anyOf: [{ type: "boolean" }, { const: 3 }] });
    expect(finiteSuperset(model, old.root)).toEqual([true, false, 3]);
    const open = load({ anyOf: [{ type: "boolean" }, { type: "string" }] });
    expect(finiteSuperset(open.model, open.old.root)).toBeUndefined();
  });

  it("judge a scalar exactly through oneOf and not, and say nothing where another keyword could decide", () => {
    const { model, old } = load({ oneOf: [{ type: "string" }, { const: "x" }], not: { const: "y" } });
    expect(["x", "z", "y", 1].map((v) => acceptsScalar(model, old.root, v))).toEqual([
      false,
      true,
      false,
      false,
    ]);
    // An asserted format (draft-07 with --assert-formats) could reject "a"; in 2020-12 it is an annotation.
    const D7 = "http://json-schema.org/draft-07/schema#";
    const asserting = { compiler: new SchemaCompiler({ assertFormats: true }) };
    const formatted = load({ $schema: D7, type: "string", format: "email" }, {}, asserting);
    expect(acceptsScalar(formatted.model, formatted.old.root, "a")).toBeUndefined();
    const annotated = load({ type: "string", format: "email" }, {}, asserting);
    expect(acceptsScalar(annotated.model, annotated.old.root, "a")).toBe(true);
    const conditional = load({ if: { const: "a" }, then: { minLength: 2 } });
    expect(acceptsScalar(conditional.model, conditional.old.root, "a")).toBeUndefined();
  });
});
