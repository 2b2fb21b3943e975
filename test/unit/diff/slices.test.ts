// A schema seen one instance type at a time (src/diff/slices.ts). Per type a node is every instance
// (all), none, what a schema accepts (pos) or what it rejects (neg). A slice that takes more than the
// node does would let the type-by-type comparison prove a containment that fails, so each case states
// the slice exactly: its kind and the schema it stands for (the node itself, or the node cut down to
// the type's keywords).
import { describe, expect, it } from "vitest";
import type { Dialect } from "../../../src/diff/dialect.js";
import { Space, type Loc } from "../../../src/diff/document.js";
import { diffSchemas } from "../../../src/diff/index.js";
import { Engine } from "../../../src/diff/compare.js";
import { Model } from "../../../src/diff/model.js";
import { slicedSubset, type Slice } from "../../../src/diff/slices.js";
import { ARRAY, BOOLEAN, NULL, NUMBER, OBJECT, STRING } from "../../../src/diff/typeset.js";

const D = "https://json-schema.org/draft/2020-12/schema";

const load = (schema: unknown, dialect: Dialect = "2020-12") => {
  const root = new Space("OLD", undefined).load(schema, dialect, "https://schemawatch.invalid/old");
  return { root, model: new Model() };
};

/** "all", "none", or the kind, the pointer and the schema a pos/neg slice stands for. */
const show = (slice: Slice): unknown =>
  slice.kind === "all" || slice.kind === "none"
    ? slice.kind
    : { [slice.kind]: slice.loc.ptr, node: slice.loc.node };

const sliced = (schema: unknown, type: number, dialect?: Dialect) => {
  const { root, model } = load(schema, dialect);
  return show(model.slicer.slice(root, type));
};

/** The node itself, untouched: its keywords are not read type by type. */
const whole = (schema: object, ptr = "") => ({ pos: ptr, node: schema });

