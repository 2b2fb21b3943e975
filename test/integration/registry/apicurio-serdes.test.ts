// Records written byte for byte as Apicurio's own serdes write them, against the real registry
// (SCHEMA_REGISTRY_URL, Apicurio 3) and the real broker: an Avro subject whose v1 and v2 are read by
// Apicurio's globalId, from an 8-byte prefix (2.x's DefaultIdHandler: magic 0, the globalId as a
// long, the Avro body) and from header mode (`apicurio.value.globalId`, an 8-byte long; the body
// without prefix), a version registered while the monitor runs found by the lookup of its globalId,
// a Protobuf subject in header mode (`apicurio.value.contentId`, then Apicurio's `Ref` and the
// message), and a JSON Schema subject in header mode. avsc and protobufjs encode the bodies, independently of the monitor's decoders.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import avro from "avsc";
import { describe, expect, it } from "vitest";

import type { RunningMonitor } from "../../../src/monitor/start.js";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
} from "../../helpers/kafka.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import { apicurioRef, encode, proto } from "../../helpers/protobuf.js";
import { freshSubject, register, registryUrl } from "../../helpers/registry.js";

const url = registryUrl();
const native = url.replace(/\/apis\/ccompat\/v\d+$/, "/apis/registry/v3");

const kind = (symbols: string[]) => ({ type: "enum", name: "Kind", symbols });
const V1 = {
  type: "record",
  name: "Order",
  namespace: "shop",
  fields: [
    { name: "id", type: "long" },
    { name: "kind", type: kind(["CARD", "CASH"]) },
  ],
};
const V2 = {
  ...V1,
  fields: [
    { name: "id", type: "long" },
    { name: "kind", type: kind(["CARD", "CASH", "IOU"]) },
    { name: "note", type: ["null", "string"], default: null },
  ],
};
const V3 = { ...V2, fields: [...V2.fields, { name: "channel", type: "string", default: "web" }] };

const avroBody = (schema: unknown, value: unknown) =>
  avro.Type.forSchema(schema as avro.Schema, { wrapUnions: true }).toBuffer(value);
const long = (n: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64BE(BigInt(n));
  return bytes;
};
/** Apicurio 2.x's default prefix (DefaultIdHandler): magic byte 0, the globalId as an 8-byte long. */
const prefixed8 = (globalId: number, body: Buffer) => Buffer.concat([Buffer.of(0), long(globalId), body]);

