// How `diff` loads OLD and NEW (src/diff/sides.ts): each side under its own name, dialect, base URI
// and resolver of external references, in a space of its own, from a private copy of the caller's
// schema. Exact messages, URIs and changes; witnesses off unless a case is about them.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas, type DiffOptions } from "../../../src/diff/index.js";

const lines = (old: unknown, next: unknown, options: DiffOptions = {}) =>
  diffSchemas(old, next, { witnesses: false, ...options }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const failure = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return "no error";
};

describe("names in messages", () => {
  it("are OLD and NEW by default, or the names given", () => {
    const broken = { $ref: "#/nope" };
    expect(failure(() => diffSchemas(broken, {}))).toBe(
      'SCHEMA_INVALID: OLD: $ref "#/nope" at # points to nothing',
    );
    expect(failure(() => diffSchemas({}, broken))).toBe(
      'SCHEMA_INVALID: NEW: $ref "#/nope" at # points to nothing',
    );
    const named = { oldName: "a.json", newName: "b.json" };
    expect(failure(() => diffSchemas(broken, {}, named))).toBe(
      'SCHEMA_INVALID: a.json: $ref "#/nope" at # points to nothing',
    );
    expect(failure(() => diffSchemas({}, broken, named))).toBe(
      'SCHEMA_INVALID: b.json: $ref "#/nope" at # points to nothing',
    );
    expect(failure(() => diffSchemas({}, { $schema: "http://x/y" }))).toBe(
      "SCHEMA_INVALID: NEW: unsupported $schema 'http://x/y' (supported: drafts 04, 06, 07, 2019-09 and 2020-12)",
    );
  });
});

describe("dialects", () => {
  const bounded = { maximum: 5 };
  const exclusive = { maximum: 5, exclusiveMaximum: true };
  const DRAFT04 =
    "exclusive-maximum-added /maximum breaks/ok: upper bound <= 5 -> < 5: numbers OLD accepted now fail";

  it("a schema without $schema is read under the default dialect: the option's, else the compiler's", () => {
    expect(lines(bounded, { maximum: 5, exclusiveMaximum: 5 })).toEqual([
      "exclusive-maximum-added /exclusiveMaximum breaks/ok: upper bound <= 5 -> < 5: numbers OLD accepted now fail",
    ]);
    expect(lines(bounded, exclusive, { defaultDialect: "draft-04" })).toEqual([DRAFT04]);
    const compiler = new SchemaCompiler({ defaultDialect: "draft-04" });
    expect(lines(bounded, exclusive, { compiler })).toEqual([DRAFT04]);
  });

  it("each side's dialect can be set on its own", () => {
    expect(lines(bounded, exclusive, { newDialect: "draft-04" })).toEqual([DRAFT04]);
    expect(lines(exclusive, bounded, { oldDialect: "draft-04" })).toEqual([
      "exclusive-maximum-removed /maximum ok/breaks: upper bound < 5 -> <= 5: NEW accepts numbers OLD rejected",
    ]);
  });
});

