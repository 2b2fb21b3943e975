import avro from "avsc";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { fieldBlocks } from "../../../src/config/fields.js";
import { parseConfig } from "../../../src/config/load.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";
import { confluentRecord, encode, proto } from "../../helpers/protobuf.js";

// The field tallies of an Avro and a Protobuf subject: the format's fields of interest, and presence
// from the record's writer version (Avro) or a tag scan of its body (Protobuf), never from JSON.

const DEPRECATED = { "confluent:tags": ["DEPRECATED"] };
const LINE = {
  type: "record",
  name: "Line",
  fields: [{ name: "sku", type: "string", ...DEPRECATED }],
};
/** v1 (deprecated) tags `coupon` and `/lines/*\/sku`; `note` is only said deprecated in its doc. */
const AV1 = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [
    { name: "id", type: "long" },
    { name: "coupon", type: "string", ...DEPRECATED },
    { name: "note", type: "string", doc: "deprecated: do not use" },
    { name: "lines", type: { type: "array", items: LINE } },
  ],
};
/** v2 (active) has neither. */
const AV2 = { ...AV1, fields: [AV1.fields[0], AV1.fields[2]] };

const PV1 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; string coupon = 2 [deprecated = true]; repeated Line lines = 3; }
message Line { string sku = 1 [deprecated = true]; int32 qty = 2; }`;
const PV2 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; repeated Line lines = 3; }
message Line { int32 qty = 2; }`;

async function setup(ext: string, v1: unknown, v2: unknown, extra = "") {
  const yaml = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: 0.01 }
    versions:
      "1.0": { status: deprecated, confluentId: 11 }
      "2.0": { status: active, confluentId: 12 }
