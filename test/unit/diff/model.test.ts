// The facts about schema nodes every rule of the diff rests on (src/diff/model.ts): what a `$ref`
// stands for, the instance types a node can accept at all, its finite value set, whether it accepts
// everything, whether branches together cover every document, which schemas give a property and
// which names a document must carry. A wrong fact here makes a verdict wrong anywhere, so each case
// states the rule with exact masks, values, pointers and flags.
import { describe, expect, it } from "vitest";
import { Space, type Doc, type Loc } from "../../../src/diff/document.js";
import { Model } from "../../../src/diff/model.js";
import { ALL, ARRAY, BOOLEAN, INTEGER, NULL, NUMBER, OBJECT, STRING } from "../../../src/diff/typeset.js";

const load = (schema: unknown, dialect: Doc["dialect"] = "2020-12") => {
  const top = new Space("OLD", undefined).load(schema, dialect, "https://schemawatch.invalid/old");
  const model = new Model();
  const at = (ptr: string): Loc => (ptr === "" ? top : top.doc.space.resolve(top, `#${ptr}`));
  return { model, top, at };
};
const types = (schema: unknown, dialect?: Doc["dialect"]) => {
  const { model, top } = load(schema, dialect);
  return model.types(top);
};
const values = (schema: unknown) => {
  const { model, top } = load(schema);
  return model.values(top);
};
const acceptsAll = (schema: unknown) => {
  const { model, top } = load(schema);
  return model.acceptsAll(top);
};
/** Whether the root's `anyOf` branches cover every document (of the types in `within`). */
const covers = (branches: unknown[], within = ALL) => {
  const { model, top } = load({ anyOf: branches });
  return model.coversAll(model.view(top).anyOf ?? [], 0, within);
};
const declarations = (schema: unknown) => {
  const { model, top } = load(schema);
  return Object.fromEntries(
    [...model.declarations(model.view(top))].map(([name, list]) => [
      name,
      list.map((d) => `${d.loc.ptr}${d.conjunctive ? "" : " (weak)"}`),
    ]),
  );
};
const string = { type: "string" };

describe("deref", () => {
  it("follows a $ref that stands alone or beside annotations only, to the end of a chain", () => {
    const { model, at } = load({
      $defs: { a: { $ref: "#/$defs/b", title: "t", $comment: "c" }, b: { $ref: "#/$defs/c" }, c: string },
    });
    expect(model.deref(at("/$defs/a")).ptr).toBe("/$defs/c");
  });

  it("stops at a $ref beside a keyword that applies: the $ref is one more conjunct there", () => {
    const { model, at } = load({ $defs: { a: { $ref: "#/$defs/c", minLength: 1 }, c: string } });
    const a = at("/$defs/a");
    expect(model.deref(a)).toBe(a);
  });

  it("follows $recursiveRef and $dynamicRef as it follows $ref", () => {
    const recursive = load({ $defs: { a: { $recursiveRef: "#/$defs/c" }, c: string } }, "2019-09");
    expect(recursive.model.deref(recursive.at("/$defs/a")).ptr).toBe("/$defs/c");
    const dynamic = load({ $defs: { a: { $dynamicRef: "#/$defs/c" }, c: string } });
    expect(dynamic.model.deref(dynamic.at("/$defs/a")).ptr).toBe("/$defs/c");
  });

  it("a $ref that is not a string is no reference", () => {
    const { model, at } = load({ $defs: { a: { $ref: 5 } } });
    const a = at("/$defs/a");
    expect(model.deref(a)).toBe(a);
    expect(model.view(a).ref).toBe(undefined);
  });

  it("a cycle of references that never reaches a schema constrains nothing", () => {
    const { model, at, top } = load({ $defs: { a: { $ref: "#/$defs/b" }, b: { $ref: "#/$defs/a" } } });
    expect(model.deref(at("/$defs/a"))).toEqual({ node: true, ptr: "/$defs/a", doc: top.doc });
    expect(model.deref(at("/$defs/b"))).toEqual({ node: true, ptr: "/$defs/b", doc: top.doc });
    expect(model.types(at("/$defs/a"))).toBe(ALL);
  });
});

