// The schemas for "everything else" (src/diff/rest.ts): additionalProperties, items after a tuple and
// their kin, where a missing keyword means `true`. Opening or closing is one change; two real schemas
// are compared keyword by keyword; a side that cannot reach the rest (no objects, or maxItems stops at
// the tuple) never breaks through it. Kinds, paths, verdicts and reasons exactly; witnesses off.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const changes = (old: object, next: object) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }, { witnesses: false }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const O = { type: "object" };
const str = { type: "string" };
const SAME = "equivalent-rewrite  ok/ok: the documents differ but accept the same instances";
const KEYS = "keys no property or pattern names";

describe("additionalProperties", () => {
  it("closing breaks backward and opening forward, from a missing keyword or a schema", () => {
    const closed = `additional-properties-closed /additionalProperties breaks/ok: NEW rejects ${KEYS}; OLD accepted some`;
    const opened = `additional-properties-opened /additionalProperties ok/breaks: NEW accepts ${KEYS}; OLD rejected them`;
    expect(changes(O, { ...O, additionalProperties: false })).toEqual([closed]);
    expect(changes({ ...O, additionalProperties: str }, { ...O, additionalProperties: false })).toEqual([
      closed,
    ]);
    expect(changes({ ...O, additionalProperties: false }, O)).toEqual([opened]);
    expect(changes({ ...O, additionalProperties: false }, { ...O, additionalProperties: str })).toEqual([
      opened,
    ]);
  });

  it("a schema where anything was accepted narrows; the reverse extends", () => {
    expect(changes(O, { ...O, additionalProperties: str })).toEqual([
      `additional-properties-narrowed /additionalProperties breaks/ok: NEW constrains ${KEYS}; OLD accepted anything`,
    ]);
    expect(changes({ ...O, additionalProperties: str }, O)).toEqual([
      `additional-properties-extended /additionalProperties ok/breaks: NEW accepts anything for ${KEYS}; OLD constrained them`,
    ]);
  });

  it("points into NEW for what NEW has, into OLD for what only OLD had", () => {
    const at = (name: string, more: object) => ({
      $defs: { [name]: { ...O, ...more } },
      $ref: `#/$defs/${name}`,
    });
    expect(changes(at("a", { additionalProperties: false }), at("b", {}))).toEqual([
      `additional-properties-opened /$defs/a/additionalProperties ok/breaks: NEW accepts ${KEYS}; OLD rejected them`,
    ]);
    expect(changes(at("a", {}), at("b", { additionalProperties: false }))).toEqual([
      `additional-properties-closed /$defs/b/additionalProperties breaks/ok: NEW rejects ${KEYS}; OLD accepted some`,
    ]);
  });

  it("two schemas are compared where they are", () => {
    expect(
      changes({ ...O, additionalProperties: str }, { ...O, additionalProperties: { ...str, maxLength: 3 } }),
    ).toEqual([
      "max-length-added /additionalProperties/maxLength breaks/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("true and {} are the same, and so are false and a schema that rejects everything", () => {
    expect(changes({ ...O, additionalProperties: true }, { ...O, additionalProperties: {} })).toEqual([SAME]);
    expect(
      changes({ ...O, additionalProperties: false }, { ...O, additionalProperties: { not: {} } }),
    ).toEqual([SAME]);
  });

  it("a side without objects cannot break through it", () => {
    expect(changes(str, { ...str, additionalProperties: false })).toEqual([
      `additional-properties-closed /additionalProperties ok/ok: NEW rejects ${KEYS}; OLD accepted some`,
    ]);
    expect(changes({ type: ["string", "object"], additionalProperties: false }, str)).toEqual([
      "type-narrowed /type breaks/ok: type object, string -> string; OLD documents of type object fail NEW",
      `additional-properties-opened /additionalProperties ok/ok: NEW accepts ${KEYS}; OLD rejected them`,
    ]);
    expect(changes(str, { ...str, additionalProperties: str })).toEqual([
      `additional-properties-narrowed /additionalProperties ok/ok: NEW constrains ${KEYS}; OLD accepted anything`,
    ]);
    expect(changes({ ...str, additionalProperties: str }, str)).toEqual([
      `additional-properties-extended /additionalProperties ok/ok: NEW accepts anything for ${KEYS}; OLD constrained them`,
    ]);
    expect(
      changes({ ...str, additionalProperties: str }, { ...str, additionalProperties: { type: "integer" } }),
    ).toEqual([
      "type-changed /additionalProperties/type ok/ok: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD",
    ]);
  });
});

describe("items after a tuple that maxItems stops at", () => {
  const tuple = (more: object = {}) => ({ type: "array", prefixItems: [{}], ...more });
  const AFTER = "items after the tuple";
  it("never break the side whose maxItems ends at the tuple", () => {
    expect(changes(tuple({ maxItems: 1 }), tuple({ maxItems: 1, items: false }))).toEqual([
      `items-closed /items ok/ok: NEW rejects ${AFTER}; OLD accepted some`,
    ]);
    expect(changes(tuple(), tuple({ maxItems: 1, items: false }))).toEqual([
      `items-closed /items breaks/ok: NEW rejects ${AFTER}; OLD accepted some`,
      "max-items-added /maxItems breaks/ok: maxItems none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes(tuple({ items: false }), tuple({ maxItems: 1 }))).toEqual([
      `items-opened /items ok/ok: NEW accepts ${AFTER}; OLD rejected them`,
      "max-items-added /maxItems ok/ok: maxItems none -> 1: OLD's other keywords already keep every document within it",
    ]);
    expect(changes(tuple({ maxItems: 1, items: false }), tuple())).toEqual([
      `items-opened /items ok/breaks: NEW accepts ${AFTER}; OLD rejected them`,
      "max-items-removed /maxItems ok/breaks: maxItems 1 -> none: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("narrowed, extended or compared, each side's own maxItems decides its direction", () => {
    expect(changes(tuple({ maxItems: 1 }), tuple({ items: { type: "integer" } }))).toEqual([
      `items-narrowed /items ok/ok: NEW constrains ${AFTER}; OLD accepted anything`,
      "max-items-removed /maxItems ok/breaks: maxItems 1 -> none: a looser limit accepts documents OLD rejected",
    ]);
    expect(changes(tuple({ items: { type: "integer" } }), tuple({ maxItems: 1 }))).toEqual([
      `items-extended /items ok/ok: NEW accepts anything for ${AFTER}; OLD constrained them`,
      "max-items-added /maxItems breaks/ok: maxItems none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    const changed =
      "type-changed /items/type %s: type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD";
    expect(changes(tuple({ maxItems: 1, items: str }), tuple({ items: { type: "integer" } }))).toEqual([
      changed.replace("%s", "ok/breaks"),
      "max-items-removed /maxItems ok/breaks: maxItems 1 -> none: a looser limit accepts documents OLD rejected",
    ]);
    expect(changes(tuple({ items: str }), tuple({ maxItems: 1, items: { type: "integer" } }))).toEqual([
      changed.replace("%s", "breaks/ok"),
      "max-items-added /maxItems breaks/ok: maxItems none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes(tuple({ maxItems: 1, items: false }), tuple({ maxItems: 1, items: { not: {} } }))).toEqual(
      [SAME],
    );
  });
});
