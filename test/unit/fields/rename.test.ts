import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { renameProgress } from "../../../src/fields/rename-progress.js";
import { formOf, stepOf, stepWords } from "../../../src/fields/rename.js";
import { ABSENT, PRESENT, UNKNOWN } from "../../../src/fields/presence.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { Health } from "../../../src/health/health.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";

// pay 1.1 declares amount and total, and deprecates neither: the config says total replaces amount.
const V11 = { properties: { id: {}, amount: {}, total: {}, note: {} }, required: ["id"] };

async function setup(fields = "      replaces:\n        /total: /amount\n") {
  const dir = await writeTree({ "pay/1.1.json": V11 });
  const config = parseConfig(
    ["subjects:", "  - name: pay", "    topics: [payments]", "    schemas: pay", "    fields:", fields].join(
      "\n",
    ),
    join(dir, "config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const fields_ = new FieldTallies(catalog, undefined, new Map([["pay", config.subjects[0]!.fields!]]));
  const pipeline = new Pipeline(catalog, config, { counted: [fields_.listener] });
  return { fields: fields_, pipeline, catalog };
}

const send = (pipeline: Pipeline, producer: string, value: unknown, raw?: string) =>
  pipeline.process(
    record(
      value,
      { producer, "schema-version": "1.1" },
      { topic: "payments", ...(raw ? { raw: Buffer.from(raw) } : {}) },
    ),
  );

describe("a rename's forms", () => {
  it("reads a record's form from its two presence verdicts, unknown winning", () => {
    expect([
      formOf(PRESENT, ABSENT),
      formOf(PRESENT, PRESENT),
      formOf(ABSENT, PRESENT),
      formOf(ABSENT, ABSENT),
      formOf(UNKNOWN, PRESENT),
      formOf(ABSENT, UNKNOWN),
    ]).toEqual([0, 1, 2, 3, 4, 4]);
  });

  it("puts a producer at the earliest step its records took in the window", () => {
    const at = (old: number, both: number, neu: number, neither: number) => [old, both, neu, neither, 0];
    expect(stepOf(at(100, 200, 300, 0), 50)).toBe("add");
    expect(stepOf(at(40, 200, 300, 0), 50)).toBe("switch");
    expect(stepOf(at(40, 45, 300, 400), 50)).toBe("done");
    expect(stepOf(at(0, 0, 0, 400), 50)).toBe("neither");
    expect(stepOf(at(10, 20, 30, 40), 50)).toBe("quiet");
    // Only unreadable records: they hold the old field's drain, not the producer's step.
    expect(stepOf([0, 0, 0, 0, 400], 50)).toBe("quiet");
  });

  it("says each step in words, with its action", () => {
    expect(
      (["add", "switch", "done", "neither", "quiet"] as const).map((s) =>
        stepWords(s, "/amount", "/total", 604800),
      ),
    ).toEqual([
      "sends /amount without /total: add /total and send both (step 1)",
      "sends both: move consumers to /total, then stop sending /amount (steps 2 and 3)",
      "sends /total only: done; /amount can be removed once drained",
      "sends neither /amount nor /total",
      "sent no record in the last 7d",
    ]);
  });
});

describe("a rename's progress from the field tallies", () => {
  it("counts every record's form per producer and writer version, from the same byte check", async () => {
    const { fields, pipeline } = await setup();
    for (let i = 0; i < 3; i++) send(pipeline, "billing", { id: i, amount: 1 });
    send(pipeline, "billing", { id: 3, amount: 1, total: 1 });
    for (let i = 0; i < 2; i++) send(pipeline, "web", { id: i, amount: 1, total: 1 });
    // An escaped key still carries amount: both, not the new one only.
    send(pipeline, "web", undefined, '{"id":9,"\\u0061mount":1,"total":1}');
    send(pipeline, "app", { id: 1, total: 1 });
    send(pipeline, "app", { id: 2, note: "x" });
    send(pipeline, "app", undefined, "not json");
    const view = fields.subject("pay")!;
    expect(view.fields.map((f) => f.pointer)).toEqual(["/amount", "/total", "/note"]);
    expect(view.pairs).toEqual([{ replaced: 0, replacement: 1 }]);
    expect(
      view.rows.map((r) => `${r.labels.producer} ${r.labels.writer_version} ${r.renames.join(",")}`),
    ).toEqual(["billing 1.1.0 3,1,0,0,0", "web 1.1.0 0,3,0,0,0", "app 1.1.0 0,0,1,1,1"]);
    const last = Math.max(...view.rows.flatMap((r) => r.renameLastAt));
    const [progress] = renameProgress(view, last, 60);
    expect(progress!.field).toBe("/amount");
    expect(progress!.replacement).toBe("/total");
    expect(progress!.window).toBe("1m");
    expect(progress!.producers.map((p) => [p.producer, p.records, p.step, p.words])).toEqual([
      [
        "app",
        { old: 0, both: 0, new: 1, neither: 1, unknown: 1 },
        "done",
        "sends /total only: done; /amount can be removed once drained",
      ],
      [
        "billing",
        { old: 3, both: 1, new: 0, neither: 0, unknown: 0 },
        "add",
        "sends /amount without /total: add /total and send both (step 1)",
      ],
      [
        "web",
        { old: 0, both: 3, new: 0, neither: 0, unknown: 0 },
        "switch",
        "sends both: move consumers to /total, then stop sending /amount (steps 2 and 3)",
      ],
    ]);
    expect(progress!.producers[1]!.writers).toEqual({
      "1.1.0": { old: 3, both: 1, new: 0, neither: 0, unknown: 0 },
    });
    expect(progress!.producers[0]!.lastReplaced).toBeNull();
    // A window later, with no new record, every producer is quiet; the counts stay.
    const later = renameProgress(view, last + 62_000, 60)[0]!;
    expect(later.producers.map((p) => [p.producer, p.step, p.records.old])).toEqual([
      ["app", "quiet", 0],
      ["billing", "quiet", 3],
      ["web", "quiet", 0],
    ]);
  });

  it("publishes a rename's counts per producer and form, zeros included", async () => {
    const { fields, pipeline, catalog } = await setup();
    send(pipeline, "billing", { id: 1, amount: 1 });
    send(pipeline, "web", { id: 1, total: 1 });
    const registry = createRegistry({
      pipeline,
      health: new Health(),
      catalog: () => catalog,
      version: "0",
      fields,
    });
    const text = await registry.metrics();
    expect(text.split("\n").filter((l) => l.startsWith("schemawatch_field_rename_records_total{"))).toEqual([
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="billing",form="old"} 1',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="billing",form="both"} 0',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="billing",form="new"} 0',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="billing",form="neither"} 0',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="billing",form="unknown"} 0',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="web",form="old"} 0',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="web",form="both"} 0',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="web",form="new"} 1',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="web",form="neither"} 0',
      'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",producer="web",form="unknown"} 0',
    ]);
    const summed = await createRegistry({
      pipeline,
      health: new Health(),
      catalog: () => catalog,
      version: "0",
      fields,
      producerDetail: false,
    }).metrics();
    expect(summed.split("\n").filter((l) => l.startsWith("schemawatch_field_rename_records_total{"))).toEqual(
      [
        'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",form="old"} 1',
        'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",form="both"} 0',
        'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",form="new"} 1',
        'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",form="neither"} 0',
        'schemawatch_field_rename_records_total{subject="pay",field="/amount",replacement="/total",form="unknown"} 0',
      ],
    );
  });

  it("keeps each pair's counts apart", async () => {
    const { fields, pipeline } = await setup(
      "      replaces:\n        /total: /amount\n        /gross: /net\n",
    );
    send(pipeline, "billing", { id: 1, amount: 1, gross: 1 });
    send(pipeline, "billing", { id: 2, amount: 1, total: 1, net: 1 });
    const view = fields.subject("pay")!;
    expect(view.fields.map((f) => f.pointer)).toEqual(["/amount", "/total", "/net", "/gross", "/note"]);
    expect(view.pairs).toEqual([
      { replaced: 0, replacement: 1 },
      { replaced: 2, replacement: 3 },
    ]);
    // Pair 0: old, both; pair 1: new, old.
    expect(view.rows[0]!.renames).toEqual([1, 1, 0, 0, 0, 1, 0, 1, 0, 0]);
  });

  it("has no pairs, and no rename series, without a replaces", async () => {
    const { fields, pipeline } = await setup("      add: [/note]\n");
    send(pipeline, "billing", { id: 1, amount: 1 });
    expect(fields.subject("pay")!.pairs).toEqual([]);
    expect(fields.subject("pay")!.rows[0]!.renames).toEqual([]);
    expect([...fields.renameSamples()]).toEqual([]);
  });
});