describe("view", () => {
  it("is built once per node, with a $ref beside keywords resolved as its `ref`", () => {
    const { model, at } = load({ $defs: { a: { $ref: "#/$defs/c", minLength: 1 }, c: string } });
    const view = model.view(at("/$defs/a"));
    expect(model.view(at("/$defs/a"))).toBe(view);
    expect(view.ref?.ptr).toBe("/$defs/c");
  });
});

describe("types", () => {
  it("false accepts no type, true and {} every type", () => {
    expect(types(false)).toBe(0);
    expect(types(true)).toBe(ALL);
    expect(types({})).toBe(ALL);
  });

  it("`type` names the types; unknown names count for nothing", () => {
    expect(types(string)).toBe(STRING);
    expect(types({ type: ["null", "number"] })).toBe(NULL | NUMBER);
    expect(types({ type: "nope" })).toBe(0);
    expect(types({ type: ["boolean", "nope"] })).toBe(BOOLEAN);
  });

  it("enum and const keep the types of the values that pass `type`", () => {
    expect(types({ enum: ["a", 1, 1.5, null] })).toBe(STRING | NUMBER | NULL);
    expect(types({ type: ["string", "null"], enum: ["a", 1, null] })).toBe(STRING | NULL);
    expect(types({ const: [1] })).toBe(ARRAY);
    expect(types({ enum: [] })).toBe(0);
  });

  it("allOf and a $ref beside keywords intersect; anyOf and oneOf unite their branches", () => {
    expect(types({ allOf: [{ type: ["string", "number"] }, { type: ["number", "null"] }] })).toBe(NUMBER);
    expect(types({ $defs: { n: { type: "number" } }, $ref: "#/$defs/n", type: ["number", "string"] })).toBe(
      NUMBER,
    );
    expect(types({ anyOf: [string, { type: "null" }] })).toBe(STRING | NULL);
    expect(types({ oneOf: [string, { type: "null" }] })).toBe(STRING | NULL);
    expect(types({ anyOf: [string, { type: "null" }], oneOf: [{ type: "null" }, { type: "boolean" }] })).toBe(
      NULL,
    );
    expect(types({ anyOf: [] })).toBe(0);
  });

  it("then and else unite when both are there; one alone constrains no type", () => {
    expect(types({ if: { minLength: 1 }, then: string, else: { type: "null" } })).toBe(STRING | NULL);
    expect(types({ if: { minLength: 1 }, then: string })).toBe(ALL);
    expect(types({ if: { minLength: 1 }, else: string })).toBe(ALL);
  });

  it("an object must carry a required key the object rejects: no object passes", () => {
    const noObject = ALL & ~OBJECT;
    expect(types({ required: ["a"], properties: { a: false } })).toBe(noObject);
    expect(types({ required: ["a"], properties: { a: { not: {} } } })).toBe(noObject);
    expect(types({ required: ["a"], additionalProperties: false })).toBe(noObject);
    expect(types({ required: ["b"], patternProperties: { "^a": {} }, additionalProperties: false })).toBe(
      noObject,
    );
    // A key the object can hold.
    expect(types({ required: ["a"], properties: { a: {} }, additionalProperties: false })).toBe(ALL);
    expect(types({ required: ["a"], patternProperties: { "^a": {} }, additionalProperties: false })).toBe(
      ALL,
    );
    expect(
      types({ required: ["a"], patternProperties: { "^b": {}, "^a": {} }, additionalProperties: false }),
    ).toBe(ALL);
    // A pattern that cannot be read may match the key.
    expect(types({ required: ["a"], patternProperties: { "(": {} }, additionalProperties: false })).toBe(ALL);
    expect(types({ required: ["a"], properties: { b: false } })).toBe(ALL);
    expect(types({ required: ["a"], additionalProperties: {} })).toBe(ALL);
    expect(types({ required: ["a", "b"], properties: { a: {}, b: false } })).toBe(noObject);
  });

  it("`not` of a node that accepts everything leaves nothing; `not` of a bare type removes it", () => {
    expect(types({ not: {} })).toBe(0);
    expect(types({ not: true })).toBe(0);
    expect(types({ not: { title: "t" } })).toBe(0);
    expect(types({ not: string })).toBe(ALL & ~STRING);
    expect(types({ not: { type: ["string", "null"], title: "t" } })).toBe(ALL & ~(STRING | NULL));
    expect(types({ $defs: { s: string }, not: { $ref: "#/$defs/s" } })).toBe(ALL & ~STRING);
    // Anything beside the type leaves some of its instances to the node.
    expect(types({ not: { type: "string", minLength: 1 } })).toBe(ALL);
    expect(types({ not: { type: "nope" } })).toBe(ALL);
    expect(types({ not: { minLength: 1 } })).toBe(ALL);
    expect(types({ not: false })).toBe(ALL);
    expect(types({ type: ["string", "integer"], not: { type: "integer" } })).toBe(STRING);
  });

  it("a node met again while its own types are worked out counts as any type", () => {
    expect(types({ anyOf: [{ type: "null" }, { allOf: [{ $ref: "#" }], type: "string" }] })).toBe(
      STRING | NULL,
    );
    expect(types({ type: "object", properties: { a: { $ref: "#" } }, required: ["a"] })).toBe(OBJECT);
  });

  it("is remembered per node", () => {
    const { model, top } = load({ type: "string" });
    expect(model.types(top)).toBe(STRING);
    expect(model.types(top)).toBe(STRING);
    expect(model.rejectsAll(top)).toBe(false);
    // A cached mask is never read as "in progress", whatever its value.
    const nulls = load({ type: "null" });
    expect(nulls.model.types(nulls.top)).toBe(NULL);
    expect(nulls.model.types(nulls.top)).toBe(NULL);
    expect(load(false).model.rejectsAll(load(false).top)).toBe(true);
  });
});

