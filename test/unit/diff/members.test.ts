// The object-member keywords' changes as a reader of the report sees them (src/diff/members.ts):
// required, min/maxProperties, dependentRequired, dependentSchemas, propertyNames. Each case states
// the rule it guards and checks the kind, the path, both verdicts and the reason exactly.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const changes = (old: object, next: object) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const object = (more: object = {}) => ({ type: "object", ...more });
// A side whose documents are a finite list: the verdict is read off the values themselves.
const values = (list: unknown[], more: object = {}) => ({ enum: list, ...more });

describe("required", () => {
  it("adding a required name breaks backward, removing one breaks forward", () => {
    expect(changes(object(), object({ required: ["a"] }))).toEqual([
      'required-added /required/0 breaks/ok: NEW requires "a"; OLD documents without it fail NEW',
    ]);
    expect(changes(object({ required: ["a", "b"] }), object({ required: ["b"] }))).toEqual([
      'required-removed /required/0 ok/breaks: NEW no longer requires "a"; NEW documents without it fail OLD',
    ]);
  });

  it("is settled by the values of an enum: ok when every object has the name, non-objects never fail", () => {
    const all = [{ a: 1 }, { a: 2, b: 1 }, 3];
    expect(changes(values(all), values(all, { required: ["a"] }))).toEqual([
      'required-added /required/0 ok/ok: NEW requires "a"; OLD documents without it fail NEW',
    ]);
    const some = [{ a: 1 }, { b: 1 }, 3];
    expect(changes(values(some), values(some, { required: ["a"] }))).toEqual([
      'required-added /required/0 breaks/ok: NEW requires "a"; OLD documents without it fail NEW',
    ]);
    expect(changes(values(all, { required: ["a"] }), values(all))).toEqual([
      'required-removed /required/0 ok/ok: NEW no longer requires "a"; NEW documents without it fail OLD',
    ]);
  });
});

