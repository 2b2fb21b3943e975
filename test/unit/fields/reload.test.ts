import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import type { FieldsConfig } from "../../../src/config/types.js";
import { keptFields } from "../../../src/fields/reload.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { TrafficHistory } from "../../../src/history/history.js";
import { FieldEvidence } from "../../../src/lifecycle/field-evidence.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";

// A reloaded `fields` block on running tallies: the fields it drops leave with their counts, the
// others keep theirs, new ones count from zero, and what folds the tallies' columns (the lifecycle's
// evidence, the traffic history) follows each field by its pointer, not its column.

const V11 = {
  properties: { id: { type: "integer" }, amount: { type: "number", deprecated: true }, note: {} },
  required: ["id", "note"],
};

const block = (add: string[], exclude: string[] = []): FieldsConfig => ({ add, exclude, replaces: {} });

async function setup() {
  const dir = await writeTree({ "pay/1.1.json": V11 });
  const config = parseConfig(
    [
      "subjects:",
      "  - name: pay",
      "    topics: [payments]",
      "    schemas: pay",
      "    versions:",
      '      "1.1.0": { status: active }',
    ].join("\n"),
    join(dir, "config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const fields = new FieldTallies(catalog, 16, new Map([["pay", block(["/memo", "/tag"])]]));
  const history = new TrafficHistory({ fields: (s) => fields.subject(s) });
  const pipeline = new Pipeline(catalog, config, { counted: [history.listener, fields.listener] });
  const send = (doc: unknown) =>
    pipeline.process(record(doc, { producer: "web", "schema-version": "1.1" }, { topic: "payments" }));
  return { catalog, fields, history, send };
}

const counts = (fields: FieldTallies) => {
  const view = fields.subject("pay")!;
  return view.fields.map((f, i) => `${f.pointer} ${view.rows[0]!.present[i]}/${view.rows[0]!.absent[i]}`);
};

describe("fields on reload", () => {
  it("drops the fields the block no longer adds or now excludes, keeps the schemas' own, adds the new ones at zero", async () => {
    const { catalog, fields, send } = await setup();
    send({ id: 1, amount: 1, note: "a", memo: 1, tag: 1 });
    send({ id: 2, note: "a", memo: 1 });
    expect(counts(fields)).toEqual(["/memo 2/0", "/tag 1/1", "/amount 1/1"]);
    fields.reconfigure(catalog, new Map([["pay", block(["/tag", "/extra"])]]));
    expect(counts(fields)).toEqual(["/tag 1/1", "/amount 1/1", "/extra 0/0"]);
    send({ id: 3, extra: 1, tag: 1 });
    expect(counts(fields)).toEqual(["/tag 2/1", "/amount 1/2", "/extra 1/0"]);
    // Excluding a schema's own field drops it; no fields block at all keeps the schemas' fields.
    fields.reconfigure(catalog, new Map([["pay", block([], ["/amount"])]]));
    expect(counts(fields)).toEqual([]);
    expect(fields.subject("pay")!.rows[0]!.present).toEqual([]);
    fields.reconfigure(catalog, new Map());
    expect(counts(fields)).toEqual(["/amount 0/0"]);
  });

  it("keptFields: a field the schemas alone made one of interest stays when nothing names it", async () => {
    const { catalog, fields } = await setup();
    const pay = catalog.subjects.get("pay")!;
    const tracked = fields.subject("pay")!.fields;
    expect(keptFields(tracked, pay, block(["/memo", "/tag"]), undefined)).toEqual([false, false, true]);
    expect(keptFields(tracked, pay, undefined, block([]))).toEqual([true, true, true]);
    expect(keptFields(tracked, pay, block(["/memo"]), block(["/memo"], ["/tag"]))).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("the lifecycle's evidence follows each field by its pointer: a kept field's counts are not moved onto another, nor counted again", async () => {
    const { catalog, fields, send } = await setup();
    const evidence = new FieldEvidence();
    const window = () => 3_600_000;
    send({ id: 1, note: "a", memo: 1 });
    send({ id: 2, note: "a", memo: 1 });
    send({ id: 3, note: "a", tag: 1 });
    evidence.observe(fields.subjects(), 1_000, window);
    fields.reconfigure(catalog, new Map([["pay", block(["/tag"])]]));
    send({ id: 4, note: "a", tag: 1 });
    evidence.observe(fields.subjects(), 2_000, window);
    const presence = (pointer: string) =>
      evidence.usesOf("pay", pointer).map((u) => u.buckets.map((b) => `${b.present}/${b.absent}`).join(" "));
    expect(presence("/tag")).toEqual(["2/2"]);
    expect(presence("/amount")).toEqual(["0/4"]);
    expect(evidence.trackedSince("pay", "/tag")).toBe(Number.NEGATIVE_INFINITY);
    // Left out, its evidence goes; back again, its column counts from zero, and its evidence begins at
    // the look that saw it back.
    expect(presence("/memo")).toEqual([]);
    fields.reconfigure(catalog, new Map([["pay", block(["/tag", "/memo"])]]));
    send({ id: 5, note: "a", memo: 1 });
    evidence.observe(fields.subjects(), 3_000, window);
    expect(presence("/memo")).toEqual(["1/0"]);
    expect(presence("/tag")).toEqual(["2/3"]);
    expect(evidence.trackedSince("pay", "/memo")).toBe(3_000);
  });

  it("the traffic history follows each field by its pointer across a reload", async () => {
    const { catalog, fields, history, send } = await setup();
    send({ id: 1, note: "a", memo: 1 });
    send({ id: 2, note: "a", memo: 1 });
    send({ id: 3, note: "a", tag: 1 });
    const line = (field: string) => {
      const found = history.view("pay")!.fields.find((f) => f.field === field && f.producer === "web");
      return found && [found.present.reduce((a, b) => a + b), found.records.reduce((a, b) => a + b)];
    };
    expect(line("/tag")).toEqual([1, 3]);
    fields.reconfigure(catalog, new Map([["pay", block(["/tag"])]]));
    send({ id: 4, note: "a", tag: 1 });
    expect(line("/tag")).toEqual([2, 4]);
    expect(line("/memo")).toEqual([2, 3]);
  });
});
