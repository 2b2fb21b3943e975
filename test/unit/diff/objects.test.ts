// The object keywords' changes as a reader of the report sees them (src/diff/objects.ts): a property
// added or removed against what the other side did with its key (closed, open, a schema), patterns,
// and the rest of the keys. Each case states the rule it guards; kind, path, verdicts and reason exactly.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const under = (policy: "strict" | "lenient", old: object, next: object) =>
  diffSchemas(
    { $schema: D, type: "object", ...old },
    { $schema: D, type: "object", ...next },
    { policy },
  ).changes.map((c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`);
const strict = (old: object, next: object) => under("strict", old, next);
const lenient = (old: object, next: object) => under("lenient", old, next);
const string = { type: "string" };
const short = { type: "string", maxLength: 3 };

describe("a property added or removed where the other side rejected the key", () => {
  it("documents with it fail OLD (added) or NEW (removed), unless the property itself rejects everything", () => {
    const closed = { additionalProperties: false };
    expect(strict(closed, { properties: { a: string }, ...closed })).toEqual([
      'property-added-closed /properties/a ok/breaks: OLD rejected "a" (additionalProperties), so no OLD document has it; documents with it fail OLD',
    ]);
    expect(strict(closed, { properties: { a: false }, ...closed })).toEqual([
      'property-added-closed /properties/a ok/ok: OLD rejected "a" (additionalProperties), so no OLD document has it; documents with it fail OLD',
    ]);
    expect(strict({ properties: { a: string }, ...closed }, closed)).toEqual([
      'property-removed-closed /properties/a breaks/ok: NEW rejects "a" (additionalProperties); OLD documents with it fail NEW',
    ]);
    expect(strict({ properties: { a: false }, ...closed }, closed)).toEqual([
      'property-removed-closed /properties/a ok/ok: NEW rejects "a" (additionalProperties); OLD documents with it fail NEW',
    ]);
  });

  it("names unevaluatedProperties when that is what rejected the key", () => {
    const rest = { allOf: [{ properties: { b: {} } }], unevaluatedProperties: false };
    expect(strict(rest, { ...rest, properties: { a: {} } })).toEqual([
      'property-added-closed /properties/a ok/breaks: OLD rejected "a" (unevaluatedProperties), so no OLD document has it; documents with it fail OLD',
    ]);
  });
});

describe("a property added or removed where the other side was open", () => {
  it("breaks under strict (a producer may send any value), not under lenient", () => {
    const added =
      'OLD was open for "a": under strict an OLD producer may already send it with any value; under lenient OLD producers send only the properties OLD declares';
    expect(strict({}, { properties: { a: string } })).toEqual([
      `property-added-open /properties/a breaks/ok: ${added}`,
    ]);
    expect(lenient({}, { properties: { a: string } })).toEqual([
      `property-added-open /properties/a ok/ok: ${added}`,
    ]);
    const removed =
      'NEW is open for "a": under strict a NEW producer may send it with a value OLD rejects; under lenient NEW producers send only the properties NEW declares';
    expect(strict({ properties: { a: string } }, {})).toEqual([
      `property-removed-open /properties/a ok/breaks: ${removed}`,
    ]);
    expect(lenient({ properties: { a: string } }, {})).toEqual([
      `property-removed-open /properties/a ok/ok: ${removed}`,
    ]);
  });
});

describe("a property added or removed where the other side validated the key with a schema", () => {
  it("compares the property with additionalProperties; lenient trusts producers to send only declared ones", () => {
    const rest = { additionalProperties: string };
    const added =
      'OLD validated "a" with additionalProperties; NEW declares it (under lenient no OLD producer sends it yet)';
    expect(strict(rest, { ...rest, properties: { a: short } })).toEqual([
      `property-added-partially-open /properties/a breaks/ok: ${added}`,
    ]);
    expect(lenient(rest, { ...rest, properties: { a: short } })).toEqual([
      `property-added-partially-open /properties/a ok/ok: ${added}`,
    ]);
    const removed =
      'NEW validates "a" with additionalProperties instead of its own schema (under lenient no NEW producer sends it)';
    expect(strict({ ...rest, properties: { a: short } }, rest)).toEqual([
      `property-removed-partially-open /properties/a ok/breaks: ${removed}`,
    ]);
    expect(lenient({ ...rest, properties: { a: short } }, rest)).toEqual([
      `property-removed-partially-open /properties/a ok/ok: ${removed}`,
    ]);
  });

  it("applies every matching pattern at once", () => {
    // "ab" matches both: a string of at most 5 characters on OLD, the same as the declared property.
    const patterns = {
      patternProperties: { "^a": string, b$: { maxLength: 5 } },
      additionalProperties: false,
    };
    expect(strict(patterns, { ...patterns, properties: { ab: { type: "string", maxLength: 5 } } })).toEqual([
      'property-added-partially-open /properties/ab ok/ok: OLD validated "ab" with patternProperties; NEW declares it (under lenient no OLD producer sends it yet)',
    ]);
    const one = { patternProperties: { "^a": string }, additionalProperties: false };
    expect(strict(one, { ...one, properties: { ab: { type: "string", maxLength: 2 } } })).toEqual([
      'property-added-partially-open /properties/ab breaks/ok: OLD validated "ab" with patternProperties; NEW declares it (under lenient no OLD producer sends it yet)',
    ]);
  });

  it("a key a branch declares is validated by that branch, under lenient too", () => {
    const branch = { allOf: [{ properties: { a: string } }], unevaluatedProperties: false };
    const reason =
      'OLD validated "a" with a branch\'s properties; NEW declares it (under lenient no OLD producer sends it yet)';
    expect(strict(branch, { ...branch, properties: { a: short } })).toEqual([
      `property-added-partially-open /properties/a breaks/ok: ${reason}`,
    ]);
    expect(lenient(branch, { ...branch, properties: { a: short } })).toEqual([
      `property-added-partially-open /properties/a breaks/ok: ${reason}`,
    ]);
    const rest = { unevaluatedProperties: string };
    expect(strict(rest, { ...rest, properties: { a: string } })).toEqual([
      'property-added-partially-open /properties/a ok/ok: OLD validated "a" with unevaluatedProperties; NEW declares it (under lenient no OLD producer sends it yet)',
    ]);
  });
});

describe("a property a branch adds, against the enclosing object", () => {
  it("was validated by the enclosing object's property: producers send it, under lenient too", () => {
    const rest = { unevaluatedProperties: false };
    const reason =
      'OLD validated "a" with the enclosing object\'s properties; NEW declares it (under lenient no OLD producer sends it yet)';
    const old = { properties: { a: string }, allOf: [{ properties: { x: {} } }], ...rest };
    const next = { properties: { a: string }, allOf: [{ properties: { x: {}, a: short } }], ...rest };
    expect(strict(old, next)).toEqual([
      `property-added-partially-open /allOf/0/properties/a breaks/ok: ${reason}`,
    ]);
    expect(lenient(old, next)).toEqual([
      `property-added-partially-open /allOf/0/properties/a breaks/ok: ${reason}`,
    ]);
  });

  it("was validated by the enclosing object's patterns or rest: under lenient nobody sends it yet", () => {
    const patterns = { patternProperties: { "^a": string }, unevaluatedProperties: false };
    const old = { ...patterns, allOf: [{ properties: { x: {} } }] };
    const next = { ...patterns, allOf: [{ properties: { x: {}, ab: short } }] };
    const byPattern =
      'OLD validated "ab" with the enclosing object\'s patternProperties; NEW declares it (under lenient no OLD producer sends it yet)';
    expect(strict(old, next)).toEqual([
      `property-added-partially-open /allOf/0/properties/ab breaks/ok: ${byPattern}`,
    ]);
    expect(lenient(old, next)).toEqual([
      `property-added-partially-open /allOf/0/properties/ab ok/ok: ${byPattern}`,
    ]);
    const rest = { unevaluatedProperties: string };
    const byRest =
      'OLD validated "ab" with the enclosing object\'s additional or unevaluated properties; NEW declares it (under lenient no OLD producer sends it yet)';
    expect(
      strict(
        { ...rest, allOf: [{ properties: { x: {} } }] },
        { ...rest, allOf: [{ properties: { x: {}, ab: short } }] },
      ),
    ).toEqual([`property-added-partially-open /allOf/0/properties/ab breaks/ok: ${byRest}`]);
    const closed = { unevaluatedProperties: false };
    expect(
      strict(
        { ...closed, allOf: [{ properties: { x: {} } }] },
        { ...closed, allOf: [{ properties: { x: {}, ab: string } }] },
      ),
    ).toEqual([
      'property-added-closed /allOf/0/properties/ab ok/breaks: OLD rejected "ab" (the enclosing object\'s additional or unevaluated properties), so no OLD document has it; documents with it fail OLD',
    ]);
  });

  it("declared in one anyOf branch may be evaluated by it or by none: the rest decides too", () => {
    const branches = {
      anyOf: [{ properties: { a: string } }, { properties: { b: {} } }],
      unevaluatedProperties: false,
    };
    expect(lenient(branches, { ...branches, properties: { a: short } })).toEqual([
      'property-added-partially-open /properties/a breaks/undecided: OLD validated "a" with a branch\'s properties; NEW declares it (under lenient no OLD producer sends it yet); no witness found (no generated document breaks forward)',
    ]);
  });
});

describe("patternProperties added or removed", () => {
  it("against an open object breaks the direction whose source accepted anything under those keys", () => {
    expect(strict({}, { patternProperties: { "^x": string } })).toEqual([
      "pattern-property-added /patternProperties/^x breaks/ok: NEW validates keys matching /^x/ with their own schema",
    ]);
    expect(strict({ patternProperties: { "^x": string } }, {})).toEqual([
      "pattern-property-removed /patternProperties/^x ok/breaks: NEW no longer gives keys matching /^x/ their own schema",
    ]);
  });

  it("the same schema as additionalProperties changes nothing, next to a pattern with a disjoint prefix", () => {
    const rest = { additionalProperties: string };
    expect(strict(rest, { ...rest, patternProperties: { "^x": string } })).toEqual([
      "pattern-property-added /patternProperties/^x ok/ok: NEW validates keys matching /^x/ with their own schema",
    ]);
    const y = { ...rest, patternProperties: { "^y": { type: "number" } } };
    expect(strict(y, { ...rest, patternProperties: { "^x": string, "^y": { type: "number" } } })).toEqual([
      "pattern-property-added /patternProperties/^x ok/ok: NEW validates keys matching /^x/ with their own schema",
    ]);
  });

  it("unevaluatedProperties without branches is the rest a pattern is compared with", () => {
    const rest = { unevaluatedProperties: string };
    expect(strict(rest, { ...rest, patternProperties: { "^x": string } })).toEqual([
      "pattern-property-added /patternProperties/^x ok/ok: NEW validates keys matching /^x/ with their own schema",
    ]);
    expect(strict({ ...rest, patternProperties: { "^x": string } }, rest)).toEqual([
      "pattern-property-removed /patternProperties/^x ok/ok: NEW no longer gives keys matching /^x/ their own schema",
    ]);
  });

  it("stays undecided next to a pattern that may match the same keys", () => {
    const rest = { additionalProperties: string };
    for (const other of ["z$", "^[0-9]"]) {
      const old = { ...rest, patternProperties: { [other]: { type: "number" } } };
      const next = { ...rest, patternProperties: { "^x": string, [other]: { type: "number" } } };
      expect(strict(old, next)).toEqual([
        "pattern-property-added /patternProperties/^x undecided/undecided: NEW validates keys matching /^x/ with their own schema",
      ]);
    }
  });

  it("also applies to the declared properties it matches", () => {
    const declared = { properties: { xa: { type: "number" } }, additionalProperties: string };
    expect(strict(declared, { ...declared, patternProperties: { "^x": string } })).toEqual([
      "pattern-property-added /patternProperties/^x breaks/ok: NEW validates keys matching /^x/ with their own schema",
    ]);
    expect(strict({ ...declared, patternProperties: { "^x": string } }, declared)).toEqual([
      "pattern-property-removed /patternProperties/^x ok/breaks: NEW no longer gives keys matching /^x/ their own schema",
    ]);
  });
});

describe("the rest of the keys", () => {
  it("names what the rest is: keys no property or pattern names, or keys no branch evaluated", () => {
    expect(strict({ unevaluatedProperties: false }, { unevaluatedProperties: string })).toEqual([
      "unevaluated-properties-opened /unevaluatedProperties ok/breaks: NEW accepts keys no property or pattern names; OLD rejected them",
    ]);
    const branch = { allOf: [{ properties: { b: {} } }] };
    expect(
      strict({ ...branch, unevaluatedProperties: false }, { ...branch, unevaluatedProperties: string }),
    ).toEqual([
      "unevaluated-properties-opened /unevaluatedProperties ok/breaks: NEW accepts keys no branch evaluated; OLD rejected them",
    ]);
  });

  it("names the keyword that holds the rest", () => {
    expect(strict({ additionalProperties: false }, {})).toEqual([
      "additional-properties-opened /additionalProperties ok/breaks: NEW accepts keys no property or pattern names; OLD rejected them",
    ]);
    expect(strict({ unevaluatedProperties: false }, {})).toEqual([
      "unevaluated-properties-opened /unevaluatedProperties ok/breaks: NEW accepts keys no property or pattern names; OLD rejected them",
    ]);
    const branch = { allOf: [{ properties: { b: {} } }] };
    expect(
      strict(
        { ...branch, additionalProperties: string, unevaluatedProperties: false },
        { ...branch, unevaluatedProperties: false },
      ),
    ).toEqual([
      "additional-properties-extended /additionalProperties ok/breaks: NEW accepts anything for keys no property or pattern names; OLD constrained them",
      "unevaluated-properties-closed /unevaluatedProperties undecided/ok: NEW rejects keys no branch evaluated; OLD accepted some; no witness found (no generated document that breaks is rejected because of this change)",
      // {"x": ""}: OLD's additionalProperties evaluated it; NEW's branch names only b. Undoing the
      // closing alone still leaves NEW's rest unconstrained, so no one change carries the witness.
      "changes-combined  breaks/ok: a document OLD accepts and NEW rejects, though no one change alone is shown to reject it (unevaluated-properties-closed at /unevaluatedProperties); a witness proves backward breaks",
    ]);
  });

  it("unevaluatedProperties without branches is additionalProperties spelled otherwise", () => {
    expect(strict({ additionalProperties: false }, { unevaluatedProperties: false })).toEqual([
      "equivalent-rewrite  ok/ok: the documents differ but accept the same instances",
    ]);
  });
});
