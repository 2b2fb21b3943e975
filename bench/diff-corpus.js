#!/usr/bin/env node
// `diff` over its real-world corpus (test/fixtures/diff-real/: consecutive versions of public schemas
// from SchemaStore, with their projects' test documents), on dist/ (`npm run build` first): the share
// of directions decided, refusals by reason, the slowest pairs and the time per pair, and every
// verdict the independent validator contradicts. Prints the load average beside the figures: the
// machine may be shared.
//
//   node bench/diff-corpus.js [BUDGET_SECONDS]     # default 10, as the CLI's
import { loadavg } from "node:os";
import { SchemaCompiler } from "../dist/catalog/compiler.js";
import { diffSchemas } from "../dist/diff/index.js";
import { judgePair, loadRealCorpus } from "./diff-corpus-judge.js";

const budget = Number(process.argv[2] ?? 10);
const { pairs, refs } = loadRealCorpus();
const engine = new SchemaCompiler();
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
console.log(`diff real-world corpus: ${pairs.length} pairs, budget ${budget} s, load before ${load()}`);
const verdicts = [];
for (const pair of pairs) verdicts.push(await judgePair(pair, refs, diffSchemas, engine, budget));
const judged = verdicts.filter((v) => !v.refused);
const refused = verdicts.filter((v) => v.refused);
const directions = judged.length * 2;
const decided = judged.reduce((n, v) => n + v.decided, 0);
const times = judged.map((v) => v.seconds).sort((a, b) => a - b);
const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
const sum = times.reduce((a, b) => a + b, 0);
console.log(`load after ${load()}`);
console.log(`pairs judged ${judged.length}, refused ${refused.length}`);
const reasons = new Map();
for (const v of refused) reasons.set(v.refused, (reasons.get(v.refused) ?? 0) + 1);
for (const [reason, n] of reasons) console.log(`  refused ${n}: ${reason}`);
console.log(`directions decided ${decided} of ${directions} (${((100 * decided) / directions).toFixed(1)}%)`);
console.log(
  `  backward undecided ${judged.filter((v) => v.backward === "undecided").length}, forward undecided ${judged.filter((v) => v.forward === "undecided").length}`,
);
console.log(`  out of budget: ${judged.filter((v) => v.budget).length} pairs`);
console.log(
  `time per pair: mean ${(sum / judged.length).toFixed(2)} s, median ${at(0.5).toFixed(2)} s, p90 ${at(0.9).toFixed(2)} s, max ${times.at(-1).toFixed(2)} s, total ${sum.toFixed(0)} s`,
);
console.log("slowest pairs:");
for (const v of [...judged].sort((a, b) => b.seconds - a.seconds).slice(0, 8))
  console.log(
    `  ${v.seconds.toFixed(2)} s  ${v.name}  ${v.backward}/${v.forward}${v.budget ? ` (budget: ${v.budget.join(", ")})` : ""}`,
  );
const missed = judged.filter((v) => v.missed.length > 0);
console.log(
  `undecided directions a real document proves broken: ${missed.reduce((n, v) => n + v.missed.length, 0)}`,
);
for (const v of missed) console.log(`  ${v.name}: ${v.missed.join("; ")}`);
const split = judged.filter((v) => v.disagreements.length > 0);
console.log(
  `documents the engine (ajv) and the independent validator read differently: ${split.reduce((n, v) => n + v.disagreements.length, 0)} in ${split.length} pairs`,
);
for (const v of split) console.log(`  ${v.name}: ${v.disagreements.join(", ")}`);
const wrong = judged.filter((v) => v.unsound.length + v.falseAlarms.length > 0);
console.log(
  `unsound verdicts ${judged.reduce((n, v) => n + v.unsound.length, 0)}, false alarms ${judged.reduce((n, v) => n + v.falseAlarms.length, 0)}`,
);
for (const v of wrong) console.log(`  ${v.name}: ${[...v.unsound, ...v.falseAlarms].join("; ")}`);
