// allOf, anyOf and oneOf as a reader of the report sees them (src/diff/combinators.ts). Each case states
// the rule it guards and checks the kind, the path, both verdicts and the reason exactly. Witnesses are
// off: these are the engine's own verdicts, before a witness settles an `undecided` one.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../src/diff/index.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const changes = (old: object, next: object) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }, { witnesses: false }).changes.map(
    (c) => `${c.kind} ${c.path} ${c.backward}/${c.forward}: ${c.reason}`,
  );
const S = { type: "string" };
const I = { type: "integer" };
const N = { type: "null" };
const str = (more: object) => ({ type: "string", ...more });
const SAME = "equivalent-rewrite  ok/ok: the documents differ but accept the same instances";

describe("anyOf or oneOf added: every document of the other side must match a branch", () => {
  it("is ok when one branch holds every document, and names the direction that opened", () => {
    expect(changes(S, { anyOf: [S, I] })).toEqual([
      "type-removed /type ok/breaks: type string -> any type; NEW documents of type integer fail OLD",
      "any-of-added /anyOf ok/ok: NEW requires anyOf; every OLD document matches a branch",
    ]);
    expect(changes(S, { oneOf: [S, I] })).toEqual([
      "type-removed /type ok/breaks: type string -> any type; NEW documents of type integer fail OLD",
      "one-of-added /oneOf ok/ok: NEW requires oneOf; every OLD document matches a branch",
    ]);
  });

  it("a branch that accepts everything covers anyOf, but may overlap another branch of oneOf", () => {
    expect(changes({}, { anyOf: [true, S] })).toEqual([
      "any-of-added /anyOf ok/ok: NEW requires anyOf; every OLD document matches a branch",
    ]);
    expect(changes({}, { oneOf: [true, S] })).toEqual([
      "one-of-added /oneOf undecided/ok: NEW requires oneOf: a document may match more than one branch of oneOf",
    ]);
    expect(changes({ oneOf: [true, S] }, {})).toEqual([
      "one-of-removed /oneOf ok/undecided: NEW drops oneOf: a document may match more than one branch of oneOf",
    ]);
  });

  it("with one branch that could take the documents, that branch's verdict is the verdict", () => {
    const bounded = str({ maxLength: 2 });
    expect(changes(bounded, { anyOf: [str({ maxLength: 3 }), I] })).toEqual([
      "type-removed /type ok/breaks: type string -> any type; NEW documents of type integer fail OLD",
      "max-length-removed /maxLength ok/breaks: maxLength 2 -> none: a looser limit accepts documents OLD rejected",
      "any-of-added /anyOf ok/ok: NEW requires anyOf; every OLD document matches a branch",
    ]);
    expect(changes(S, { anyOf: [str({ maxLength: 3 }), I] })).toEqual([
      "type-removed /type ok/breaks: type string -> any type; NEW documents of type integer fail OLD",
      "any-of-added /anyOf breaks/ok: NEW requires anyOf: the only branch that could accept these documents does not accept them all",
    ]);
    expect(changes({ anyOf: [str({ maxLength: 3 }), I] }, S)).toEqual([
      "type-added /type breaks/ok: type any type -> string; OLD documents of type integer fail NEW",
      "any-of-removed /anyOf ok/breaks: NEW drops anyOf: the only branch that could accept these documents does not accept them all",
    ]);
  });

  it("breaks when no branch can take the documents, naming the types no branch has", () => {
    expect(changes({ enum: ["a"] }, { anyOf: [{ enum: ["b"] }, { enum: ["c"] }] })).toEqual([
      'enum-removed /enum ok/breaks: OLD only allowed "a"; NEW drops the restriction',
      "any-of-added /anyOf breaks/ok: NEW requires anyOf: its documents match no branch",
    ]);
    expect(changes({ enum: ["a", 1] }, { anyOf: [{ enum: ["b"] }, { enum: ["c"] }] })).toEqual([
      'enum-removed /enum ok/breaks: OLD only allowed "a", 1; NEW drops the restriction',
      "any-of-added /anyOf breaks/ok: NEW requires anyOf: documents of type integer match no branch",
    ]);
  });

  it("with several candidate branches: breaks on a type none has, else undecided", () => {
    const two = { anyOf: [str({ maxLength: 3 }), str({ minLength: 1 })] };
    expect(changes({ type: ["string", "null"] }, two)).toEqual([
      "type-removed /type ok/ok: type null, string -> any type",
      "any-of-added /anyOf breaks/ok: NEW requires anyOf: documents of type null match no branch",
    ]);
    expect(changes(S, { anyOf: [str({ maxLength: 3 }), str({ minLength: 5 })] })).toEqual([
      "type-removed /type ok/ok: type string -> any type",
      "any-of-added /anyOf undecided/ok: NEW requires anyOf: no single branch is proven to accept every document of the other version",
    ]);
  });

  it("a side's own branches of the other keyword are what its documents are", () => {
    expect(changes({ anyOf: [S, I] }, { anyOf: [S, I], oneOf: [S, I] })).toEqual([
      "one-of-added /oneOf ok/ok: NEW requires oneOf; every OLD document matches a branch",
    ]);
    expect(changes({ oneOf: [S, I] }, { oneOf: [S, I], anyOf: [S, I] })).toEqual([
      "any-of-added /anyOf ok/ok: NEW requires anyOf; every OLD document matches a branch",
    ]);
    expect(changes({ oneOf: [S, I], anyOf: [S, I] }, { oneOf: [S, I] })).toEqual([
      "any-of-removed /anyOf ok/ok: NEW drops anyOf; every NEW document matches an OLD branch",
    ]);
  });
});

