// The registry's verdict beside schemawatch's evidence (src/diff/registry-verdict.ts), on results made
// by hand so that each rule shows alone: which directions count, when a disagreement is said (only
// with a proof: a witness for a break, every change proven for a rejection), and the side-by-side text
// `diff --registry` prints. test/integration/cli/diff-registry.test.ts runs the same against a real registry.
import { describe, expect, it } from "vitest";
import {
  judge,
  judgementText,
  type Against,
  type Answer,
  type Rule,
} from "../../../src/diff/registry-verdict.js";
import type { Change, DiffResult, Verdict } from "../../../src/diff/vocabulary.js";

const change = (kind: string, backward: Verdict, forward: Verdict, witness?: Change["witness"]): Change =>
  ({
    kind,
    path: `/${kind}`,
    backward,
    forward,
    breaksUnder: "both",
    reason: `${kind} reason`,
    ...(witness ? { witness } : {}),
  }) as Change;
const result = (backward: Verdict, forward: Verdict, changes: Change[] = []): DiffResult => ({
  policy: "strict",
  compatibility: "NONE",
  backward,
  forward,
  bump: "major",
  changes,
});
const rule = (level: string, directions: ("backward" | "forward")[]): Rule => ({
  level,
  source: "subject",
  directions,
});
const BACKWARD = rule("BACKWARD", ["backward"]);
const FULL = rule("FULL", ["backward", "forward"]);
const NONE = rule("NONE", []);
const accepts: Answer = { compatible: true, messages: [] };
const rejects: Answer = { compatible: false, messages: [] };

describe("judge: schemawatch's evidence in the directions the level checks", () => {
  it("takes the worst verdict over every version and every checked direction, and no other", () => {
    const against: Against[] = [
      { version: 1, result: result("ok", "breaks") },
      { version: 2, result: result("undecided", "ok") },
    ];
    expect(judge(BACKWARD, against, rejects)).toEqual({ evidence: "undecided", ok: false });
    expect(judge(rule("FORWARD", ["forward"]), against, accepts).evidence).toBe("breaks");
    expect(judge(NONE, against, accepts)).toEqual({ evidence: "ok", ok: true });
  });

  it("is ok to register only when the registry accepts and schemawatch proves it compatible", () => {
    const fine = [{ version: 3, result: result("ok", "ok") }];
    expect(judge(FULL, fine, accepts)).toEqual({ evidence: "ok", ok: true });
    const open = [{ version: 3, result: result("ok", "undecided") }];
    expect(judge(FULL, open, accepts)).toEqual({ evidence: "undecided", ok: false });
    expect(judge(FULL, open, rejects)).toEqual({ evidence: "undecided", ok: false });
  });

  it("says the registry accepts a break only with a change that has a witness, the first one found", () => {
    const unproven = change("a", "breaks", "ok");
    const proven = change("b", "breaks", "ok", { backward: { id: 6 } });
    const forwardOnly = change("c", "ok", "breaks", { forward: "x" });
    const against = [
      { version: 1, result: result("breaks", "breaks", [unproven, forwardOnly]) },
      { version: 2, result: result("breaks", "ok", [unproven, proven]) },
    ];
    expect(judge(BACKWARD, against, accepts)).toEqual({
      evidence: "breaks",
      disagreement: "registry-accepts-breaking",
      breaks: { version: 2, direction: "backward", change: proven, witness: { id: 6 } },
      ok: false,
    });
    // FULL looks at backward then forward for each version in turn: version 1's forward comes first.
    expect(judge(FULL, against, accepts).breaks).toEqual({
      version: 1,
      direction: "forward",
      change: forwardOnly,
      witness: "x",
    });
    // A witness of null is a document too.
    const nullWitness = change("d", "breaks", "ok", { backward: null });
    expect(
      judge(BACKWARD, [{ version: 4, result: result("breaks", "ok", [nullWitness]) }], accepts).breaks,
    ).toEqual({ version: 4, direction: "backward", change: nullWitness, witness: null });
  });

  it("says nothing of a break without a witness, or one the registry rejects too", () => {
    const unproven = [{ version: 1, result: result("breaks", "ok", [change("a", "breaks", "ok")]) }];
    expect(judge(BACKWARD, unproven, accepts)).toEqual({ evidence: "breaks", ok: false });
    const proven = [
      { version: 1, result: result("breaks", "ok", [change("b", "breaks", "ok", { backward: 1 })]) },
    ];
    expect(judge(BACKWARD, proven, rejects)).toEqual({ evidence: "breaks", ok: false });
  });

  it("says the registry rejects a safe change with every change of every version as the proof", () => {
    const one = change("description-changed", "ok", "ok");
    const two = change("title-changed", "ok", "ok");
    const against = [
      { version: 1, result: result("ok", "ok", [one]) },
      { version: 2, result: result("ok", "breaks", [one, two]) },
    ];
    expect(judge(BACKWARD, against, rejects)).toEqual({
      evidence: "ok",
      disagreement: "registry-rejects-safe",
      proof: [
        { version: 1, change: one },
        { version: 2, change: one },
        { version: 2, change: two },
      ],
      ok: false,
    });
  });
});

