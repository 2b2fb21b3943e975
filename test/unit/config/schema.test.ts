import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configSchema } from "../../../src/config/schema.js";

describe("config schema", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("is a valid 2020-12 schema under ajv's strict mode (the check start-up no longer makes)", () => {
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    expect(ajv.validateSchema(configSchema)).toBe(true);
    expect(ajv.errors).toBeNull();
    expect(() => ajv.compile(configSchema)).not.toThrow();
  });

  it("is compiled at import without checking it against the meta-schema (start-up's cost)", async () => {
    const check = vi.spyOn(Ajv2020.prototype, "validateSchema");
    vi.resetModules();
    const { parseConfig } = await import("../../../src/config/load.js");
    expect(check).toHaveBeenCalledTimes(0);
    // The compiled validator still rejects what the schema forbids.
    expect(() => parseConfig("subjects: []\nbogus: 1\n", "/c.yaml")).toThrow(/bogus/);
  });
});
