// The engine's own rules (src/diff/compare.ts), as a reader of the report sees them: `false` schemas, a
// side that accepts nothing, keywords wrapped in allOf on one side only, the comparison type by type
// of a side with anyOf/oneOf, and recursion. Each case checks kinds, paths, verdicts and reasons
// exactly; witnesses are off (the engine's own verdicts).
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const list = (old: unknown, next: unknown) =>
  diffSchemas(old, next, { witnesses: false }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const changes = (old: object, next: object) => list({ $schema: D, ...old }, { $schema: D, ...next });
const S = { type: "string" };
const I = { type: "integer" };
const SAME = "equivalent-rewrite  ok/ok: the documents differ but accept the same instances";

describe("false schemas", () => {
  it("a side that becomes false breaks the direction whose documents it now rejects", () => {
    expect(list(true, false)).toEqual([
      "false-schema-added  breaks/ok: NEW is `false` here and rejects every document",
    ]);
    expect(list(false, true)).toEqual([
      "false-schema-removed  ok/breaks: OLD was `false` here and rejected every document",
    ]);
    expect(list(false, false)).toEqual([]);
  });

  it("points at the node that is false, on either side", () => {
    expect(changes({ properties: { a: S } }, { properties: { a: false } })).toEqual([
      "false-schema-added /properties/a breaks/ok: NEW is `false` here and rejects every document",
    ]);
    expect(changes({ properties: { a: false } }, { properties: { a: true } })).toEqual([
      "false-schema-removed /properties/a ok/breaks: OLD was `false` here and rejected every document",
    ]);
  });

  it("false against a schema that already rejects everything is no change", () => {
    for (const none of [{ not: {} }, { type: "string", enum: [1] }]) {
      expect(list(none, false)).toEqual([SAME]);
      expect(list(false, none)).toEqual([SAME]);
    }
  });
});

describe("a side that accepts nothing", () => {
  it("has no document that could fail the other side", () => {
    const none = { type: "string", enum: [1] };
    expect(changes(none, I)).toEqual([
      "type-changed /type ok/breaks: type string -> integer; NEW documents of type integer fail OLD",
      "enum-removed /enum ok/breaks: OLD only allowed 1; NEW drops the restriction",
    ]);
    expect(changes(I, none)).toEqual([
      "type-changed /type breaks/ok: type integer -> string; OLD documents of type integer fail NEW",
      "enum-added /enum breaks/ok: NEW only allows 1",
    ]);
  });
});

describe("keywords wrapped in allOf on one side only", () => {
  it("are compared as a whole: the same keywords wrapped are no break", () => {
    const wrapped = { allOf: [S, { maxLength: 3 }] };
    const flat = { ...S, maxLength: 3 };
    expect(changes(wrapped, flat)).toEqual([
      "type-added /type ok/ok: type any type -> string",
      "max-length-added /maxLength ok/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
      "all-of-branch-removed /allOf/0 ok/ok: NEW drops a schema every document had to pass",
      "all-of-branch-removed /allOf/1 ok/ok: NEW drops a schema every document had to pass",
    ]);
    expect(changes(flat, wrapped)).toEqual([
      "type-removed /type ok/ok: type string -> any type",
      "max-length-removed /maxLength ok/ok: maxLength 3 -> none: a looser limit accepts documents OLD rejected",
      "all-of-branch-added /allOf/0 ok/ok: NEW adds a schema every document must also pass",
      "all-of-branch-added /allOf/1 ok/ok: NEW adds a schema every document must also pass",
    ]);
  });

  it("a real change under the wrapping still breaks", () => {
    expect(changes({ allOf: [S, { maxLength: 3 }] }, { ...S, maxLength: 2 })).toEqual([
      "type-added /type ok/ok: type any type -> string",
      "max-length-added /maxLength breaks/ok: maxLength none -> 2: a tighter limit rejects some documents OLD accepted",
      "all-of-branch-removed /allOf/0 ok/ok: NEW drops a schema every document had to pass",
      "all-of-branch-removed /allOf/1 ok/ok: NEW drops a schema every document had to pass",
    ]);
    expect(changes({ ...S, maxLength: 2 }, { allOf: [S, { maxLength: 3 }] })).toEqual([
      "type-removed /type ok/ok: type string -> any type",
      "max-length-removed /maxLength ok/breaks: maxLength 2 -> none: a looser limit accepts documents OLD rejected",
      "all-of-branch-added /allOf/0 ok/ok: NEW adds a schema every document must also pass",
      "all-of-branch-added /allOf/1 ok/ok: NEW adds a schema every document must also pass",
    ]);
  });
});

describe("a side with anyOf or oneOf compared type by type", () => {
  it("settles a direction the keyword-by-keyword comparison could not, and says which", () => {
    const natural = { type: "integer", minimum: 0 };
    expect(changes({ anyOf: [S, natural] }, { type: ["string", "integer"], minimum: 0 })).toEqual([
      "type-added /type ok/ok: type any type -> string, integer",
      "minimum-added /minimum ok/ok: lower bound none -> >= 0: numbers OLD accepted now fail; compared type by type, backward holds",
      "any-of-removed /anyOf ok/ok: NEW drops anyOf: no single branch is proven to accept every document of the other version; compared type by type, forward holds",
    ]);
    // Where the branches' types alone take every type NEW can have, no slicing is needed.
    expect(changes({ anyOf: [S, I] }, { type: ["string", "integer"] })).toEqual([
      "type-added /type ok/ok: type any type -> string, integer",
      "any-of-removed /anyOf ok/ok: NEW drops anyOf; every NEW document matches an OLD branch",
    ]);
    expect(changes({ anyOf: [{ ...S, maxLength: 3 }, I] }, { anyOf: [S, I], maxLength: 3 })).toEqual([
      "max-length-added /maxLength ok/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted; compared type by type, backward holds",
      "max-length-removed /anyOf/0/maxLength ok/ok: maxLength 3 -> none: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("leaves a real break standing", () => {
    expect(changes({ anyOf: [S, I] }, { type: ["string"] })).toEqual([
      "type-added /type breaks/ok: type any type -> string; OLD documents of type integer fail NEW",
      "any-of-removed /anyOf ok/ok: NEW drops anyOf; every NEW document matches an OLD branch",
    ]);
  });
});

describe("a nested change in a direction whose source has no instance of its type", () => {
  it("is harmless in that direction only", () => {
    // OLD has no arrays: no OLD document reaches `items`, so tighter items break nothing backward.
    expect(
      changes(
        { type: "string", items: { maxLength: 5 } },
        { type: ["string", "array"], items: { maxLength: 3 } },
      ),
    ).toEqual([
      "type-widened /type ok/breaks: type string -> array, string; NEW documents of type array fail OLD",
      "max-length-decreased /items/maxLength ok/ok: maxLength 5 -> 3: a tighter limit rejects some documents OLD accepted",
    ]);
    // NEW has no arrays: looser items let no NEW document fail OLD.
    expect(
      changes(
        { type: ["string", "array"], items: { maxLength: 3 } },
        { type: "string", items: { maxLength: 5 } },
      ),
    ).toEqual([
      "type-narrowed /type breaks/ok: type array, string -> string; OLD documents of type array fail NEW",
      "max-length-increased /items/maxLength ok/ok: maxLength 3 -> 5: a looser limit accepts documents OLD rejected",
    ]);
    // Both have arrays: the tighter items break backward.
    expect(
      changes({ type: "array", items: { maxLength: 5 } }, { type: "array", items: { maxLength: 3 } }),
    ).toEqual([
      "max-length-decreased /items/maxLength breaks/ok: maxLength 5 -> 3: a tighter limit rejects some documents OLD accepted",
    ]);
  });
});

describe("recursive schemas", () => {
  it("terminate, and a change inside the recursion is found once", () => {
    const node = (more: object) => ({ type: "object", properties: { next: { $ref: "#" }, ...more } });
    expect(changes(node({}), node({ v: { type: "string", maxLength: 3 } }))).toEqual([
      'property-added-open /properties/v breaks/ok: OLD was open for "v": under strict an OLD producer may already send it with any value; under lenient OLD producers send only the properties OLD declares',
    ]);
  });
});

describe("the context a nested comparison runs in", () => {
  it("keeps the policy: lenient inside a property or an item as at the root", () => {
    const open = { type: "object", properties: { a: { type: "string" } } };
    const more = { ...open, properties: { a: { type: "string" }, b: { type: "integer" } } };
    const lenient = (old: object, next: object) =>
      diffSchemas(
        { $schema: D, ...old },
        { $schema: D, ...next },
        { witnesses: false, policy: "lenient" },
      ).changes.map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}`);
    expect(lenient(open, more)).toEqual(["property-added-open /properties/b ok/ok"]);
    expect(lenient({ properties: { o: open } }, { properties: { o: more } })).toEqual([
      "property-added-open /properties/o/properties/b ok/ok",
    ]);
    expect(lenient({ items: open }, { items: more })).toEqual([
      "property-added-open /items/properties/b ok/ok",
    ]);
  });
});

describe("one pair of nodes met in two contexts", () => {
  // A $ref makes the same pair of nodes come up twice; each context gets its own comparison.
  const S = { type: "string" };
  const open = { type: "object", properties: { a: S } };
  const more = { ...open, properties: { a: S, b: I } };
  const added = (where: string) =>
    `property-added-open /$defs/x/properties/b ${where}: OLD was open for "b": under strict an OLD producer may already send it with any value; under lenient OLD producers send only the properties OLD declares`;

  it("is compared strictly inside not, even when the same pair was compared leniently as a property", () => {
    const doc = (x: object) => ({
      $schema: D,
      properties: { p: { $ref: "#/$defs/x" } },
      not: { $ref: "#/$defs/x" },
      $defs: { x },
    });
    const result = diffSchemas(doc(open), doc(more), { witnesses: false, policy: "lenient" });
    expect(
      result.changes.map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward} ${c.breaksUnder}`),
    ).toEqual([
      "property-added-open /$defs/x/properties/b ok/ok strict",
      // Inside not the added property is judged strictly: {b: "x"} passes NEW (it fails NEW's x) and
      // fails OLD (OLD's open x accepts it), a forward break under either policy.
      "property-added-open /$defs/x/properties/b ok/breaks both",
    ]);
  });

  it("in place under an enclosing object that rejects the key, and as a property value that does not", () => {
    const doc = (x: object) => ({
      type: "object",
      properties: { a: S, p: { $ref: "#/$defs/x" } },
      additionalProperties: false,
      allOf: [{ $ref: "#/$defs/x" }],
      $defs: { x },
    });
    expect(changes(doc(open), doc(more))).toEqual([
      added("breaks/ok"),
      'property-added-closed /$defs/x/properties/b ok/breaks: OLD rejected "b" (the enclosing object\'s additional or unevaluated properties), so no OLD document has it; documents with it fail OLD',
    ]);
  });
});