describe("a plain node", () => {
  it("is all of a type its keywords say nothing about, and the node cut down to the type otherwise", () => {
    const schema = { maxLength: 3, minimum: 1, title: "t" };
    expect(sliced(schema, NUMBER)).toEqual({ pos: "", node: { type: ["number"], minimum: 1 } });
    expect(sliced(schema, STRING)).toEqual({ pos: "", node: { type: ["string"], maxLength: 3 } });
    for (const type of [NULL, BOOLEAN, OBJECT, ARRAY]) expect(sliced(schema, type)).toBe("all");
    expect(sliced({}, STRING)).toBe("all");
    expect(sliced(true, OBJECT)).toBe("all");
  });

  it("is none of a type it cannot accept: by its type, by its values, or `false`", () => {
    expect(sliced({ type: "string" }, NUMBER)).toBe("none");
    expect(sliced({ enum: ["a"] }, NUMBER)).toBe("none");
    expect(sliced({ enum: ["a"] }, STRING)).toEqual({ pos: "", node: { type: ["string"], enum: ["a"] } });
    expect(sliced(false, STRING)).toBe("none");
    expect(sliced({ type: "string" }, STRING)).toBe("all");
  });

  it("keeps the keywords of each type to that type only", () => {
    const byType: [number, object][] = [
      [
        STRING,
        { minLength: 1, maxLength: 2, pattern: "a", contentEncoding: "base64", contentMediaType: "x/y" },
      ],
      [NUMBER, { multipleOf: 2, maximum: 1, exclusiveMaximum: 1, minimum: 0, exclusiveMinimum: 0 }],
      [
        ARRAY,
        {
          items: true,
          additionalItems: true,
          prefixItems: [],
          maxItems: 1,
          minItems: 1,
          uniqueItems: true,
          contains: true,
          minContains: 1,
          maxContains: 1,
        },
      ],
      [
        OBJECT,
        {
          maxProperties: 1,
          minProperties: 1,
          required: [],
          properties: {},
          patternProperties: {},
          additionalProperties: true,
          dependencies: {},
          dependentRequired: {},
          dependentSchemas: {},
          propertyNames: true,
        },
      ],
    ];
    for (const [own, keywords] of byType) {
      for (const [type] of byType) {
        const { root, model } = load(keywords);
        const slice = model.slicer.slice(root, type);
        if (type === own) expect(slice.kind).toBe("pos");
        else expect(slice).toEqual({ kind: "all" });
      }
    }
  });

  it("format: strings and numbers, where formats are asserted", () => {
    const asserted = (type: number) => {
      const root = new Space("OLD", undefined).load(
        { format: "date" },
        "draft-07",
        "https://x.invalid/",
        true,
      );
      return show(new Model().slicer.slice(root, type));
    };
    expect(asserted(STRING)).toEqual({ pos: "", node: { type: ["string"], format: "date" } });
    expect(asserted(NUMBER)).toEqual({ pos: "", node: { type: ["number"], format: "date" } });
    expect(asserted(OBJECT)).toBe("all");
    // Unasserted, a format constrains nothing.
    expect(sliced({ format: "date" }, STRING, "draft-07")).toBe("all");
  });

  it("keywords no type owns (enum, const) count for every type", () => {
    expect(sliced({ const: 1 }, NUMBER)).toEqual({ pos: "", node: { type: ["number"], const: 1 } });
    const values = { enum: [null, true, "a", [], {}] };
    expect(sliced(values, NULL)).toEqual({ pos: "", node: { type: ["null"], ...values } });
    expect(sliced(values, BOOLEAN)).toEqual({ pos: "", node: { type: ["boolean"], ...values } });
    expect(sliced(values, OBJECT)).toEqual({ pos: "", node: { type: ["object"], ...values } });
    expect(sliced(values, ARRAY)).toEqual({ pos: "", node: { type: ["array"], ...values } });
  });

  it("an integer type is part of the number slice", () => {
    expect(sliced({ type: "integer" }, NUMBER)).toEqual({ pos: "", node: { type: ["integer"] } });
    expect(sliced({ type: ["integer", "number"] }, NUMBER)).toBe("all");
    expect(sliced({ type: ["null", "boolean", "object", "array", "string"], minLength: 1 }, STRING)).toEqual({
      pos: "",
      node: { type: ["string"], minLength: 1 },
    });
  });

  it("makes the cut-down node once per node and type, and marks it as made", () => {
    const schema = { maxLength: 3, minimum: 1 };
    const { root, model } = load(schema);
    const first = model.slicer.slice(root, STRING);
    const again = model.slicer.slice(root, STRING);
    expect(again).toEqual(first);
    const node = (first as { loc: Loc }).loc.node;
    expect((again as { loc: Loc }).loc.node).toBe(node);
    expect(model.slicer.isSynthetic(node)).toBe(true);
    expect(model.slicer.isSynthetic(schema)).toBe(false);
    expect(model.slicer.isSynthetic(null)).toBe(false);
    expect(model.slicer.isSynthetic("x")).toBe(false);
    const number = (model.slicer.slice(root, NUMBER) as { loc: Loc }).loc.node;
    expect(number).toEqual({ type: ["number"], minimum: 1 });
    // The cut-down node lives where the node does: its pointer and its base URI.
    expect(root.doc.pointers.get(node as object)).toBe("");
    expect(root.doc.bases.get(node as object)).toBe("https://schemawatch.invalid/old");
  });

  it("the cut-down node of a nested node keeps the nested node's base", () => {
    const schema = { allOf: [{ $id: "https://elsewhere.invalid/b", maxLength: 3 }] };
    const { root, model } = load(schema);
    const slice = model.slicer.slice(root, STRING) as Slice & { loc: Loc };
    expect(show(slice)).toEqual({ pos: "/allOf/0", node: { type: ["string"], maxLength: 3 } });
    expect(root.doc.bases.get(slice.loc.node as object)).toBe("https://elsewhere.invalid/b");
  });
});

describe("keywords the slices do not model keep the node whole", () => {
  it.each([
    ["not", { not: { const: 1 } }],
    ["if", { if: { const: 1 } }],
    ["then", { then: { const: 1 } }],
    ["else", { else: { const: 1 } }],
    ["$ref", { $ref: "#/$defs/a", $defs: { a: true } }],
    ["$dynamicRef", { $dynamicRef: "#/$defs/a", $defs: { a: true } }],
    ["unevaluatedProperties", { unevaluatedProperties: false }],
    ["unevaluatedItems", { unevaluatedItems: false }],
  ])("%s", (_, keyword) => {
    const schema = { maxLength: 3, ...keyword };
    expect(sliced(schema, NUMBER)).toEqual(whole(schema));
  });

  it("$recursiveRef (2019-09)", () => {
    const schema = { maxLength: 3, $recursiveRef: "#" };
    expect(sliced(schema, NUMBER, "2019-09")).toEqual(whole(schema));
  });

  it("unless the keyword means nothing in the node's dialect", () => {
    expect(sliced({ maxLength: 3, unevaluatedProperties: false }, NUMBER, "draft-07")).toBe("all");
    expect(sliced({ maxLength: 3, unevaluatedItems: false }, STRING, "draft-07")).toEqual({
      pos: "",
      node: { type: ["string"], maxLength: 3 },
    });
  });

  it("a `$ref` alone is followed", () => {
    expect(sliced({ $ref: "#/$defs/a", $defs: { a: { maxLength: 3 } } }, NUMBER)).toBe("all");
  });
});

