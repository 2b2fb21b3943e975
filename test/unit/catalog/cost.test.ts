import { describe, expect, it } from "vitest";
import { mayRunLong } from "../../../src/catalog/cost.js";
import type { CatalogVersion } from "../../../src/catalog/types.js";

/** The parts of a catalog version `mayRunLong` reads. */
function version(json: unknown, refs: unknown[] = []): CatalogVersion {
  return {
    file: { json },
    refs: refs.map((ref, i) => ({ uri: `https://example.com/ref-${i}.json`, name: `ref-${i}`, json: ref })),
  } as unknown as CatalogVersion;
}

const string = (extra: object) => ({ type: "object", properties: { a: { type: "string", ...extra } } });

describe("whether a version's validation may run long", () => {
  it("is false when every keyword runs in time linear in the document", () => {
    expect(mayRunLong(version(string({ pattern: "^(a+)+$" })), true)).toBe(false);
    expect(mayRunLong(version(string({ pattern: "^[a-z]+$", maxLength: 5 })), true)).toBe(false);
    expect(mayRunLong(version({ $ref: "#/$defs/x", $defs: { x: { type: "integer" } } }), true)).toBe(false);
    expect(mayRunLong(version(string({ format: "email" })), false)).toBe(false);
  });

  it("is true for a backtracking pattern, uniqueItems, an asserted format or a $ref it cannot see", () => {
    expect(mayRunLong(version(string({ pattern: "^((a+)+)\\1?$" })), false)).toBe(true);
    expect(mayRunLong(version({ patternProperties: { "^(?=a)": {} } }), false)).toBe(true);
    expect(mayRunLong(version({ type: "array", uniqueItems: true }), false)).toBe(true);
    expect(mayRunLong(version(string({ format: "email" })), true)).toBe(true);
    expect(mayRunLong(version({ $ref: "common.json#/$defs/x" }), false)).toBe(true);
  });

  it("is true for unevaluated* and the dynamic scope: the annotation engine's lists grow with a record", () => {
    expect(mayRunLong(version({ properties: { a: { unevaluatedProperties: false } } }), false)).toBe(true);
    expect(mayRunLong(version({ items: { $dynamicRef: "#node" } }), false)).toBe(true);
    expect(mayRunLong(version({ properties: { unevaluatedItems: { type: "string" } } }), false)).toBe(false);
  });

  it("reads a registered version's references, where a $ref leads", () => {
    expect(mayRunLong(version({ $ref: "ref-0.json" }, [{ type: "string" }]), false)).toBe(false);
    expect(mayRunLong(version({ $ref: "ref-0.json" }, [string({ pattern: "(?<=a)b" })]), false)).toBe(true);
  });
});
