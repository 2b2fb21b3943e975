// Documents built for one change where it is (src/diff/witness/targeted.ts): the value the change
// concerns, generated from the accepting version's schema there, put inside the plainest document of
// every level on the way from the root. They find the breaks of changes deep in large schemas, which
// the document-wide search (seven levels, a few thousand documents) does not reach; each is still
// checked with the engine, so nothing unproven becomes `breaks`.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../../src/diff/index.js";
import { load } from "./load.js";
import { targetedDocuments } from "../../../../src/diff/witness/targeted.js";

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
    expect(documents).toEqual([{ list: [{ code: "x" }] }]);
    const nowhere = { node: { enum: ["y"] }, ptr: "/elsewhere", doc: loaded.old.root.doc };
    expect(
      targetedDocuments(model, generator, loaded.old.root, { accept: nowhere, reject: nowhere }),
    ).toEqual([]);
  });
});