describe("allOf: every branch", () => {
  it("meets the node's own slice with each branch's", () => {
    expect(sliced({ allOf: [{ maxLength: 3 }] }, STRING)).toEqual({
      pos: "/allOf/0",
      node: { type: ["string"], maxLength: 3 },
    });
    expect(sliced({ allOf: [{ maxLength: 3 }, true] }, NUMBER)).toBe("all");
    expect(sliced({ minLength: 1, allOf: [{ minimum: 3 }] }, STRING)).toEqual({
      pos: "",
      node: { type: ["string"], minLength: 1 },
    });
    // Two parts of one type are no slice: the node stays whole.
    const both = { minLength: 1, allOf: [{ maxLength: 3 }] };
    expect(sliced(both, STRING)).toEqual(whole(both));
    const none = { minLength: 1, allOf: [{ oneOf: [true, true] }] };
    expect(sliced(none, STRING)).toBe("none");
    const noneFirst = { minLength: 1, allOf: [{ oneOf: [true, true] }, { maxLength: 3 }] };
    expect(sliced(noneFirst, STRING)).toBe("none");
  });

  it("is cut at depth 7: what lies deeper is taken whole", () => {
    const nest = (levels: number, key: string, leaf: object): object =>
      levels === 0 ? leaf : { [key]: [nest(levels - 1, key, leaf)] };
    const leaf = { maxLength: 3 };
    for (const key of ["allOf", "anyOf", "oneOf"]) {
      expect(sliced(nest(6, key, leaf), NUMBER)).toBe("all");
      expect(sliced(nest(7, key, leaf), NUMBER)).toEqual({ pos: `/${key}/0`.repeat(7), node: leaf });
    }
  });
});

describe("anyOf: some branch", () => {
  it("takes the whole type when bounds together cover it", () => {
    expect(sliced({ anyOf: [{ maxLength: 5 }, { minLength: 3 }] }, STRING)).toBe("all");
    expect(sliced({ anyOf: [{ maxLength: 5 }, { type: "string" }] }, STRING)).toBe("all");
  });

  it("is the one branch that takes any of the type", () => {
    expect(sliced({ anyOf: [{ type: "number" }, { maxLength: 3 }] }, STRING)).toEqual({
      pos: "/anyOf/1",
      node: { type: ["string"], maxLength: 3 },
    });
    expect(sliced({ anyOf: [{ oneOf: [true, true] }, { maxLength: 3 }] }, STRING)).toEqual({
      pos: "/anyOf/1",
      node: { type: ["string"], maxLength: 3 },
    });
  });

  it("is none when no branch takes any of the type", () => {
    expect(sliced({ anyOf: [{ oneOf: [true, true] }, false] }, STRING)).toBe("none");
  });

  it("leaves the node whole when two branches take parts of the type", () => {
    const schema = { anyOf: [{ maxLength: 3 }, { pattern: "a" }] };
    expect(sliced(schema, STRING)).toEqual(whole(schema));
  });

  it("meets the node's own keywords", () => {
    expect(sliced({ minimum: 1, anyOf: [{ maxLength: 3 }, { type: "null" }] }, STRING)).toEqual({
      pos: "/anyOf/0",
      node: { type: ["string"], maxLength: 3 },
    });
    const both = { minLength: 1, anyOf: [{ maxLength: 3 }, { type: "null" }] };
    expect(sliced(both, STRING)).toEqual(whole(both));
    expect(sliced({ minLength: 1, anyOf: [{ type: "null" }, false] }, STRING)).toBe("none");
  });
});

