#!/usr/bin/env node
// What an Avro subject costs per record beside a JSON Schema subject (issue 36: at most 1.2 times at
// sampling ratio 0.01), side by side in one run as bench/beside-json.js measures it: the same event
// as JSON text or as an Avro body behind Confluent's prefix (magic 0, the schema id).
//
//   npm run build && node --expose-gc bench/avro.js      # BENCH_AVRO_RECORDS (200000)
import { Buffer } from "node:buffer";
import { pathToFileURL } from "node:url";
import avro from "avsc";
import { besideJson, printHeader } from "./beside-json.js";

const RECORDS = Number(process.env.BENCH_AVRO_RECORDS ?? 200_000);

const event = (symbols, amount) => ({
  type: "record",
  name: "Event",
  namespace: "bench",
  fields: [
    { name: "id", type: "long" },
    { name: "event", type: { type: "enum", name: "Kind", symbols } },
    ...(amount ? [{ name: "amount", type: ["null", "double"], default: null }] : []),
  ],
});
const AVRO = {
  "1.0.avsc": event(["view", "click"], false),
  "1.1.avsc": event(["view", "click", "buy"], true),
  // 2.0 requires an amount: a 1.1 record without one (the union's null branch) fails it.
  "2.0.avsc": {
    ...event(["view", "click", "buy"], false),
    fields: [
      ...event(["view", "click", "buy"], false).fields,
      { name: "amount", type: "double", default: 0 },
    ],
  },
};

const type = avro.Type.forSchema(AVRO["1.1.avsc"], { wrapUnions: true });
const prefix = Buffer.from([0, 0, 0, 0, 2]);
const value = ({ id, kind, amount }) =>
  Buffer.concat([
    prefix,
    type.toBuffer({ id, event: kind, amount: amount === null ? null : { double: amount } }),
  ]);

export const avroBench = () =>
  besideJson({
    name: "avro",
    records: RECORDS,
    files: Object.fromEntries(Object.entries(AVRO).map(([file, schema]) => [file, JSON.stringify(schema)])),
    value,
  });

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printHeader("Avro", RECORDS);
  const rows = await avroBench();
  console.log(
    `\nAvro / JSON per record at ratio 0.01: ${(rows[0].avro / rows[0].json).toFixed(2)} (target ≤ 1.2)`,
  );
}