describe("judgementText: both verdicts side by side", () => {
  const head = { subject: "orders-value", registry: "http://registry", file: "v3.json" };
  const text = (r: Rule, against: Against[], answer: Answer) =>
    judgementText(head, r, against, answer, judge(r, against, answer)).split("\n");

  it("prints a break the registry would accept with its change and witness", () => {
    const proven = change("maximum-added", "breaks", "ok", { backward: { id: 6 } });
    const against = [{ version: 2, result: result("breaks", "ok", [proven]) }];
    expect(text(BACKWARD, against, { compatible: true, messages: [] })).toEqual([
      "orders-value on http://registry: compatibility BACKWARD (subject)",
      "  v3.json against version 2: backward BREAKS, forward ok",
      "registry:    compatible: it would register it",
      "schemawatch: BREAKS in what BACKWARD checks (backward)",
      "DISAGREE: the registry would accept a change that breaks backward against version 2:",
      "  maximum-added at /maximum-added: maximum-added reason",
      '  witness (backward): {"id":6}',
      "",
    ]);
  });

  it("names the root when a change has no path", () => {
    const atRoot = { ...change("type-changed", "breaks", "ok", { backward: 1 }), path: "" };
    const against = [{ version: 1, result: result("breaks", "ok", [atRoot]) }];
    expect(text(BACKWARD, against, accepts)[5]).toBe("  type-changed at the root: type-changed reason");
    expect(text(BACKWARD, [{ version: 1, result: result("ok", "ok", [atRoot]) }], rejects)[5]).toBe(
      "  v1 type-changed at the root: type-changed reason",
    );
  });

  it("prints a rejection of a change proven safe, change by change, with the registry's messages", () => {
    const one = change("description-changed", "ok", "ok");
    const against = [
      { version: 1, result: result("ok", "ok", [one]) },
      { version: 2, result: result("ok", "undecided", [one]) },
    ];
    expect(text(BACKWARD, against, { compatible: false, messages: ["first", "second"] })).toEqual([
      "orders-value on http://registry: compatibility BACKWARD (subject)",
      "  v3.json against version 1: backward ok, forward ok",
      "  v3.json against version 2: backward ok, forward UNDECIDED",
      "registry:    INCOMPATIBLE: it would reject it (first; second)",
      "schemawatch: ok in what BACKWARD checks (backward)",
      "DISAGREE: the registry would reject a change proven backward compatible; the proof, change by change:",
      "  v1 description-changed at /description-changed: description-changed reason",
      "  v2 description-changed at /description-changed: description-changed reason",
      "",
    ]);
  });

  it("says the schemas are identical when the registry rejects a version without changes", () => {
    expect(text(FULL, [{ version: 1, result: result("ok", "ok") }], rejects)).toEqual([
      "orders-value on http://registry: compatibility FULL (subject)",
      "  v3.json against version 1: backward ok, forward ok",
      "registry:    INCOMPATIBLE: it would reject it",
      "schemawatch: ok in what FULL checks (backward and forward)",
      "DISAGREE: the registry would reject a change proven backward and forward compatible; the proof, change by change:",
      "  the schemas are identical",
      "",
    ]);
  });

  it("asks for documents where schemawatch cannot decide, and agrees otherwise", () => {
    const open = [{ version: 1, result: result("undecided", "ok") }];
    expect(text(BACKWARD, open, rejects).slice(3)).toEqual([
      "schemawatch: UNDECIDED in what BACKWARD checks (backward)",
      "schemawatch cannot prove it either way: settle it with --docs or `schemawatch check`",
      "",
    ]);
    expect(text(NONE, open, accepts).slice(2)).toEqual([
      "registry:    compatible: it would register it",
      "schemawatch: ok in what NONE checks (nothing)",
      "both agree",
      "",
    ]);
    const broken = [{ version: 1, result: result("breaks", "ok", [change("a", "breaks", "ok")]) }];
    expect(text(BACKWARD, broken, rejects).slice(3)).toEqual([
      "schemawatch: BREAKS in what BACKWARD checks (backward)",
      "both agree",
      "",
    ]);
    // A break without a witness the registry accepts: no proof to disagree with, and no agreement.
    expect(text(BACKWARD, broken, accepts).slice(2)).toEqual([
      "registry:    compatible: it would register it",
      "schemawatch: BREAKS in what BACKWARD checks (backward)",
      "schemawatch finds a break but no document that shows it: settle it with --docs or `schemawatch check`",
      "",
    ]);
  });
});
