import { describe, expect, it } from "vitest";
import { diffSchemas, type Change } from "../../../src/diff/index.js";
import { judge } from "../../../src/diff/registry-verdict.js";
import { isSchemawatchError } from "../../../src/errors.js";

const find = (changes: readonly Change[], kind: string) => changes.find((c) => c.kind === kind);

describe("diffSchemas paths", () => {
  it("points into NEW for what NEW has and into OLD for what only OLD had", () => {
    const before = {
      properties: { a: { type: "string" }, gone: { type: "integer" } },
      additionalProperties: false,
    };
    const after = {
      properties: { a: { type: "string", maxLength: 3 }, fresh: { type: "integer" } },
      additionalProperties: false,
    };
    const { changes } = diffSchemas(before, after);
    expect(find(changes, "max-length-added")?.path).toBe("/properties/a/maxLength");
    expect(find(changes, "property-added-closed")?.path).toBe("/properties/fresh");
    expect(find(changes, "property-removed-closed")?.path).toBe("/properties/gone");
  });

  it("follows $ref to where the referenced schema lives", () => {
    const schema = (max: number) => ({
      properties: { home: { $ref: "#/$defs/address" } },
      $defs: { address: { properties: { zip: { type: "string", maxLength: max } } } },
    });
    const { changes } = diffSchemas(schema(10), schema(5));
    expect(changes.map((c) => c.path)).toEqual(["/$defs/address/properties/zip/maxLength"]);
  });

  it("escapes JSON Pointer characters in property names", () => {
    const { changes } = diffSchemas(
      { properties: { "a/b~c": { type: "string" } } },
      { properties: { "a/b~c": { type: "integer" } } },
    );
    expect(changes[0]?.path).toBe("/properties/a~1b~0c/type");
  });

  it("uses the empty pointer for the root", () => {
    expect(diffSchemas(true, false).changes[0]?.path).toBe("");
  });
});

describe("diffSchemas policies", () => {
  const before = { type: "object", properties: { id: { type: "integer" } } };
  const after = { type: "object", properties: { id: { type: "integer" }, amount: { type: "number" } } };

  it("strict is the default and names strict as the policy that objects", () => {
    const result = diffSchemas(before, after);
    expect(result.policy).toBe("strict");
    expect(result.compatibility).toBe("FORWARD");
    expect(find(result.changes, "property-added-open")).toMatchObject({
      backward: "breaks",
      breaksUnder: "strict",
    });
  });

  it("lenient accepts the same change and still says strict would object", () => {
    const result = diffSchemas(before, after, { policy: "lenient" });
    expect(result).toMatchObject({ compatibility: "FULL", bump: "minor" });
    expect(find(result.changes, "property-added-open")).toMatchObject({
      backward: "ok",
      breaksUnder: "strict",
    });
  });

  it("marks changes that break under both policies", () => {
    const result = diffSchemas({ type: "string" }, { type: "integer" }, { policy: "lenient" });
    expect(result.changes[0]?.breaksUnder).toBe("both");
  });

  it("leaves breaksUnder out of harmless changes", () => {
    const result = diffSchemas({ title: "a" }, { title: "b" });
    expect(result.changes[0]).not.toHaveProperty("breaksUnder");
  });
});

describe("diffSchemas bump", () => {
  it("is none for identical schemas, patch for annotations, minor for forward-only, major otherwise", () => {
    expect(diffSchemas({ type: "string" }, { type: "string" }).bump).toBe("none");
    expect(diffSchemas({ type: "string" }, { type: "string", description: "x" }).bump).toBe("patch");
    expect(diffSchemas({ enum: ["a"] }, { enum: ["a", "b"] }).bump).toBe("minor");
    expect(diffSchemas({ enum: ["a", "b"] }, { enum: ["a"] }).bump).toBe("major");
  });

  it("forces major when backward is undecided", () => {
    // Digits are hex digits, but patterns are not compared for inclusion and no witness exists.
    const result = diffSchemas(
      { type: "string", pattern: "^[0-9]+$" },
      { type: "string", pattern: "^[0-9a-f]+$" },
    );
    expect(result).toMatchObject({
      backward: "undecided",
      forward: "breaks",
      compatibility: "NONE",
      bump: "major",
    });
  });
});

