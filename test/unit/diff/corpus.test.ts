import { describe, expect, it } from "vitest";
import { CHANGE_KINDS, diffSchemas, type Policy } from "../../../src/diff/index.js";
import { compile, compilerFor, loadCorpus, type Expectation, type LoadedCase } from "./corpus.js";

const KNOWN = new Set<string>(Object.values(CHANGE_KINDS).flat());

function check(entry: LoadedCase, policy: Policy, expected: Expectation): void {
  const options = { policy, defaultDialect: entry.defaultDialect, compiler: compilerFor(entry) };
  const result = diffSchemas(entry.old, entry.new, options);
  const detail = JSON.stringify(result.changes, null, 1);
  expect({ backward: result.backward, forward: result.forward }, detail).toEqual({
    backward: expected.backward,
    forward: expected.forward,
  });
  if (expected.kinds) {
    expect([...new Set(result.changes.map((c) => c.kind))].sort(), detail).toEqual(
      [...new Set(expected.kinds)].sort(),
    );
  }
  if (expected.bump) expect(result.bump, detail).toBe(expected.bump);
  for (const change of result.changes) expect(KNOWN.has(change.kind), change.kind).toBe(true);
  // Forward from OLD to NEW is backward from NEW to OLD: the two runs must agree.
  const mirror = diffSchemas(entry.new, entry.old, options);
  expect({ backward: mirror.backward, forward: mirror.forward }, "mirror").toEqual({
    backward: result.forward,
    forward: result.backward,
  });
}

const corpus = loadCorpus();

describe("diff corpus", () => {
  it("has at least 420 labelled cases", () => {
    expect(corpus.reduce((n, f) => n + f.cases.length, 0)).toBeGreaterThanOrEqual(420);
  });

  for (const { file, cases } of corpus) {
    describe(file, () => {
      for (const entry of cases) {
        it(entry.name, () => {
          for (const direction of ["backward", "forward"] as const) {
            if (entry.expect[direction] === "undecided") {
              expect(
                entry.semantics?.[direction],
                `${direction} is undecided: label its truth in semantics`,
              ).toBeDefined();
            }
          }
          if (entry.policy) check(entry, entry.policy, entry.expect);
          else {
            check(entry, "strict", entry.expect);
            check(entry, "lenient", entry.lenient ?? entry.expect);
          }
          if (!entry.witness && !entry.samples) return;
          const before = compile(entry.old, entry);
          const after = compile(entry.new, entry);
          if (entry.witness && Object.hasOwn(entry.witness, "backward")) {
            const doc = entry.witness.backward;
            expect([before(doc), after(doc)], "backward witness passes OLD, fails NEW").toEqual([
              true,
              false,
            ]);
          }
          if (entry.witness && Object.hasOwn(entry.witness, "forward")) {
            const doc = entry.witness.forward;
            expect([after(doc), before(doc)], "forward witness passes NEW, fails OLD").toEqual([true, false]);
          }
          // Samples check exact semantics, which is what strict verdicts claim; lenient ones assume more.
          const strict = entry.expect;
          for (const doc of entry.policy === "lenient" ? [] : (entry.samples ?? [])) {
            if (strict.backward === "ok" && before(doc)) expect(after(doc), JSON.stringify(doc)).toBe(true);
            if (strict.forward === "ok" && after(doc)) expect(before(doc), JSON.stringify(doc)).toBe(true);
          }
        });
      }
    });
  }
});