${extra}`;
  const dir = await writeTree({
    [`schemas/pay/1.0.${ext}`]: v1,
    [`schemas/pay/2.0.${ext}`]: v2,
    "config.yaml": yaml,
  });
  const config = parseConfig(yaml, `${dir}/config.yaml`);
  const catalog = await loadCatalog(config);
  const fields = new FieldTallies(catalog, undefined, fieldBlocks(config));
  const pipeline = new Pipeline(catalog, config, { counted: [fields.listener] });
  const send = (producer: string, raw: Uint8Array) =>
    pipeline.process(record(undefined, { producer }, { raw: Buffer.from(raw), topic: "pay" }));
  const rows = () => {
    const view = fields.subject("pay")!;
    return view.rows.map(
      (row) =>
        `${row.labels.producer} ${row.labels.writer_version} ${row.checked} |` +
        view.fields
          .map((f, i) => ` ${f.pointer} ${row.present[i]}/${row.absent[i]}/${row.unknown[i]}`)
          .join(""),
    );
  };
  return { fields, send, rows };
}

const avroRecord = (id: number, schema: unknown, value: unknown): Uint8Array => {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, avro.Type.forSchema(schema as avro.Schema).toBuffer(value)]);
};

describe("field tallies: an Avro subject", () => {
  it("tracks the fields a non-retired version tags deprecated (not a doc's word), present in every record of a writer that has them", async () => {
    const { fields, send, rows } = await setup("avsc", AV1, AV2);
    expect(
      fields.subject("pay")!.fields.map((f) => `${f.pointer} [${f.deprecatedIn}] ${f.optionalIn}`),
    ).toEqual(["/coupon [1.0.0] undefined", "/lines/*/sku [1.0.0] undefined"]);
    const v1 = (lines: unknown[]) => avroRecord(11, AV1, { id: 1, coupon: "", note: "", lines });
    send("web", v1([]));
    send("web", v1([{ sku: "a" }]));
    send("web", avroRecord(12, AV2, { id: 2, note: "" }));
    send("web", avroRecord(12, AV2, { id: 3, note: "" }));
    send("web", avroRecord(12, AV2, { id: 4, note: "" }));
    // A writer id the catalog lacks: its body cannot be read for any field.
    send("app", avroRecord(99, AV2, { id: 5, note: "" }));
    // A body that does not decode with v1: presence is the writer's, the body is never read for it.
    send("app", Uint8Array.from([0, 0, 0, 0, 11, 0xff, 0xff]));
    expect(rows()).toEqual([
      // v1 writes coupon in every record; `lines` may be empty, so sku errs to present.
      "web 1.0.0 2 | /coupon 2/0/0 /lines/*/sku 2/0/0",
      "web 2.0.0 3 | /coupon 0/3/0 /lines/*/sku 0/3/0",
      "app unknown 1 | /coupon 0/0/1 /lines/*/sku 0/0/1",
      "app 1.0.0 1 | /coupon 1/0/0 /lines/*/sku 1/0/0",
    ]);
  });

  it("tracks the field the config's `fields:` deprecates, which no schema tags", async () => {
    const plain = { ...AV1, fields: [AV1.fields[0], { name: "total", type: "long" }, AV1.fields[2]] };
    const { fields, send, rows } = await setup(
      "avsc",
      { ...AV1, fields: [AV1.fields[0], { name: "amount", type: "long" }, AV1.fields[2]] },
      plain,
      "    fields:\n      replaces:\n        /total: /amount\n",
    );
    expect(
      fields.subject("pay")!.fields.map((f) => `${f.pointer} [${f.deprecatedIn}] ${f.optionalIn}`),
    ).toEqual(["/amount [2.0.0] undefined", "/total [] undefined"]);
    send(
      "web",
      avroRecord(
        11,
        { ...AV1, fields: [AV1.fields[0], { name: "amount", type: "long" }, AV1.fields[2]] },
        { id: 1, amount: 3, note: "" },
      ),
    );
    send("web", avroRecord(12, plain, { id: 2, total: 3, note: "" }));
    send("web", avroRecord(12, plain, { id: 3, total: 4, note: "" }));
    expect(rows()).toEqual([
      "web 1.0.0 1 | /amount 1/0/0 /total 0/1/0",
      "web 2.0.0 2 | /amount 0/2/0 /total 2/0/0",
    ]);
  });
});

describe("field tallies: a Protobuf subject", () => {
  const v1 = proto(PV1);
  const v2 = proto(PV2);
  const pb = (id: number, value: Record<string, unknown>) =>
    confluentRecord(id, [0], encode(id === 11 ? v1 : v2, "shop.Pay", value));

  it("tracks `[deprecated = true]` fields by number, present where a tag of the number is on the wire", async () => {
    const { fields, send, rows } = await setup("proto", PV1, PV2);
    expect(
      fields.subject("pay")!.fields.map((f) => `${f.pointer} [${f.deprecatedIn}] ${f.optionalIn}`),
    ).toEqual(["/coupon [1.0.0] undefined", "/lines/*/sku [1.0.0] undefined"]);
    send("web", pb(11, { id: "1", coupon: "x", lines: [{ qty: 1 }, { sku: "a" }] }));
    // proto3 does not write a field at its default: "" is not on the wire.
    send("web", pb(11, { id: "2", coupon: "", lines: [{ qty: 1 }] }));
    send("web", pb(12, { id: "3", lines: [{ qty: 2 }] }));
    // Bytes that end inside a length: what was not found is unknown, not absent.
    send("web", Uint8Array.from([0, 0, 0, 0, 12, 0, 0x08, 0x01, 0x1a, 0x09, 0x10]));
    send("app", pb(99, { id: "4", coupon: "y" }));
    expect(rows()).toEqual([
      "web 1.0.0 2 | /coupon 1/1/0 /lines/*/sku 1/1/0",
      "web 2.0.0 2 | /coupon 0/1/1 /lines/*/sku 0/1/1",
      "app unknown 1 | /coupon 0/0/1 /lines/*/sku 0/0/1",
    ]);
  });
});
