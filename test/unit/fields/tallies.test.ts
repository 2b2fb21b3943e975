import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import type { Catalog } from "../../../src/catalog/types.js";
import { parseConfig } from "../../../src/config/load.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { Health } from "../../../src/health/health.js";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { ValidationBudget } from "../../../src/engine/budget.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { InThreadValidation } from "../../../src/pipeline/workers/in-thread.js";
import { writeTree } from "../../helpers/files.js";
import { record, wire } from "../../helpers/monitor.js";

/** pay 1.0 (deprecated) and 1.1 (active): `amount` deprecated in both, `total` and `/items/*\/sku` optional in 1.1. */
const V10 = {
  properties: { id: { type: "integer" }, amount: { type: "number", deprecated: true } },
  required: ["id"],
};
const V11 = {
  properties: {
    id: { type: "integer" },
    amount: { type: "number", deprecated: true },
    total: { type: "number" },
    items: { type: "array", items: { properties: { sku: { type: "string" } } } },
  },
  required: ["id", "items"],
};

async function setup(files: Record<string, unknown> = {}, max?: number) {
  const dir = await writeTree({ "pay/1.0.json": V10, "pay/1.1.json": V11, ...files });
  const config = parseConfig(
    [
      "maxRecordBytes: 200",
      "subjects:",
      "  - name: pay",
      "    topics: [payments, refunds]",
      "    schemas: pay",
      "    sampling: { ratio: 0.01 }",
      "    versions:",
      '      "1.0.0": { status: deprecated, confluentId: 7 }',
      '      "1.1.0": { status: active }',
    ].join("\n"),
    join(dir, "config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const fields = new FieldTallies(catalog, max);
  const pipeline = new Pipeline(catalog, config, { counted: [fields.listener] });
  return { dir, config, catalog, fields, pipeline };
}

/** Each row as `producer writer checked | field present/absent/unknown ...`. */
function rows(fields: FieldTallies): string[] {
  const view = fields.subject("pay")!;
  return view.rows.map(
    (row) =>
      `${row.labels.producer} ${row.labels.writer_version} ${row.checked} |` +
      view.fields
        .map((f, i) => ` ${f.pointer} ${row.present[i]}/${row.absent[i]}/${row.unknown[i]}`)
        .join(""),
  );
}

const web = (version: string) => ({ producer: "web", "schema-version": version });

describe("field tallies", () => {
  it("knows each subject's fields before traffic, deprecated first", async () => {
    const { fields } = await setup();
    const view = fields.subject("pay")!;
    expect(view.fields.map((f) => `${f.pointer} [${f.deprecatedIn.join(",")}] ${f.optionalIn}`)).toEqual([
      "/amount [1.0.0,1.1.0] 1.1.0",
      "/total [] 1.1.0",
      "/items/*/sku [] 1.1.0",
    ]);
    expect(view.rows).toEqual([]);
    expect(view.overflow).toBe(0);
  });

  it("counts every record per producer and writer version, summed over topics, whatever the sampler says", async () => {
    const { pipeline, fields } = await setup();
    pipeline.process(record({ id: 1, amount: 5 }, web("1.0"), { topic: "payments" }));
    pipeline.process(record({ id: 2, amount: 5 }, web("1.0"), { topic: "refunds" }));
    pipeline.process(
      record(undefined, web("1.1"), {
        raw: Buffer.from('{"id":3,"\\u0061mount":1,"items":[]}'),
        topic: "payments",
      }),
    );
    pipeline.process(
      record(
        { id: 4, total: 1, items: [{ sku: "a" }] },
        { producer: "mobile", "schema-version": "1.1" },
        { topic: "payments" },
      ),
    );
    pipeline.process(
      record({ id: 5, items: [] }, { producer: "mobile", "schema-version": "1.1" }, { topic: "payments" }),
    );
    // None of them was sampled for validation: the check reads every record.
    expect(pipeline.tallies.validations.reduce((sum, cell) => sum + cell.value, 0)).toBe(0);
    expect(rows(fields)).toEqual([
      "web 1.0.0 2 | /amount 2/0/0 /total 0/2/0 /items/*/sku 0/2/0",
      "web 1.1.0 1 | /amount 1/0/0 /total 0/1/0 /items/*/sku 0/1/0",
      "mobile 1.1.0 2 | /amount 0/2/0 /total 1/1/0 /items/*/sku 1/1/0",
    ]);
  });

  it("counts each record once when a runner validates the sample at the flush", async () => {
    const { catalog, config, fields } = await setup();
    const runner = new InThreadValidation(false, new ValidationBudget(config.validationTimeout), false);
    const pipeline = new Pipeline(catalog, config, { counted: [fields.listener], runner });
    for (let i = 0; i < 150; i++)
      pipeline.process(
        record({ id: i, ...(i % 3 === 0 ? { amount: 1 } : {}) }, web("1.1"), { topic: "payments" }),
      );
    await pipeline.flush();
    expect(pipeline.tallies.validations.reduce((sum, cell) => sum + cell.value, 0)).toBe(2);
    expect(rows(fields)).toEqual(["web 1.1.0 150 | /amount 50/100/0 /total 0/150/0 /items/*/sku 0/150/0"]);
  });

  it("counts unreadable payloads as unknown, reads the payload of a record whose version is unknown, and skips tombstones", async () => {
    const { pipeline, fields } = await setup();
    // A tombstone carries no document: no field is in it, and it is no unknown use of one either.
    pipeline.process(record(undefined, web("1.1"), { raw: Buffer.alloc(0), topic: "payments" }));
    pipeline.process(record({ id: 1, pad: "x".repeat(300) }, web("1.1"), { topic: "payments" }));
    pipeline.process(record(undefined, web("1.1"), { raw: Buffer.from("not json"), topic: "payments" }));
    // A wire id the catalog does not know: the version is unknown, the payload is still read.
    pipeline.process(
      record(undefined, { producer: "web" }, { raw: wire(99, { id: 1, amount: 2 }), topic: "payments" }),
    );
    pipeline.process(
      record(undefined, { producer: "web" }, { raw: wire(7, { id: 1, total: 2 }), topic: "payments" }),
    );
    pipeline.undecodableBatch("refunds", 0, 3);
    expect(rows(fields)).toEqual([
      "web 1.1.0 2 | /amount 0/0/2 /total 0/0/2 /items/*/sku 0/0/2",
      "web unknown 1 | /amount 1/0/0 /total 0/1/0 /items/*/sku 0/1/0",
      "web 1.0.0 1 | /amount 0/1/0 /total 1/0/0 /items/*/sku 0/1/0",
      "unknown unknown 3 | /amount 0/0/3 /total 0/0/3 /items/*/sku 0/0/3",
    ]);
  });

  it("publishes the counts, the fields and the untracked count as metrics, every presence from 0", async () => {
    const { pipeline, fields, catalog } = await setup({}, 2);
    pipeline.process(record({ id: 1, amount: 5 }, web("1.0"), { topic: "payments" }));
    const text = await metricsOf(pipeline, catalog, fields);
    expect(text.filter((l) => l.startsWith("schemawatch_field"))).toEqual([
      // The series budget's foldable metrics (records, ready, untracked) come after the others.
      'schemawatch_field_info{subject="pay",field="/amount",kind="deprecated"} 1',
      'schemawatch_field_info{subject="pay",field="/total",kind="optional"} 1',
      // No lifecycle here: no verdict, so each field's gauge is 0.
      'schemawatch_field_drained{subject="pay",field="/amount"} 0',
      'schemawatch_field_records_total{subject="pay",field="/amount",producer="web",writer_version="1.0.0",presence="absent"} 0',
      'schemawatch_field_records_total{subject="pay",field="/amount",producer="web",writer_version="1.0.0",presence="present"} 1',
      'schemawatch_field_records_total{subject="pay",field="/amount",producer="web",writer_version="1.0.0",presence="unknown"} 0',
      'schemawatch_field_records_total{subject="pay",field="/total",producer="web",writer_version="1.0.0",presence="absent"} 1',
      'schemawatch_field_records_total{subject="pay",field="/total",producer="web",writer_version="1.0.0",presence="present"} 0',
      'schemawatch_field_records_total{subject="pay",field="/total",producer="web",writer_version="1.0.0",presence="unknown"} 0',
      'schemawatch_field_ready{subject="pay",field="/total"} 0',
      'schemawatch_fields_untracked{subject="pay"} 1',
    ]);
  });

  it("sums the counts over producers when the producer detail is off", async () => {
    const { pipeline, fields, catalog } = await setup({}, 1);
    pipeline.process(record({ id: 1, amount: 5 }, web("1.0"), { topic: "payments" }));
    pipeline.process(
      record({ id: 2 }, { producer: "mobile", "schema-version": "1.0" }, { topic: "refunds" }),
    );
    pipeline.process(
      record(
        undefined,
        { producer: "batch", "schema-version": "1.1" },
        { raw: Buffer.from("x"), topic: "payments" },
      ),
    );
    const text = await metricsOf(pipeline, catalog, fields, false);
    expect(text.filter((l) => l.startsWith("schemawatch_field_records"))).toEqual([
      'schemawatch_field_records_total{subject="pay",field="/amount",writer_version="1.0.0",presence="absent"} 1',
      'schemawatch_field_records_total{subject="pay",field="/amount",writer_version="1.0.0",presence="present"} 1',
      'schemawatch_field_records_total{subject="pay",field="/amount",writer_version="1.0.0",presence="unknown"} 0',
      'schemawatch_field_records_total{subject="pay",field="/amount",writer_version="1.1.0",presence="absent"} 0',
      'schemawatch_field_records_total{subject="pay",field="/amount",writer_version="1.1.0",presence="present"} 0',
      'schemawatch_field_records_total{subject="pay",field="/amount",writer_version="1.1.0",presence="unknown"} 1',
    ]);
  });

  it("follows a reloaded catalog: tracked fields keep their counts, new ones join at 0", async () => {
    const { pipeline, fields, dir } = await setup();
    pipeline.process(record({ id: 1, amount: 5 }, web("1.1"), { topic: "payments" }));
    const v12 = structuredClone(V11) as { properties: Record<string, unknown> };
    v12.properties.total = { type: "number", deprecated: true };
    v12.properties.currency = { type: "string" };
    await writeFile(join(dir, "pay/1.2.json"), JSON.stringify(v12));
    const reloaded = await loadCatalog(
      parseConfig(
        [
          "maxRecordBytes: 200",
          "subjects:",
          "  - name: pay",
          "    topics: [payments, refunds]",
          "    schemas: pay",
          "    sampling: { ratio: 0.01 }",
          "    versions:",
          '      "1.0.0": { status: deprecated, confluentId: 7 }',
          '      "1.1.0": { status: deprecated }',
          '      "1.2.0": { status: active }',
        ].join("\n"),
        join(dir, "config.yaml"),
      ),
    );
    pipeline.replaceCatalog(reloaded);
    pipeline.process(record({ id: 1, currency: "EUR", total: 1 }, web("1.2"), { topic: "payments" }));
    expect(
      fields.subject("pay")!.fields.map((f) => `${f.pointer} [${f.deprecatedIn.join(",")}] ${f.optionalIn}`),
    ).toEqual([
      "/amount [1.0.0,1.1.0,1.2.0] 1.2.0",
      "/total [1.2.0] 1.2.0",
      "/items/*/sku [] 1.2.0",
      "/currency [] 1.2.0",
    ]);
    expect(rows(fields)).toEqual([
      "web 1.1.0 1 | /amount 1/0/0 /total 0/1/0 /items/*/sku 0/1/0 /currency 0/0/0",
      "web 1.2.0 1 | /amount 0/1/0 /total 1/0/0 /items/*/sku 0/1/0 /currency 1/0/0",
    ]);
  });

  it("dates, per field, the last record that carried it, lacked it, or could not be read for it", async () => {
    const { pipeline, fields } = await setup();
    const T = Date.parse("2026-12-01T08:00:00Z");
    pipeline.process(
      record({ id: 1, amount: 5, items: [] }, web("1.1"), { topic: "payments", timestamp: T + 500 }),
    );
    pipeline.process(
      record({ id: 2, total: 5, items: [] }, web("1.1"), { topic: "refunds", timestamp: T + 1000 }),
    );
    pipeline.process(record("x".repeat(300), web("1.1"), { topic: "payments", timestamp: T + 2000 }));
    const view = fields.subject("pay")!;
    const row = view.rows[0]!;
    const at = (list: readonly number[]) =>
      Object.fromEntries(view.fields.map((f, i) => [f.pointer, list[i]! === 0 ? 0 : list[i]! - T]));
    // Without a clock the pipeline dates a record by its timestamp; summed over both topics.
    expect(at(row.lastPresentAt)).toEqual({ "/amount": 500, "/total": 1000, "/items/*/sku": 0 });
    expect(at(row.lastAbsentAt)).toEqual({ "/amount": 1000, "/total": 500, "/items/*/sku": 1000 });
    expect(at(row.lastUnknownAt)).toEqual({ "/amount": 2000, "/total": 2000, "/items/*/sku": 2000 });
  });
});

async function metricsOf(
  pipeline: Pipeline,
  catalog: Catalog,
  fields: FieldTallies,
  producerDetail = true,
): Promise<string[]> {
  const health = new Health();
  const registry = createRegistry({
    pipeline,
    health,
    catalog: () => catalog,
    version: "0",
    fields,
    producerDetail,
  });
  return (await registry.metrics()).split("\n");
}
