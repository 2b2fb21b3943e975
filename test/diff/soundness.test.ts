import { expect, it } from "vitest";
import { SchemaCompiler } from "../../src/catalog/compiler.js";
import { candidateDocuments, diffSchemas, type DiffResult } from "../../src/diff/index.js";
import { compile as compileCase, compilerFor, loadCorpus } from "./corpus.js";

// Witnesses and counterexamples are checked with the engine itself (the catalog's compiler), as the
// monitor validates. Random schemas are written without $schema, in 2020-12 or in draft-07 style.
let serial = 0;

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

// A seeded generator, so failures reproduce.
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

type Rng = ReturnType<typeof random>;
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const KEYS = ["a", "b", "ab"];
const TYPES = ["null", "boolean", "integer", "number", "string", "array", "object"];

/**
 * "2020": 2020-12 keywords without $schema; "07": the draft-07 forms registries see (read as draft-07);
 * "07-definition": the same without `$ref`, for the definition every `$ref` names (no loop of refs).
 */
type Style = "2020" | "07" | "07-definition";

function schema(rng: Rng, depth: number, style: Style = "2020"): Json {
  if (depth > 2 || rng.next() < 0.15) return rng.pick<Json>([true, false, {}, { type: rng.pick(TYPES) }]);
  const s: { [key: string]: Json } = {};
  const add = (key: string, value: () => Json) => {
    if (rng.next() < 0.3) s[key] = value();
  };
  add("type", () => (rng.next() < 0.5 ? rng.pick(TYPES) : [...new Set([rng.pick(TYPES), rng.pick(TYPES)])]));
  add("enum", () => [rng.pick(VALUES), rng.pick(VALUES)]);
  add("maximum", () => rng.int(4) - 1);
  add("minimum", () => rng.int(4) - 1);
  add("exclusiveMaximum", () => rng.int(4) - 1);
  add("multipleOf", () => rng.pick([0.5, 1, 2]));
  add("maxLength", () => rng.int(3));
  add("minLength", () => rng.int(3));
  add("pattern", () => rng.pick(["^a", "b$", "^[a-z]*$"]));
  add("properties", () =>
    Object.fromEntries(KEYS.filter(() => rng.next() < 0.5).map((k) => [k, schema(rng, depth + 1, style)])),
  );
  add("required", () => KEYS.filter(() => rng.next() < 0.4));
  add("additionalProperties", () => schema(rng, depth + 1, style));
  add("patternProperties", () => ({ "^a": schema(rng, depth + 1, style) }));
  add("propertyNames", () => ({ maxLength: 1 }));
  add("maxProperties", () => rng.int(3));
  if (style !== "2020" && rng.next() < 0.3) {
    s["items"] = [schema(rng, depth + 1, style)];
    add("additionalItems", () => schema(rng, depth + 1, style));
  } else add("items", () => schema(rng, depth + 1, style));
  if (style === "2020") add("prefixItems", () => [schema(rng, depth + 1, style)]);
  add("maxItems", () => rng.int(3));
  add("minItems", () => rng.int(3));
  add("uniqueItems", () => true);
  if (!("prefixItems" in s) && !Array.isArray(s["items"]))
    add("contains", () => schema(rng, depth + 1, style));
  if (rng.next() < 0.15) s["allOf"] = [schema(rng, depth + 1, style), schema(rng, depth + 1, style)];
  if (rng.next() < 0.15) s["anyOf"] = [schema(rng, depth + 1, style), schema(rng, depth + 1, style)];
  if (rng.next() < 0.15) s["oneOf"] = [schema(rng, depth + 1, style), schema(rng, depth + 1, style)];
  if (rng.next() < 0.1) s["not"] = schema(rng, depth + 1, style);
  if (rng.next() < 0.1) {
    s["if"] = schema(rng, depth + 1, style);
    s["then"] = schema(rng, depth + 1, style);
  }
  if (style === "2020" && rng.next() < 0.1) s["dependentRequired"] = { a: ["b"] };
  if (style !== "2020" && rng.next() < 0.15)
    s["dependencies"] = { a: rng.next() < 0.5 ? ["b"] : schema(rng, depth + 1, style) };
  // A $ref with keywords beside it: ajv applies them, and so must diff.
  if (style === "07" && depth > 0 && rng.next() < 0.2) s["$ref"] = "#/definitions/d";
  if (style === "07" && depth === 0) s["definitions"] = { d: schema(rng, 1, "07-definition") };
  return s;
}