describe("values", () => {
  it("false has no value; true, {} and open types have no finite set", () => {
    expect(values(false)).toEqual([]);
    expect(values(true)).toBe(undefined);
    expect(values({})).toBe(undefined);
    expect(values(string)).toBe(undefined);
    expect(values({ type: ["null", "string"] })).toBe(undefined);
  });

  it("enum and const, filtered by the node's types and local keywords", () => {
    expect(values({ enum: ["ab", "a", 1, null], type: "string", minLength: 2 })).toEqual(["ab"]);
    expect(values({ enum: ["a", 1], const: 1 })).toEqual([1]);
    expect(values({ enum: ["a", 1], allOf: [{ type: "integer" }] })).toEqual([1]);
    // The declared values as declared, null and booleans too.
    expect(values({ enum: [false, null] })).toEqual([false, null]);
  });

  it("a node of null and boolean types only has those three values", () => {
    expect(values({ type: "null" })).toEqual([null]);
    expect(values({ type: "boolean" })).toEqual([true, false]);
    expect(values({ anyOf: [{ type: "null" }, { type: "boolean" }] })).toEqual([null, true, false]);
    expect(values({ type: "null", not: { type: "null" } })).toEqual([]);
  });

  it("is remembered per node, an infinite set too", () => {
    const finite = load({ enum: [1, 2] });
    const first = finite.model.values(finite.top);
    expect(finite.model.values(finite.top)).toBe(first);
    const open = load(string);
    expect(open.model.values(open.top)).toBe(undefined);
    expect(open.model.values(open.top)).toBe(undefined);
  });
});