describe("diffSchemas references and dialects", () => {
  it("resolves external references through resolveExternal", () => {
    const external = (max: number) => ({ type: "string", maxLength: max });
    const schema = { $id: "https://example.com/event.json", properties: { name: { $ref: "name.json" } } };
    const result = diffSchemas(schema, schema, {
      resolveExternal: (uri) => (uri === "https://example.com/name.json" ? external(10) : undefined),
    });
    expect(result.changes).toEqual([]);
    let calls = 0;
    const changed = diffSchemas(schema, schema, {
      resolveExternal: () => external(calls++ === 0 ? 10 : 5),
    });
    expect(changed.changes[0]).toMatchObject({
      kind: "max-length-decreased",
      path: "https://example.com/name.json#/maxLength",
    });
  });

  it("throws SCHEMA_INVALID for a reference that resolves to nothing", () => {
    const attempt = () => diffSchemas({ $ref: "#/$defs/missing" }, {}, { oldName: "v1.json" });
    expect(attempt).toThrow(/v1\.json: \$ref "#\/\$defs\/missing" at #.*points to nothing/);
    try {
      attempt();
    } catch (error) {
      expect(isSchemawatchError(error) && error.code).toBe("SCHEMA_INVALID");
    }
  });

  it("throws SCHEMA_INVALID for an unsupported $schema", () => {
    expect(() =>
      diffSchemas({ $schema: "http://json-schema.org/draft-03/schema#" }, {}, { oldName: "old.json" }),
    ).toThrow(/old\.json: unsupported \$schema/);
  });

  it("lets the caller override the dialect", () => {
    const before = { type: "number", maximum: 10, exclusiveMaximum: true };
    const result = diffSchemas(
      before,
      { type: "number", maximum: 10 },
      { oldDialect: "draft-04", newDialect: "draft-04" },
    );
    expect(result.changes.map((c) => c.kind)).toEqual(["exclusive-maximum-removed"]);
  });

  it("terminates on deep and wide recursive schemas", () => {
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 200; i++) props[`p${i}`] = { $ref: i % 2 ? "#" : "#/$defs/leaf" };
    const schema = (max: number) => ({
      type: "object",
      properties: props,
      $defs: { leaf: { type: "integer", maximum: max } },
    });
    // Returning at all is the point (a comparison that followed the recursion forever would hit the
    // test's timeout); how fast it returns is for the benchmarks, not for a timed test.
    const result = diffSchemas(schema(5), schema(4));
    expect(result.backward).toBe("breaks");
    expect(result.changes).toHaveLength(1);
  });
});

describe("the registry's verdict beside the evidence (judge)", () => {
  const v1 = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
  const backward = { level: "BACKWARD", source: "subject", directions: ["backward"] as const };
  const against = (after: unknown) => [{ version: 1, result: diffSchemas(v1, after) }];

  it("shows a break the registry accepts with the change and its witness", () => {
    const narrowed = { ...v1, properties: { id: { type: "integer", maximum: 5 } } };
    const judged = judge(backward, against(narrowed), { compatible: true, messages: [] });
    expect(judged).toMatchObject({
      evidence: "breaks",
      disagreement: "registry-accepts-breaking",
      breaks: { version: 1, direction: "backward", witness: { id: 6 } },
      ok: false,
    });
    expect(judged.breaks?.change.kind).toBe("maximum-added");
  });

  it("shows a rejection of a change proven safe with every change as the proof", () => {
    const described = { ...v1, description: "an order" };
    const judged = judge(backward, against(described), { compatible: false, messages: ["no"] });
    expect(judged.disagreement).toBe("registry-rejects-safe");
    expect(judged.proof?.map((p) => p.change.kind)).toEqual(["description-changed"]);
    expect(judged.ok).toBe(false);
  });

  it("agrees where both say the same, and checks only the directions of the level", () => {
    const required = { ...v1, required: ["id", "name"] };
    expect(judge(backward, against(required), { compatible: false, messages: [] })).toEqual({
      evidence: "breaks",
      ok: false,
    });
    // Forward is ok for a new required name: FORWARD accepts it, and so does NONE.
    const forward = { ...backward, level: "FORWARD", directions: ["forward"] as const };
    expect(judge(forward, against(required), { compatible: true, messages: [] })).toEqual({
      evidence: "ok",
      ok: true,
    });
    const none = { ...backward, level: "NONE", directions: [] };
    expect(judge(none, against(required), { compatible: true, messages: [] }).ok).toBe(true);
  });

  it("says no disagreement where schemawatch cannot decide", () => {
    const pattern = { type: "string", pattern: "^[0-9]+$" };
    const widened = { type: "string", pattern: "^[0-9a-f]+$" };
    const judged = judge(backward, [{ version: 1, result: diffSchemas(pattern, widened) }], {
      compatible: false,
      messages: [],
    });
    expect(judged).toEqual({ evidence: "undecided", ok: false });
  });
});
