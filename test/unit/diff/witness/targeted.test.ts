// Documents built for one change where it is (src/diff/witness/targeted.ts): the value the change
// concerns, generated from the accepting version's schema there, put inside the plainest document of
// every level on the way from the root. They find the breaks of changes deep in large schemas, which
// the document-wide search (seven levels, a few thousand documents) does not reach; each is still
// checked with the engine, so nothing unproven becomes `breaks`.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../../src/diff/index.js";
import { load, views } from "./load.js";
import { boundaryKeys } from "../../../../src/diff/witness/composite.js";
import { outsideNot, targetedDocuments } from "../../../../src/diff/witness/targeted.js";

const D = "https://json-schema.org/draft/2020-12/schema";

/** `leaf` nine objects deep, each level through a `$ref` and an `anyOf` branch. */
function deep(leaf: object): object {
  const $defs: Record<string, object> = { l9: { type: "object", properties: { leaf }, required: ["leaf"] } };
  for (let i = 8; i >= 1; i--) {
    $defs[`l${i}`] = {
      anyOf: [{ type: "null" }, { type: "object", properties: { [`k${i}`]: { $ref: `#/$defs/l${i + 1}` } } }],
    };
  }
  return { $schema: D, $ref: "#/$defs/l1", $defs };
}

describe("a break deep in a schema", () => {
  it("is proven with a document built where the change is", () => {
    const result = diffSchemas(deep({ enum: ["a"] }), deep({ enum: ["a", "b"] }));
    expect(result.changes.map((c) => [c.kind, c.backward, c.forward, c.witness])).toEqual([
      [
        "enum-value-added",
        "ok",
        "breaks",
        { forward: { k1: { k2: { k3: { k4: { k5: { k6: { k7: { k8: { leaf: "b" } } } } } } } } } },
      ],
    ]);
  });

  it("stays undecided where no document breaks: every built one is checked with the engine", () => {
    // minLength 3 beside a pattern that already demands 5 characters: no witness exists.
    const leaf = { type: "string", pattern: "^.{5,}$" };
    const result = diffSchemas(deep(leaf), deep({ ...leaf, minLength: 3 }));
    expect(result.changes.map((c) => [c.kind, c.backward, c.forward, c.witness])).toEqual([
      ["min-length-added", "undecided", "ok", undefined],
    ]);
  });
});

describe("targetedDocuments", () => {
  it("follows properties, items, $ref and branches from the root to the change, and none elsewhere", () => {
    const schema = {
      type: "object",
      properties: { list: { type: "array", items: { $ref: "#/$defs/item" } }, other: { type: "string" } },
      $defs: { item: { type: "object", properties: { code: { enum: ["x"] } } } },
    };
    const loaded = load(schema, schema);
    const { model, generator } = loaded;
    const code = (root: typeof loaded.old.root) => {
      const node = (root.node as { $defs: { item: { properties: { code: unknown } } } }).$defs.item.properties
        .code;
      return { node, ptr: "/$defs/item/properties/code", doc: root.doc };
    };
    const documents = targetedDocuments(model, generator, loaded.old.root, {
      accept: code(loaded.old.root),
      reject: code(loaded.new.root),
    });
    // The value in the plainest document, then the same value with its object's other places varied.
    expect(documents[0]).toEqual({ list: [{ code: "x" }] });
    expect(documents).toHaveLength(25);
    expect(documents.slice(1, 4)).toEqual([
      { list: [{ code: "x" }] },
      { list: [{ code: "x", x: null }] },
      { list: [{ code: "x", x: false }] },
    ]);
    expect(documents.every((d) => (d as { list: [{ code: unknown }] }).list[0].code === "x")).toBe(true);
    const nowhere = { node: { enum: ["y"] }, ptr: "/elsewhere", doc: loaded.old.root.doc };
    expect(
      targetedDocuments(model, generator, loaded.old.root, { accept: nowhere, reject: nowhere }),
    ).toEqual([]);
  });
});

/** Bindings as Azure Functions' schema has them: `base` for every item, `types` left to the dynamic branch. */
const bindings = (types: string[], extra: object[], base: object) => ({
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: {
    bindings: {
      type: "array",
      items: {
        allOf: [{ $ref: "#/definitions/base" }],
        oneOf: [{ $ref: "#/definitions/dynamic" }, ...extra],
      },
    },
  },
  definitions: { base, dynamic: { properties: { type: { not: { enum: types } } } } },
});