describe("acceptsAll", () => {
  it("true, {} and nodes of annotations and unknown keywords", () => {
    expect(acceptsAll(true)).toBe(true);
    expect(acceptsAll({})).toBe(true);
    expect(acceptsAll({ title: "t", $comment: "c", "x-ext": 1, examples: [1] })).toBe(true);
    expect(acceptsAll(false)).toBe(false);
    expect(acceptsAll(string)).toBe(false);
    expect(acceptsAll({ title: "t", minLength: 0 })).toBe(false);
  });

  it("a pattern that matches every string", () => {
    expect(acceptsAll({ pattern: ".*" })).toBe(true);
    expect(acceptsAll({ pattern: "" })).toBe(true);
    expect(acceptsAll({ pattern: "^a" })).toBe(false);
    expect(acceptsAll({ pattern: 5 })).toBe(false);
    // Only `pattern` is read as a pattern.
    expect(acceptsAll({ const: "" })).toBe(false);
  });

  it("an anyOf whose branches cover everything", () => {
    expect(acceptsAll({ anyOf: [string, {}] })).toBe(true);
    expect(acceptsAll({ anyOf: [string, { not: string }] })).toBe(true);
    expect(acceptsAll({ anyOf: [{ maxLength: 5 }, { minLength: 3 }] })).toBe(true);
    expect(acceptsAll({ anyOf: [string] })).toBe(false);
    expect(acceptsAll({ anyOf: [string, {}], type: "string" })).toBe(false);
    expect(acceptsAll({ oneOf: [string, {}] })).toBe(false);
    expect(acceptsAll({ anyOf: {} })).toBe(false);
  });

  it("follows a $ref; a value that is no schema constrains nothing", () => {
    const { model, at } = load({
      $defs: { a: { $ref: "#/$defs/e" }, e: {}, f: { $ref: "#/$defs/s" }, s: string },
    });
    expect(model.acceptsAll(at("/$defs/a"))).toBe(true);
    expect(model.acceptsAll(at("/$defs/f"))).toBe(false);
    expect(load(null).model.acceptsAll(load(null).top)).toBe(true);
  });

  it("gives up (false) on an object node past depth eight", () => {
    const { model, top } = load({});
    expect(model.acceptsAll(top, 8)).toBe(true);
    expect(model.acceptsAll(top, 9)).toBe(false);
    const yes = load(true);
    expect(yes.model.acceptsAll(yes.top, 9)).toBe(true);
    // Each anyOf level is two steps deeper: `{}` four levels down is at depth eight.
    // Past the cut an anyOf branch no longer counts as taking everything (`pattern: ".*"` is not a
    // bound the slices can read).
    const wide = { anyOf: [{ type: "null" }, { pattern: ".*" }] };
    expect(load(wide).model.acceptsAll(load(wide).top, 6)).toBe(true);
    expect(load(wide).model.acceptsAll(load(wide).top, 7)).toBe(false);
    const nest = (levels: number): object =>
      levels === 0 ? {} : { anyOf: [{ type: "null" }, nest(levels - 1)] };
    expect(acceptsAll(nest(4))).toBe(true);
  });
});

