import { expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { diffSchemas, type DiffResult } from "../../../src/diff/index.js";
import { messageOf } from "../../../src/errors.js";
import { documents, edit, random, schema, type Json, type Style } from "./random-json.js";

// A search for unsound verdicts: random schemas over every keyword the diff reasons about, a focused
// edit of each, and documents drawn independently of the product's witness generator (./random-json).
// A verdict `ok` contradicted by a document, a `breaks` whose witness does not prove it, and a pair on
// which anything throws are each a failure; `undecided` verdicts are counted and bounded.

type Check = (document: unknown) => boolean;

interface Tally {
  pairs: number;
  documents: number;
  verdicts: number;
  undecided: number;
  failures: string[];
}

const show = (before: Json, after: Json) => `OLD ${JSON.stringify(before)} NEW ${JSON.stringify(after)}`;

/** What is wrong with one pair's result, checked with the engine on `docs`. */
function audit(result: DiffResult, before: Check, after: Check, docs: readonly Json[]): string[] {
  const problems: string[] = [];
  for (const [direction, accept, reject] of [
    ["backward", before, after],
    ["forward", after, before],
  ] as const) {
    if (result[direction] === "ok") {
      const counter = docs.find((d) => accept(d) && !reject(d));
      if (counter !== undefined)
        problems.push(`${direction} ok, but ${JSON.stringify(counter)} passes one side and fails the other`);
    }
    for (const change of result.changes) {
      if (change[direction] !== "breaks") continue;
      const witness = change.witness?.[direction];
      if (witness === undefined) problems.push(`${change.kind} ${direction} breaks without a witness`);
      else if (!accept(witness) || reject(witness))
        problems.push(`${change.kind} ${direction}: witness ${JSON.stringify(witness)} does not prove it`);
    }
  }
  return problems;
}

/** Runs `rounds` random pairs of one style; each throw is a failure, reported with its pair. */
function search(style: Style, seed: number, rounds: number, assertFormats: boolean): Tally {
  const dialect = style === "2020" ? "2020-12" : "draft-07";
  const engine = new SchemaCompiler({ defaultDialect: dialect, assertFormats });
  let serial = 0;
  const compile = (json: Json): Check =>
    engine.compileVersion({ uri: `https://schemawatch.test/search/${++serial}.json`, json, name: "random" });
  const rng = random(seed);
  const tally: Tally = { pairs: 0, documents: 0, verdicts: 0, undecided: 0, failures: [] };
  for (let round = 0; round < rounds && tally.failures.length < 5; round++) {
    const before = schema(rng, 0, style);
    const after = edit(rng, before, style);
    const docs = documents(rng, before, after, 120);
    tally.pairs++;
    try {
      const result = diffSchemas(before, after, { compiler: engine, defaultDialect: dialect });
      const problems = audit(result, compile(before), compile(after), docs);
      tally.documents += docs.length;
      for (const verdict of [result.backward, result.forward]) {
        tally.verdicts++;
        if (verdict === "undecided") tally.undecided++;
      }
      if (problems.length > 0) tally.failures.push(`${show(before, after)}: ${problems.join("; ")}`);
    } catch (error) {
      tally.failures.push(`${show(before, after)}: threw ${messageOf(error)}`);
    }
  }
  return tally;
}

// Pairs per style. Fewer only to make a mutation run of one diff file affordable (test/mutation/vitest.diff.config.ts).
const ROUNDS = Number(process.env.SOUNDNESS_ROUNDS ?? 600);

for (const [style, seed, assertFormats, bound] of [
  ["2020", 20261202, false, 0.1],
  ["07", 20261203, true, 0.1],
] as const) {
  it(`finds no unsound verdict over random ${style === "2020" ? "2020-12" : "draft-07"} schemas and their edits`, () => {
    const tally = search(style, seed, ROUNDS, assertFormats);
    const share = tally.undecided / Math.max(1, tally.verdicts);
    console.log(
      `soundness search ${style}: ${tally.pairs} pairs, ${tally.documents} documents, ${tally.undecided} of ${tally.verdicts} verdicts undecided (${(share * 100).toFixed(1)}%)`,
    );
    expect(tally.failures).toEqual([]);
    expect(tally.pairs).toBe(ROUNDS);
    // Measured: 4.8% (2020-12) and 6.0% (draft-07) on these seeds, 4.3–7.3% over twelve others. More
    // means the diff decides less than it did.
    expect(share).toBeLessThan(bound);
  }, 120_000);
}
