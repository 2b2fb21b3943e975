// What a release's numbers declare and what sample documents settle (src/diff/release.ts): the CI
// script's rules. A release may carry only changes its bump allows; a document that passes one version
// and fails the other proves a break; documents that all pass settle a direction structure left open.
import { describe, expect, it } from "vitest";
import { parseVersion } from "../../../src/catalog/version.js";
import { declaredBump, gatherEvidence, settle, suffices } from "../../../src/diff/release.js";
import type { Bump, DiffResult, Verdict } from "../../../src/diff/vocabulary.js";

const bump = (before: string, after: string) =>
  declaredBump(parseVersion(before, "a"), parseVersion(after, "b"));

describe("declaredBump: the bump a release's numbers declare", () => {
  it.each([
    ["1.0.0", "2.0.0", "major"],
    ["1.9.9", "2.0.0", "major"],
    ["2.0.0", "1.0.0", "downgrade"],
    ["2.0.0", "1.9.9", "downgrade"],
    ["1.0.0", "1.1.0", "minor"],
    ["1.0.9", "1.1.0", "minor"],
    ["1.1.0", "1.0.0", "downgrade"],
    ["1.1.0", "1.0.9", "downgrade"],
    ["1.0.0", "1.0.1", "patch"],
    ["1.0.1", "1.0.0", "downgrade"],
    ["1.2.3", "1.2.3", "none"],
  ])("%s -> %s is %s", (before, after, expected) => {
    expect(bump(before, after)).toBe(expected);
  });
});

describe("suffices: a release numbered for a bump carries changes needing that bump or less", () => {
  const bumps: Bump[] = ["none", "patch", "minor", "major"];
  it("allows exactly the bumps at or below the declared one", () => {
    const table = bumps.map((declared) => bumps.filter((needed) => suffices(declared, needed)).join(","));
    expect(table).toEqual(["none", "none,patch", "none,patch,minor", "none,patch,minor,major"]);
  });
});

describe("gatherEvidence: which documents pass one version and fail the other", () => {
  it("counts the documents valid under each side and names the ones that differ, in order", () => {
    const documents = [
      { name: "both.json", json: 1 },
      { name: "old-only.json", json: 2 },
      { name: "new-only.json", json: 3 },
      { name: "neither.json", json: 4 },
      { name: "old-only-2.json", json: 5 },
    ];
    const evidence = gatherEvidence(
      documents,
      (d) => [1, 2, 5].includes(d as number),
      (d) => [1, 3].includes(d as number),
    );
    expect(evidence).toEqual({
      checked: 5,
      validOld: 3,
      validNew: 2,
      backward: ["old-only.json", "old-only-2.json"],
      forward: ["new-only.json"],
    });
  });

  it("has nothing to say without documents", () => {
    expect(
      gatherEvidence(
        [],
        () => true,
        () => true,
      ),
    ).toEqual({
      checked: 0,
      validOld: 0,
      validNew: 0,
      backward: [],
      forward: [],
    });
  });
});

describe("settle: documents fold into a result", () => {
  const result = (backward: Verdict, forward: Verdict, b: Bump): DiffResult => ({
    policy: "strict",
    compatibility: "NONE",
    backward,
    forward,
    bump: b,
    changes: [],
  });
  const evidence = (validOld: number, validNew: number, backward: string[] = [], forward: string[] = []) => ({
    checked: Math.max(validOld, validNew),
    validOld,
    validNew,
    backward,
    forward,
  });
  const settled = (r: DiffResult, e: ReturnType<typeof evidence>) => {
    const s = settle(r, e);
    return `${s.backward}/${s.forward} ${s.compatibility} ${s.bump}`;
  };

  it("a document that passes OLD and fails NEW proves a backward break, whatever structure said", () => {
    expect(settled(result("ok", "ok", "patch"), evidence(1, 0, ["a.json"]))).toBe("breaks/ok FORWARD major");
    expect(settled(result("undecided", "ok", "major"), evidence(1, 1, ["a.json"]))).toBe(
      "breaks/ok FORWARD major",
    );
  });

  it("a document that passes NEW and fails OLD proves a forward break", () => {
    expect(settled(result("ok", "ok", "minor"), evidence(0, 1, [], ["b.json"]))).toBe(
      "ok/breaks BACKWARD minor",
    );
  });

  it("an undecided direction becomes ok only when documents were tried in it and none failed", () => {
    expect(settled(result("undecided", "undecided", "major"), evidence(2, 3))).toBe("ok/ok FULL minor");
    // No document valid under OLD: nothing could have shown a backward break.
    expect(settled(result("undecided", "undecided", "major"), evidence(0, 3))).toBe(
      "undecided/ok FORWARD major",
    );
    expect(settled(result("undecided", "undecided", "major"), evidence(2, 0))).toBe(
      "ok/undecided BACKWARD minor",
    );
  });

  it("documents never overturn a structural break or a structural ok", () => {
    expect(settled(result("breaks", "breaks", "major"), evidence(5, 5))).toBe("breaks/breaks NONE major");
    expect(settled(result("ok", "ok", "patch"), evidence(0, 0))).toBe("ok/ok FULL patch");
  });

  it("the bump is major while backward is not ok, and a settled backward lowers major to minor only", () => {
    expect(settled(result("ok", "undecided", "none"), evidence(0, 0))).toBe("ok/undecided BACKWARD none");
    expect(settled(result("ok", "breaks", "minor"), evidence(0, 0))).toBe("ok/breaks BACKWARD minor");
    expect(settled(result("undecided", "ok", "patch"), evidence(0, 0))).toBe("undecided/ok FORWARD major");
  });

  it("keeps the changes and the policy as they were", () => {
    const r = { ...result("undecided", "ok", "major"), policy: "lenient" as const };
    const s = settle(r, evidence(1, 1));
    expect(s.changes).toBe(r.changes);
    expect(s.policy).toBe("lenient");
  });
});