describe("coversAll", () => {
  it("one branch that accepts everything", () => {
    expect(covers([string, {}])).toBe(true);
    expect(covers([string, { title: "t" }])).toBe(true);
    expect(covers([])).toBe(false);
  });

  it("bare types that together name every type, or every type asked about", () => {
    const rest = ["null", "boolean", "object", "array", "number"];
    expect(covers([string, { type: rest }])).toBe(true);
    expect(covers([string, { type: rest.slice(1) }])).toBe(false);
    expect(covers([string, { type: "number" }], STRING | NUMBER)).toBe(true);
    expect(covers([string, { type: "integer" }], STRING | NUMBER)).toBe(false);
    expect(covers([string], STRING)).toBe(true);
    expect(covers([{ type: "integer" }], STRING)).toBe(false);
  });

  it("a branch that accepts everything, up to the depth cut", () => {
    expect(covers([{ pattern: ".*" }, { type: "null" }])).toBe(true);
    const { model, top } = load({ anyOf: [{ pattern: ".*" }, { type: "null" }] });
    const branches = model.view(top).anyOf ?? [];
    expect(model.coversAll(branches, 7)).toBe(true);
    expect(model.coversAll(branches, 8)).toBe(false);
  });

  it("bare types still cover where the slices give up (past depth six)", () => {
    const deep = (branches: unknown[], within = ALL, depth = 7) => {
      const { model, top } = load({ anyOf: branches });
      return model.coversAll(model.view(top).anyOf ?? [], depth, within);
    };
    const rest = ["null", "boolean", "object", "array", "number"];
    expect(deep([string, { type: rest }])).toBe(true);
    expect(deep([{ type: "string", title: "t" }, { type: rest }])).toBe(true);
    expect(deep([string, { type: rest.slice(1) }])).toBe(false);
    expect(deep([{ type: "string", minLength: 1 }, { type: rest }])).toBe(false);
    expect(deep([string, { type: "number" }], STRING | NUMBER)).toBe(true);
    expect(deep([string], STRING)).toBe(true);
    expect(deep([{ type: "integer" }], STRING)).toBe(false);
    // Past acceptsAll's cut too, a branch without `type` or anything else is of any type.
    expect(deep([{ title: "t" }], ALL, 8)).toBe(true);
    expect(deep([{}], ALL, 8)).toBe(true);
  });

  it("only the types asked about need a branch", () => {
    const strings = [
      { type: "string", maxLength: 5 },
      { type: "string", minLength: 3 },
    ];
    expect(covers(strings, STRING)).toBe(true);
    expect(covers(strings)).toBe(false);
  });

  it("bounds of one measure that together leave no gap", () => {
    expect(covers([{ maxLength: 5 }, { minLength: 3 }])).toBe(true);
    expect(covers([{ maxLength: 2 }, { minLength: 3 }])).toBe(true);
    expect(covers([{ maxLength: 2 }, { minLength: 4 }])).toBe(false);
    expect(covers([{ maximum: 5 }, { minimum: 6 }], INTEGER)).toBe(true);
    expect(covers([{ maximum: 5 }, { minimum: 6 }])).toBe(false);
  });

  it("a branch that is the `not` of another", () => {
    expect(covers([{ not: { pattern: "a" } }, { pattern: "a" }])).toBe(true);
    expect(covers([{ pattern: "a" }, { not: { pattern: "a" }, title: "t" }])).toBe(true);
    expect(covers([{ not: { pattern: "a" } }, { pattern: "b" }])).toBe(false);
    expect(covers([{ not: { pattern: "a" }, maxProperties: 2 }, { pattern: "a" }])).toBe(false);
    expect(covers([{ not: { pattern: "a" } }])).toBe(false);
    // A branch is not the `not` of itself.
    expect(covers([{ not: { $ref: "#/anyOf/0" } }])).toBe(false);
  });

  it("reads `not` through a $ref", () => {
    const { model, top } = load({
      $defs: { a: { pattern: "a" } },
      anyOf: [{ not: { $ref: "#/$defs/a" } }, { pattern: "a" }],
    });
    expect(model.coversAll(model.view(top).anyOf ?? [])).toBe(true);
  });
});