describe("external references", () => {
  const ref = { $ref: "s.json" };
  const resolver = (tag: string, seen: string[], maxLength: number) => (uri: string) => {
    seen.push(`${tag} ${uri}`);
    return { type: "string", maxLength };
  };

  it("resolve against each side's base URI, with each side's resolver", () => {
    const seen: string[] = [];
    const options = {
      oldBaseUri: "https://x/a/old.json",
      newBaseUri: "https://y/b/new.json",
      oldResolveExternal: resolver("old", seen, 3),
      newResolveExternal: resolver("new", seen, 2),
    };
    expect(lines(ref, ref, options)).toEqual([
      "max-length-decreased https://y/b/s.json#/maxLength breaks/ok: maxLength 3 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(seen).toEqual(["old https://x/a/s.json", "new https://y/b/s.json"]);
  });

  it("share one resolver and a default base unless a side has its own", () => {
    const seen: string[] = [];
    expect(lines(ref, ref, { resolveExternal: resolver("both", seen, 2) })).toEqual([]);
    expect(seen).toEqual([
      "both https://schemawatch.invalid/s.json",
      "both https://schemawatch.invalid/s.json",
    ]);
    seen.length = 0;
    const oldOnly = {
      resolveExternal: resolver("both", seen, 2),
      oldResolveExternal: resolver("old", seen, 3),
    };
    expect(lines(ref, ref, oldOnly)).toEqual([
      "max-length-decreased https://schemawatch.invalid/s.json#/maxLength breaks/ok: maxLength 3 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(seen).toEqual([
      "old https://schemawatch.invalid/s.json",
      "both https://schemawatch.invalid/s.json",
    ]);
    seen.length = 0;
    const newOnly = {
      resolveExternal: resolver("both", seen, 3),
      newResolveExternal: resolver("new", seen, 2),
    };
    expect(lines(ref, ref, newOnly)).toEqual([
      "max-length-decreased https://schemawatch.invalid/s.json#/maxLength breaks/ok: maxLength 3 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(seen).toEqual([
      "both https://schemawatch.invalid/s.json",
      "new https://schemawatch.invalid/s.json",
    ]);
  });
});

describe("the validators witnesses are checked with", () => {
  // A $ref through the root's relative id only resolves when the validator knows the side by that id.
  const D = "https://json-schema.org/draft/2020-12/schema";
  const D4 = "http://json-schema.org/draft-04/schema#";
  const side = (dialect: string, id: string, defs: string, maxLength?: number) => ({
    $schema: dialect,
    [id]: "s.json",
    [defs]: { a: { type: "string", ...(maxLength === undefined ? {} : { maxLength }) } },
    properties: { p: { $ref: `s.json#/${defs}/a` } },
  });

  it.each([
    ["2020-12", D, "$id", "$defs"],
    ["draft-04", D4, "id", "definitions"],
  ])("know a side by its root id resolved against its base (%s)", (_, dialect, id, defs) => {
    const { changes } = diffSchemas(side(dialect, id, defs), side(dialect, id, defs, 2));
    expect(changes).toEqual([
      {
        kind: "max-length-added",
        path: `/${defs}/a/maxLength`,
        backward: "breaks",
        forward: "ok",
        breaksUnder: "both",
        reason: "maxLength none -> 2: a tighter limit rejects some documents OLD accepted",
        witness: { backward: { p: "aaa" } },
      },
    ]);
  });

  const witnessOf = (old: unknown, next: unknown, options: DiffOptions = {}) =>
    diffSchemas(old, next, options).changes.map((c) => c.witness);

  it("know a side by its id without its fragment (draft-04's `s.json#`)", () => {
    const hashed = (maxLength?: number) => ({
      ...side(D4, "id", "definitions", maxLength),
      id: "https://x/s.json#",
    });
    expect(witnessOf(hashed(), hashed(2))).toEqual([{ backward: { p: "aaa" } }]);
  });

  it("know a side without an id by its base URI, so that it can refer to itself by its file name", () => {
    const self = (maxLength?: number) => ({ ...side(D, "$id", "$defs", maxLength), $id: undefined });
    const bases = { oldBaseUri: "https://x/s.json", newBaseUri: "https://x/s.json" };
    expect(witnessOf(self(), self(2), bases)).toEqual([{ backward: { p: "aaa" } }]);
  });

  it("know a side whose id is no URI by its base", () => {
    const bad = (maxLength?: number) => ({
      $schema: D,
      $id: "http://[bad",
      properties: { b: { type: "string", ...(maxLength === undefined ? {} : { maxLength }) } },
    });
    expect(witnessOf(bad(), bad(2))).toEqual([{ backward: { b: "aaa" } }]);
    // Its external references resolve against that base too, in the validator as in the comparison.
    const external = { $schema: D, $id: "http://[bad", properties: { e: { $ref: "s.json" } } };
    const resolveExternal = (maxLength: number) => () => ({ type: "string", maxLength });
    expect(
      witnessOf(external, external, {
        oldResolveExternal: resolveExternal(3),
        newResolveExternal: resolveExternal(2),
      }),
    ).toEqual([{ backward: { e: "aaa" } }]);
  });
});
