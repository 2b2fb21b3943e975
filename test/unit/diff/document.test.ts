// The documents one side reaches (src/diff/document.ts): where each schema node lives (its JSON
// Pointer and base URI), what a `$ref` names, which external documents it pulls in, and the error a
// reference that names nothing gives. Each case states the rule with exact pointers, URIs and messages.
import { describe, expect, it } from "vitest";
import { SchemawatchError } from "../../../src/errors.js";
import {
  child,
  escapePointer,
  formatPath,
  isObject,
  Space,
  type Doc,
  type Loc,
} from "../../../src/diff/document.js";

const BASE = "https://schemawatch.invalid/schemas/old.json";
const load = (
  root: unknown,
  dialect: Doc["dialect"] = "2020-12",
  resolver?: (uri: string) => unknown,
  assertsFormats?: boolean,
) => {
  const space = new Space("OLD", resolver);
  const top = space.load(root, dialect, BASE, assertsFormats);
  return { space, top, doc: top.doc };
};
const pointers = (doc: Doc) => [...doc.pointers.values()];
const resolved = (from: Loc, ref: string) => {
  const loc = from.doc.space.resolve(from, ref);
  return { node: loc.node, ptr: loc.ptr, uri: loc.doc.uri, label: loc.doc.label };
};
const failure = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof SchemawatchError ? `${error.code} ${error.message}` : `other: ${String(error)}`;
  }
  return "no error";
};