describe("declarations", () => {
  it("own, allOf and $ref schemas apply whenever the property is there; other branches only with them", () => {
    expect(
      declarations({
        properties: { a: {} },
        allOf: [{ properties: { a: {}, b: {} } }],
        $ref: "#/$defs/r",
        $defs: { r: { properties: { h: {} } } },
        anyOf: [{ properties: { c: {} } }],
        oneOf: [{ properties: { d: {} } }],
        if: { properties: { z: {} } },
        then: { properties: { e: {} } },
        else: { properties: { f: {} } },
        dependentSchemas: { x: { properties: { g: {} } } },
      }),
    ).toEqual({
      a: ["/properties/a", "/allOf/0/properties/a"],
      b: ["/allOf/0/properties/b"],
      h: ["/$defs/r/properties/h"],
      c: ["/anyOf/0/properties/c (weak)"],
      d: ["/oneOf/0/properties/d (weak)"],
      e: ["/then/properties/e (weak)"],
      f: ["/else/properties/f (weak)"],
      g: ["/dependentSchemas/x/properties/g (weak)"],
    });
  });

  it("a branch inside a weak branch is weak; a pure $ref branch is followed; boolean branches add nothing", () => {
    expect(
      declarations({
        $defs: { r: { properties: { r: {} } } },
        anyOf: [{ allOf: [{ properties: { a: {} } }] }],
        allOf: [{ anyOf: [{ properties: { b: {} } }] }, { allOf: [{ $ref: "#/$defs/r" }] }, true, false],
      }),
    ).toEqual({
      b: ["/allOf/0/anyOf/0/properties/b (weak)"],
      r: ["/$defs/r/properties/r"],
      a: ["/anyOf/0/allOf/0/properties/a (weak)"],
    });
  });

  it("visits each node once, and at most 65 nodes", () => {
    expect(declarations({ properties: { x: {} }, allOf: [{ $ref: "#" }], anyOf: [{ $ref: "#" }] })).toEqual({
      x: ["/properties/x"],
    });
    const chain = (i: number): object =>
      i === 70 ? {} : { properties: { [`p${i}`]: {} }, allOf: [chain(i + 1)] };
    expect(Object.keys(declarations(chain(0)))).toHaveLength(65);
    // Boolean branches are no nodes to visit: they do not count toward the cap.
    const withBooleans = (i: number): object =>
      i === 70 ? {} : { properties: { [`p${i}`]: {} }, allOf: [true, false, withBooleans(i + 1)] };
    expect(Object.keys(declarations(withBooleans(0)))).toHaveLength(65);
  });

  it("is remembered per node", () => {
    const { model, top } = load({ properties: { a: {} } });
    expect(model.declarations(model.view(top))).toBe(model.declarations(model.view(top)));
  });
});

describe("flatRequired", () => {
  const required = (schema: unknown) => {
    const { model, top } = load(schema);
    return [...model.flatRequired(model.view(top))];
  };

  it("collects required here, in allOf (nested) and behind $ref, not in other branches", () => {
    expect(
      required({
        required: ["a"],
        allOf: [{ required: ["b"] }, { allOf: [{ required: ["c"] }] }, true],
        $ref: "#/$defs/r",
        $defs: { r: { required: ["d", "a"] } },
        anyOf: [{ required: ["e"] }],
        oneOf: [{ required: ["f"] }],
        then: { required: ["g"] },
      }),
    ).toEqual(["a", "b", "c", "d"]);
  });

  it("visits each node once, and at most 65 nodes", () => {
    expect(required({ required: ["x"], allOf: [{ $ref: "#" }] })).toEqual(["x"]);
    const chain = (i: number): object => (i === 70 ? {} : { required: [`p${i}`], allOf: [chain(i + 1)] });
    expect(required(chain(0))).toHaveLength(65);
    const withBooleans = (i: number): object =>
      i === 70 ? {} : { required: [`p${i}`], allOf: [true, false, withBooleans(i + 1)] };
    expect(required(withBooleans(0))).toHaveLength(65);
  });
});

