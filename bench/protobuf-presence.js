#!/usr/bin/env node
// What the Protobuf field check costs per record (issue 36): the presence scan (a tag skip-scan along
// the number paths of interest, src/formats/protobuf/presence.ts) against the JSON field check
// (src/fields/presence.ts) on the same events, side by side in one run, as bench/fields.js does for
// JSON: 3 deprecated fields that no record carries (a drained field: every tag is read, nothing ends
// the scan early), the records of one batch's worth (6,000 distinct, in the CPU's caches, as a
// consumer reads the batch it just fetched) handed out in turn, best of interleaved rounds.
//
//   npm run build && node --expose-gc bench/protobuf-presence.js   # BENCH_PRESENCE_RECORDS (2000000), BENCH_PRESENCE_ROUNDS (7)
import { Buffer } from "node:buffer";
import { performance } from "node:perf_hooks";
import { PresenceCheck } from "../dist/fields/presence.js";
import { parseProto } from "../dist/formats/protobuf/parse.js";
import { ProtoPresence } from "../dist/formats/protobuf/presence.js";
import { eventJson, seededRandom } from "./kafka-records.js";

const RECORDS = Number(process.env.BENCH_PRESENCE_RECORDS ?? 2_000_000);
const ROUNDS = Number(process.env.BENCH_PRESENCE_ROUNDS ?? 7);
const BATCH = 6_000;
const DEPRECATED = ["legacy_id", "coupon", "referrer"];

// The event of bench/kafka-records.js as a Protobuf message; the deprecated fields are numbers 9-11.
const PROTO = `syntax = "proto3"; package bench;
message Event {
  int64 id = 1; string event = 2; double amount = 3; string user = 4; string session = 5;
  string page = 6; string timestamp = 7; string source = 8;
  string legacy_id = 9 [deprecated = true]; string coupon = 10 [deprecated = true]; string referrer = 11 [deprecated = true];
}`;

function build() {
  const schema = parseProto({ name: "bench/event.proto", text: PROTO, references: [] });
  const type = schema.root.lookupType("bench.Event");
  const random = seededRandom(28);
  const json = [];
  const proto = [];
  for (let i = 0; i < BATCH; i++) {
    const text = eventJson(i, random);
    const doc = JSON.parse(text);
    // The Confluent wire format: 0, a 4-byte id, the [0] message index, the body.
    json.push(Buffer.concat([Buffer.from([0, 0, 0, 0, 1]), Buffer.from(text)]));
    const body = type.encode(type.fromObject({ ...doc, id: String(doc.id) })).finish();
    proto.push(Buffer.concat([Buffer.from([0, 0, 0, 0, 1, 0]), body]));
  }
  return { schema, json, proto };
}

function round(check, records, into) {
  globalThis.gc?.();
  let present = 0;
  const start = performance.now();
  for (let i = 0; i < RECORDS; i++) present += check(records[i % BATCH], into);
  return { ns: ((performance.now() - start) * 1e6) / RECORDS, present };
}

export function presenceBench() {
  const { schema, json, proto } = build();
  const scan = new ProtoPresence(schema, [[9], [10], [11]]);
  const search = new PresenceCheck(DEPRECATED);
  const into = new Uint8Array(3);
  const kinds = {
    none: (bytes) => bytes[5] & 0,
    protobuf: (bytes, out) => scan.check(bytes, 5, out),
    json: (bytes, out) => search.check(bytes, 5, out),
  };
  const best = { none: Infinity, protobuf: Infinity, json: Infinity };
  let present = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? ["none", "protobuf", "json"] : ["json", "protobuf", "none"];
    for (const kind of order) {
      const result = round(kinds[kind], kind === "json" ? json : proto, into);
      best[kind] = Math.min(best[kind], result.ns);
      present += result.present;
    }
  }
  const bytes = (list) => list.reduce((n, b) => n + b.length, 0) / list.length;
  console.log(
    `presence of 3 drained fields, ${RECORDS.toLocaleString("en")} records x ${ROUNDS} rounds, best round:\n` +
      `  protobuf scan  ${best.protobuf.toFixed(1)} ns/record  (${bytes(proto).toFixed(0)} bytes a record)\n` +
      `  json search    ${best.json.toFixed(1)} ns/record  (${bytes(json).toFixed(0)} bytes a record)\n` +
      `  loop alone     ${best.none.toFixed(1)} ns/record\n` +
      `  protobuf / json ${(best.protobuf / best.json).toFixed(2)}; fields found present: ${present}`,
  );
  return { ...best, present };
}

if (import.meta.url === `file://${process.argv[1]}`) presenceBench();
