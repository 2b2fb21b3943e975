// The result diffSchemas assembles around the engine's changes (src/diff/index.ts): the root's `$id` and
// `$schema`, a rewrite that changes nothing, which policy objects to a change, the overall verdicts, the
// compatibility, the bump, and the witnesses. Exact values throughout.
import { describe, expect, it } from "vitest";
import { candidateDocuments, diffSchemas, type DiffOptions } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const D4 = "http://json-schema.org/draft-04/schema#";
const D7 = "http://json-schema.org/draft-07/schema#";
const list = (old: unknown, next: unknown, options: DiffOptions = {}) =>
  diffSchemas(old, next, { witnesses: false, ...options }).changes.map(
    (c) =>
      `${c.kind} ${c.path} ${c.backward}/${c.forward}${c.breaksUnder ? ` (${c.breaksUnder})` : ""}: ${c.reason}`,
  );
const verdict = (old: unknown, next: unknown, options: DiffOptions = {}) => {
  const { changes: _changes, ...rest } = diffSchemas(old, next, { witnesses: false, ...options });
  return rest;
};

describe("the root's identity", () => {
  it("a changed $id is reported at the root, harmless both ways", () => {
    expect(list({ $schema: D, $id: "https://a.test/1" }, { $schema: D, $id: "https://a.test/2" })).toEqual([
      'id-changed /$id ok/ok: $id "https://a.test/1" -> "https://a.test/2"',
    ]);
    expect(list({ $id: "https://a.test/1" }, {})).toEqual([
      'id-changed /$id ok/ok: $id "https://a.test/1" -> null',
    ]);
    expect(list({}, { $id: "https://a.test/2" })).toEqual([
      'id-changed /$id ok/ok: $id null -> "https://a.test/2"',
    ]);
    expect(list({ $id: "https://a.test/1" }, { $id: "https://a.test/1" })).toEqual([]);
  });

  it("draft-04 names it id: the path points at that keyword, on the side that has it", () => {
    expect(list({ $schema: D4, id: "a" }, { $schema: D4, id: "b" })).toEqual([
      'id-changed /id ok/ok: $id "a" -> "b"',
    ]);
    expect(list({ $schema: D4, id: "a" }, { $schema: D, $id: "b" })).toEqual([
      'id-changed /$id ok/ok: $id "a" -> "b"',
      "dialect-changed /$schema ok/ok: dialect draft-04 -> 2020-12; each side is read under its own",
    ]);
    // Only OLD has one, and OLD is draft-04: OLD's keyword.
    expect(list({ $schema: D4, id: "a" }, { $schema: D })).toEqual([
      'id-changed /id ok/ok: $id "a" -> null',
      "dialect-changed /$schema ok/ok: dialect draft-04 -> 2020-12; each side is read under its own",
    ]);
    expect(list({ $schema: D4, id: "a" }, { $schema: D4 })).toEqual([
      'id-changed /id ok/ok: $id "a" -> null',
    ]);
    expect(list({ $schema: D }, { $schema: D4, id: "b" })).toEqual([
      'id-changed /id ok/ok: $id null -> "b"',
      "dialect-changed /$schema ok/ok: dialect 2020-12 -> draft-04; each side is read under its own",
    ]);
    // In draft-04 `$id` is no identifier, and in 2020-12 `id` is none: only the documents differ.
    const same = ["equivalent-rewrite  ok/ok: the documents differ but accept the same instances"];
    expect(list({ $schema: D4, $id: "a" }, { $schema: D4, $id: "b" })).toEqual(same);
    expect(list({ $schema: D, id: "a" }, { $schema: D, id: "b" })).toEqual(same);
  });

  it("a changed $schema is reported once, with the dialect each side is read in", () => {
    expect(list({ $schema: D7 }, { $schema: D })).toEqual([
      "dialect-changed /$schema ok/ok: dialect draft-07 -> 2020-12; each side is read under its own",
    ]);
    // Spelled differently, the same dialect: still a change of the document.
    expect(list({ $schema: D7 }, { $schema: "https://json-schema.org/draft-07/schema" })).toEqual([
      "dialect-changed /$schema ok/ok: dialect draft-07 -> draft-07; each side is read under its own",
    ]);
    expect(list({}, { $schema: D7 })).toEqual([
      "dialect-changed /$schema ok/ok: dialect draft-07 -> draft-07; each side is read under its own",
    ]);
  });

  it("a schema that is a boolean has neither", () => {
    expect(list(true, true)).toEqual([]);
    expect(list(true, { $id: "https://a.test/2" })).toEqual([
      'id-changed /$id ok/ok: $id null -> "https://a.test/2"',
    ]);
  });
});

describe("a rewrite that accepts the same documents", () => {
  it("is one equivalent-rewrite at the root when the documents differ and no keyword changes a verdict", () => {
    expect(list({ type: "string" }, { type: ["string"] })).toEqual([
      "equivalent-rewrite  ok/ok: the documents differ but accept the same instances",
    ]);
    expect(list({ type: "string" }, { type: "string" })).toEqual([]);
    expect(list({ a: { b: 1 } }, { a: { b: 1 } })).toEqual([]);
  });
});

