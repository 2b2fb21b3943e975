// How a change's `breaks` is proven or withdrawn (src/diff/witness/prove.ts): documents generated
// under the accepting version that the other rejects, smallest first; a change keeps `breaks` (or gets
// it from `undecided`) only with a witness that its own undoing lets through; without one, `breaks`
// becomes `undecided` and the reason says which search came up empty.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../../src/diff/index.js";
import { engineSide, loadSides } from "../../../../src/diff/sides.js";
import type { Change } from "../../../../src/diff/vocabulary.js";
import type { ProofContext } from "../../../../src/diff/witness/proof-context.js";
import { prove } from "../../../../src/diff/witness/prove.js";

const D = "https://json-schema.org/draft/2020-12/schema";
const changes = (old: object, next: object) =>
  diffSchemas({ $schema: D, ...old }, { $schema: D, ...next }).changes.map(
    (c) => `${c.kind} ${c.backward}/${c.forward} ${JSON.stringify(c.witness)}: ${c.reason}`,
  );

/** "b" added to an object whose rest stays open: breaks backward, at the pair's roots. */
const addedOpen = (pair: {
  old: { root: NonNullable<Change["site"]>["old"] };
  new: { root: NonNullable<Change["site"]>["new"] };
}): Change => ({
  kind: "property-added-open",
  path: "/properties/b",
  backward: "breaks",
  forward: "ok",
  reason: "r",
  site: { old: pair.old.root, new: pair.new.root },
});

describe("a witness proves a break", () => {
  it("keeps `breaks` with the smallest document OLD accepts and NEW rejects, the reason unchanged", () => {
    expect(changes({ type: "integer", maximum: 10 }, { type: "integer", maximum: 5 })).toEqual([
      'maximum-decreased breaks/ok {"backward":6}: upper bound <= 10 -> <= 5: numbers OLD accepted now fail',
    ]);
  });

  it("is a document this change rejects: with the change undone, the rejecting version accepts it", () => {
    // 0 and 1 break too, but the raised minimum rejects them, not the lowered maximum.
    expect(
      changes({ type: "integer", minimum: 0, maximum: 10 }, { type: "integer", minimum: 2, maximum: 5 }),
    ).toEqual([
      'maximum-decreased breaks/ok {"backward":6}: upper bound <= 10 -> <= 5: numbers OLD accepted now fail',
      'minimum-increased breaks/ok {"backward":0}: lower bound >= 0 -> >= 2: numbers OLD accepted now fail',
    ]);
  });

  it("turns `undecided` into `breaks`, in either direction, and says so", () => {
    expect(changes({ type: "string", pattern: "^a" }, { type: "string", pattern: "^a|^b" })).toEqual([
      'pattern-changed undecided/breaks {"forward":"b"}: pattern /^a/ -> /^a|^b/: regular expressions are not compared for inclusion; a witness proves forward breaks',
    ]);
    expect(changes({ type: "string", pattern: "^a" }, { type: "string", pattern: "^b" })).toEqual([
      'pattern-changed breaks/breaks {"backward":"a","forward":"b"}: pattern /^a/ -> /^b/: regular expressions are not compared for inclusion; a witness proves backward breaks; a witness proves forward breaks',
    ]);
  });

  it("is searched for below the root too: the witness is a whole document", () => {
    const old = { properties: { a: { type: "integer", maximum: 3 }, b: { type: "string" } } };
    const next = { properties: { a: { type: "integer", maximum: 2 }, b: { type: "string", maxLength: 1 } } };
    expect(changes(old, next)).toEqual([
      'maximum-decreased breaks/ok {"backward":{"a":3}}: upper bound <= 3 -> <= 2: numbers OLD accepted now fail',
      'max-length-added breaks/ok {"backward":{"b":"aa"}}: maxLength none -> 1: a tighter limit rejects some documents OLD accepted',
    ]);
  });
});

describe("without a witness, `breaks` becomes `undecided`", () => {
  it("when no generated document breaks that direction at all", () => {
    expect(
      changes({ type: "string", pattern: "^.{5,}$" }, { type: "string", pattern: "^.{5,}$", minLength: 3 }),
    ).toEqual([
      "min-length-added undecided/ok undefined: minLength none -> 3: a tighter limit rejects some documents OLD accepted; no witness found (no generated document breaks backward)",
    ]);
  });

  it("when documents break, but none because of this change", () => {
    const old = {
      properties: { a: { type: "integer", maximum: 3 }, b: { type: "string", pattern: "^.{5,}$" } },
    };
    const next = {
      properties: {
        a: { type: "integer", maximum: 2 },
        b: { type: "string", pattern: "^.{5,}$", minLength: 3 },
      },
    };
    expect(changes(old, next)).toEqual([
      'maximum-decreased breaks/ok {"backward":{"a":3}}: upper bound <= 3 -> <= 2: numbers OLD accepted now fail',
      "min-length-added undecided/ok undefined: minLength none -> 3: a tighter limit rejects some documents OLD accepted; no witness found (no generated document that breaks is rejected because of this change)",
    ]);
  });

  it("is not searched for when witnesses are turned off", () => {
    const result = diffSchemas(
      { type: "integer", maximum: 10 },
      { type: "integer", maximum: 5 },
      { witnesses: false },
    );
    expect(result.changes.map((c) => [c.backward, c.forward, c.witness, c.reason])).toEqual([
      ["breaks", "ok", undefined, "upper bound <= 10 -> <= 5: numbers OLD accepted now fail"],
    ]);
  });
});

