// An Avro subject end to end: its versions registered on the real registry (SCHEMA_REGISTRY_URL,
// Apicurio's ccompat) with a reference to a named type under another subject, records on the real
// broker written byte for byte as Confluent's KafkaAvroSerializer writes them (magic 0, the schema id
// big-endian, the Avro binary body; avsc encodes the body, independently of the monitor's decoder),
// producers moving from v1 to v2, then v1 drained and pruned.
import { describe, expect, it } from "vitest";

import { kafkaBrokers, produce, waitFor } from "../../helpers/kafka.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import {
  AVRO_V1 as V1,
  AVRO_V2 as V2,
  apiReport as report,
  avroOrder as confluent,
  orderSubject,
  registryConfig,
  series,
  versionOf,
  money,
  send,
  expectPruned,
} from "../../helpers/order-formats.js";
import { registryUrl } from "../../helpers/registry.js";

const url = registryUrl();

describe("an Avro subject through the registry and the broker", () => {
  it("counts producers per version, judges samples by Avro's resolution, and drains and prunes v1", async () => {
    const brokers = await kafkaBrokers();
    const order = await orderSubject(brokers, url, "AVRO");
    const { subject, topic, id1, id2 } = order;
    const { configPath } = await registryConfig({ brokers, url, subjects: [order] });
    const monitor = await startLiveMonitor(configPath);
    expect(monitor.catalog.subjects.get("order")!.format.name).toBe("avro");

    const v1 = (i: number) => confluent(id1, V1, { id: i, kind: "CASH", total: money });
    const v2 = (i: number, k = "CARD") =>
      confluent(id2, V2, { id: i, kind: k, total: money, note: { string: "n" } });
    const broken = v2(0).subarray(0, 12);
    await produce(brokers, topic, [
      ...Array.from({ length: 10 }, (_, i) => send("web", v1(i))),
      ...Array.from({ length: 10 }, (_, i) => send("web", v2(i))),
      ...Array.from({ length: 5 }, (_, i) => send("app", v2(i, "IOU"))),
      send("app", broken),
    ]);
    await waitFor(() => countedRecords(monitor) === 26, "the 26 records to be counted");

    expect(series(monitor, "records")).toEqual(["app 2=6", "web 1=10", "web 2=10"]);
    // v1 records read by v2 (a note defaulted: read); v2 records read by v1 (the note dropped: read),
    // but IOU, a symbol v1 lacks, fails v1 for app's five records only.
    expect(series(monitor, "validations")).toEqual([
      "app 2>1 fail=5",
      "app 2>2 pass=5",
      "web 1>1 pass=10",
      "web 1>2 pass=10",
      "web 2>1 pass=10",
      "web 2>2 pass=10",
    ]);
    const failures = monitor.pipeline.tallies.failures.map(
      (c) => `${c.labels.keyword} ${c.pointer}=${c.value}`,
    );
    expect(failures).toEqual(["enum_symbol /kind=5"]);
    // Read, but not whole: v2 fills in v1's missing note, v1 drops v2's.
    const losses = monitor.pipeline.tallies.losses.map(
      (c) =>
        `${c.labels.producer} ${c.labels.writer_version}>${c.labels.reader_version} ${c.labels.keyword} ${c.pointer}=${c.value}`,
    );
    expect(losses.sort()).toEqual(["web 1>2 field_defaulted /note=10", "web 2>1 field_dropped /note=10"]);
    const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
    expect(metrics).toContain(`schemawatch_decode_errors_total{topic="${topic}",reason="avro_decode"} 1`);

    // The producers stay on v2; v1 has been silent for the drain window: drained.
    await waitFor(
      async () => {
        await produce(brokers, topic, [send("web", v2(100))]);
        return versionOf(await report(monitor), "1")?.verdict?.yes === true;
      },
      "v1 to be drained",
      90_000,
      1_000,
    );
    await expectPruned(configPath, monitor, url, subject);
  }, 240_000);
});
