#!/usr/bin/env node
// The linear-time pattern engine (RE2 via re2js) against the native, backtracking RegExp, in one run:
// per pattern the time of one `test`, and a whole validation of a document with five patterned fields.
//
//   node bench/regexp.js            # alone (after npm run build)
//   npm run bench                   # as one section of the benchmark
import { performance } from "node:perf_hooks";
import { Ajv } from "ajv";
import { RE2JS } from "re2js";
import { toLinearSyntax } from "../dist/catalog/linear-regexp.js";
import { LinearRegExp, ajvRegExp, patternMatcher, schemaRegExp } from "../dist/catalog/regexp.js";

/** A pattern on re2js even where schemawatch keeps the native engine (a sequence that cannot backtrack). */
function onRe2(pattern) {
  const native = schemaRegExp(pattern);
  return new LinearRegExp(RE2JS.compile(toLinearSyntax(pattern, native.unicode)), native);
}

/** Patterns as schemas write them, each with a string it accepts and one it rejects. */
const PATTERNS = [
  [
    "uuid",
    "^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
    "8c3e2f10-0a6b-4c7e-9f2d-1b2c3d4e5f60",
    "8c3e2f10-0a6b-4c7e-9f2d-1b2c3d4e5f6",
  ],
  [
    "email",
    "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
    "ann.smith@example.com",
    "ann.smith@example",
  ],
  ["semver", "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-[0-9A-Za-z.-]+)?$", "1.12.3-rc.1", "1.12"],
  ["date", "^\\d{4}-\\d{2}-\\d{2}$", "2026-12-02", "2026-12-2"],
  ["country", "^[A-Z]{2}$", "FR", "fra"],
  ["sku", "^[A-Z]{3}-\\d{4,8}$", "ABC-12345", "AB-12345"],
  ["name", "^\\p{L}[\\p{L} '-]*$", "Zoë O'Brien", "R2-D2"],
  ["topic", "^[a-z][a-z0-9_.-]*$", "orders.created_v2", "Orders"],
];

const ROUNDS = Number(process.env.BENCH_REGEXP_ROUNDS ?? 200_000);

function timeOf(fn) {
  let best = Infinity;
  for (let r = 0; r < 5; r++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** ns per test: native, re2js, and the engine schemawatch picks; geometric means of the ratios to native. */
function perPattern() {
  const rows = [];
  let logRe2 = 0;
  let logChosen = 0;
  for (const [name, pattern, yes, no] of PATTERNS) {
    const native = schemaRegExp(pattern);
    const re2 = onRe2(pattern);
    const chosen = patternMatcher(pattern);
    let sink = 0;
    const run = (re) => () => {
      for (let i = 0; i < ROUNDS; i++) sink += re.test(i & 1 ? yes : no) ? 1 : 0;
    };
    const nativeMs = timeOf(run(native));
    const re2Ms = timeOf(run(re2));
    const chosenMs = timeOf(run(chosen));
    if (sink < 0) console.log(sink);
    logRe2 += Math.log(re2Ms / nativeMs);
    logChosen += Math.log(chosenMs / nativeMs);
    rows.push({
      name,
      engine: chosen instanceof LinearRegExp ? "re2js" : "native (cannot backtrack)",
      native: (nativeMs * 1e6) / ROUNDS,
      re2: (re2Ms * 1e6) / ROUNDS,
      chosen: (chosenMs * 1e6) / ROUNDS,
    });
  }
  return {
    rows,
    re2Mean: Math.exp(logRe2 / PATTERNS.length),
    chosenMean: Math.exp(logChosen / PATTERNS.length),
  };
}

/** One document with the eight patterned fields, validated by ajv with each engine. */
function perValidation() {
  const schema = {
    type: "object",
    properties: Object.fromEntries(PATTERNS.map(([name, pattern]) => [name, { type: "string", pattern }])),
    required: PATTERNS.map(([name]) => name),
  };
  const native = new Ajv({ strict: false }).compile(schema);
  const chosen = new Ajv({ strict: false, code: { regExp: ajvRegExp() } }).compile(schema);
  const re2 = new Ajv({ strict: false, code: { regExp: Object.assign(onRe2, { code: "" }) } }).compile(
    schema,
  );
  const good = Object.fromEntries(PATTERNS.map(([name, , yes]) => [name, yes]));
  let sink = 0;
  const run = (validate) => () => {
    for (let i = 0; i < ROUNDS; i++) sink += validate(good) ? 1 : 0;
  };
  const ns = (validate) => (timeOf(run(validate)) * 1e6) / ROUNDS;
  const result = { native: ns(native), re2: ns(re2), chosen: ns(chosen) };
  if (sink < 0) console.log(sink);
  return result;
}

/** Prints the comparison; returns the validation-level ratio of schemawatch's engines to native. */
export function regexpBench() {
  const { rows, re2Mean, chosenMean } = perPattern();
  console.log(
    `\nPatterns: one test() on the native RegExp, on re2js, and on the engine schemawatch picks, ${ROUNDS.toLocaleString("en-US")} tests each, best of 5`,
  );
  console.log("| pattern | picked | native ns | re2js ns | picked ns |");
  console.log("| --- | --- | ---: | ---: | ---: |");
  for (const r of rows)
    console.log(
      `| ${r.name} | ${r.engine} | ${r.native.toFixed(0)} | ${r.re2.toFixed(0)} | ${r.chosen.toFixed(0)} |`,
    );
  console.log(`geometric mean vs native: re2js ${re2Mean.toFixed(1)}×, picked ${chosenMean.toFixed(1)}×`);
  const v = perValidation();
  console.log(
    `validation of a document with the ${PATTERNS.length} patterned fields: native ${v.native.toFixed(0)} ns, all on re2js ${v.re2.toFixed(0)} ns (${(v.re2 / v.native).toFixed(2)}×), picked ${v.chosen.toFixed(0)} ns (${(v.chosen / v.native).toFixed(2)}×)`,
  );
  return v.chosen / v.native;
}

if (import.meta.url === `file://${process.argv[1]}`) regexpBench();
