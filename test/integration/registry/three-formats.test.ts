// One registry holding all three formats, watched by one monitor (issue 36: "a registry with all
// three formats works end to end"): a JSON Schema subject, an Avro subject and a Protobuf subject,
// each registered on the real registry (Apicurio's ccompat) with v1 deprecated, each on a topic of
// its own on the real broker, its records in Confluent's wire format. Every record is counted per
// subject, version and producer; every sample judged in both directions by its own format; and
// /metrics, /api/status, the report (JSON and text) and its attention summary show the three.
import { describe, expect, it } from "vitest";

import { renderReport } from "../../../src/report/render.js";
import { runCli } from "../../helpers/cli.js";
import { createTopic, freshTopic, kafkaBrokers, produce, waitFor } from "../../helpers/kafka.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import { wire } from "../../helpers/monitor.js";
import {
  AVRO_V1,
  AVRO_V2,
  apiReport,
  avroOrder,
  orderSubject,
  protoOrder,
  protoV1,
  protoV2,
  registryConfig,
  series,
  money,
  total,
  send,
  times,
  PROTO_V1,
} from "../../helpers/order-formats.js";
import { freshSubject, register, registryUrl, setState } from "../../helpers/registry.js";

const url = registryUrl();

/** A JSON Schema subject: v2 requires an amount, which v1 records lack. */
async function jsonSubject(brokers: string[]) {
  const subject = freshSubject("json-pay");
  const id1 = await register(url, subject, {
    title: "pay v1",
    type: "object",
    properties: { id: { type: "integer" } },
    required: ["id"],
  });
  const id2 = await register(url, subject, {
    title: "pay v2",
    type: "object",
    properties: { id: { type: "integer" }, amount: { type: "number" } },
    required: ["id", "amount"],
  });
  await setState(url, subject, 1, "DEPRECATED");
  const topic = freshTopic("json");
  await createTopic(brokers, topic, 1);
  return { name: "pay", topic, subject, id1, id2 };
}