describe("anyOf and oneOf branches compared", () => {
  it("the same branches in another order are no change, even overlapping oneOf branches", () => {
    expect(changes({ anyOf: [S, I] }, { anyOf: [I, S] })).toEqual([SAME]);
    const short = str({ maxLength: 2 });
    expect(changes({ oneOf: [S, short] }, { oneOf: [short, S] })).toEqual([SAME]);
    // Reordered with an annotation edited: the nested change alone, no coverage proof of oneOf.
    expect(changes({ oneOf: [S, short] }, { oneOf: [str({ maxLength: 2, title: "t" }), S] })).toEqual([
      "title-changed /oneOf/0/title ok/ok: title added; annotations do not affect validation",
    ]);
  });

  it("a branch's edit breaks only where no other branch covers its documents", () => {
    expect(changes({ anyOf: [S, str({ maxLength: 3 })] }, { anyOf: [S, str({ maxLength: 2 })] })).toEqual([
      "max-length-decreased /anyOf/1/maxLength ok/ok: maxLength 3 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes({ anyOf: [S, I] }, { anyOf: [str({ maxLength: 3 }), I] })).toEqual([
      "max-length-added /anyOf/0/maxLength breaks/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
    ]);
    expect(changes({ anyOf: [str({ maxLength: 3 }), I] }, { anyOf: [S, I] })).toEqual([
      "max-length-removed /anyOf/0/maxLength ok/breaks: maxLength 3 -> none: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("a branch's own verdict stands where its coverage fails, and an ok stays ok", () => {
    expect(
      changes({ anyOf: [str({ maxLength: 3 }), I] }, { anyOf: [str({ maxLength: 5, minLength: 1 }), I] }),
    ).toEqual([
      "min-length-added /anyOf/0/minLength breaks/ok: minLength none -> 1: a tighter limit rejects some documents OLD accepted",
      "max-length-increased /anyOf/0/maxLength ok/breaks: maxLength 3 -> 5: a looser limit accepts documents OLD rejected",
    ]);
  });

  it("a branch whose coverage is undecided is at worst undecided through its edits", () => {
    expect(
      changes({ anyOf: [S, I] }, { anyOf: [str({ maxLength: 3, title: "t" }), str({ minLength: 5 })] }),
    ).toEqual([
      "title-changed /anyOf/0/title ok/ok: title added; annotations do not affect validation",
      "max-length-added /anyOf/0/maxLength undecided/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
      "type-changed /anyOf/1/type breaks/ok: type integer -> string; OLD documents of type integer fail NEW; NEW documents of type string fail OLD",
      "min-length-added /anyOf/1/minLength ok/ok: minLength none -> 5: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("an added branch breaks forward only; in oneOf it can also take OLD documents from their branch", () => {
    expect(changes({ anyOf: [S, I] }, { anyOf: [S, I, N] })).toEqual([
      "any-of-branch-added /anyOf/2 ok/breaks: NEW adds branch 2",
    ]);
    expect(changes({ oneOf: [S, I] }, { oneOf: [I, S, N] })).toEqual([
      "one-of-branch-added /oneOf/2 ok/breaks: NEW adds branch 2",
    ]);
    const short = str({ maxLength: 1 });
    expect(changes({ anyOf: [S, I] }, { anyOf: [S, I, short] })).toEqual([
      "any-of-branch-added /anyOf/2 ok/ok: NEW adds branch 2",
    ]);
    expect(changes({ oneOf: [S, I] }, { oneOf: [S, I, short] })).toEqual([
      "one-of-branch-added /oneOf/2 undecided/ok: NEW adds branch 2",
    ]);
    // In anyOf the added branch is ok backward even when another branch's edit breaks.
    expect(changes({ anyOf: [S, I] }, { anyOf: [str({ maxLength: 3 }), I, N] })).toEqual([
      "max-length-added /anyOf/0/maxLength breaks/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
      "any-of-branch-added /anyOf/2 ok/breaks: NEW adds branch 2",
    ]);
  });

  it("an anyOf branch added beside an OLD branch it overlaps is still ok backward", () => {
    expect(changes({ anyOf: [S, I] }, { anyOf: [str({ maxLength: 3 }), I, str({ minLength: 5 })] })).toEqual([
      "max-length-added /anyOf/0/maxLength undecided/ok: maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
      "any-of-branch-added /anyOf/2 ok/ok: NEW adds branch 2",
    ]);
  });

  it("a dropped branch breaks backward when no other branch takes its documents", () => {
    expect(changes({ anyOf: [S, I, N] }, { anyOf: [N, S] })).toEqual([
      "any-of-branch-removed /anyOf/1 breaks/ok: NEW drops branch 1",
    ]);
    expect(changes({ oneOf: [S, I, N] }, { oneOf: [S, I] })).toEqual([
      "one-of-branch-removed /oneOf/2 breaks/ok: NEW drops branch 2",
    ]);
  });

  it("a failure of oneOf's exclusivity that no branch's change carries is a change of its own", () => {
    expect(changes({ oneOf: [S, I] }, { oneOf: [S, {}] })).toEqual([
      "type-removed /oneOf/1/type ok/breaks: type integer -> any type; NEW documents of type null, boolean, object, array, string, non-integer number fail OLD",
      "one-of-changed /oneOf undecided/breaks: oneOf branches changed: a document may match more than one branch of oneOf",
    ]);
    expect(changes({ oneOf: [S, str({ maxLength: 1 })] }, { oneOf: [S] })).toEqual([
      "one-of-branch-removed /oneOf/1 ok/ok: NEW drops branch 1",
      "one-of-changed /oneOf ok/undecided: oneOf branches changed: a document may match more than one branch of oneOf",
    ]);
  });
});

describe("allOf, and a $ref beside other keywords, as conjuncts", () => {
  it("an added conjunct breaks backward unless OLD already implies it; a dropped one forward", () => {
    expect(changes({ allOf: [S] }, { allOf: [S, { maxLength: 3 }] })).toEqual([
      "all-of-branch-added /allOf/1 breaks/ok: NEW adds a schema every document must also pass",
    ]);
    const two = { maxLength: 2 };
    expect(changes({ allOf: [S, two] }, { allOf: [S, two, { maxLength: 3 }] })).toEqual([
      "all-of-branch-added /allOf/2 ok/ok: NEW adds a schema every document must also pass",
    ]);
    expect(changes({ allOf: [S, { maxLength: 3 }] }, { allOf: [S] })).toEqual([
      "all-of-branch-removed /allOf/1 ok/breaks: NEW drops a schema every document had to pass",
    ]);
    expect(changes({ allOf: [S, two, { maxLength: 3 }] }, { allOf: [S, two] })).toEqual([
      "all-of-branch-removed /allOf/2 ok/ok: NEW drops a schema every document had to pass",
    ]);
  });

  it("an empty or annotation-only conjunct is still a branch", () => {
    expect(changes({ allOf: [S, {}] }, { allOf: [S] })).toEqual([
      "all-of-branch-removed /allOf/1 ok/ok: NEW drops a schema every document had to pass",
    ]);
    expect(changes({ allOf: [S, { description: "d" }] }, { allOf: [S] })).toEqual([
      "all-of-branch-removed /allOf/1 ok/ok: NEW drops a schema every document had to pass",
    ]);
  });

  it("a nested allOf with nothing else but annotations is flattened into its parent", () => {
    const flat = { allOf: [S, { maxLength: 3 }] };
    expect(changes({ allOf: [{ allOf: [S, { maxLength: 3 }] }] }, flat)).toEqual([SAME]);
    expect(changes({ allOf: [{ description: "x", allOf: [S, { maxLength: 3 }] }] }, flat)).toEqual([SAME]);
  });

  it("nine levels of pure allOf are flattened", () => {
    const nest = (depth: number): object =>
      depth === 0 ? { allOf: [S, { maxLength: 3 }] } : { allOf: [nest(depth - 1)] };
    expect(changes(nest(9), { allOf: [S, { maxLength: 2 }] })).toEqual([
      "max-length-decreased /allOf/1/maxLength breaks/ok: maxLength 3 -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("a nested allOf beside a keyword of its own stays one branch", () => {
    expect(
      changes({ allOf: [{ minLength: 1, allOf: [S, { maxLength: 3 }] }] }, { allOf: [S, { maxLength: 3 }] }),
    ).toEqual([
      "type-added /allOf/0/type ok/ok: type any type -> string",
      "min-length-removed /allOf/0/minLength ok/breaks: minLength 1 -> none: a looser limit accepts documents OLD rejected",
      "all-of-branch-removed /allOf/0/allOf/0 ok/ok: NEW drops a schema every document had to pass",
      "all-of-branch-removed /allOf/0/allOf/1 ok/breaks: NEW drops a schema every document had to pass",
      "all-of-branch-added /allOf/1 ok/ok: NEW adds a schema every document must also pass",
    ]);
  });

  it("an allOf that refers back to itself terminates", () => {
    const cycle = { $defs: { a: { allOf: [{ $ref: "#/$defs/a" }] } } };
    expect(
      changes(
        { ...cycle, allOf: [{ $ref: "#/$defs/a" }, S] },
        { ...cycle, allOf: [{ $ref: "#/$defs/a" }, str({ maxLength: 2 })] },
      ),
    ).toEqual([
      "max-length-added /allOf/1/maxLength breaks/ok: maxLength none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
  });

  it("a $ref beside other keywords added or dropped is a conjunct at /$ref", () => {
    const defs = { $defs: { a: S }, maxLength: 3 };
    expect(changes({ ...defs, $ref: "#/$defs/a" }, defs)).toEqual([
      "all-of-branch-removed /$ref ok/breaks: NEW drops a schema every document had to pass",
    ]);
    expect(changes(defs, { ...defs, $ref: "#/$defs/a" })).toEqual([
      "all-of-branch-added /$ref breaks/ok: NEW adds a schema every document must also pass",
    ]);
    // Moved into allOf: the same conjuncts.
    const moved = { $defs: { a: S } };
    expect(
      changes(
        { ...moved, $ref: "#/$defs/a", allOf: [{ maxLength: 3 }] },
        { ...moved, allOf: [{ maxLength: 3 }, { $ref: "#/$defs/a" }] },
      ),
    ).toEqual([SAME]);
  });

  it("two $refs are compared where they point", () => {
    const defs = { $defs: { a: S, b: str({ maxLength: 2 }) }, minLength: 1 };
    expect(changes({ ...defs, $ref: "#/$defs/a" }, { ...defs, $ref: "#/$defs/b" })).toEqual([
      "max-length-added /$defs/b/maxLength breaks/ok: maxLength none -> 2: a tighter limit rejects some documents OLD accepted",
    ]);
  });
});