describe("which policy objects to a change", () => {
  const open = { type: "object", properties: { a: { type: "string" } } };
  const more = { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } };

  it("strict only, both, or none; whichever policy was chosen", () => {
    for (const policy of ["strict", "lenient"] as const) {
      expect(
        list(open, { ...more, properties: { ...more.properties, a: { type: "integer" } } }, { policy }),
      ).toEqual([
        `type-changed /properties/a/type ${policy === "strict" ? "breaks/breaks" : "breaks/breaks"} (both): type string -> integer; OLD documents of type string fail NEW; NEW documents of type integer fail OLD`,
        `property-added-open /properties/b ${policy === "strict" ? "breaks" : "ok"}/ok (strict): OLD was open for "b": under strict an OLD producer may already send it with any value; under lenient OLD producers send only the properties OLD declares`,
      ]);
    }
    // A break in the forward direction alone objects under both policies too.
    expect(list({ enum: ["a"] }, { enum: ["a", "b"] }, { policy: "lenient" })).toEqual([
      'enum-value-added /enum ok/breaks (both): NEW allows "b"; OLD rejects it',
    ]);
    expect(list({ title: "a" }, { title: "b" })).toEqual([
      "title-changed /title ok/ok: title changed; annotations do not affect validation",
    ]);
  });

  it("pairs the n-th change of a kind at a path with the n-th of the other run", () => {
    // Two changes of one kind at one path: each is matched with its own counterpart.
    const before = { anyOf: [{ type: "string" }, { type: "integer" }] };
    const after = { anyOf: [{ type: "string", maxLength: 2 }, { type: "integer" }] };
    expect(list(before, after, { policy: "lenient" })).toEqual(list(before, after));
  });
});

describe("the overall verdict", () => {
  it("is the worst of each direction, with the compatibility and the bump it needs", () => {
    expect(verdict({ type: "string" }, { type: "string" })).toEqual({
      policy: "strict",
      compatibility: "FULL",
      backward: "ok",
      forward: "ok",
      bump: "none",
    });
    expect(verdict({ title: "a" }, { title: "b" })).toEqual({
      policy: "strict",
      compatibility: "FULL",
      backward: "ok",
      forward: "ok",
      bump: "patch",
    });
    expect(verdict({ enum: ["a"] }, { enum: ["a", "b"] })).toEqual({
      policy: "strict",
      compatibility: "BACKWARD",
      backward: "ok",
      forward: "breaks",
      bump: "minor",
    });
    expect(verdict({ enum: ["a", "b"] }, { enum: ["a"] })).toEqual({
      policy: "strict",
      compatibility: "FORWARD",
      backward: "breaks",
      forward: "ok",
      bump: "major",
    });
    expect(verdict({ type: "string" }, { type: "integer" })).toEqual({
      policy: "strict",
      compatibility: "NONE",
      backward: "breaks",
      forward: "breaks",
      bump: "major",
    });
    const pattern = (p: string) => ({ type: "string", pattern: p });
    expect(verdict(pattern("^a"), pattern("^b"))).toEqual({
      policy: "strict",
      compatibility: "NONE",
      backward: "undecided",
      forward: "undecided",
      bump: "major",
    });
  });

  it("a change only strict objects to still needs a minor bump under lenient, not a patch", () => {
    const open = { type: "object", properties: { a: { type: "string" } } };
    const more = { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } };
    expect(verdict(open, more, { policy: "lenient" })).toEqual({
      policy: "lenient",
      compatibility: "FULL",
      backward: "ok",
      forward: "ok",
      bump: "minor",
    });
    expect(verdict(open, more)).toEqual({
      policy: "strict",
      compatibility: "FORWARD",
      backward: "breaks",
      forward: "ok",
      bump: "major",
    });
  });
});

describe("witnesses", () => {
  it("prove each break unless turned off, and the result carries no internal site", () => {
    const tighter = {
      kind: "max-length-added",
      path: "/maxLength",
      backward: "breaks",
      forward: "ok",
      reason: "maxLength none -> 2: a tighter limit rejects some documents OLD accepted",
      breaksUnder: "both",
    };
    const changes = diffSchemas({ type: "string" }, { type: "string", maxLength: 2 }).changes;
    expect(changes).toEqual([{ ...tighter, witness: { backward: "aaa" } }]);
    const without = diffSchemas(
      { type: "string" },
      { type: "string", maxLength: 2 },
      { witnesses: false },
    ).changes;
    expect(without).toEqual([tighter]);
    expect(diffSchemas({ title: "a" }, { title: "b" }).changes).toEqual([
      {
        kind: "title-changed",
        path: "/title",
        backward: "ok",
        forward: "ok",
        reason: "title changed; annotations do not affect validation",
      },
    ]);
  });
});

describe("candidateDocuments", () => {
  it("generates from each side toward the other's edges", () => {
    const { fromOld, fromNew } = candidateDocuments({ type: "string" }, { type: "string", maxLength: 2 });
    expect(fromOld.every((d) => typeof d === "string")).toBe(true);
    expect(fromOld).toContain("aaa");
    expect(fromNew).toContain("aa");
    expect(fromNew).not.toEqual(fromOld);
  });
});
