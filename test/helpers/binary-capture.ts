import avro from "avsc";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLogger } from "../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../src/monitor/start.js";
import { writeTree } from "./files.js";
import { confluentRecord, encode, proto } from "./protobuf.js";

/** Avro subject `pay`: 1.0 has id only; 2.0 adds /note with a default, so each reads the other lossily. */
export const PAY_V1 = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [{ name: "id", type: "long" }],
};
export const PAY_V2 = {
  ...PAY_V1,
  fields: [...PAY_V1.fields, { name: "note", type: "string", default: "" }],
};

/** A record as Confluent's Avro serializer writes it: magic 0, the schema id, the binary body. */
export function confluentAvro(id: number, schema: unknown, value: unknown): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, avro.Type.forSchema(schema as avro.Schema).toBuffer(value)]);
}

/** Protobuf subject `pay`: 2.0 drops note (2), adds currency (4) and reads delta as an int32, not a sint32. */
export const PAY_PROTO_V1 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; string note = 2; sint32 delta = 3; }
`;
export const PAY_PROTO_V2 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; int32 delta = 3; string currency = 4; }
`;

export interface PayCapture {
  readonly dir: string;
  readonly config: string;
  readonly capture: string;
}

/**
 * A folder with a `pay` catalog of two schema files of one format (`1.0.EXT` and `2.0.EXT`, both
 * active, Confluent ids 11 and 12), `config.yaml`, and the capture `pay.ndjson` of `bodies` (producer,
 * value) on partition 0, a second apart from 2026-12-01T08:00:00Z.
 */
async function payCapture(
  ext: string,
  schemas: { readonly v1: unknown; readonly v2: unknown },
  bodies: ReadonlyArray<readonly [string, Buffer]>,
): Promise<PayCapture> {
  const config = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: 1 }
    versions:
      "1.0": { status: active, confluentId: 11 }
      "2.0": { status: active, confluentId: 12 }
`;
  const lines = bodies.map(([producer, raw], offset) =>
    JSON.stringify({
      topic: "pay",
      partition: 0,
      offset,
      timestamp: 1796112000000 + offset * 1000,
      key: null,
      headers: { producer },
      value: { base64: raw.toString("base64") },
    }),
  );
  const dir = await writeTree({
    [`schemas/pay/1.0.${ext}`]: schemas.v1,
    [`schemas/pay/2.0.${ext}`]: schemas.v2,
    "config.yaml": config,
  });
  await writeFile(join(dir, "pay.ndjson"), `${lines.join("\n")}\n`);
  return { dir, config: join(dir, "config.yaml"), capture: join(dir, "pay.ndjson") };
}

/**
 * The Avro `pay` capture (PAY_V1, PAY_V2): web sends one 1.0 record, app three 2.0 records and one
 * 2.0 body cut two bytes short (avro_decode).
 */
export function avroPayCapture(): Promise<PayCapture> {
  const cut = confluentAvro(12, PAY_V2, { id: 9, note: "cut" });
  return payCapture("avsc", { v1: PAY_V1, v2: PAY_V2 }, [
    ["web", confluentAvro(11, PAY_V1, { id: 1 })],
    ...[2, 3, 4].map((id): [string, Buffer] => ["app", confluentAvro(12, PAY_V2, { id, note: "n" })]),
    ["app", cut.subarray(0, cut.length - 2)],
  ]);
}

/**
 * The Protobuf `pay` capture (PAY_PROTO_V1, PAY_PROTO_V2): web sends two 1.0 records with a note (2.0
 * reads them without it: lossy) and one with delta -1 (a zigzag 2.0 misreads: fails), app three 2.0
 * records with a currency (1.0 reads them without it: lossy) and one 2.0 body cut two bytes short
 * (protobuf_decode).
 */
export function protobufPayCapture(): Promise<PayCapture> {
  const schemas = { 11: proto(PAY_PROTO_V1), 12: proto(PAY_PROTO_V2) };
  const record = (id: 11 | 12, value: Record<string, unknown>) =>
    Buffer.from(confluentRecord(id, [0], encode(schemas[id], "shop.Pay", value)));
  const cut = record(12, { id: "9", currency: "EUR" });
  return payCapture("proto", { v1: PAY_PROTO_V1, v2: PAY_PROTO_V2 }, [
    ["web", record(11, { id: "1", note: "x" })],
    ["web", record(11, { id: "2", note: "y" })],
    ["web", record(11, { id: "3", delta: -1 })],
    ...[4, 5, 6].map((id): [string, Buffer] => ["app", record(12, { id: String(id), currency: "USD" })]),
    ["app", cut.subarray(0, cut.length - 2)],
  ]);
}

/** A monitor on 127.0.0.1 that has replayed a pay capture whole; the caller stops it. */
export async function replayPay(pay: PayCapture): Promise<RunningMonitor> {
  const monitor = await startMonitor({
    configPath: pay.config,
    source: { file: pay.capture },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-test",
    logger: createLogger("silent"),
  });
  await monitor.replayed;
  return monitor;
}
