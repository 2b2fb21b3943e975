// A Protobuf subject end to end: its versions registered on the real registry (SCHEMA_REGISTRY_URL,
// Apicurio's ccompat) with schemaType PROTOBUF and a reference by import path to a file under another
// subject, records on the real broker written byte for byte as Confluent's KafkaProtobufSerializer
// writes them (magic 0, the schema id big-endian, the message indexes with `[0]` as one 0 byte, the
// body; protobufjs encodes the body, independently of the monitor's decoder), producers moving from
// v1 to v2, then v1 drained and pruned.
import { describe, expect, it } from "vitest";

import { kafkaBrokers, produce, waitFor } from "../../helpers/kafka.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import {
  apiReport as report,
  protoOrder,
  protoV1 as v1,
  protoV2 as v2,
  orderSubject,
  registryConfig,
  series,
  versionOf,
  total,
  send,
  expectPruned,
} from "../../helpers/order-formats.js";
import { registryUrl } from "../../helpers/registry.js";

const url = registryUrl();

describe("a Protobuf subject through the registry and the broker", () => {
  it("counts producers per version, judges samples field by field, and drains and prunes v1", async () => {
    const brokers = await kafkaBrokers();
    const order = await orderSubject(brokers, url, "PROTOBUF");
    const { subject, topic, id1, id2 } = order;
    const { configPath } = await registryConfig({ brokers, url, subjects: [order] });
    const monitor = await startLiveMonitor(configPath);
    expect(monitor.catalog.subjects.get("order")!.format.name).toBe("protobuf");

    const r1 = (i: number, qty = "2") => protoOrder(id1, v1, { id: String(i), note: "n", total, qty });
    const r2 = (i: number) => protoOrder(id2, v2, { id: String(i), total, qty: 3, channel: "web" });
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
    await expectPruned(configPath, monitor, url, subject);
  }, 240_000);
});