describe("oneOf: exactly one branch", () => {
  it("a branch and its negation take every instance", () => {
    for (const type of [STRING, NUMBER]) {
      expect(sliced({ oneOf: [{ maxLength: 3 }, { not: { maxLength: 3 } }] }, type)).toBe("all");
      expect(sliced({ oneOf: [{ not: { maxLength: 3 }, title: "t" }, { maxLength: 3 }] }, type)).toBe("all");
    }
  });

  it("a negation with more beside it, or of another schema, is not the other branch's complement", () => {
    const more = { oneOf: [{ maxLength: 3 }, { not: { maxLength: 3 }, minimum: 1 }] };
    expect(sliced(more, STRING)).toEqual(whole(more));
    const other = { oneOf: [{ maxLength: 3 }, { not: { maxLength: 4 } }] };
    expect(sliced(other, STRING)).toEqual(whole(other));
    // With a third branch an instance may match the third and one of the pair.
    const third = { oneOf: [{ maxLength: 3 }, { not: { maxLength: 3 } }, { minLength: 2 }] };
    expect(sliced(third, STRING)).toEqual(whole(third));
  });

  it("two branches that take the whole type take nothing of it", () => {
    expect(sliced({ oneOf: [{ minimum: 1 }, { minimum: 2 }] }, STRING)).toBe("none");
    expect(sliced({ oneOf: [{ maxLength: 3 }, { minimum: 1 }, { minimum: 2 }] }, STRING)).toBe("none");
  });

  it("one branch that takes the whole type and none that takes part: all", () => {
    expect(sliced({ oneOf: [{ minimum: 1 }] }, STRING)).toBe("all");
    expect(sliced({ oneOf: [{ minimum: 1 }, { type: "number" }] }, STRING)).toBe("all");
    expect(sliced({ oneOf: [{ oneOf: [true, true] }, false] }, STRING)).toBe("none");
  });

  it("one part alone is that part; beside a whole branch, the rest of the type", () => {
    const part = { type: ["string"], maxLength: 3 };
    expect(sliced({ oneOf: [{ maxLength: 3 }, { type: "number" }] }, STRING)).toEqual({
      pos: "/oneOf/0",
      node: part,
    });
    expect(sliced({ oneOf: [{ maxLength: 3 }, { minimum: 1 }] }, STRING)).toEqual({
      neg: "/oneOf/0",
      node: part,
    });
    // The rest of the rest is the part again.
    const inner = { oneOf: [{ maxLength: 3 }, { minimum: 1 }] };
    expect(sliced({ oneOf: [inner, { minimum: 1 }] }, STRING)).toEqual({
      pos: "/oneOf/0/oneOf/0",
      node: part,
    });
  });

  it("two parts leave the node whole", () => {
    const schema = { oneOf: [{ maxLength: 3 }, { pattern: "a" }] };
    expect(sliced(schema, STRING)).toEqual(whole(schema));
  });

  it("meets the node's own keywords and its anyOf", () => {
    const schema = { minimum: 1, anyOf: [{ type: "string" }], oneOf: [{ maxLength: 3 }, { type: "null" }] };
    expect(sliced(schema, STRING)).toEqual({ pos: "/oneOf/0", node: { type: ["string"], maxLength: 3 } });
    const both = { anyOf: [{ minLength: 1 }, { type: "null" }], oneOf: [{ maxLength: 3 }, { type: "null" }] };
    expect(sliced(both, STRING)).toEqual(whole(both));
    const none = { minLength: 1, oneOf: [true, true] };
    expect(sliced(none, STRING)).toBe("none");
  });
});

describe("acceptsType: every instance of every type asked", () => {
  it("holds when each type of the mask is all", () => {
    const { root, model } = load({ anyOf: [{ maxLength: 5 }, { minLength: 3 }], minimum: 1 });
    expect(model.slicer.acceptsType(root, STRING)).toBe(true);
    expect(model.slicer.acceptsType(root, STRING | NULL | ARRAY)).toBe(true);
    expect(model.slicer.acceptsType(root, STRING | NUMBER)).toBe(false);
    expect(model.slicer.acceptsType(root, NUMBER)).toBe(false);
    expect(model.slicer.acceptsType(root, 0)).toBe(true);
  });
});

// The comparison type by type (slicedSubset), as the report shows it: witnesses off, so the verdicts
// are the proof's own.
describe("containment type by type", () => {
  const verdict = (old: object, next: object) => {
    const result = diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }, { witnesses: false });
    return `${result.backward}/${result.forward}`;
  };
  // Strings longer than 3 (a oneOf of every string and the short ones), and longer than 5.
  const over3 = { type: "string", oneOf: [{}, { maxLength: 3 }] };
  const over5 = { type: "string", oneOf: [{}, { maxLength: 5 }] };

  it("the rest of a type inside the rest of another: the other part inside the first", () => {
    expect(verdict(over5, over3)).toBe("ok/undecided");
    expect(verdict(over3, over5)).toBe("undecided/ok");
  });

  it("never proves a pair from the same pair in progress", () => {
    // Both sides stay whole (a `not` beside anyOf): the pair itself may not be its own proof.
    const side = (value: string) => ({
      not: { const: value },
      anyOf: [{ type: "string" }, { type: "number" }],
    });
    expect(verdict(side("a"), side("b"))).toBe("breaks/breaks");
  });
});

