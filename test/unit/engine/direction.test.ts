import { describe, expect, it } from "vitest";
import { parseVersion } from "../../../src/catalog/version.js";
import { directionOf } from "../../../src/engine/direction.js";

const v = (t: string) => parseVersion(t, "test");

describe("direction", () => {
  it("follows the brief: newer reader is backward, older is forward, equal is conformance", () => {
    expect(directionOf(v("1.0.0"), v("1.1.0"))).toBe("backward");
    expect(directionOf(v("1.1.0"), v("1.0.0"))).toBe("forward");
    expect(directionOf(v("1.1"), v("1.1.0"))).toBe("conformance");
    expect(directionOf(undefined, v("1.0.0"))).toBe("undeclared");
  });
});