describe("prove, called with the changes of its own choosing", () => {
  const sides = (old: object, next: object): ProofContext => {
    const loaded = loadSides({ $schema: D, ...old }, { $schema: D, ...next }, {});
    return {
      model: loaded.model,
      compiler: loaded.compiler,
      old: engineSide(loaded.old, loaded.compiler),
      new: engineSide(loaded.new, loaded.compiler),
    };
  };
  const context = sides({ type: "integer", maximum: 10 }, { type: "integer", maximum: 5 });
  const at = { old: context.old.root, new: context.new.root };
  const lowered: Change = {
    kind: "maximum-decreased",
    path: "/maximum",
    backward: "breaks",
    forward: "ok",
    reason: "r",
    site: at,
  };

  it("proves each direction that is not ok, and leaves an ok direction alone", () => {
    expect(prove([lowered], context)).toEqual([{ ...lowered, witness: { backward: 6 } }]);
    const both: Change = { ...lowered, forward: "breaks" };
    expect(prove([both], context)).toEqual([
      {
        ...lowered,
        witness: { backward: 6 },
        forward: "undecided",
        reason: "r; no witness found (no generated document breaks forward)",
      },
    ]);
    const none: Change = { ...lowered, backward: "ok" };
    expect(prove([none], context)).toEqual([none]);
  });

  it("leaves an `undecided` without a witness as it was", () => {
    const open: Change = { ...lowered, backward: "ok", forward: "undecided" };
    expect(prove([open], context)).toEqual([open]);
  });

  it("keeps the witnesses of the other direction when it adds one", () => {
    const given: Change = { ...lowered, witness: { forward: "given" } };
    expect(prove([given], context)).toEqual([{ ...lowered, witness: { forward: "given", backward: 6 } }]);
  });

  it("cannot prove a change it cannot undo in place: no site, or a path outside the site", () => {
    // The document that breaks still proves the direction: it goes to a change of its own.
    expect(prove([{ ...lowered, site: undefined }], context)).toEqual([
      {
        ...lowered,
        site: undefined,
        backward: "undecided",
        reason: "r; no witness found (no generated document that breaks is rejected because of this change)",
      },
      {
        kind: "changes-combined",
        path: "",
        backward: "breaks",
        forward: "ok",
        reason:
          "a document OLD accepts and NEW rejects, though no one change alone is shown to reject it (maximum-decreased at /maximum); a witness proves backward breaks",
        witness: { backward: 6 },
      },
    ]);
  });

  it("takes the smallest breaking document, not the first generated", () => {
    // Pretend NEW rejects -1, 2 and 10 (generated in that order); undone, it accepts all three.
    const pretend = {
      ...context,
      new: { ...context.new, validate: (d: unknown) => ![-1, 2, 10].includes(d as number) },
    };
    expect(prove([lowered], pretend)).toEqual([{ ...lowered, witness: { backward: 2 } }]);
  });

  it("stops at the first variant that finds a witness: the property undone alone, before its rest", () => {
    const open = sides(
      { properties: { c: {} }, additionalProperties: { type: "string" } },
      { properties: { b: { type: "integer" } } },
    );
    // Pretend NEW rejects every document with "c". Undone alone (no "b"), NEW accepts them all; undone
    // with OLD's rest as well, it rejects a "c" that is not a string.
    const withC = (d: unknown) => typeof d === "object" && d !== null && "c" in d;
    const pretend = { ...open, new: { ...open.new, validate: (d: unknown) => !withC(d) } };
    const added = addedOpen(open);
    expect(prove([added], pretend)).toEqual([{ ...added, witness: { backward: { c: 0 } } }]);
  });

  it("tries the property undone with its rest when undone alone finds no witness", () => {
    const closed = sides({}, { properties: { b: { type: "integer" } }, additionalProperties: false });
    // Pretend NEW rejects only documents with "x": undone alone, NEW still closes "x" out; with OLD's
    // (absent) rest put back, it takes "x".
    const withX = (d: unknown) => typeof d === "object" && d !== null && "x" in d;
    const pretend = { ...closed, new: { ...closed.new, validate: (d: unknown) => !withX(d) } };
    const added = addedOpen(closed);
    expect(prove([added], pretend)).toEqual([{ ...added, witness: { backward: { x: 0 } } }]);
  });

  it("counts a validator that throws as rejecting the document", () => {
    const throwing = (): boolean => {
      throw new Error("engine failure");
    };
    const broken = { ...context, old: { ...context.old, validate: throwing } };
    expect(prove([lowered], broken)).toEqual([
      {
        ...lowered,
        backward: "undecided",
        reason: "r; no witness found (no generated document breaks backward)",
      },
    ]);
    const rejecting = { ...context, new: { ...context.new, validate: throwing } };
    // Every OLD document now "breaks", but the undone version (compiled anew) decides the witness.
    expect(prove([lowered], rejecting)).toEqual([{ ...lowered, witness: { backward: 0 } }]);
  });
});