// slicedSubset itself, against an engine whose only family records each pair it is asked about and
// finds no change in it: every pair the slices hand over is "ok", so a `true` that should not be there
// shows, and so does a pair asked that should not be.
describe("slicedSubset: which pairs it asks, and how", () => {
  const sides = (old: object, next: object) => {
    const a = new Space("OLD", undefined).load(old, "2020-12", "https://schemawatch.invalid/old");
    const b = new Space("NEW", undefined).load(next, "2020-12", "https://schemawatch.invalid/new");
    return { a, b, model: new Model() };
  };
  /** The result and the pairs asked, as `A <= B policy`; `busy` makes each asked pair meet a pair in progress. */
  const run = (old: object, next: object, busy = false) => {
    const { a, b, model } = sides(old, next);
    const asked: string[] = [];
    const engine = new Engine(model, [
      // A family sees the engine as a Comparer, which only reads the count; the test's engine bumps it.
      (_comparer, pair) => {
        asked.push(
          `${JSON.stringify(pair.old.loc.node)} <= ${JSON.stringify(pair.new.loc.node)} ${pair.ctx.policy}`,
        );
        if (busy) engine.busyHits++;
      },
    ]);
    const holds = slicedSubset(engine, model.slicer, a, b, { policy: "lenient" });
    return { holds, asked };
  };
  const S3 = JSON.stringify({ type: ["string"], maxLength: 3 });
  const S5 = JSON.stringify({ type: ["string"], maxLength: 5 });
  // Strings longer than 3 and longer than 5: the rest of the type beside a part.
  const over3 = { type: "string", oneOf: [{}, { maxLength: 3 }] };
  const over5 = { type: "string", oneOf: [{}, { maxLength: 5 }] };

  it("a part inside a part: the engine decides, under the caller's policy", () => {
    expect(run({ type: "string", maxLength: 3 }, { type: "string", maxLength: 5 })).toEqual({
      holds: true,
      asked: [`${S3} <= ${S5} lenient`],
    });
  });

  it("never asks about the pair being compared: both sides whole is no proof", () => {
    expect(run({ not: { const: 1 } }, { not: { const: 2 } })).toEqual({ holds: false, asked: [] });
  });

  it("one side whole and the other cut down is a new pair, asked", () => {
    const whole = { type: "string", not: { const: "a" } };
    expect(run(whole, { type: "string", maxLength: 5 })).toEqual({
      holds: true,
      asked: [`${JSON.stringify(whole)} <= ${S5} lenient`],
    });
    expect(run({ type: "string", maxLength: 3 }, whole)).toEqual({
      holds: true,
      asked: [`${S3} <= ${JSON.stringify(whole)} lenient`],
    });
  });

  it("a rest inside a rest: the other side's part inside this side's, strictly, as under `not`", () => {
    expect(run(over5, over3)).toEqual({ holds: true, asked: [`${S3} <= ${S5} strict`] });
  });

  it("a rest inside a rest is not proven by a pair assumed compatible while in progress", () => {
    expect(run(over5, over3, true)).toEqual({ holds: false, asked: [`${S3} <= ${S5} strict`] });
  });

  it("a part inside a rest exactly when the part shares nothing with what the rest leaves out", () => {
    expect(run({ type: "string", minLength: 4 }, over3)).toEqual({ holds: true, asked: [] });
    expect(run({ type: "string", minLength: 3 }, over3)).toEqual({ holds: false, asked: [] });
  });

  it("a rest is never proven inside a part, nor a whole type inside a part or a rest", () => {
    expect(run(over3, { type: "string", minLength: 4 })).toEqual({ holds: false, asked: [] });
    expect(run({ type: "string" }, over3)).toEqual({ holds: false, asked: [] });
    expect(run({ type: "string" }, { type: "string", minLength: 0, maxLength: 9 })).toEqual({
      holds: false,
      asked: [],
    });
  });

  it("a type one side cannot take, or the other takes whole, holds without asking", () => {
    expect(run({ type: "string", maxLength: 3 }, { type: ["string", "null"] })).toEqual({
      holds: true,
      asked: [],
    });
    expect(run({ type: "null" }, { type: "string", maxLength: 3 })).toEqual({ holds: false, asked: [] });
    expect(run({ type: "null" }, { type: ["string", "null"], maxLength: 3 })).toEqual({
      holds: true,
      asked: [],
    });
  });
});
