// The rejecting version with one change undone (src/diff/witness/surgery.ts), continued: one name of
// `required`, one entry of a map keyword, what cannot be undone in place, and a referenced document.
import { describe, expect, it } from "vitest";
import type { Loc } from "../../../../src/diff/document.js";
import { diffSchemas } from "../../../../src/diff/index.js";
import { undone } from "./undone.js";

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
