import { expect, it } from "vitest";
import { candidateDocuments, diffSchemas, type DiffResult } from "../../../src/diff/index.js";
import { compile as compileCase, compilerFor, loadCorpus } from "./corpus.js";

// Witnesses and counterexamples are checked with the engine itself (the catalog's compiler), as the
// monitor validates. The random search is soundness-search.test.ts, with documents of its own.

type Check = (document: unknown) => boolean;

/**
 * Every `breaks` carries a witness the engine accepts under one version and rejects under the other;
 * no `ok` is contradicted by any of `documents`. Returns the problems found.
 */
function audit(
  result: DiffResult,
  before: Check,
  after: Check,
  documents: readonly unknown[],
  soundOk: boolean,
): string[] {
  const problems: string[] = [];
  for (const change of result.changes) {
    for (const [direction, accept, reject] of [
      ["backward", before, after],
      ["forward", after, before],
    ] as const) {
      if (change[direction] !== "breaks") continue;
      const witness = change.witness?.[direction];
      if (witness === undefined) problems.push(`${change.kind} ${direction}: breaks without a witness`);
      else if (!accept(witness) || reject(witness)) {
        problems.push(`${change.kind} ${direction}: witness ${JSON.stringify(witness)} does not prove it`);
      }
    }
  }
  if (!soundOk) return problems;
  for (const document of documents) {
    const a = before(document);
    const b = after(document);
    if (result.backward === "ok" && a && !b)
      problems.push(`backward ok, but ${JSON.stringify(document)} passes OLD, fails NEW`);
    if (result.forward === "ok" && b && !a)
      problems.push(`forward ok, but ${JSON.stringify(document)} passes NEW, fails OLD`);
    if (problems.length > 0) break;
  }
  return problems;
}

it("over the whole labelled corpus: every break has an engine-checked witness, no ok is contradicted", () => {
  const failures: string[] = [];
  let pairs = 0;
  let searched = 0;
  let witnessed = 0;
  for (const { file, cases } of loadCorpus()) {
    for (const entry of cases) {
      const before = compileCase(entry.old, entry);
      const after = compileCase(entry.new, entry);
      for (const policy of entry.policy ? [entry.policy] : (["strict", "lenient"] as const)) {
        const options = { policy, defaultDialect: entry.defaultDialect, compiler: compilerFor(entry) };
        const result = diffSchemas(entry.old, entry.new, options);
        const generated = candidateDocuments(entry.old, entry.new, options);
        const given = [...(entry.samples ?? []), ...Object.values(entry.witness ?? {})];
        const documents = [...given, ...generated.fromOld, ...generated.fromNew];
        pairs++;
        searched += documents.length;
        witnessed += result.changes.filter((c) => c.witness).length;
        // Lenient verdicts assume producers send only declared properties: only strict ones are exact.
        const problems = audit(result, before, after, documents, policy === "strict");
        // Each label is checked against the engine as well: a labelled break has its witness, and the
        // truth behind an undecided label holds (ok: no counterexample; breaks: the given witness).
        const label = policy === "lenient" ? (entry.lenient ?? entry.expect) : entry.expect;
        for (const [direction, accept, reject] of [
          ["backward", before, after],
          ["forward", after, before],
        ] as const) {
          if (
            label[direction] === "breaks" &&
            !result.changes.some((c) => c.witness?.[direction] !== undefined)
          ) {
            problems.push(`labelled ${direction} breaks, but no change has a witness`);
          }
          const truth = policy === "strict" ? entry.semantics?.[direction] : undefined;
          const counter = documents.find((d) => accept(d) && !reject(d));
          if (truth === "ok" && counter !== undefined) {
            problems.push(`${direction} is ok by its label, but ${JSON.stringify(counter)} breaks it`);
          }
          const given = entry.witness?.[direction];
          if (truth === "breaks" && (given === undefined || !accept(given) || reject(given))) {
            problems.push(`${direction} breaks by its label, but no given witness proves it`);
          }
        }
        if (problems.length > 0) failures.push(`${file} / ${entry.name} [${policy}]: ${problems.join("; ")}`);
      }
    }
  }
  console.log(
    `corpus soundness: ${pairs} schema pairs (case × policy), ${searched} documents searched, ${witnessed} changes with witnesses`,
  );
  expect(failures).toEqual([]);
  expect(pairs).toBeGreaterThan(600);
}, 300_000);