describe("isObject, escapePointer, formatPath, child", () => {
  it("an object is a non-null, non-array object", () => {
    expect([{}, { a: 1 }, null, [], "x", 1, true, undefined].map(isObject)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("escapes ~ before / (RFC 6901), every occurrence", () => {
    expect(escapePointer("a/b~c/~d")).toBe("a~1b~0c~1~0d");
    expect(escapePointer("~1")).toBe("~01");
  });

  it("a change's path names the external document it lives in, and only then", () => {
    const { doc } = load({});
    expect(formatPath(doc, "/properties/a")).toBe("/properties/a");
    const external = { ...doc, label: "https://schemawatch.invalid/ext.json" };
    expect(formatPath(external, "/properties/a")).toBe("https://schemawatch.invalid/ext.json#/properties/a");
  });

  it("a child keeps the pointer the document recorded, else appends the escaped segments", () => {
    const shared = { type: "string" };
    const { top } = load({ $defs: { s: shared }, properties: { a: shared } });
    // Maps are walked properties first: the shared node lives at its first position.
    expect(child(top, shared, "x").ptr).toBe("/properties/a");
    const fresh = { type: "number" };
    expect(child(top, fresh, "properties", "a/b", "~x")).toEqual({
      node: fresh,
      ptr: "/properties/a~1b/~0x",
      doc: top.doc,
    });
    expect(child(top, true, "items").ptr).toBe("/items");
  });
});

describe("Space.load indexes every schema position", () => {
  it("records the document's facts", () => {
    const root = { type: "string" };
    const { top, doc, space } = load(root, "draft-07", undefined, true);
    expect(top.node).toBe(root);
    expect(top.ptr).toBe("");
    expect(doc.root).toBe(root);
    expect(doc.space).toBe(space);
    expect(doc.dialect).toBe("draft-07");
    expect(doc.uri).toBe(BASE);
    expect(doc.label).toBe("");
    expect(doc.assertsFormats).toBe(true);
    expect(load(root).doc.assertsFormats).toBe(false);
    expect(space.externals()).toEqual([]);
  });

  it("walks every subschema keyword, and only those", () => {
    const s = () => ({ type: "null" });
    const root = {
      additionalItems: s(),
      contains: s(),
      propertyNames: s(),
      not: s(),
      if: s(),
      then: s(),
      else: s(),
      additionalProperties: s(),
      unevaluatedProperties: s(),
      unevaluatedItems: s(),
      contentSchema: s(),
      allOf: [s(), s()],
      anyOf: [s()],
      oneOf: [s()],
      prefixItems: [s()],
      properties: { "a/b": s(), "c~d": s() },
      patternProperties: { "^x": s() },
      $defs: { d: s() },
      definitions: { e: s() },
      dependentSchemas: { f: s() },
      dependencies: { g: s(), h: ["i"] },
      // values, not schemas
      const: { type: "string" },
      enum: [{ type: "string" }],
      default: { type: "string" },
      examples: [{ type: "string" }],
      items: s(),
    };
    expect(pointers(load(root).doc)).toEqual([
      "",
      "/additionalItems",
      "/contains",
      "/propertyNames",
      "/not",
      "/if",
      "/then",
      "/else",
      "/additionalProperties",
      "/unevaluatedProperties",
      "/unevaluatedItems",
      "/contentSchema",
      "/items",
      "/allOf/0",
      "/allOf/1",
      "/anyOf/0",
      "/oneOf/0",
      "/prefixItems/0",
      "/properties/a~1b",
      "/properties/c~0d",
      "/patternProperties/^x",
      "/$defs/d",
      "/definitions/e",
      "/dependentSchemas/f",
      "/dependencies/g",
    ]);
  });

  it("walks tuple items by index and nested schemas to any depth", () => {
    const root = { items: [{ type: "null" }, { properties: { a: { items: { not: {} } } } }] };
    expect(pointers(load(root, "draft-07").doc)).toEqual([
      "",
      "/items/0",
      "/items/1",
      "/items/1/properties/a",
      "/items/1/properties/a/items",
      "/items/1/properties/a/items/not",
    ]);
  });

  it("a node reached twice keeps its first pointer; lists and maps of the wrong shape are skipped", () => {
    const shared = { type: "string" };
    const root = {
      allOf: { 0: { type: "null" } },
      properties: [{ type: "number" }],
      anyOf: [shared],
      not: shared,
    };
    expect(pointers(load(root).doc)).toEqual(["", "/not"]);
  });

  it("each node's base URI is the one in effect after its own $id", () => {
    const inner = { type: "string" };
    const nested = { $id: "nested/", properties: { b: inner } };
    const a = { $id: "a.json", properties: { n: nested } };
    const root = { properties: { a } };
    const { doc } = load(root);
    expect(doc.bases.get(root)).toBe(BASE);
    expect(doc.bases.get(a)).toBe("https://schemawatch.invalid/schemas/a.json");
    expect(doc.bases.get(nested)).toBe("https://schemawatch.invalid/schemas/nested/");
    expect(doc.bases.get(inner)).toBe("https://schemawatch.invalid/schemas/nested/");
  });
});

describe("Space.resolve", () => {
  it("a pointer fragment walks objects and arrays, decoding ~1, ~0 and percent escapes", () => {
    const target = { type: "integer" };
    const root = { $defs: { "a/b": { allOf: [{}, target] }, "c~d": true, "e f": false, "~1/~0/": 1 } };
    const { top } = load(root);
    expect(resolved(top, "#/$defs/a~1b/allOf/1")).toEqual({
      node: target,
      ptr: "/$defs/a~1b/allOf/1",
      uri: BASE,
      label: "",
    });
    // A boolean schema has no recorded pointer: the walked path, escaped again.
    expect(resolved(top, "#/$defs/c~0d")).toMatchObject({ node: true, ptr: "/$defs/c~0d" });
    expect(resolved(top, "#/$defs/e%20f")).toMatchObject({ node: false, ptr: "/$defs/e f" });
    // ~01 is "~1": ~1 is decoded before ~0, every occurrence.
    expect(resolved(top, "#/$defs/~01~1~00~1")).toMatchObject({ node: 1, ptr: "/$defs/~01~1~00~1" });
    expect(resolved(top, "#")).toMatchObject({ node: root, ptr: "" });
    expect(resolved(top, "")).toMatchObject({ node: root, ptr: "" });
  });

  it("an index of several digits names an item; a string value has no items", () => {
    const items = Array.from({ length: 11 }, (_, i) => ({ minimum: i }));
    const { top } = load({ allOf: items, $defs: { s: "abc" } });
    expect(resolved(top, "#/allOf/10")).toMatchObject({ node: items[10], ptr: "/allOf/10" });
    expect(failure(() => resolved(top, "#/$defs/s/0"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#/$defs/s/0" at # points to nothing',
    );
  });

  it("a pointer through a node reached first elsewhere gives the pointer recorded for it", () => {
    const shared = { type: "string" };
    const root = { properties: { a: shared }, $defs: { s: shared } };
    expect(resolved(load(root).top, "#/$defs/s")).toMatchObject({ node: shared, ptr: "/properties/a" });
  });

  it("a pointer to nothing fails, naming the side, the reference and where it is", () => {
    const root = { $defs: { a: { allOf: [{}] } }, properties: { p: { $ref: "#/$defs/b" } } };
    const { top } = load(root);
    const from = { node: root.properties.p, ptr: "/properties/p", doc: top.doc };
    expect(failure(() => resolved(from, "#/$defs/b"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#/$defs/b" at #/properties/p points to nothing',
    );
    // Inherited properties, non-index segments of an array and indexes past its end are not there.
    expect(failure(() => resolved(top, "#/$defs/constructor"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#/$defs/constructor" at # points to nothing',
    );
    expect(failure(() => resolved(top, "#/$defs/a/allOf/x"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#/$defs/a/allOf/x" at # points to nothing',
    );
    expect(failure(() => resolved(top, "#/$defs/a/allOf/0"))).toBe("no error");
    // Only an index of digits names an item: not "", " 0", "0 ", "0x0", "0e0" or "+0" (all Number 0).
    for (const index of ["0x", "x0", "1", "length", "", "%200", "0%20", "0x0", "0e0", "+0"]) {
      expect(failure(() => resolved(top, `#/$defs/a/allOf/${index}`))).toBe(
        `SCHEMA_INVALID OLD: $ref "#/$defs/a/allOf/${index}" at # points to nothing`,
      );
    }
  });

  it("relative references resolve against the base in effect at the referring node", () => {
    const target = { type: "boolean" };
    const from = { $ref: "b.json#/$defs/t" };
    const root = {
      $defs: {
        b: { $id: "sub/b.json", $defs: { t: target } },
        c: { $id: "sub/c.json", properties: { x: from } },
      },
    };
    const { doc } = load(root);
    expect(resolved({ node: from, ptr: "/$defs/c/properties/x", doc }, from.$ref)).toEqual({
      node: target,
      ptr: "/$defs/b/$defs/t",
      uri: BASE,
      label: "",
    });
    // A node the document never indexed (a value, a boolean) resolves against the document's URI.
    expect(resolved({ node: true, ptr: "/x", doc }, "sub/b.json")).toMatchObject({ ptr: "/$defs/b" });
    expect(resolved({ node: {}, ptr: "/x", doc }, "sub/b.json")).toMatchObject({ ptr: "/$defs/b" });
  });

  it("$anchor and $dynamicAnchor name their node under the base in effect", () => {
    const a = { $anchor: "A", type: "string" };
    const d = { $dynamicAnchor: "D", type: "number" };
    const inner = { $id: "inner.json", $defs: { a2: { $anchor: "A" } } };
    const { top } = load({ $defs: { a, d, inner } });
    expect(resolved(top, "#A")).toMatchObject({ node: a, ptr: "/$defs/a" });
    expect(resolved(top, "#D")).toMatchObject({ node: d, ptr: "/$defs/d" });
    expect(resolved(top, "inner.json#A")).toMatchObject({ ptr: "/$defs/inner/$defs/a2" });
    expect(resolved(top, "https://schemawatch.invalid/schemas/inner.json")).toMatchObject({
      node: inner,
    });
    expect(failure(() => resolved(top, "#undefined"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#undefined" at # names an anchor that does not exist',
    );
    expect(failure(() => resolved(top, "#B"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#B" at # names an anchor that does not exist',
    );
  });

  it("an anchor's name is percent-decoded", () => {
    const a = { $anchor: "a b" };
    expect(resolved(load({ $defs: { a } }).top, "#a%20b")).toMatchObject({ node: a });
  });

  it("drafts 04 to 07 name anchors with a fragment $id (04 spells it id); 2019-09 on do not", () => {
    const target = { type: "string" };
    const root = (key: string) => ({ $defs: { t: { [key]: "#frag", ...target } } });
    for (const [dialect, key] of [
      ["draft-04", "id"],
      ["draft-06", "$id"],
      ["draft-07", "$id"],
    ] as const) {
      const { top } = load(root(key), dialect);
      expect(resolved(top, "#frag")).toMatchObject({ ptr: "/$defs/t" });
      // The fragment-only id does not change the base, nor name a resource.
      expect(top.doc.bases.get((top.node as { $defs: { t: object } }).$defs.t)).toBe(BASE);
      expect(resolved(top, "#")).toMatchObject({ ptr: "" });
    }
    for (const [dialect, key] of [
      ["draft-04", "$id"],
      ["draft-07", "id"],
      ["2019-09", "$id"],
      ["2020-12", "$id"],
    ] as const) {
      expect(failure(() => resolved(load(root(key), dialect).top, "#frag"))).toBe(
        'SCHEMA_INVALID OLD: $ref "#frag" at # names an anchor that does not exist',
      );
    }
  });

  it("a draft-07 $id with a path and a fragment names a resource and an anchor in it", () => {
    const t = { $id: "t.json#here", type: "string" };
    const { top } = load({ $defs: { t } }, "draft-07");
    expect(resolved(top, "t.json")).toMatchObject({ node: t, ptr: "/$defs/t" });
    expect(resolved(top, "t.json#here")).toMatchObject({ node: t, ptr: "/$defs/t" });
    expect(top.doc.bases.get(t)).toBe("https://schemawatch.invalid/schemas/t.json");
  });

  it("an $id that is not a URI reference changes nothing", () => {
    const t = { $id: "http://[", type: "string" };
    const { top } = load({ $defs: { t } });
    expect(top.doc.bases.get(t)).toBe(BASE);
    expect(failure(() => resolved(top, "http://["))).toBe(
      'SCHEMA_INVALID OLD: $ref "http://[" at # is not a valid URI reference',
    );
  });

  it("a malformed percent escape is an invalid reference, not a crash", () => {
    const { top } = load({ $defs: {} });
    expect(failure(() => resolved(top, "#%zz"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#%zz" at # is not a valid URI reference',
    );
    expect(failure(() => resolved(top, "#/$defs/%zz"))).toBe(
      'SCHEMA_INVALID OLD: $ref "#/$defs/%zz" at # is not a valid URI reference',
    );
  });
});

describe("external documents", () => {
  const EXT = "https://schemawatch.invalid/ext/e.json";
  const EXT2 = "https://schemawatch.invalid/ext/f.json";

  it("without a resolver a reference outside the schema fails, naming the URI", () => {
    const { top } = load({});
    expect(failure(() => resolved(top, "../ext/e.json#/a"))).toBe(
      `SCHEMA_INVALID OLD: $ref "../ext/e.json#/a" at # points outside the schema (${EXT})`,
    );
    const none = load({}, "2020-12", () => undefined).top;
    expect(failure(() => resolved(none, EXT))).toBe(
      `SCHEMA_INVALID OLD: $ref "${EXT}" at # points outside the schema (${EXT})`,
    );
  });

  it("a resolved document is a copy of the resolver's, read in the side's dialect, labelled by URI", () => {
    const json = { $defs: { a: { type: "string" } } };
    const asked: string[] = [];
    const { top, space } = load({}, "draft-07", (uri) => (asked.push(uri), json), true);
    const loc = space.resolve(top, "../ext/e.json#/$defs/a");
    expect(asked).toEqual([EXT]);
    expect(loc.node).toEqual({ type: "string" });
    expect(loc.node).not.toBe(json.$defs.a);
    expect(loc.ptr).toBe("/$defs/a");
    expect(loc.doc).toMatchObject({ uri: EXT, label: EXT, dialect: "draft-07", assertsFormats: true });
    expect(formatPath(loc.doc, loc.ptr)).toBe(`${EXT}#/$defs/a`);
    // Fetched once: the second reference finds the loaded resource.
    space.resolve(top, `${EXT}#/$defs`);
    expect(asked).toEqual([EXT]);
    expect(space.externals()).toEqual([{ uri: EXT, json: loc.doc.root }]);
  });

  it("an error inside an external document names that document", () => {
    const { top, space } = load({}, "2020-12", () => ({ $defs: {} }));
    const ext = space.resolve(top, EXT);
    expect(failure(() => space.resolve(ext, "#/$defs/x"))).toBe(
      `SCHEMA_INVALID ${EXT}: $ref "#/$defs/x" at # points to nothing`,
    );
  });

  it("preload reaches every reference keyword, through external documents, and ignores broken ones", () => {
    const docs: Record<string, unknown> = {
      [EXT]: { $defs: { a: { $ref: "f.json" } } },
      [EXT2]: { type: "string" },
      "https://schemawatch.invalid/ext/r.json": {},
      "https://schemawatch.invalid/ext/d.json": {},
    };
    const asked: string[] = [];
    const root = {
      properties: {
        a: { $ref: "../ext/e.json" },
        b: { $recursiveRef: "../ext/r.json" },
        c: { $dynamicRef: "../ext/d.json" },
        d: { $ref: "#/nothing" },
        e: { $ref: "../ext/missing.json" },
        f: { $ref: 5 },
      },
    };
    const { space } = load(root, "2020-12", (uri) => (asked.push(uri), docs[uri]));
    expect(space.externals()).toEqual([]);
    space.preload();
    expect(asked).toEqual([
      EXT,
      "https://schemawatch.invalid/ext/r.json",
      "https://schemawatch.invalid/ext/d.json",
      "https://schemawatch.invalid/ext/missing.json",
      EXT2,
    ]);
    expect(space.externals().map((e) => e.uri)).toEqual([
      EXT,
      "https://schemawatch.invalid/ext/r.json",
      "https://schemawatch.invalid/ext/d.json",
      EXT2,
    ]);
  });
});