/** A version's ids in Apicurio's native API. */
async function nativeIds(subject: string, version: number): Promise<{ globalId: number; contentId: number }> {
  const response = await fetch(`${native}/groups/default/artifacts/${subject}/versions/${version}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { globalId: number; contentId: number };
}

const series = (monitor: RunningMonitor, kindOf: "records" | "validations", topic: string) =>
  (kindOf === "records" ? monitor.pipeline.tallies.records : monitor.pipeline.tallies.validations)
    .filter((c) => c.value > 0 && (c.labels as unknown as Record<string, string>)["topic"] === topic)
    .map((c) => {
      const l = c.labels as unknown as Record<string, string>;
      return kindOf === "records"
        ? `${l["producer"]} ${l["writer_version"]}=${c.value}`
        : `${l["producer"]} ${l["writer_version"]}>${l["reader_version"]} ${l["result"]}=${c.value}`;
    })
    .sort();

const JSON_V1 = {
  $schema: "http://json-schema.org/draft-07/schema#",
  type: "object",
  properties: { id: { type: "string" } },
  required: ["id"],
};

const PROTO = `syntax = "proto3";
package shop;
message Order { int64 id = 1; string channel = 2; }
`;

describe("Apicurio's serdes through the registry and the broker", () => {
  it("reads globalIds from 8-byte prefixes and headers, contentIds from headers, and looks up a new globalId", async () => {
    // v1's text registered under another subject first: the same content, so one contentId, and a
    // globalId of its own under the subject watched. Its ccompat id is that contentId.
    const subject = freshSubject("apicurio-order");
    const decoy = freshSubject("apicurio-decoy");
    await register(url, decoy, V1, [], "AVRO");
    const schemaId1 = await register(url, subject, V1, [], "AVRO");
    const schemaId2 = await register(url, subject, V2, [], "AVRO");
    const v1 = await nativeIds(subject, 1);
    const v2 = await nativeIds(subject, 2);
    expect(v1.contentId).toBe(schemaId1);
    expect(v2.contentId).toBe(schemaId2);
    expect(v1.globalId).not.toBe(v1.contentId);
    const protoSubject = freshSubject("apicurio-proto");
    await register(url, protoSubject, PROTO, [], "PROTOBUF");
    const p1 = await nativeIds(protoSubject, 1);
    const jsonSubject = freshSubject("apicurio-json");
    await register(url, jsonSubject, JSON_V1);
    const j1 = await nativeIds(jsonSubject, 1);

    const brokers = await kafkaBrokers();
    const topic = freshTopic("apicurio-avro");
    const protoTopic = freshTopic("apicurio-proto");
    await createTopic(brokers, topic, 1);
    await createTopic(brokers, protoTopic, 1);
    const jsonTopic = freshTopic("apicurio-json");
    await createTopic(brokers, jsonTopic, 1);
    const dir = await writeTree({});
    const configPath = join(dir, "config.yaml");
    // A long poll interval: a version registered later enters the catalog only through the lookup.
    await writeFile(
      configPath,
      `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
registries:
  main: { url: "${url}", pollInterval: 10m, lookupWait: 20s }
subjects:
  - name: order
    topics: [${topic}]
    registry: { name: main, subject: ${subject} }
    writer:
      sources: [apicurio-header, wire]
      wire: { idBytes: 8, id: globalId }
  - name: proto
    topics: [${protoTopic}]
    registry: { name: main, subject: ${protoSubject} }
    writer: { sources: [apicurio-header, wire] }
  - name: json
    topics: [${jsonTopic}]
    registry: { name: main, subject: ${jsonSubject} }
    writer: { sources: [apicurio-header, wire, header] }
`,
    );
    const monitor = await startLiveMonitor(configPath);
    const order = monitor.catalog.subjects.get("order")!;
    expect(order.byGlobalId.get(v1.globalId)?.version.text).toBe("1");
    expect(order.byGlobalId.get(v2.globalId)?.version.text).toBe("2");

    const send = (producer: string, value: Buffer, headers: Record<string, Buffer> = {}) => ({
      value,
      headers: { producer, ...headers },
    });
    const globalHeader = (id: number) => ({ "apicurio.value.globalId": long(id) });
    const r1 = (i: number) => avroBody(V1, { id: i, kind: "CASH" });
    const r2 = (i: number, k = "CARD") => avroBody(V2, { id: i, kind: k, note: { string: "n" } });
    // id 0 encodes as the byte 0: a header-mode body that starts like a Confluent prefix.
    expect(r2(0)[0]).toBe(0);
    await produce(brokers, topic, [
      // legacy: Apicurio 2.x serializers with headers off, an 8-byte globalId prefix.
      ...Array.from({ length: 6 }, (_, i) => send("legacy", prefixed8(v1.globalId, r1(i)))),
      ...Array.from({ length: 4 }, (_, i) => send("legacy", prefixed8(v2.globalId, r2(i)))),
      // web: header mode with globalId (2.x's default); ids 0..4, so the first body starts with 0.
      ...Array.from({ length: 3 }, (_, i) => send("web", r1(i), globalHeader(v1.globalId))),
      ...Array.from({ length: 5 }, (_, i) => send("web", r2(i, "IOU"), globalHeader(v2.globalId))),
      // app: header mode with contentId (3.x's use-id default).
      ...Array.from({ length: 2 }, (_, i) =>
        send("app", r2(i + 10), { "apicurio.value.contentId": long(v2.contentId) }),
      ),
      // A globalId no version has, a header cut short, a prefix cut short.
      send("bad", r2(1), globalHeader(2 ** 40)),
      send("bad", r2(1), { "apicurio.value.globalId": long(v2.globalId).subarray(0, 4) }),
      send("bad", prefixed8(v2.globalId, r2(1)).subarray(0, 6)),
    ]);
    await waitFor(() => countedRecords(monitor) === 23, "the 23 Avro records to be counted", 60_000);

    expect(series(monitor, "records", topic)).toEqual([
      "app 2=2",
      "bad unknown=3",
      "legacy 1=6",
      "legacy 2=4",
      "web 1=3",
      "web 2=5",
    ]);
    // Every body decoded with its writer's schema and read by the other version: IOU, which v1 lacks,
    // fails v1 for web's five records only.
    expect(series(monitor, "validations", topic)).toEqual([
      "app 2>1 pass=2",
      "app 2>2 pass=2",
      "legacy 1>1 pass=6",
      "legacy 1>2 pass=6",
      "legacy 2>1 pass=4",
      "legacy 2>2 pass=4",
      "web 1>1 pass=3",
      "web 1>2 pass=3",
      "web 2>1 fail=5",
      "web 2>2 pass=5",
    ]);
    const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
    for (const [reason, count] of [
      ["unknown_schema_id", 1],
      ["bad_id_header", 1],
      ["truncated_wire_prefix", 1],
      ["avro_decode", undefined],
    ] as const) {
      const line = `schemawatch_decode_errors_total{topic="${topic}",reason="${reason}"}`;
      if (count === undefined) expect(metrics).not.toContain(line);
      else expect(metrics).toContain(`${line} ${count}`);
    }

    // v3 registered while the monitor runs; its records carry its globalId in the header, and in an
    // 8-byte prefix: the lookup of the globalId finds it, the registry is read, they count as 3.
    await register(url, subject, V3, [], "AVRO");
    const v3 = await nativeIds(subject, 3);
    const r3 = (i: number) => avroBody(V3, { id: i, kind: "CARD", note: null, channel: "app" });
    await produce(brokers, topic, [
      ...Array.from({ length: 3 }, (_, i) => send("web", r3(i), globalHeader(v3.globalId))),
      send("legacy", prefixed8(v3.globalId, r3(9))),
    ]);
    await waitFor(() => countedRecords(monitor) === 27, "the 4 v3 records to be counted", 60_000);
    expect(series(monitor, "records", topic)).toEqual([
      "app 2=2",
      "bad unknown=3",
      "legacy 1=6",
      "legacy 2=4",
      "legacy 3=1",
      "web 1=3",
      "web 2=5",
      "web 3=3",
    ]);
    // Found by one lookup of its globalId (the unknown one of the first batch was the other request).
    const lookups = await (await fetch(`${monitor.address}/metrics`)).text();
    expect(lookups).toContain(`schemawatch_registry_id_lookups_total{registry="main",result="found"} 1`);
    expect(lookups).toContain(`schemawatch_registry_id_lookups_total{registry="main",result="missing"} 1`);

    // Protobuf in Apicurio 3's header mode: the contentId header (and a globalId one), the `Ref`
    // naming the message type, the message.
    const schema = proto(PROTO);
    const message = (i: number) =>
      Buffer.from(apicurioRef("Order", encode(schema, "shop.Order", { id: String(i), channel: "web" })));
    await produce(brokers, protoTopic, [
      ...Array.from({ length: 4 }, (_, i) =>
        send("web", message(i), { "apicurio.value.contentId": long(p1.contentId) }),
      ),
      send("app", message(7), globalHeader(p1.globalId)),
    ]);
    await waitFor(() => countedRecords(monitor) === 32, "the 5 Protobuf records to be counted", 60_000);
    expect(series(monitor, "records", protoTopic)).toEqual(["app 1=1", "web 1=4"]);
    expect(series(monitor, "validations", protoTopic)).toEqual(["app 1>1 pass=1", "web 1>1 pass=4"]);
    const protoMetrics = await (await fetch(`${monitor.address}/metrics`)).text();
    expect(protoMetrics).not.toContain(`{topic="${protoTopic}",reason="protobuf_decode"}`);

    // JSON Schema in header mode: the JSON document without prefix, its globalId in the header.
    const json = (document: unknown) => Buffer.from(JSON.stringify(document));
    await produce(brokers, jsonTopic, [
      ...Array.from({ length: 3 }, (_, i) => send("web", json({ id: `o-${i}` }), globalHeader(j1.globalId))),
      send("web", json({ total: 3 }), globalHeader(j1.globalId)),
    ]);
    await waitFor(() => countedRecords(monitor) === 36, "the 4 JSON records to be counted", 60_000);
    expect(series(monitor, "records", jsonTopic)).toEqual(["web 1=4"]);
    expect(series(monitor, "validations", jsonTopic)).toEqual(["web 1>1 fail=1", "web 1>1 pass=3"]);
  }, 240_000);
});
