// A record crafted against a pattern that backtracks: validated within the time budget on the
// consumer's thread (workers: 0) with the workers' own code, counted, and moved past as `timeout`.
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { ValidationBudget } from "../../../src/engine/budget.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { InThreadValidation } from "../../../src/pipeline/workers/in-thread.js";
import { writeTree } from "../../helpers/files.js";
import { decodeCounts, record, recordCounts, validationCounts } from "../../helpers/monitor.js";

/** 1.0 deprecated, 1.1 active; 1.1's `name` pattern has a backreference, so it runs natively. */
async function hostilePipeline(pointer: boolean, pattern11 = "^((a+)+)\\1?$") {
  const schema = (version: string, pattern: string) => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `https://example.com/hostile/${version}.json`,
    type: "object",
    properties: { name: { type: "string", pattern }, schema: { type: "string" } },
  });
  const folder = await writeTree({
    "1.0.json": schema("1.0", "^(a+)+$"),
    "1.1.json": schema("1.1", pattern11),
  });
  const writer = pointer ? "    writer:\n      sources: [header, pointer]\n" : "";
  const config = parseConfig(
    `validationTimeout: 50ms
subjects:
  - name: hostile
    topics: [events]
    schemas: ${folder}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
${writer}`,
    resolve("test/config.yaml"),
  );
  const budget = new ValidationBudget(config.validationTimeout);
  const unread: string[] = [];
  const pipeline = new Pipeline(await loadCatalog(config), config, {
    runner: new InThreadValidation(false, budget, false),
    unreadable: [
      (_s, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
    ],
  });
  return { config, pipeline, unread };
}

const EVIL = "a".repeat(40) + "!";

describe("a validation past the time budget on the consumer's thread", () => {
  it("is stopped: the record counts for its writer and as timeout, and the batch goes on", async () => {
    const { config, pipeline, unread } = await hostilePipeline(false);
    expect(config.validationTimeout).toBe(50);
    pipeline.process(record({ name: "aaa" }, { "schema-version": "1.1", producer: "web" }));
    pipeline.process(record({ name: EVIL }, { "schema-version": "1.1", producer: "partner" }));
    pipeline.process(record({ name: EVIL }, { producer: "partner" }));
    pipeline.process(record({ name: "aa" }, { "schema-version": "1.0", producer: "web" }));
    await pipeline.flush();
    expect(pipeline.pendingValidations).toBe(0);
    expect(recordCounts(pipeline)).toEqual([
      "partner 1.1.0=1",
      "partner none=1",
      "web 1.0.0=1",
      "web 1.1.0=1",
    ]);
    expect(decodeCounts(pipeline)).toEqual(["events timeout=2"]);
    // The ordinary records are judged by both readers; the crafted ones by none.
    expect(validationCounts(pipeline)).toEqual([
      "web 1.0.0>1.0.0 conformance pass=1",
      "web 1.0.0>1.1.0 backward pass=1",
      "web 1.1.0>1.0.0 forward pass=1",
      "web 1.1.0>1.1.0 conformance pass=1",
    ]);
    // The undeclared one may need the deprecated 1.0.0: unknown use. The declared one declares 1.1.0.
    expect(unread).toEqual(["events/0 timeout 1"]);
  });

  it("holds for a document parsed on this thread to read its version from the payload", async () => {
    const { pipeline, unread } = await hostilePipeline(true);
    pipeline.process(record({ name: EVIL, schema: "hostile/1.1" }, { producer: "partner" }));
    pipeline.process(record({ name: "a", schema: "hostile/1.1" }, { producer: "web" }));
    await pipeline.flush();
    expect(recordCounts(pipeline)).toEqual(["partner 1.1.0=1", "web 1.1.0=1"]);
    expect(decodeCounts(pipeline)).toEqual(["events timeout=1"]);
    expect(validationCounts(pipeline)).toEqual([
      "web 1.1.0>1.0.0 forward pass=1",
      "web 1.1.0>1.1.0 conformance pass=1",
    ]);
    expect(unread).toEqual([]);
  });

  it("never happens for the nested quantifier the linear engine runs", async () => {
    const { pipeline } = await hostilePipeline(false, "^(a+)+$");
    for (let i = 0; i < 20; i++)
      pipeline.process(record({ name: EVIL }, { "schema-version": "1.0", producer: "partner" }));
    await pipeline.flush();
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(validationCounts(pipeline)).toEqual([
      "partner 1.0.0>1.0.0 conformance fail=20",
      "partner 1.0.0>1.1.0 backward fail=20",
    ]);
  });
});
