#!/usr/bin/env node
// What a Protobuf subject costs per record beside a JSON Schema subject (issue 36), side by side in
// one run as bench/beside-json.js measures it: the same event as JSON text or as a Protobuf body
// behind Confluent's prefix (magic 0, the schema id, the [0] message index).
//
//   npm run build && node --expose-gc bench/protobuf.js      # BENCH_PROTOBUF_RECORDS (200000)
import { Buffer } from "node:buffer";
import { pathToFileURL } from "node:url";
import protobuf from "protobufjs";
import { besideJson, printHeader } from "./beside-json.js";

const RECORDS = Number(process.env.BENCH_PROTOBUF_RECORDS ?? 200_000);

const proto = (symbols, amount) =>
  `syntax = "proto3";\npackage bench;\nenum Kind { ${symbols.map((k, i) => `${k.toUpperCase()} = ${i};`).join(" ")} }\n` +
  `message Event { int64 id = 1; Kind event = 2;${amount ? ` ${amount} double amount = 3;` : ""} }\n`;
const PROTO = {
  "1.0.proto": proto(["view", "click"], ""),
  "1.1.proto": proto(["view", "click", "buy"], "optional"),
  // 2.0 reads amount without presence: a 1.1 record without one reads its default.
  "2.0.proto": proto(["view", "click", "buy"], " "),
};

const type = protobuf.parse(PROTO["1.1.proto"], { keepCase: true }).root.lookupType("bench.Event");
const prefix = Buffer.from([0, 0, 0, 0, 2, 0]);
const value = ({ id, kind, amount }) =>
  Buffer.concat([
    prefix,
    type
      .encode(type.fromObject({ id, event: kind.toUpperCase(), ...(amount === null ? {} : { amount }) }))
      .finish(),
  ]);

export const protobufBench = () => besideJson({ name: "protobuf", records: RECORDS, files: PROTO, value });

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  printHeader("Protobuf", RECORDS);
  const rows = await protobufBench();
  console.log(`\nProtobuf / JSON per record at ratio 0.01: ${(rows[0].protobuf / rows[0].json).toFixed(2)}`);
}
