// The rejecting version with one change undone (src/diff/witness/surgery.ts): what `prove` compiles to
// check that a change, and not another, rejects a witness. Each case lists the exact documents handed
// to the compiler, most precise first, for a change at `path` found between the nodes at `site`.
import { describe, expect, it } from "vitest";
import { undone } from "./undone.js";

describe("the keyword at the change's place is set back to the accepting version's", () => {
  it("backward undoes NEW's keyword, forward OLD's, with the keywords that read each other", () => {
    const old = { maximum: 10, exclusiveMaximum: 12, minimum: 0 };
    const next = { exclusiveMaximum: 5, minimum: 1 };
    expect(undone(old, next, { path: "/exclusiveMaximum", direction: "backward" })).toEqual({
      variants: 1,
      compiled: [{ exclusiveMaximum: 12, minimum: 1, maximum: 10 }],
    });
    expect(undone(old, next, { path: "/maximum", direction: "forward" })).toEqual({
      variants: 1,
      compiled: [{ exclusiveMaximum: 5, minimum: 0 }],
    });
  });

  it("groups: if/then/else, enum/const go back together; a keyword the other side lacks is removed", () => {
    const conditional = { if: { minimum: 1 }, then: { maximum: 3 } };
    expect(
      undone(conditional, { if: { minimum: 2 } }, { path: "/if", direction: "backward" }).compiled,
    ).toEqual([conditional]);
    expect(
      undone({ enum: [1, 2] }, { const: 1 }, { path: "/const", direction: "backward" }).compiled,
    ).toEqual([{ enum: [1, 2] }]);
    expect(
      undone({ type: "object" }, { type: "integer" }, { path: "/other", direction: "backward" }).compiled,
    ).toEqual([{ type: "integer" }]);
  });

  it("each group of keywords that read each other goes back whole", () => {
    const back = (old: object, next: object, path: string) =>
      undone(old, next, { path, direction: "backward" }).compiled;
    expect(back({ minimum: 1, exclusiveMinimum: 0 }, { minimum: 2, maximum: 9 }, "/minimum")).toEqual([
      { maximum: 9, minimum: 1, exclusiveMinimum: 0 },
    ]);
    expect(back({ prefixItems: [{}], items: false }, { items: { type: "string" } }, "/items")).toEqual([
      { items: false, prefixItems: [{}] },
    ]);
    expect(
      back(
        { contains: { const: 1 }, minContains: 2 },
        { contains: { const: 1 }, maxContains: 3 },
        "/minContains",
      ),
    ).toEqual([{ contains: { const: 1 }, minContains: 2 }]);
    const content = {
      contentEncoding: "base64",
      contentMediaType: "application/json",
      contentSchema: { type: "object" },
    };
    expect(back(content, { contentEncoding: "base16", maxLength: 4 }, "/contentEncoding")).toEqual([
      { maxLength: 4, ...content },
    ]);
  });

  it("the rest of each group: additionalItems, contains and else", () => {
    const back = (old: object, next: object, path: string) =>
      undone(old, next, { path, direction: "backward" }).compiled;
    const d7 = "http://json-schema.org/draft-07/schema#";
    expect(
      back({ $schema: d7, items: [{}], additionalItems: false }, { $schema: d7, items: [{}, {}] }, "/items"),
    ).toEqual([{ items: [{}], additionalItems: false }]);
    expect(
      back(
        { contains: { const: 1 }, minContains: 2 },
        { contains: { const: 2 }, minContains: 2 },
        "/minContains",
      ),
    ).toEqual([{ contains: { const: 1 }, minContains: 2 }]);
    expect(
      back({ if: { minimum: 1 }, else: { maximum: 0 } }, { if: { minimum: 1 }, else: { maximum: 5 } }, "/if"),
    ).toEqual([{ if: { minimum: 1 }, else: { maximum: 0 } }]);
  });

  it("the whole node at the site, when the change is the node itself", () => {
    const how = { path: "/properties/a", direction: "backward" as const, old: ["properties", "a"] };
    expect(
      undone({ properties: { a: { type: "string" } } }, { properties: { a: { type: "integer" } } }, how)
        .compiled,
    ).toEqual([{ properties: { a: { type: "string" } } }]);
  });

  it("a site deeper down: only its node is replaced", () => {
    const at = ["properties", "a", "properties", "b"];
    const how = { path: "/properties/a/properties/b/type", direction: "backward" as const, old: at };
    const old = { properties: { a: { properties: { b: { type: "string" } } } } };
    const next = { properties: { a: { properties: { b: { type: "integer" } }, required: ["b"] } } };
    expect(undone(old, next, how).compiled).toEqual([
      { properties: { a: { properties: { b: { type: "string" } }, required: ["b"] } } },
    ]);
  });

  it("a map entry whose name needs escaping in the path", () => {
    const old = { properties: { "a/b~c": { type: "string" } } };
    const next = { properties: { "a/b~c": { type: "integer" }, d: {} } };
    expect(undone(old, next, { path: "/properties/a~1b~0c", direction: "backward" }).compiled).toEqual([
      { properties: { "a/b~c": { type: "string" }, d: {} } },
      { properties: { "a/b~c": { type: "string" }, d: {} } },
    ]);
  });

  it("`required` as a whole goes back whole", () => {
    expect(
      undone({ required: ["a"] }, { required: ["a", "b"] }, { path: "/required", direction: "backward" })
        .compiled,
    ).toEqual([{ required: ["a"] }]);
  });

  it("an entry of patternProperties, dependencies or dependentSchemas is one entry of a map", () => {
    const back = (old: object, next: object, path: string) =>
      undone(old, next, { path, direction: "backward" }).compiled;
    expect(
      back(
        { patternProperties: { "^a": { type: "string" } } },
        { patternProperties: { "^a": false, "^b": {} } },
        "/patternProperties/^a",
      ),
    ).toEqual([{ patternProperties: { "^a": { type: "string" }, "^b": {} } }]);
    expect(
      back(
        { dependentSchemas: { a: { required: ["b"] } } },
        { dependentSchemas: { a: false, c: {} } },
        "/dependentSchemas/a",
      ),
    ).toEqual([{ dependentSchemas: { a: { required: ["b"] }, c: {} } }]);
    const d7 = "http://json-schema.org/draft-07/schema#";
    const loaded = undone(
      { $schema: d7, dependencies: { a: ["b"] } },
      { $schema: d7, dependencies: { a: ["c"], d: {} } },
      {
        path: "/dependencies/a",
        direction: "backward",
      },
    );
    expect(loaded.compiled).toEqual([{ dependencies: { a: ["b"], d: {} } }]);
  });

  it("below the root: only the site's node changes, the rest of the document stays", () => {
    const how = { path: "/properties/a/type", direction: "backward" as const, old: ["properties", "a"] };
    const old = { properties: { a: { type: "string" } }, required: ["a"] };
    expect(undone(old, { properties: { a: { type: "integer" } }, required: ["b"] }, how).compiled).toEqual([
      { properties: { a: { type: "string" } }, required: ["b"] },
    ]);
    // A boolean node is replaced with the accepting version's schema.
    expect(undone(old, { properties: { a: false } }, how).compiled).toEqual([
      { properties: { a: { type: "string" } } },
    ]);
    const whole = { path: "/properties/a", direction: "backward" as const, old: ["properties", "a"] };
    expect(undone(old, { properties: { a: true } }, whole).compiled).toEqual([
      { properties: { a: { type: "string" } } },
    ]);
  });

  it("the change may lie under the accepting version's node only, between schemas at other places", () => {
    const old = { properties: { a: { maximum: 3 } }, $defs: { x: { maximum: 2 } } };
    const how = {
      path: "/$defs/x/maximum",
      direction: "backward" as const,
      old: ["$defs", "x"],
      new: ["properties", "a"],
    };
    expect(undone(old, { properties: { a: { maximum: 1 } } }, how).compiled).toEqual([
      { properties: { a: { maximum: 2 } } },
    ]);
  });

  it("cannot undo a change whose path is under neither node", () => {
    const how = { path: "/nowhere/maximum", direction: "backward" as const, old: ["properties", "a"] };
    expect(undone({ properties: { a: { maximum: 3 } } }, { properties: { a: { maximum: 1 } } }, how)).toEqual(
      {
        variants: 0,
        compiled: [],
      },
    );
  });

  it("reads escaped pointer segments (~1 is /, ~0 is ~)", () => {
    const how = {
      path: "/properties/a~1b~0c/type",
      direction: "backward" as const,
      old: ["properties", "a/b~c"],
    };
    expect(
      undone(
        { properties: { "a/b~c": { type: "string" } } },
        { properties: { "a/b~c": { type: "integer" } } },
        how,
      ).compiled,
    ).toEqual([{ properties: { "a/b~c": { type: "string" } } }]);
  });
});
