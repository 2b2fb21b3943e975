// What `schemawatch diff` prints for one comparison (src/diff/render.ts): the JSON form's fields, and
// the text form's blocks, summary and release line. Each case builds a result by hand and checks the
// whole output, so a word or a column that moves shows.
import { describe, expect, it } from "vitest";
import type { Evidence } from "../../../src/diff/release.js";
import { toJson, toText, type Release } from "../../../src/diff/render.js";
import type { Change, DiffResult } from "../../../src/diff/vocabulary.js";

const names = { old: "v1.json", new: "v2.json" };
const tighter: Change = {
  kind: "max-length-added",
  path: "/properties/a/maxLength",
  backward: "breaks",
  forward: "ok",
  reason: "maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
};
const result = (over: Partial<DiffResult> = {}): DiffResult => ({
  policy: "strict",
  compatibility: "FORWARD",
  backward: "breaks",
  forward: "ok",
  bump: "major",
  changes: [tighter],
  ...over,
});
const declared: Release = { declared: "major", source: "1.0.0 -> 2.0.0", ok: true };
const evidence: Evidence = {
  checked: 3,
  validOld: 2,
  validNew: 1,
  backward: ["a.json", "b.json"],
  forward: [],
};

/** The JSON form's head for `result()` with `declared`, and `tighter` as the JSON form writes it. */
const HEAD = {
  old: "v1.json",
  new: "v2.json",
  policy: "strict",
  compatibility: "FORWARD",
  backward: "breaks",
  forward: "ok",
  bump: "major",
  declared: "major",
  ok: true,
};
const TIGHTER = {
  kind: "max-length-added",
  path: "/properties/a/maxLength",
  backward: "breaks",
  forward: "ok",
  reason: "maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
};

describe("toJson", () => {
  it("gives the verdicts, the declared bump, the release check and each change's fields", () => {
    expect(toJson(result(), names, declared)).toEqual({
      ...HEAD,
      changes: [TIGHTER],
    });
  });

  it("writes null for a version that could not be read, and leaves out the site", () => {
    const json = toJson(
      result({ changes: [{ ...tighter, site: { old: {} as never, new: {} as never } }] }),
      names,
      { ok: false },
    );
    expect(json["declared"]).toBeNull();
    expect(json["ok"]).toBe(false);
    expect(Object.keys(json)).toEqual([
      "old",
      "new",
      "policy",
      "compatibility",
      "backward",
      "forward",
      "bump",
      "declared",
      "ok",
      "changes",
    ]);
    expect(json["changes"]).toEqual([TIGHTER]);
  });

  it("adds breaksUnder, the witnesses and the documents only when there are some", () => {
    const change: Change = { ...tighter, breaksUnder: "both", witness: { backward: "abcd" } };
    expect(toJson(result({ changes: [change] }), names, declared, evidence)).toEqual({
      ...HEAD,
      changes: [
        {
          ...TIGHTER,
          breaksUnder: "both",
          witness: { backward: "abcd" },
        },
      ],
      documents: evidence,
    });
  });
});