describe("minProperties and maxProperties against what the rest of the object implies", () => {
  it("a minimum the required names already meet breaks nothing", () => {
    expect(
      changes(object({ required: ["a", "b"] }), object({ required: ["a", "b"], minProperties: 2 })),
    ).toEqual([
      "min-properties-added /minProperties ok/ok: minProperties none -> 2: OLD's other keywords already keep every document within it",
    ]);
    expect(changes(object({ required: ["a"] }), object({ required: ["a"], minProperties: 2 }))).toEqual([
      "min-properties-added /minProperties breaks/ok: minProperties none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("a closed object holds at most its properties that accept something", () => {
    const closed = { properties: { a: {}, b: {}, c: false }, additionalProperties: false };
    expect(changes(object(closed), object({ ...closed, maxProperties: 2 }))).toEqual([
      "max-properties-added /maxProperties ok/ok: maxProperties none -> 2: OLD's other keywords already keep every document within it",
    ]);
    const patterned = { patternProperties: { "^x": {} }, properties: { a: {} }, additionalProperties: false };
    expect(changes(object(patterned), object({ ...patterned, maxProperties: 1 }))).toEqual([
      "max-properties-added /maxProperties breaks/ok: maxProperties none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("propertyNames with a finite set allows at most its string names", () => {
    const names = { propertyNames: { enum: ["a", "b", 1] } };
    expect(changes(object(names), object({ ...names, maxProperties: 2 }))).toEqual([
      "max-properties-added /maxProperties ok/ok: maxProperties none -> 2: OLD's other keywords already keep every document within it",
    ]);
    expect(changes(object(names), object({ ...names, maxProperties: 1 }))).toEqual([
      "max-properties-added /maxProperties breaks/ok: maxProperties none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
  });
});

describe("minProperties and maxProperties settled by the values of an enum", () => {
  it("counts each object's keys; non-objects never fail", () => {
    const two = [{ a: 1 }, { a: 1, b: 2 }, 3];
    expect(changes(values(two), values(two, { maxProperties: 1 }))).toEqual([
      "max-properties-added /maxProperties breaks/ok: maxProperties none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
    const one = [{ a: 1 }, { b: 2 }, 3];
    expect(changes(values(one), values(one, { maxProperties: 1 }))).toEqual([
      "max-properties-added /maxProperties ok/ok: maxProperties none -> 1: a tighter limit rejects some documents OLD accepted",
    ]);
  });
});

describe("dependentRequired", () => {
  it("names every required name, and breaks the direction whose source lacks them", () => {
    expect(changes(object(), object({ dependentRequired: { a: ["b", "c"] } }))).toEqual([
      'dependent-required-added /dependentRequired/a breaks/ok: NEW requires "b", "c" whenever "a" is present',
    ]);
    expect(changes(object({ dependentRequired: { a: ["b", "c"] } }), object())).toEqual([
      'dependent-required-removed /dependentRequired/a ok/breaks: NEW no longer requires "b", "c" whenever "a" is present',
    ]);
  });

  it("is settled by the values of an enum: only objects that have the key must carry every name", () => {
    // null would make Object.hasOwn throw: a non-object never triggers the dependency.
    const all = [{ a: 1, b: 1, c: 1 }, { c: 1 }, 5, null];
    const rule = { dependentRequired: { a: ["b", "c"] } };
    expect(changes(values(all), values(all, rule))).toEqual([
      'dependent-required-added /dependentRequired/a ok/ok: NEW requires "b", "c" whenever "a" is present',
    ]);
    expect(changes(values(all, rule), values(all))).toEqual([
      'dependent-required-removed /dependentRequired/a ok/ok: NEW no longer requires "b", "c" whenever "a" is present',
    ]);
    // {"a":1,"b":1} has one of the two names: every name is required, not some.
    const partial = [{ a: 1, b: 1 }, { c: 1 }, 5, null];
    expect(changes(values(partial), values(partial, rule))).toEqual([
      'dependent-required-added /dependentRequired/a breaks/ok: NEW requires "b", "c" whenever "a" is present',
    ]);
    expect(changes(values(partial, rule), values(partial))).toEqual([
      'dependent-required-removed /dependentRequired/a ok/breaks: NEW no longer requires "b", "c" whenever "a" is present',
    ]);
  });

  it("never triggers on a side that rejects the key outright", () => {
    const closed = { properties: { b: {} }, additionalProperties: false };
    const rule = { dependentRequired: { a: ["b"] } };
    expect(changes(object(closed), object({ ...closed, ...rule }))).toEqual([
      'dependent-required-added /dependentRequired/a ok/ok: NEW requires "b" whenever "a" is present',
    ]);
    expect(changes(object({ ...closed, ...rule }), object(closed))).toEqual([
      'dependent-required-removed /dependentRequired/a ok/ok: NEW no longer requires "b" whenever "a" is present',
    ]);
  });
});

describe("dependentSchemas", () => {
  it("adding one breaks backward, removing one forward, unless the side never has the key", () => {
    const rule = { dependentSchemas: { a: { required: ["b"] } } };
    expect(changes(object(), object(rule))).toEqual([
      'dependent-schema-added /dependentSchemas/a breaks/ok: NEW applies a schema to documents that have "a"',
    ]);
    expect(changes(object(rule), object())).toEqual([
      'dependent-schema-removed /dependentSchemas/a ok/breaks: NEW no longer applies OLD\'s schema to documents that have "a"',
    ]);
    const closed = { properties: { b: {} }, additionalProperties: false };
    expect(changes(object(closed), object({ ...closed, ...rule }))).toEqual([
      'dependent-schema-added /dependentSchemas/a ok/ok: NEW applies a schema to documents that have "a"',
    ]);
    expect(changes(object({ ...closed, ...rule }), object(closed))).toEqual([
      'dependent-schema-removed /dependentSchemas/a ok/ok: NEW no longer applies OLD\'s schema to documents that have "a"',
    ]);
  });

  it("reports the changes inside two dependent schemas when none of them breaks", () => {
    expect(
      changes(
        object({ dependentSchemas: { a: { required: ["b"] } } }),
        object({ dependentSchemas: { a: { required: ["b"], minProperties: 1 } } }),
      ),
    ).toEqual([
      "min-properties-added /dependentSchemas/a/minProperties ok/ok: minProperties none -> 1: OLD's other keywords already keep every document within it",
    ]);
  });

  it("two that reject every object with the key agree, however they are written", () => {
    expect(
      changes(
        object({ dependentSchemas: { a: false } }),
        object({ dependentSchemas: { a: { type: "string" } } }),
      ),
    ).toEqual(["equivalent-rewrite  ok/ok: the documents differ but accept the same instances"]);
  });

  it("one that rejects every object with the key, against one that does not, is compared", () => {
    expect(
      changes(
        object({ dependentSchemas: { a: false } }),
        object({ dependentSchemas: { a: { required: ["b"] } } }),
      ),
    ).toEqual([
      "false-schema-removed /dependentSchemas/a ok/breaks: OLD was `false` here and rejected every document",
    ]);
  });

  it("counts the names a dependentRequired adds when it asks whether a dependent schema is dead", () => {
    // Without a dependentRequired on "a", only "a" is required: the closed object still admits it.
    const closed = { properties: { a: {}, b: {} }, additionalProperties: false };
    expect(
      changes(
        object({ ...closed, dependentSchemas: { a: { required: ["b"] } } }),
        object({ ...closed, dependentSchemas: { a: { required: [] } } }),
      ),
    ).toEqual([
      'required-removed /dependentSchemas/a/required/0 ok/breaks: NEW no longer requires "b"; NEW documents without it fail OLD',
    ]);
  });
});

describe("propertyNames", () => {
  it("constraining names breaks backward, freeing them forward, unless every key is a string anyway", () => {
    expect(changes(object(), object({ propertyNames: { maxLength: 3 } }))).toEqual([
      "property-names-added /propertyNames breaks/ok: NEW constrains property names",
    ]);
    expect(changes(object({ propertyNames: { maxLength: 3 } }), object())).toEqual([
      "property-names-removed /propertyNames ok/breaks: NEW no longer constrains property names",
    ]);
    expect(changes(object(), object({ propertyNames: { type: "string" } }))).toEqual([
      "property-names-added /propertyNames ok/ok: NEW constrains property names",
    ]);
  });
});
