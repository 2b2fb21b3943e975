// The rejecting version with one change undone (src/diff/witness/surgery.ts): what `prove` compiles to
// check that a change, and not another, rejects a witness. Each case lists the exact documents handed
// to the compiler, most precise first, for a change at `path` found between the nodes at `site`.
import { describe, expect, it } from "vitest";
import type { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas } from "../../../src/diff/index.js";
import { child, type Loc } from "../../../src/diff/document.js";
import { engineSide, loadSides } from "../../../src/diff/sides.js";
import type { Change } from "../../../src/diff/types.js";
import type { ProofContext } from "../../../src/diff/witness/prove.js";
import { variantsOf } from "../../../src/diff/witness/surgery.js";

const D = "https://json-schema.org/draft/2020-12/schema";
type Direction = "backward" | "forward";

interface Case {
  readonly path: string;
  readonly direction: Direction;
  /** Where the change was found, by keys from each root (NEW's defaults to OLD's). */
  readonly old?: readonly string[];
  readonly new?: readonly string[];
  /** Replaces NEW's site node, as the merged nodes made for proofs do. */
  readonly fake?: (loc: Loc) => Loc;
}

/** The documents compiled for the variants of one change, and how many variants compiled. */
function undone(old: object, next: object, how: Case): { variants: number; compiled: unknown[] } {
  const loaded = loadSides({ $schema: D, ...old }, { $schema: D, ...next }, {});
  const real = loaded.compiler;
  const compiled: unknown[] = [];
  const compiler = {
    compileVersion: (input: Parameters<SchemaCompiler["compileVersion"]>[0]) => {
      const { $schema: _dialect, ...json } = input.json as Record<string, unknown>;
      compiled.push(json);
      return real.compileVersion(input);
    },
  } as unknown as SchemaCompiler;
  const context: ProofContext = {
    model: loaded.model,
    compiler,
    old: engineSide(loaded.old, real),
    new: engineSide(loaded.new, real),
  };
  const down = (root: Loc, keys: readonly string[]): Loc =>
    keys.reduce((loc, key) => child(loc, (loc.node as Record<string, unknown>)[key], key), root);
  const oldSite = down(loaded.old.root, how.old ?? []);
  const newSite = how.fake ? how.fake(loaded.new.root) : down(loaded.new.root, how.new ?? how.old ?? []);
  const change: Change = {
    kind: "maximum-decreased",
    path: how.path,
    backward: "breaks",
    forward: "breaks",
    reason: "r",
    site: { old: oldSite, new: newSite },
  };
  const cache = new Map();
  variantsOf(change, how.direction, context, cache);
  // A second call with the same cache compiles nothing again.
  const variants = variantsOf(change, how.direction, context, cache).length;
  return { variants, compiled };
}

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

describe("one name of `required`, one entry of a map keyword", () => {
  it("a name added to `required` is taken out of the rejecting version's list, by its index", () => {
    expect(
      undone(
        { required: ["a"] },
        { required: ["a", "b", "c"] },
        { path: "/required/1", direction: "backward" },
      ).compiled,
    ).toEqual([{ required: ["a", "c"] }]);
    expect(
      undone({ required: ["a", "b"] }, { required: ["a"] }, { path: "/required/1", direction: "forward" })
        .compiled,
    ).toEqual([{ required: ["a"] }]);
  });

  it("a `required` found under the accepting version only is put back whole", () => {
    const old = { properties: { a: { required: ["p"] } }, $defs: { x: { required: ["p", "q"] } } };
    const how = {
      path: "/$defs/x/required/1",
      direction: "backward" as const,
      old: ["$defs", "x"],
      new: ["properties", "a"],
    };
    expect(undone(old, { properties: { a: { required: ["p", "r", "s"] } } }, how).compiled).toEqual([
      { properties: { a: { required: ["p", "q"] } } },
    ]);
  });

  it("an entry of a map is set back or removed; the map's other entries stay", () => {
    const how = { path: "/dependentRequired/d", direction: "backward" as const };
    expect(
      undone({ dependentRequired: { a: ["b"] } }, { dependentRequired: { a: ["c"], d: ["e"] } }, how)
        .compiled,
    ).toEqual([{ dependentRequired: { a: ["c"] } }]);
  });

  it("a property: first alone, then with how the other version validates undeclared keys", () => {
    const old = { properties: { a: { type: "string" } }, additionalProperties: false };
    const next = {
      properties: { a: { type: "string" }, b: {} },
      additionalProperties: { type: "integer" },
      patternProperties: { "^x": false },
    };
    expect(undone(old, next, { path: "/properties/b", direction: "forward" })).toEqual({
      variants: 2,
      compiled: [
        { properties: { a: { type: "string" }, b: {} }, additionalProperties: false },
        {
          properties: { a: { type: "string" }, b: {} },
          additionalProperties: { type: "integer" },
          patternProperties: { "^x": false },
        },
      ],
    });
    const open = { properties: { a: { type: "integer" }, b: {} }, unevaluatedProperties: false };
    expect(undone(old, open, { path: "/properties/a/type", direction: "backward" }).compiled).toEqual([
      { properties: { a: { type: "string" }, b: {} }, unevaluatedProperties: false },
      { properties: { a: { type: "string" }, b: {} }, additionalProperties: false },
    ]);
  });

  it("`properties` itself, with no entry named, is undone whole and once", () => {
    expect(
      undone(
        { properties: { a: {} } },
        { properties: { b: {} } },
        { path: "/properties", direction: "backward" },
      ),
    ).toEqual({
      variants: 1,
      compiled: [{ properties: { a: {} } }],
    });
  });
});

