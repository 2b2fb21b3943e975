// The time budget of one comparison (src/diff/deadline.ts): the recursive comparison, the witness
// generator and the witness check each ask the deadline at every step. Past it, every direction not
// yet decided is `undecided` with the reason `budget`, breaks already proven keep their witnesses,
// and the result says which directions ran out.
import { describe, expect, it } from "vitest";
import { Deadline, OutOfTime } from "../../../src/diff/deadline.js";
import { diffSchemas } from "../../../src/diff/index.js";
import { engineSide, loadSides } from "../../../src/diff/sides.js";
import type { Change } from "../../../src/diff/vocabulary.js";
import type { ProofContext } from "../../../src/diff/witness/proof-context.js";
import { prove } from "../../../src/diff/witness/prove.js";

const D = "https://json-schema.org/draft/2020-12/schema";

describe("Deadline", () => {
  it("throws OutOfTime, naming its seconds, once its clock reaches the deadline", () => {
    let clock = 1_000;
    const deadline = new Deadline(2, () => clock);
    clock = 2_999;
    expect(() => deadline.check()).not.toThrow();
    clock = 3_000;
    expect(() => deadline.check()).toThrow(new OutOfTime(2));
    expect(new OutOfTime(2).message).toBe("the time budget of 2 s ran out");
  });
});

describe("diffSchemas with a budget", () => {
  const old = { $schema: D, type: "integer", maximum: 10 };
  const next = { $schema: D, type: "integer", maximum: 5 };

  it("that runs out before the comparison ends: both directions undecided (budget), nothing else claimed", () => {
    const result = diffSchemas(old, next, { budget: 0 });
    expect(result).toEqual({
      policy: "strict",
      compatibility: "NONE",
      backward: "undecided",
      forward: "undecided",
      bump: "major",
      changes: [
        {
          kind: "comparison-unfinished",
          path: "",
          backward: "undecided",
          forward: "undecided",
          reason: "undecided: budget (the 0 s time budget ran out before the comparison ended)",
        },
      ],
      budget: { seconds: 0, directions: ["backward", "forward"] },
    });
  });

  it("that does not run out: the same result as without one, and no budget in it", () => {
    expect(diffSchemas(old, next, { budget: 60 })).toEqual(diffSchemas(old, next));
    expect(diffSchemas(old, next, { budget: 60 }).budget).toBeUndefined();
  });
});

describe("prove with a budget that runs out during the witness search", () => {
  const loaded = loadSides(
    { $schema: D, properties: { a: { type: "integer", maximum: 10 }, b: { type: "string" } } },
    { $schema: D, properties: { a: { type: "integer", maximum: 5 }, b: { type: "string", maxLength: 1 } } },
    {},
  );
  const base = {
    model: loaded.model,
    compiler: loaded.compiler,
    old: engineSide(loaded.old, loaded.compiler),
    new: engineSide(loaded.new, loaded.compiler),
  };
  const site = { old: base.old.root, new: base.new.root };
  const lowered: Change = {
    kind: "maximum-decreased",
    path: "/properties/a/maximum",
    backward: "breaks",
    forward: "ok",
    reason: "r",
    site,
  };
  const shortened: Change = {
    kind: "max-length-added",
    path: "/properties/b/maxLength",
    backward: "breaks",
    forward: "undecided",
    reason: "s",
    site,
  };
  /** A deadline that passes after `steps` checks, and counts them. */
  const counted = (steps: number) => {
    const deadline = {
      checks: 0,
      check() {
        if (++deadline.checks > steps) throw new OutOfTime(3);
      },
    };
    return deadline;
  };

  it("keeps the break it proved and leaves the rest undecided (budget), naming the directions", () => {
    // The checks the first change's proof takes alone; the budget ends right after them.
    const alone = counted(Infinity);
    const [proved] = prove([lowered], { ...base, deadline: alone } satisfies ProofContext);
    expect(proved?.witness).toEqual({ backward: { a: 6 } });
    const ranOut = new Set<"backward" | "forward">();
    const deadline = counted(alone.checks);
    expect(prove([lowered, shortened], { ...base, deadline }, ranOut)).toEqual([
      { ...lowered, witness: { backward: { a: 6 } } },
      {
        ...shortened,
        backward: "undecided",
        forward: "undecided",
        reason:
          "s; backward undecided: budget (the 3 s time budget ran out before a witness was found); " +
          "forward undecided: budget (the 3 s time budget ran out before a witness was found)",
      },
    ]);
    expect([...ranOut]).toEqual(["backward", "forward"]);
  });
});
