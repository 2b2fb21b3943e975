// A catalog's versions are compiled when a record first needs them: the verdicts are those of
// versions compiled at load, each version is compiled once, and the time budget of a validation never
// counts a compilation (a large schema takes far longer to compile than to validate with).
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { compileDeferred, isDeferred } from "../../../src/catalog/deferred.js";
import { loadCatalog } from "../../../src/catalog/load.js";
import type { Catalog } from "../../../src/catalog/types.js";
import { parseConfig } from "../../../src/config/load.js";
import { ValidationBudget } from "../../../src/engine/budget.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { InThreadValidation } from "../../../src/pipeline/workers/in-thread.js";
import { writeTree } from "../../helpers/files.js";
import { decodeCounts, record, validationCounts } from "../../helpers/monitor.js";

/**
 * Two subjects. `big`'s versions have `fields` properties each and a pattern with a backreference
 * (so its records are validated within the budget); `small` is the article's kind of contract.
 */
async function twoSubjects(timeout: string, fields: number) {
  const big = (version: string, required: string[]) => {
    const properties: Record<string, unknown> = { name: { type: "string", pattern: "^(a+)\\1?$" } };
    for (let i = 0; i < fields; i++)
      properties[`f${i}`] = { type: "object", properties: { v: { type: "string", maxLength: 9 } } };
    return {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: `https://example.com/big/${version}.json`,
      type: "object",
      properties,
      required,
    };
  };
  const small = (version: string, kinds: string[]) => ({
    $id: `https://example.com/small/${version}.json`,
    type: "object",
    properties: { kind: { enum: kinds }, ref: { $ref: "#/definitions/id" } },
    definitions: { id: { type: "integer", minimum: 1 } },
  });
  const folder = await writeTree({
    "big/1.0.json": big("1.0", []),
    "big/1.1.json": big("1.1", ["name"]),
    "small/1.0.json": small("1.0", ["a"]),
    "small/1.1.json": small("1.1", ["a", "b"]),
  });
  return parseConfig(
    `validationTimeout: ${timeout}
subjects:
  - name: big
    topics: [big]
    schemas: ${folder}/big
  - name: small
    topics: [small]
    schemas: ${folder}/small
`,
    resolve("test/config.yaml"),
  );
}

function pipelineOf(config: Awaited<ReturnType<typeof twoSubjects>>, catalog: Catalog): Pipeline {
  const budget = new ValidationBudget(config.validationTimeout);
  return new Pipeline(catalog, config, { runner: new InThreadValidation(false, budget, false) });
}

const RECORDS: Array<[string, unknown, Record<string, string>]> = [
  ["big", { name: "aa" }, { "schema-version": "1.0", producer: "web" }],
  ["big", { name: "ab", f1: { v: "0123456789" } }, { "schema-version": "1.1", producer: "web" }],
  ["big", {}, { producer: "batch" }],
  ["small", { kind: "a", ref: 3 }, { "schema-version": "1.0", producer: "web" }],
  ["small", { kind: "b", ref: 0 }, { "schema-version": "1.1", producer: "web" }],
  ["small", { kind: "c" }, { producer: "batch" }],
];

async function judge(pipeline: Pipeline, only?: string): Promise<string[]> {
  for (const [topic, document, headers] of RECORDS)
    if (!only || topic === only) pipeline.process(record(document, headers, { topic }));
  await pipeline.flush();
  return validationCounts(pipeline);
}

describe("versions compiled on first use", () => {
  it("give the verdicts of versions compiled at load, and are compiled once, when first needed", async () => {
    const config = await twoSubjects("1s", 20);
    const lazy = await loadCatalog(config);
    const versions = [...lazy.subjects.values()].flatMap((s) => s.versions);
    expect(versions.map((v) => isDeferred(v.validate))).toEqual([true, true, true, true]);
    const eager = await loadCatalog(config);
    for (const subject of eager.subjects.values()) for (const v of subject.versions) compileDeferred(v);

    const pipeline = pipelineOf(config, lazy);
    const small = lazy.subjects.get("small")!.versions;
    const big = lazy.subjects.get("big")!.versions;
    await judge(pipeline, "small");
    // The first record of `small` compiled its versions; `big` has had none and waits.
    expect(small.map((v) => isDeferred(v.validate))).toEqual([false, false]);
    expect(big.map((v) => isDeferred(v.validate))).toEqual([true, true]);
    const compiled = small.map((v) => v.validate);
    const verdicts = await judge(pipeline);
    expect(big.map((v) => isDeferred(v.validate))).toEqual([false, false]);
    // Compiled once: more records of `small` run the same functions.
    expect(small.map((v) => v.validate)).toEqual(compiled);

    const reference = pipelineOf(config, eager);
    await judge(reference, "small");
    expect(verdicts).toEqual(await judge(reference));
    // Each line twice: once for `big`, once for `small` (the labels name no subject).
    expect(verdicts).toEqual([
      "batch none>1.0.0 undeclared fail=2",
      "batch none>1.0.0 undeclared pass=1",
      "batch none>1.1.0 undeclared fail=1",
      "batch none>1.1.0 undeclared fail=2",
      "web 1.0.0>1.0.0 conformance pass=1",
      "web 1.0.0>1.0.0 conformance pass=2",
      "web 1.0.0>1.1.0 backward pass=1",
      "web 1.0.0>1.1.0 backward pass=2",
      "web 1.1.0>1.0.0 forward fail=1",
      "web 1.1.0>1.0.0 forward fail=2",
      "web 1.1.0>1.1.0 conformance fail=1",
      "web 1.1.0>1.1.0 conformance fail=2",
    ]);
  });

  it("are compiled before the time budget starts: compiling a large version is no timeout", async () => {
    // Compiling 200 properties takes far longer than 50 ms (0.34 s on an idle machine, more under
    // load), so a budget that counted it would run out; validating a small record against them takes
    // well under a millisecond. 50 ms, not 2: CI's two shared cores, with two CPU-bound processes
    // beside the tests, once held a 2 ms validation off its core for longer.
    const config = await twoSubjects("50ms", 200);
    const catalog = await loadCatalog(config);
    expect(catalog.subjects.get("big")!.versions.every((v) => isDeferred(v.validate))).toBe(true);
    const pipeline = pipelineOf(config, catalog);
    pipeline.process(record({ name: "aa" }, { "schema-version": "1.0", producer: "web" }, { topic: "big" }));
    await pipeline.flush();
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(validationCounts(pipeline)).toEqual([
      "web 1.0.0>1.0.0 conformance pass=1",
      "web 1.0.0>1.1.0 backward pass=1",
    ]);
  });
});
