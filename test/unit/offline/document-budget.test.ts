// The offline commands' validation budget and schemas compiled on their first use: the compilation
// is not the document's validation, and must never be stopped and reported as its timeout.
import { describe, expect, it } from "vitest";

import type { Validator } from "../../../src/catalog/compiler.js";
import { deferredValidator } from "../../../src/catalog/deferred.js";
import { DocumentBudget } from "../../../src/offline/budget.js";

/** A validator that accepts objects with `a`, failing on `required` otherwise. */
function compiled(): Validator {
  const validate = ((document: unknown) => {
    const passed = typeof document === "object" && document !== null && "a" in document;
    validate.errors = passed
      ? null
      : [{ keyword: "required", instancePath: "", schemaPath: "#/required", params: {} }];
    return passed;
  }) as Validator;
  validate.errors = null;
  return validate;
}

describe("DocumentBudget", () => {
  it("compiles a schema that waits for its first use before the budget starts, once", () => {
    let compilations = 0;
    const validate = deferredValidator(() => {
      compilations++;
      // Longer than the whole budget: inside it, the first document would be stopped as a timeout.
      const until = performance.now() + 60;
      while (performance.now() < until);
      return compiled();
    });
    const schema = { name: "events/1.0.0.json", json: {}, validate };
    const judged = new DocumentBudget(20).judge([
      [schema, { name: "ok.json", json: { a: 1 } }],
      [schema, { name: "bad.json", json: {} }],
    ]);
    expect(judged).toEqual([
      { passed: true, keyword: null, instancePath: null },
      { passed: false, keyword: "required", instancePath: "" },
    ]);
    expect(compilations).toBe(1);
  });
});
