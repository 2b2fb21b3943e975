import avro from "avsc";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { Lifecycle } from "../../../src/lifecycle/lifecycle.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";
import { confluentRecord, encode, proto } from "../../helpers/protobuf.js";

// A Protobuf field marked `[deprecated = true]` drained through the lifecycle from the field tallies'
// tag scan, and an Avro field tagged DEPRECATED from its writer versions, as a JSON field is: the
// records that carry it, then the window without any.

const V1 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; string coupon = 2 [deprecated = true]; }`;
const V2 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; }`;
const T0 = Date.parse("2026-12-01T08:00:00Z");

async function setup(ext = "proto", files: Record<string, unknown> = { "1.0": V1, "2.0": V2 }) {
  const yaml = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: 0.01 }
    versions:
      "1.0": { status: deprecated, confluentId: 11 }
      "2.0": { status: active, confluentId: 12 }
`;
  const dir = await writeTree({
    [`schemas/pay/1.0.${ext}`]: files["1.0"],
    [`schemas/pay/2.0.${ext}`]: files["2.0"],
    "config.yaml": yaml,
  });
  const config = parseConfig(yaml, `${dir}/config.yaml`);
  const catalog = await loadCatalog(config);
  const tallies = new FieldTallies(catalog);
  const pipeline = new Pipeline(catalog, config, { counted: [tallies.listener] });
  let now = T0;
  const logged: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => logged.push(JSON.parse(line).msg) });
  const subject = { subject: catalog.subjects.get("pay")!, drainWindow: 60, readyWindow: 60, minSamples: 1 };
  const lifecycle = new Lifecycle([subject], logger, () => now);
  lifecycle.knownPartitions.set("pay", new Set([0]));
  lifecycle.coverage.assigned(new Map([["pay", [0]]]), T0, false);
  const v1 = proto(V1);
  const v2 = proto(V2);
  const sendRaw = (seconds: number, raw: Uint8Array) =>
    pipeline.process(
      record(
        undefined,
        { producer: "web" },
        { raw: Buffer.from(raw), topic: "pay", timestamp: T0 + seconds * 1000 },
      ),
    );
  const send = (seconds: number, id: 11 | 12, value: Record<string, unknown>) =>
    sendRaw(seconds, confluentRecord(id, [0], encode(id === 11 ? v1 : v2, "shop.Pay", value)));
  const judge = (seconds: number) => {
    now = T0 + seconds * 1000;
    lifecycle.observeFields(tallies.subjects());
    return lifecycle.judgeFields().get("pay\u0000/coupon")!;
  };
  return { send, sendRaw, judge, logged };
}

describe("a Protobuf deprecated field through the lifecycle", () => {
  it("is in use while records carry its tag, and drained a window after the last one, proto3 defaults not counted", async () => {
    const m = await setup();
    m.send(0, 11, { id: "1", coupon: "x" });
    m.send(5, 11, { id: "2", coupon: "" });
    const inUse = m.judge(10);
    expect([inUse.yes, inUse.reasons]).toEqual([
      false,
      [
        "web still sends /coupon in 50% of its records (1 of 2 in the last 1m; writer 1.0.0), the last one 10s ago",
        "coverage gap on pay/0 until 2026-12-01T08:01Z",
      ],
    ]);
    m.send(30, 11, { id: "3", coupon: "y" });
    m.send(40, 12, { id: "4" });
    m.send(50, 11, { id: "5" });
    // The last carrying record at 30 s, the window 60 s, the clock's tick 1 s.
    const lastInUse = m.judge(91);
    expect([lastInUse.yes, lastInUse.reasons]).toEqual([
      false,
      // 30 s carries it; 40 s (v2, no such field) and 50 s (v1, unset) lack it.
      [
        "web still sends /coupon in 33% of its records (1 of 3 in the last 1m; writer 1.0.0), the last one 1m1s ago",
      ],
    ]);
    const drained = m.judge(92);
    expect([drained.yes, drained.reasons]).toEqual([true, []]);
    expect(m.logged).toEqual(["pay /coupon is drained"]);
  });
});

const AV1 = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [
    { name: "id", type: "long" },
    { name: "coupon", type: "string", "confluent:tags": ["DEPRECATED"] },
  ],
};
const AV2 = { ...AV1, fields: [AV1.fields[0]] };
const avroRecord = (id: number, schema: unknown, value: unknown): Uint8Array => {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, avro.Type.forSchema(schema as avro.Schema).toBuffer(value)]);
};

describe("an Avro deprecated field through the lifecycle", () => {
  it("is in use while a writer version that has it is written, whatever the value, and drained a window after", async () => {
    const m = await setup("avsc", { "1.0": AV1, "2.0": AV2 });
    m.sendRaw(0, avroRecord(11, AV1, { id: 1, coupon: "" }));
    // The monitor observes the tallies as it goes: each record is bucketed when it was counted.
    expect(m.judge(10).yes).toBe(false);
    m.sendRaw(30, avroRecord(11, AV1, { id: 2, coupon: "" }));
    m.sendRaw(40, avroRecord(12, AV2, { id: 3 }));
    const inUse = m.judge(91);
    expect([inUse.yes, inUse.reasons]).toEqual([
      false,
      // An empty string is a value: v1 writes coupon in every record.
      [
        "web still sends /coupon in 50% of its records (1 of 2 in the last 1m; writer 1.0.0), the last one 1m1s ago",
      ],
    ]);
    // A v2 record of an id the catalog lacks: unknown, it may carry the field.
    m.sendRaw(80, avroRecord(99, AV2, { id: 4 }));
    const unknown = m.judge(92);
    expect([unknown.yes, unknown.reasons]).toEqual([
      false,
      ["1 record of web could not be read in the last 1m, the last one 12s ago: they may carry /coupon"],
    ]);
    const drained = m.judge(142);
    expect([drained.yes, drained.reasons]).toEqual([true, []]);
    expect(m.logged).toEqual(["pay /coupon is drained"]);
  });
});