describe("a tighter keyword against the other side's instances", () => {
  it("is ok when the other side has no instance of its type", () => {
    expect(changes(I, { ...I, pattern: "^a" })).toEqual([
      "pattern-added /pattern ok/ok: NEW requires strings to match /^a/",
    ]);
  });

  it("is settled by a finite set of values: ok when all pass, breaks when one fails", () => {
    const all = { enum: ["ab", "ac", 1] };
    expect(changes(all, { ...all, pattern: "^a" })).toEqual([
      "pattern-added /pattern ok/ok: NEW requires strings to match /^a/",
    ]);
    const some = { enum: ["ab", "bc"] };
    expect(changes(some, { ...some, pattern: "^a" })).toEqual([
      "pattern-added /pattern breaks/ok: NEW requires strings to match /^a/",
    ]);
    const changed = "pattern /^a/ -> /b$/: regular expressions are not compared for inclusion";
    expect(changes({ enum: ["ab"], pattern: "^a" }, { enum: ["ab"], pattern: "b$" })).toEqual([
      `pattern-changed /pattern ok/ok: ${changed}`,
    ]);
    expect(changes({ enum: ["ab", "ac"], pattern: "^a" }, { enum: ["ab", "ac"], pattern: "b$" })).toEqual([
      `pattern-changed /pattern breaks/ok: ${changed}`,
    ]);
  });

  it("falls back to the family's verdict when a value cannot be checked, even if none fails", () => {
    // `\_` compiles only without the `u` flag, which the value check uses: "a_" cannot be checked, so
    // the changed pattern stays undecided backward (not breaks: no value failed); forward every value
    // of NEW passes OLD's `^a`.
    expect(changes({ enum: ["a_", 1], pattern: "^a" }, { enum: ["a_", 1], pattern: "^a\\_" })).toEqual([
      "pattern-changed /pattern undecided/ok: pattern /^a/ -> /^a\\_/: regular expressions are not compared for inclusion",
    ]);
  });

  it("falls back to the family's verdict for any string", () => {
    expect(changes(S, { ...S, pattern: "^a" })).toEqual([
      "pattern-added /pattern breaks/ok: NEW requires strings to match /^a/",
    ]);
    expect(changes({ ...S, pattern: "^a" }, { ...S, pattern: "^b" })).toEqual([
      "pattern-changed /pattern undecided/undecided: pattern /^a/ -> /^b/: regular expressions are not compared for inclusion",
    ]);
  });
});