describe("breaks that need the place around the change", () => {
  // Azure Functions' bindings: the fixed ones by type, the rest dynamic.
  const base = {
    properties: {
      name: { type: "string" },
      type: { type: "string" },
      direction: { enum: ["in", "out", "inout"] },
    },
    required: ["name", "type", "direction"],
  };
  const binding = (types: string[], extra: object[]) => bindings(types, extra, base);

  it("a value newly named in a `not`, which a new branch takes only with another place changed", () => {
    // Azure Functions: "sql" leaves the dynamic bindings for a branch of its own that takes direction "in" only.
    const sql = { properties: { type: { enum: ["sql"] }, direction: { enum: ["in"] } } };
    const result = diffSchemas(binding(["http"], []), binding(["http", "sql"], [sql]));
    const added = result.changes.find((c) => c.kind === "enum-value-added")!;
    expect([added.backward, added.forward, added.witness]).toEqual([
      "breaks",
      "ok",
      { backward: { bindings: [{ type: "sql", name: "", direction: "out" }] } },
    ]);
  });

  it("outsideNot: the schema whose `not` holds a node, or the node itself", () => {
    const schema = { properties: { t: { not: { enum: ["a"] } }, not: { type: "string" } } };
    const { old } = load(schema);
    const props = (old.root.node as { properties: { t: { not: unknown }; not: unknown } }).properties;
    const inNot = { node: props.t.not, ptr: "/properties/t/not", doc: old.root.doc };
    expect(outsideNot(inNot)).toEqual({ node: props.t, ptr: "/properties/t", doc: old.root.doc });
    // A property named "not" is no `not`.
    const named = { node: props.not, ptr: "/properties/not", doc: old.root.doc };
    expect(outsideNot(named)).toBe(named);
    // A node that does not live at its pointer (made for a proof) stays as it is.
    const made = { node: { enum: ["a"] }, ptr: "/properties/t/not", doc: old.root.doc };
    expect(outsideNot(made)).toBe(made);
  });
});

describe("keys on one side of two key patterns", () => {
  it("boundaryKeys: probes some pattern matches and another does not", () => {
    expect(
      boundaryKeys(views({ patternProperties: { "^[a-zA-Z][a-zA-Z0-9_.-]*$": {}, "^[a-zA-Z0-9_-]+$": {} } })),
    ).toEqual(["0", "_", "-", "a.b"]);
    expect(boundaryKeys(views({ patternProperties: { "^a": {} } }))).toEqual([]);
  });

  it("azure-iot-edge: module names that may start with a digit now, in a closed map", () => {
    const modules = (pattern: string) => ({
      type: "object",
      patternProperties: { [pattern]: { type: "object" } },
      additionalProperties: false,
    });
    const result = diffSchemas(modules("^[a-zA-Z][a-zA-Z0-9_.-]*$"), modules("^[a-zA-Z0-9_-]+$"));
    expect([result.backward, result.forward]).toEqual(["breaks", "breaks"]);
    expect(result.changes.map((c) => c.witness)).toEqual([
      { backward: { "a.b": {} } },
      { forward: { "0": {} } },
    ]);
  });
});

describe("outsideNot, at the edges of a pointer", () => {
  const schema = {
    not: { type: "null" },
    properties: { "a/b": { not: { const: 1 } }, "m~n": { not: { const: 2 } } },
    patternProperties: { not: { type: "string" } },
    definitions: { not: { type: "string" } },
    $defs: { not: { type: "string" } },
    dependencies: { not: { type: "string" } },
  };
  const { old } = load(schema);
  const root = old.root.node as typeof schema;
  const at = (node: unknown, ptr: string) => ({ node, ptr, doc: old.root.doc });

  it("a `not` at the root lifts to the root; escaped names are followed", () => {
    expect(outsideNot(at(root.not, "/not"))).toEqual(at(root, ""));
    expect(outsideNot(at(root.properties["a/b"].not, "/properties/a~1b/not"))).toEqual(
      at(root.properties["a/b"], "/properties/a~1b"),
    );
    expect(outsideNot(at(root.properties["m~n"].not, "/properties/m~0n/not"))).toEqual(
      at(root.properties["m~n"], "/properties/m~0n"),
    );
  });

  it("a schema named `not` in any map of names is no `not`; a pointer that leads nowhere stays", () => {
    for (const map of ["patternProperties", "definitions", "$defs", "dependencies"] as const) {
      const named = at(root[map].not, `/${map}/not`);
      expect(outsideNot(named)).toBe(named);
    }
    const nowhere = at({ const: 1 }, "/properties/zz/not");
    expect(outsideNot(nowhere)).toBe(nowhere);
  });
});

describe("neighbours steered by the other version's schemas at the same place", () => {
  it("a key only the new branch names: a binding type of its own whose table must be a string", () => {
    const base = {
      properties: { name: { type: "string" }, type: { type: "string" } },
      required: ["name", "type"],
    };
    const binding = (types: string[], extra: object[]) => bindings(types, extra, base);
    const trigger = { properties: { type: { enum: ["trig"] }, table: { type: "string" } } };
    const result = diffSchemas(binding(["http"], []), binding(["http", "trig"], [trigger]));
    const added = result.changes.find((c) => c.kind === "enum-value-added")!;
    expect([added.backward, added.witness]).toEqual([
      "breaks",
      { backward: { bindings: [{ type: "trig", name: "", table: 0 }] } },
    ]);
  });
});
