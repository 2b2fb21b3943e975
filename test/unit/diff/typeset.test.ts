// Instance types as a bit set (src/diff/typeset.ts). The diff only hands these functions what the
// meta-schema admits, so the edges the diff cannot reach (no type at all, unknown names) are checked
// here directly.
import { describe, expect, it } from "vitest";
import {
  ALL,
  ARRAY,
  BOOLEAN,
  describeTypes,
  FRACTION,
  INTEGER,
  maskOfType,
  maskOfValue,
  NULL,
  NUMBER,
  OBJECT,
  STRING,
} from "../../../src/diff/typeset.js";

describe("maskOfType", () => {
  it("reads a name or a list of names; integer is part of number", () => {
    expect(maskOfType("number")).toBe(INTEGER | FRACTION);
    expect(maskOfType(["integer", "null"])).toBe(INTEGER | NULL);
    expect(maskOfType(["string", "boolean", "object", "array"])).toBe(STRING | BOOLEAN | OBJECT | ARRAY);
  });

  it("counts unknown names and non-names for nothing; no type keyword is undefined", () => {
    expect(maskOfType("date")).toBe(0);
    expect(maskOfType(["string", "date", 1, ["null"]])).toBe(STRING);
    expect(maskOfType(undefined)).toBeUndefined();
    expect(maskOfType({ type: "string" })).toBeUndefined();
  });
});

describe("maskOfValue", () => {
  it("gives each JSON value its type, integers apart from fractions", () => {
    expect([null, true, {}, [], "s", 2, 2.5].map(maskOfValue)).toEqual([
      NULL,
      BOOLEAN,
      OBJECT,
      ARRAY,
      STRING,
      INTEGER,
      FRACTION,
    ]);
  });
});

describe("describeTypes", () => {
  it("names nothing, any type, and every set in a fixed order", () => {
    expect(describeTypes(0)).toBe("nothing");
    expect(describeTypes(ALL)).toBe("any type");
    expect(describeTypes(ALL & ~FRACTION)).toBe("null, boolean, object, array, string, integer");
    expect(describeTypes(NUMBER | NULL)).toBe("null, number");
    expect(describeTypes(FRACTION | STRING)).toBe("string, non-integer number");
    expect(describeTypes(BOOLEAN)).toBe("boolean");
  });
});