describe("what cannot be undone in place gives no variant", () => {
  it("an edit that no longer compiles", () => {
    const next = { $defs: { x: {} }, $ref: "#/$defs/x", maximum: 2 };
    expect(undone({}, next, { path: "/$defs", direction: "backward" })).toEqual({
      variants: 0,
      compiled: [{ $ref: "#/$defs/x", maximum: 2 }],
    });
  });

  it("a node that does not live at its pointer (made for a proof)", () => {
    const merged = (loc: Loc): Loc => ({ ...loc, node: { ...(loc.node as object) } });
    expect(
      undone(
        { properties: { b: { type: "string" } } },
        { properties: {} },
        { path: "/properties/b", direction: "backward", fake: merged },
      ),
    ).toEqual({
      variants: 0,
      compiled: [],
    });
    const other = (loc: Loc): Loc => ({ node: { type: "integer" }, ptr: "/properties/b", doc: loc.doc });
    const how = {
      path: "/properties/b/type",
      direction: "backward" as const,
      old: ["properties", "b"],
      fake: other,
    };
    expect(undone({ properties: { b: { type: "string" } } }, { properties: { b: {} } }, how)).toEqual({
      variants: 0,
      compiled: [],
    });
  });

  it("an absent node stands for `true` where its parent exists, and nowhere else", () => {
    const absent = (loc: Loc): Loc => ({ node: true, ptr: "/properties/b", doc: loc.doc });
    const how = {
      path: "/properties/b/type",
      direction: "backward" as const,
      old: ["properties", "b"],
      fake: absent,
    };
    expect(undone({ properties: { b: { type: "string" } } }, { properties: {} }, how)).toEqual({
      variants: 1,
      compiled: [{ properties: { b: { type: "string" } } }],
    });
    expect(undone({ properties: { b: { type: "string" } } }, {}, how)).toEqual({ variants: 0, compiled: [] });
    const there = (loc: Loc): Loc => ({ node: true, ptr: "/properties/b", doc: loc.doc });
    expect(
      undone({ properties: { b: { type: "string" } } }, { properties: { b: {} } }, { ...how, fake: there }),
    ).toEqual({
      variants: 0,
      compiled: [],
    });
  });
});

describe("a change inside a referenced document", () => {
  it("is undone in that document, and the witness found through it", () => {
    const schema = { $id: "https://example.com/event.json", properties: { name: { $ref: "name.json" } } };
    const name = (max: number) => ({ type: "string", maxLength: max });
    const result = diffSchemas(schema, schema, {
      oldResolveExternal: () => name(10),
      newResolveExternal: () => name(5),
    });
    expect(result.changes.map((c) => [c.kind, c.path, c.backward, c.forward, c.witness])).toEqual([
      [
        "max-length-decreased",
        "https://example.com/name.json#/maxLength",
        "breaks",
        "ok",
        { backward: { name: "aaaaaa" } },
      ],
    ]);
  });
});