const VALUES: readonly Json[] = [null, true, false, 0, 1, 2, -1, 0.5, 1.5, "", "a", "ab", "b", "abc", "Z"];

function value(rng: Rng, depth: number): Json {
  const roll = rng.next();
  if (depth > 2 || roll < 0.6) return rng.pick(VALUES);
  if (roll < 0.8) return Array.from({ length: rng.int(4) }, () => value(rng, depth + 1));
  return Object.fromEntries(KEYS.filter(() => rng.next() < 0.5).map((k) => [k, value(rng, depth + 1)]));
}

/** ajv 8 lets `contains` pass an empty array beside a typed `prefixItems` in the same schema. */
function ajvBug(s: Json): boolean {
  if (typeof s !== "object" || s === null) return false;
  if (!Array.isArray(s) && "contains" in s && "prefixItems" in s) return true;
  return Object.values(s).some(ajvBug);
}

/** A random edit of one keyword somewhere in the schema. */
function mutate(rng: Rng, s: Json, depth = 0, style: Style = "2020"): Json {
  if (typeof s !== "object" || s === null || Array.isArray(s) || depth > 2 || rng.next() < 0.3)
    return schema(rng, depth, style);
  let copy: { [key: string]: Json } = { ...s };
  const keys = Object.keys(copy);
  const key = keys.length > 0 && rng.next() < 0.7 ? rng.pick(keys) : undefined;
  if (key === undefined) return { ...copy, ...(schema(rng, depth, style) as object) };
  const current = copy[key] as Json;
  if (rng.next() < 0.3) copy = Object.fromEntries(Object.entries(copy).filter(([k]) => k !== key));
  else if (
    key === "properties" &&
    typeof current === "object" &&
    current !== null &&
    !Array.isArray(current)
  ) {
    const name = rng.pick(KEYS);
    copy[key] = { ...current, [name]: mutate(rng, current[name] ?? {}, depth + 1, style) };
  } else if (typeof current === "object" && current !== null && !Array.isArray(current))
    copy[key] = mutate(rng, current, depth + 1, style);
  else copy[key] = (schema(rng, depth, style) as { [key: string]: Json })[key] ?? current;
  return copy;
}

for (const [style, dialect, seed] of [
  ["2020", "2020-12", 20260501],
  ["07", "draft-07", 20261111],
] as const) {
  it(`never claims ok when a document proves otherwise, and proves every break (random ${dialect} schemas)`, () => {
    const engine = new SchemaCompiler({ defaultDialect: dialect });
    const compile = (schema: unknown): Check =>
      engine.compileVersion({
        uri: `https://schemawatch.test/random/${++serial}.json`,
        json: schema,
        name: "random",
      });
    const rng = random(seed);
    const documents = Array.from({ length: 300 }, () => value(rng, 0));
    const failures: string[] = [];
    let pairs = 0;
    let searched = 0;
    let witnesses = 0;
    for (let round = 0; round < 200 && failures.length < 5; round++) {
      const before = schema(rng, 0, style);
      const after = mutate(rng, before, 0, style);
      if (ajvBug(before) || ajvBug(after)) continue;
      let validBefore: Check;
      let validAfter: Check;
      try {
        validBefore = compile(before);
        validAfter = compile(after);
      } catch {
        continue;
      }
      const options = { compiler: engine, defaultDialect: dialect };
      const result = diffSchemas(before, after, options);
      const generated = candidateDocuments(before, after, options);
      const all = [...documents, ...generated.fromOld, ...generated.fromNew];
      let problems: string[];
      try {
        problems = audit(result, validBefore, validAfter, all, true);
      } catch {
        // ajv itself trips on some generated combinations (a $ref loop that never consumes input
        // overflows its stack, say); they say nothing about the diff.
        continue;
      }
      pairs++;
      searched += all.length;
      witnesses += result.changes.filter((c) => c.witness).length;
      if (problems.length > 0) failures.push(JSON.stringify({ before, after, problems }));
    }
    console.log(
      `random ${dialect} soundness: ${pairs} schema pairs, ${searched} documents searched, ${witnesses} changes with witnesses`,
    );
    expect(failures).toEqual([]);
    expect(pairs).toBeGreaterThan(150);
  }, 300_000);
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
