import { describe, expect, it } from "vitest";
import type { Schema } from "@exodus/schemasafe";
import { loadSchemasafe } from "../../../src/catalog/schemasafe.js";

// The room of schemasafe's changes: loading fails if a release moved the code they replace, and each
// change shows at the level of schemasafe itself (their effect on validation: annotations.test.ts).
describe("schemasafe with the project's changes", () => {
  const validator = loadSchemasafe();
  const spec = {
    mode: "spec",
    includeErrors: true,
    $schemaDefault: "https://json-schema.org/draft/2020-12/schema",
  } as const;

  it("loads: every change matched the pinned release's code exactly once", () => {
    expect(typeof validator).toBe("function");
    expect(validator({ type: "string" }, spec)("a")).toBe(true);
  });

  it("compiles patterns with the project's engine: linear for what backtracks natively", () => {
    const validate = validator({ type: "string", pattern: "^(a+)+$" }, spec);
    const started = performance.now();
    expect(validate(`${"a".repeat(50_000)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(validate("aaa")).toBe(true);
  });

  it("a target that proved everything statically still reports it to a dynamic caller", () => {
    // schemasafe's type of a schema predates $dynamicAnchor.
    const schema = {
      $id: "https://example.com/d",
      $ref: "./b",
      $defs: {
        d: { $dynamicAnchor: "x", properties: { bar: true } },
        b: {
          $id: "./b",
          unevaluatedProperties: false,
          $dynamicRef: "#x",
          $defs: { n: { $dynamicAnchor: "x" } },
        },
      },
    } as unknown as Schema;
    const validate = validator(schema, spec);
    expect([validate({ bar: 1 }), validate({ baz: 1 })]).toEqual([true, false]);
  });
});
