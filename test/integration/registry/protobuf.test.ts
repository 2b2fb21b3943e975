// A Protobuf subject end to end: its versions registered on the real registry (SCHEMA_REGISTRY_URL,
// Apicurio's ccompat) with schemaType PROTOBUF and a reference by import path to a file under another
// subject, records on the real broker written byte for byte as Confluent's KafkaProtobufSerializer
// writes them (magic 0, the schema id big-endian, the message indexes with `[0]` as one 0 byte, the
// body; protobufjs encodes the body, independently of the monitor's decoder), producers moving from
// v1 to v2, then v1 drained.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import type { RunningMonitor } from "../../../src/monitor/start.js";
import type { Report } from "../../../src/report/model.js";
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
import { confluentRecord, encode, proto } from "../../helpers/protobuf.js";
import { freshSubject, register, registryUrl, setState } from "../../helpers/registry.js";

const url = registryUrl();

const MONEY = 'syntax = "proto3";\npackage shop;\nmessage Money { int64 units = 1; string currency = 2; }\n';
// v2 drops note (2), adds channel (5), and reads qty as an int32 where v1 wrote an int64.
const V1 = `syntax = "proto3";
package shop;
import "shop/money.proto";
message Order { int64 id = 1; string note = 2 [deprecated = true]; Money total = 3; int64 qty = 4; }
`;
const V2 = `syntax = "proto3";
package shop;
import "shop/money.proto";
message Order { int64 id = 1; Money total = 3; int32 qty = 4; string channel = 5; }
`;
const refs = { "shop/money.proto": MONEY };
const v1 = proto(V1, refs);
const v2 = proto(V2, refs);

const series = (monitor: RunningMonitor, kindOf: "records" | "validations") =>
  (kindOf === "records" ? monitor.pipeline.tallies.records : monitor.pipeline.tallies.validations)
    .filter((c) => c.value > 0)
    .map((c) => {
      const l = c.labels as unknown as Record<string, string>;
      return kindOf === "records"
        ? `${l["producer"]} ${l["writer_version"]}=${c.value}`
        : `${l["producer"]} ${l["writer_version"]}>${l["reader_version"]} ${l["result"]}=${c.value}`;
    })
    .sort();

async function report(monitor: RunningMonitor): Promise<Report> {
  return (await (await fetch(`${monitor.address}/api/report`)).json()) as Report;
}
const versionOf = (r: Report, label: string) => r.subjects[0]!.versions.find((v) => v.version === label);

describe("a Protobuf subject through the registry and the broker", () => {
  it("counts producers per version, judges samples field by field, and drains v1", async () => {
    const moneySubject = freshSubject("proto-money");
    const subject = freshSubject("proto-order");
    await register(url, moneySubject, MONEY, [], "PROTOBUF");
    const reference = [{ name: "shop/money.proto", subject: moneySubject, version: 1 }];
    const id1 = await register(url, subject, V1, reference, "PROTOBUF");
    const id2 = await register(url, subject, V2, reference, "PROTOBUF");
    await setState(url, subject, 1, "DEPRECATED");

    const brokers = await kafkaBrokers();
    const topic = freshTopic("proto");
    await createTopic(brokers, topic, 1);
    const dir = await writeTree({});
    const configPath = join(dir, "config.yaml");
    await writeFile(
      configPath,
      `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
registries:
  main: { url: "${url}", pollInterval: 1s }
subjects:
  - name: order
    topics: [${topic}]
    registry: { name: main, subject: ${subject} }
    drainWindow: 3s
    readyWindow: 3s
    minSamples: 5
`,
    );
    const monitor = await startLiveMonitor(configPath);
    expect(monitor.catalog.subjects.get("order")!.format.name).toBe("protobuf");

    const send = (producer: string, value: Uint8Array) => ({
      value: Buffer.from(value),
      headers: { producer },
    });
    const total = { units: "5", currency: "USD" };
    const r1 = (i: number, qty = "2") =>
      confluentRecord(id1, [0], encode(v1, "shop.Order", { id: String(i), note: "n", total, qty }));
    const r2 = (i: number) =>
      confluentRecord(id2, [0], encode(v2, "shop.Order", { id: String(i), total, qty: 3, channel: "web" }));
    const broken = r2(0).subarray(0, 9);
    await produce(brokers, topic, [
      ...Array.from({ length: 10 }, (_, i) => send("web", r1(i))),
      // Five quantities past 32 bits: an int32 reader of v2 truncates them.
      ...Array.from({ length: 5 }, (_, i) => send("batch", r1(i, "5000000000"))),
      ...Array.from({ length: 10 }, (_, i) => send("web", r2(i))),
      send("app", broken),
    ]);
    await waitFor(() => countedRecords(monitor) === 26, "the 26 records to be counted");

    expect(series(monitor, "records")).toEqual(["app 2=1", "batch 1=5", "web 1=10", "web 2=10"]);
    // v1 read by v2: note dropped (lossy: read), qty fits for web and is truncated for batch (fails);
    // v2 read by v1: channel dropped (read).
    expect(series(monitor, "validations")).toEqual([
      "batch 1>1 pass=5",
      "batch 1>2 fail=5",
      "web 1>1 pass=10",
      "web 1>2 pass=10",
      "web 2>1 pass=10",
      "web 2>2 pass=10",
    ]);
    const failures = monitor.pipeline.tallies.failures.map(
      (c) => `${c.labels.keyword} ${c.pointer}=${c.value}`,
    );
    expect(failures).toEqual(["value_changed /qty=5"]);
    const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
    expect(metrics).toContain(`schemawatch_decode_errors_total{topic="${topic}",reason="protobuf_decode"} 1`);

    // The producers stay on v2; v1 has been silent for the drain window: drained.
    await waitFor(
      async () => {
        await produce(brokers, topic, [send("web", r2(100))]);
        return versionOf(await report(monitor), "1")?.verdict?.yes === true;
      },
      "v1 to be drained",
      90_000,
      1_000,
    );
  }, 240_000);
});