describe("toText", () => {
  it("one block per change: verdicts in columns, upper case unless ok, the reason and each witness below", () => {
    const change: Change = {
      ...tighter,
      backward: "breaks",
      forward: "undecided",
      breaksUnder: "both",
      witness: { backward: "abcd", forward: { a: [1, null] } },
    };
    const text = toText(
      result({ compatibility: "NONE", forward: "undecided", changes: [change] }),
      names,
      declared,
    );
    expect(text.split("\n")).toEqual([
      "v1.json -> v2.json (policy strict)",
      "  backward  forward   change",
      "  BREAKS    UNDECIDED max-length-added at /properties/a/maxLength",
      "                      maxLength none -> 3: a tighter limit rejects some documents OLD accepted",
      '                      witness (backward): "abcd"',
      '                      witness (forward): {"a":[1,null]}',
      "compatibility NONE: needs a coordinated release or a new major version side by side",
      "backward breaks, forward undecided; needs a major bump",
      "declared major (1.0.0 -> 2.0.0): ok",
      "",
    ]);
  });

  it("names the root, and marks a change only the strict policy objects to", () => {
    const strictOnly: Change = {
      kind: "property-added-open",
      path: "",
      backward: "breaks",
      forward: "ok",
      reason: "open",
      breaksUnder: "strict",
    };
    const okStrict: Change = { ...strictOnly, backward: "ok", path: "/x" };
    const both: Change = { ...strictOnly, forward: "breaks", breaksUnder: "both", path: "/y" };
    const fwd: Change = { ...strictOnly, backward: "ok", forward: "breaks", path: "/z" };
    const lines = toText(result({ changes: [strictOnly, okStrict, both, fwd] }), names, declared).split("\n");
    expect(lines.slice(2, 10)).toEqual([
      "  BREAKS    ok        property-added-open at the root (strict only)",
      "                      open",
      "  ok        ok        property-added-open at /x",
      "                      open",
      "  BREAKS    BREAKS    property-added-open at /y",
      "                      open",
      "  ok        BREAKS    property-added-open at /z (strict only)",
      "                      open",
    ]);
  });

  it("says so when nothing changed, and gives the documents that settle the directions", () => {
    const text = toText(
      result({ compatibility: "FULL", backward: "ok", forward: "ok", bump: "none", changes: [] }),
      names,
      { declared: "none", ok: true },
      evidence,
    );
    expect(text).toBe(
      [
        "v1.json -> v2.json (policy strict)",
        "  no changes",
        "documents: 3 checked; they settle the directions structure left undecided",
        "  pass OLD, fail NEW (backward): a.json, b.json",
        "  pass NEW, fail OLD (forward):  none",
        "compatibility FULL: safe to deploy in any order",
        "backward ok, forward ok; needs a none bump",
        "declared none (?): ok",
        "",
      ].join("\n"),
    );
    const other = toText(result({ changes: [] }), names, declared, {
      ...evidence,
      backward: [],
      forward: ["c.json", "d.json"],
    });
    expect(other.split("\n").slice(3, 5)).toEqual([
      "  pass OLD, fail NEW (backward): none",
      "  pass NEW, fail OLD (forward):  c.json, d.json",
    ]);
  });

  it("an undecided direction 'may' reject documents; a decided one does", () => {
    const summary = (over: Partial<DiffResult>) =>
      toText(result(over), names, declared)
        .split("\n")
        .find((l) => l.startsWith("compatibility "));
    expect(summary({ compatibility: "FORWARD", backward: "breaks", forward: "ok" })).toBe(
      "compatibility FORWARD: upgrade producers first; the new schema rejects some old documents",
    );
    expect(summary({ compatibility: "FORWARD", backward: "undecided", forward: "ok" })).toBe(
      "compatibility FORWARD: upgrade producers first; the new schema may reject some old documents",
    );
    expect(summary({ compatibility: "BACKWARD", backward: "ok", forward: "breaks" })).toBe(
      "compatibility BACKWARD: upgrade consumers first; old consumers reject some new documents",
    );
    expect(summary({ compatibility: "BACKWARD", backward: "ok", forward: "undecided" })).toBe(
      "compatibility BACKWARD: upgrade consumers first; old consumers may reject some new documents",
    );
  });

  it("checks the release against the declared version, or says none was declared", () => {
    const last = (release: Release) => toText(result(), names, release).split("\n").at(-2);
    expect(last({ declared: "minor", source: "--expect", ok: false })).toBe(
      "declared minor (--expect): FAIL: the release number understates the change",
    );
    expect(last({ declared: "downgrade", source: "2.0.0 -> 1.0.0", ok: true })).toBe(
      "declared downgrade (2.0.0 -> 1.0.0): ok",
    );
    expect(last({ ok: true })).toBe(
      "no declared version (give $id or file names a semver, or pass --expect): ok",
    );
    expect(last({ ok: false })).toBe(
      "no declared version (give $id or file names a semver, or pass --expect): FAIL: a change that can break OLD documents",
    );
  });
});

describe("a time budget that ran out", () => {
  const spent = result({
    backward: "undecided",
    compatibility: "FORWARD",
    changes: [{ ...tighter, backward: "undecided", reason: "r; backward undecided: budget (…)" }],
    budget: { seconds: 10, directions: ["backward"] },
  });

  it("is in the JSON as the seconds and the directions that ran out", () => {
    expect(toJson(spent, names, declared)["budget"]).toEqual({ seconds: 10, ranOut: ["backward"] });
    expect(toJson(result(), names, declared)).not.toHaveProperty("budget");
  });

  it("is a line of the text, before the compatibility", () => {
    const lines = toText(spent, names, declared).split("\n");
    const at = lines.indexOf("time budget of 10 s ran out: backward undecided (budget)");
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^compatibility FORWARD/);
    expect(toText(result(), names, declared)).not.toContain("time budget");
    const both = result({ budget: { seconds: 3, directions: ["backward", "forward"] } });
    expect(toText(both, names, declared).split("\n")).toContain(
      "time budget of 3 s ran out: backward and forward undecided (budget)",
    );
  });
});