describe("a registry holding JSON Schema, Avro and Protobuf subjects, watched by one monitor", () => {
  it("counts and judges each by its own format, and every view shows the three", async () => {
    const brokers = await kafkaBrokers();
    const pay = await jsonSubject(brokers);
    const order = await orderSubject(brokers, url, "AVRO", { name: "order" });
    const item = await orderSubject(brokers, url, "PROTOBUF", { name: "item" });
    const { configPath } = await registryConfig({ brokers, url, subjects: [pay, order, item], window: "1h" });
    const monitor = await startLiveMonitor(configPath);
    expect([...monitor.catalog.subjects.values()].map((s) => [s.name, s.format.name])).toEqual([
      ["pay", "json"],
      ["order", "avro"],
      ["item", "protobuf"],
    ]);
    await waitFor(() => monitor.health.ready, "the three partitions to be assigned");

    await Promise.all([
      produce(brokers, pay.topic, [
        ...times(4, (i) => send("web", wire(pay.id1, { id: i }))),
        ...times(3, (i) => send("web", wire(pay.id2, { id: i, amount: 2.5 }))),
      ]),
      produce(brokers, order.topic, [
        ...times(3, (i) => send("web", avroOrder(order.id1, AVRO_V1, { id: i, kind: "CASH", total: money }))),
        ...times(2, (i) =>
          send("app", avroOrder(order.id2, AVRO_V2, { id: i, kind: "IOU", total: money, note: null })),
        ),
      ]),
      produce(brokers, item.topic, [
        ...times(2, (i) =>
          send("batch", protoOrder(item.id1, protoV1, { id: String(i), total, qty: "5000000000" })),
        ),
        ...times(3, (i) => send("web", protoOrder(item.id2, protoV2, { id: String(i), total, qty: 3 }))),
      ]),
    ]);
    await waitFor(() => countedRecords(monitor) === 17, "the 17 records to be counted");

    // Each subject's records by producer and writer, each sample judged by its own format: JSON's
    // required amount, Avro's enum symbol IOU that v1 lacks, Protobuf's qty past an int32.
    expect([
      series(monitor, "records", "pay"),
      series(monitor, "records", "order"),
      series(monitor, "records", "item"),
    ]).toEqual([
      ["web 1=4", "web 2=3"],
      ["app 2=2", "web 1=3"],
      ["batch 1=2", "web 2=3"],
    ]);
    expect(series(monitor, "validations", "pay")).toEqual([
      "web 1>1 pass=4",
      "web 1>2 fail=4",
      "web 2>1 pass=3",
      "web 2>2 pass=3",
    ]);
    expect(series(monitor, "validations", "order")).toEqual([
      "app 2>1 fail=2",
      "app 2>2 pass=2",
      "web 1>1 pass=3",
      "web 1>2 pass=3",
    ]);
    expect(series(monitor, "validations", "item")).toEqual([
      "batch 1>1 pass=2",
      "batch 1>2 fail=2",
      "web 2>1 pass=3",
      "web 2>2 pass=3",
    ]);

    // /metrics: the three subjects' records and losses, exactly.
    const metrics = (await (await fetch(`${monitor.address}/metrics`)).text()).split("\n");
    const ours = (name: string) =>
      metrics.filter((l) => l.startsWith(`${name}{`) && !l.endsWith(" 0")).sort();
    const t = { pay: pay.topic, order: order.topic, item: item.topic };
    expect(ours("schemawatch_records_total")).toEqual(
      [
        `schemawatch_records_total{topic="${t.order}",subject="order",producer="app",writer_version="2"} 2`,
        `schemawatch_records_total{topic="${t.order}",subject="order",producer="web",writer_version="1"} 3`,
        `schemawatch_records_total{topic="${t.pay}",subject="pay",producer="web",writer_version="1"} 4`,
        `schemawatch_records_total{topic="${t.pay}",subject="pay",producer="web",writer_version="2"} 3`,
        `schemawatch_records_total{topic="${t.item}",subject="item",producer="batch",writer_version="1"} 2`,
        `schemawatch_records_total{topic="${t.item}",subject="item",producer="web",writer_version="2"} 3`,
      ].sort(),
    );
    expect(ours("schemawatch_validation_losses_total")).toEqual(
      [
        `schemawatch_validation_losses_total{topic="${t.order}",subject="order",producer="web",writer_version="1",reader_version="2",direction="backward",keyword="field_defaulted"} 3`,
        `schemawatch_validation_losses_total{topic="${t.item}",subject="item",producer="web",writer_version="2",reader_version="1",direction="forward",keyword="default_read"} 3`,
      ].sort(),
    );
    expect(ours("schemawatch_validations_total").filter((l) => l.includes('result="fail"'))).toEqual(
      [
        `schemawatch_validations_total{topic="${t.order}",subject="order",producer="app",writer_version="2",reader_version="1",direction="forward",result="fail"} 2`,
        `schemawatch_validations_total{topic="${t.pay}",subject="pay",producer="web",writer_version="1",reader_version="2",direction="backward",result="fail"} 4`,
        `schemawatch_validations_total{topic="${t.item}",subject="item",producer="batch",writer_version="1",reader_version="2",direction="backward",result="fail"} 2`,
      ].sort(),
    );

    // /api/status: each subject with its format, its records and its versions' counts.
    const status = (await (await fetch(`${monitor.address}/api/status`)).json()) as {
      subjects: {
        subject: string;
        format: string;
        records: number;
        versions: { version: string; status: string; records: number }[];
      }[];
    };
    expect(
      status.subjects.map((s) => [
        s.subject,
        s.format,
        s.records,
        s.versions.map((v) => `${v.version} ${v.status} ${v.records}`),
      ]),
    ).toEqual([
      ["pay", "json", 7, ["1 deprecated 4", "2 active 3"]],
      ["order", "avro", 5, ["1 deprecated 3", "2 active 2"]],
      ["item", "protobuf", 5, ["1 deprecated 2", "2 active 3"]],
    ]);

    // The report's attention: a breaking producer in each format, and each binary format's lossy read.
    const report = await apiReport(monitor);
    expect(report.subjects.map((s) => [s.subject, s.format])).toEqual([
      ["pay", "json"],
      ["order", "avro"],
      ["item", "protobuf"],
    ]);
    expect(
      report.attention
        .filter((a) => a.kind !== "coverage-building")
        .map((a) => `${a.level} ${a.kind} ${a.subject}: ${a.what}`),
    ).toEqual([
      "act backward-incompatible pay: producer web: 100% of its sampled 1 records (4 of 4) would break consumers upgraded to 2 (required at the root)",
      "act forward-incompatible order: producer app: 100% of its sampled 2 records (2 of 2) would break consumers still on 1 (enum_symbol at /kind)",
      "act backward-incompatible item: producer batch: 100% of its sampled 1 records (2 of 2) would break consumers upgraded to 2 (value_changed at /qty)",
      "info lossy-read order: producer web: consumers upgraded to 2 read 100% of its sampled 1 records (3 of 3) with data dropped or defaulted (field_defaulted at /note)",
      "info lossy-read item: producer web: consumers still on 1 read 100% of its sampled 2 records (3 of 3) with data dropped or defaulted (default_read at /note)",
    ]);
    expect(report.attention.filter((a) => a.kind === "coverage-building").map((a) => a.subject)).toEqual([
      "pay",
      "order",
      "item",
    ]);
    // The text report names each subject's format beside its records.
    const text = renderReport(report, "text");
    const facts = [...text.matchAll(/^subject (\w+)\n=+\n.*\n {2}format +(.+)\n {2}records +(\d+)$/gm)].map(
      (m) => `${m[1]} ${m[2]} ${m[3]}`,
    );
    expect(facts).toEqual(["pay JSON Schema 7", "order Avro 5", "item Protobuf 5"]);

    // Each subject's page names its format; `readiness --url` asks the live monitor of each alike.
    for (const [name, word] of [
      ["pay", "JSON Schema"],
      ["order", "Avro"],
      ["item", "Protobuf"],
    ]) {
      const page = await (await fetch(`${monitor.address}/subjects/${name}`)).text();
      expect([name, page.includes(`<dt>format</dt><dd>${word}</dd>`)]).toEqual([name, true]);
    }
    // A registered version's schema as registered: a .proto as its text, an Avro schema as its JSON.
    const schemaOf = (name: string) => fetch(`${monitor.address}/subjects/${name}/versions/1/schema`);
    expect(await (await schemaOf("item")).text()).toBe(PROTO_V1);
    expect(await (await schemaOf("order")).json()).toEqual(AVRO_V1);
    const asked = await Promise.all(
      ["pay", "order", "item"].map((name) =>
        runCli(["readiness", "--subject", name, "--version", "1", "--url", monitor.address]),
      ),
    );
    expect(
      asked.map((r) => [
        r.code,
        r.stdout
          .split("\n")
          .slice(0, 2)
          .map((l) => l.replace(/seen (just now|\S+ ago)/, "seen …")),
      ]),
    ).toEqual([
      [1, ["pay 1.0.0 is not drained yet:", "  - last seen … from producer web"]],
      [1, ["order 1.0.0 is not drained yet:", "  - last seen … from producer web"]],
      [1, ["item 1.0.0 is not drained yet:", "  - last seen … from producer batch"]],
    ]);
  }, 240_000);
});