describe("enclosing", () => {
  const enclosing = (schema: unknown) => {
    const { model, top } = load(schema);
    const found = model.enclosing(model.view(top));
    return (
      found && {
        declarations: Object.fromEntries(
          [...found.declarations].map(([name, list]) => [name, list.map((d) => [d.loc.ptr, d.conjunctive])]),
        ),
        patterns: [...found.patterns.keys()],
        rest: found.rest.ptr,
      }
    );
  };
  const branches = {
    properties: { a: {} },
    patternProperties: { "^p": {} },
    allOf: [{ properties: { b: {} } }],
  };

  it("additionalProperties sees the node's own properties only", () => {
    expect(enclosing({ ...branches, additionalProperties: false })).toEqual({
      declarations: { a: [["/properties/a", true]] },
      patterns: ["^p"],
      rest: "/additionalProperties",
    });
    expect(enclosing({ ...branches, additionalProperties: false, unevaluatedProperties: false })?.rest).toBe(
      "/additionalProperties",
    );
  });

  it("unevaluatedProperties sees what the branches declare", () => {
    expect(enclosing({ ...branches, unevaluatedProperties: false })).toEqual({
      declarations: { a: [["/properties/a", true]], b: [["/allOf/0/properties/b", true]] },
      patterns: ["^p"],
      rest: "/unevaluatedProperties",
    });
  });

  it("nothing without either; remembered per node", () => {
    expect(enclosing(branches)).toBe(undefined);
    const { model, top } = load({ additionalProperties: false });
    const first = model.enclosing(model.view(top));
    expect(model.enclosing(model.view(top))).toBe(first);
    const open = load({});
    expect(open.model.enclosing(open.model.view(open.top))).toBe(undefined);
    expect(open.model.enclosing(open.model.view(open.top))).toBe(undefined);
  });
});

describe("combine", () => {
  it("one node stands for itself; more become a synthetic allOf/anyOf at the first one's pointer", () => {
    const { model, at } = load({ $defs: { a: string, b: { maxLength: 3 } } });
    const a = at("/$defs/a");
    const b = at("/$defs/b");
    expect(model.combine("allOf", [a])).toBe(a);
    const both = model.combine("anyOf", [a, b]);
    expect(both).toEqual({ node: { anyOf: [a.node, b.node] }, ptr: "/$defs/a", doc: a.doc });
    expect(a.doc.pointers.get(both.node as object)).toBe("/$defs/a");
    expect(model.types(model.combine("allOf", [a, b]))).toBe(STRING);
  });
});

describe("mergeAll", () => {
  const merged = (schema: unknown) => {
    const { model, top } = load(schema);
    return model.mergeAll(model.view(top));
  };

  it("is the node itself without allOf", () => {
    const { model, top } = load(string);
    expect(model.mergeAll(model.view(top))).toBe(top);
  });

  it("merges every branch in, nested ones too", () => {
    expect(merged({ minLength: 1, allOf: [{ maxLength: 5 }, { allOf: [string] }] }).node).toEqual({
      minLength: 1,
      maxLength: 5,
      type: ["string"],
    });
    // A branch's own allOf joins the branches still to merge.
    expect(merged({ minLength: 1, allOf: [{ allOf: [{ maxLength: 5 }] }, string] }).node).toEqual({
      minLength: 1,
      type: ["string"],
      maxLength: 5,
    });
  });

  it("a merged node keeps the base URI of its node: a relative $ref in it resolves where it was written", () => {
    const { model, at } = load({
      $id: "https://schemawatch.invalid/root.json",
      $defs: {
        sub: {
          $id: "sub/",
          $defs: { t: { $id: "t.json", type: "string" } },
          minLength: 1,
          allOf: [{ $ref: "t.json", maxLength: 5 }, { maxLength: 9 }],
        },
      },
    });
    expect(model.mergeAll(model.view(at("/$defs/sub"))).node).toEqual({ minLength: 1, maxLength: 9 });
  });

  it("merges at most eight levels: a ninth stays a conjunct of the merged node", () => {
    const nest = (n: number): object => (n === 0 ? { maxLength: 1 } : { allOf: [nest(n - 1)], minLength: n });
    expect(merged(nest(8)).node).toEqual({ minLength: 1, maxLength: 1 });
    expect(merged(nest(9)).node).toEqual({ allOf: [{ maxLength: 1 }], minLength: 1 });
  });
});
