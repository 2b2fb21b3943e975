import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { countedRecords, metricValue, startLiveMonitor } from "../../helpers/live.js";
import { wire } from "../../helpers/monitor.js";
import type { MonitorStatus } from "../../../src/report/status.js";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
  type TestMessage,
} from "../../helpers/kafka.js";

async function configFor(topic: string, groupId: string, brokers: string[]): Promise<string> {
  const dir = await writeTree({
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${groupId}
  lagInterval: 1s
logLevel: silent
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated, confluentId: 101 }
      "1.1.0": { status: active, confluentId: 102 }
      "2.0.0": { status: candidate }
    producer:
      header: producer
`,
  });
  return `${dir}/config.yaml`;
}

const start = startLiveMonitor;

const header = (producer: string, version?: string) => ({
  producer,
  ...(version ? { "schema-version": version } : {}),
});

async function scrape(monitor: RunningMonitor): Promise<string> {
  return (await fetch(`${monitor.address}/metrics`)).text();
}

const value = metricValue;
const totalRecords = countedRecords;

describe("the live monitor against a real broker", () => {
  it("counts every record and validates each in both directions, with exact figures on /metrics and /api/status", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-monitor");
    await createTopic(brokers, topic, 3);
    const monitor = await start(await configFor(topic, freshGroupId(), brokers));
    await waitFor(() => monitor.health.ready, "the monitor to be assigned its partitions");
    expect((await fetch(`${monitor.address}/readyz`)).status).toBe(200);

    const messages: TestMessage[] = [];
    for (let i = 0; i < 30; i++)
      messages.push({ value: JSON.stringify({ id: i, event: "view" }), headers: header("web", "event/1.0") });
    for (let i = 0; i < 20; i++)
      messages.push({
        value: JSON.stringify({ id: i, event: "buy", amount: i }),
        headers: header("mobile", "event/1.1"),
      });
    for (let i = 0; i < 10; i++)
      messages.push({ value: wire(102, { id: i, event: "click", amount: 2 }), headers: header("billing") });
    for (let i = 0; i < 10; i++)
      messages.push({ value: JSON.stringify({ id: i, event: "click" }), headers: header("legacy") });
    for (let i = 0; i < 3; i++) messages.push({ value: "{not json", headers: header("junk", "event/1.0") });
    for (let i = 0; i < 2; i++) messages.push({ value: wire(4242, { id: i }), headers: header("junk") });
    await produce(brokers, topic, messages);

    // Every record counts: the two with an unknown schema id as writer version `unknown`.
    await waitFor(() => totalRecords(monitor) === 75, "75 records to be counted");
    await waitFor(
      () => monitor.pipeline.tallies.decodeErrors.reduce((s, c) => s + c.value, 0) === 5,
      "5 decode errors",
    );
    const text = await scrape(monitor);
    const series = (labels: string) => `{topic="${topic}",subject="event",${labels}}`;
    expect(value(text, `schemawatch_records_total${series('producer="web",writer_version="1.0.0"')}`)).toBe(
      30,
    );
    expect(
      value(text, `schemawatch_records_total${series('producer="mobile",writer_version="1.1.0"')}`),
    ).toBe(20);
    expect(
      value(text, `schemawatch_records_total${series('producer="billing",writer_version="1.1.0"')}`),
    ).toBe(10);
    expect(value(text, `schemawatch_records_total${series('producer="legacy",writer_version="none"')}`)).toBe(
      10,
    );
    expect(value(text, `schemawatch_records_total${series('producer="junk",writer_version="1.0.0"')}`)).toBe(
      3,
    );
    expect(
      value(text, `schemawatch_records_total${series('producer="junk",writer_version="unknown"')}`),
    ).toBe(2);
    const validation = (
      producer: string,
      writer: string,
      reader: string,
      direction: string,
      result: string,
    ) =>
      value(
        text,
        `schemawatch_validations_total${series(`producer="${producer}",writer_version="${writer}",reader_version="${reader}",direction="${direction}",result="${result}"`)}`,
      );
    // An old consumer on 1.0 rejects every 1.1 record (forward-incompatible)...
    expect(validation("mobile", "1.1.0", "1.0.0", "forward", "fail")).toBe(20);
    expect(validation("billing", "1.1.0", "1.0.0", "forward", "fail")).toBe(10);
    expect(validation("mobile", "1.1.0", "1.1.0", "conformance", "pass")).toBe(20);
    // ...an upgraded consumer on 1.1 reads 1.0 records, and the 2.0 candidate would reject them (backward).
    expect(validation("web", "1.0.0", "1.1.0", "backward", "pass")).toBe(30);
    expect(validation("web", "1.0.0", "2.0.0", "backward", "fail")).toBe(30);
    expect(validation("mobile", "1.1.0", "2.0.0", "backward", "pass")).toBe(20);
    expect(validation("legacy", "none", "1.0.0", "undeclared", "pass")).toBe(10);
    expect(validation("legacy", "none", "2.0.0", "undeclared", "fail")).toBe(10);
    expect(value(text, `schemawatch_decode_errors_total{topic="${topic}",reason="not_json"}`)).toBe(3);
    expect(value(text, `schemawatch_decode_errors_total{topic="${topic}",reason="unknown_schema_id"}`)).toBe(
      2,
    );
    expect(value(text, `schemawatch_assigned_partitions{topic="${topic}"}`)).toBe(3);
    expect(value(text, "schemawatch_broker_up")).toBe(1);

    const status = (await (await fetch(`${monitor.address}/api/status`)).json()) as MonitorStatus;
    const subject = status.subjects[0]!;
    expect(subject.records).toBe(75);
    expect(subject.unreadable).toBe(2);
    expect(subject.versions[0]!.wouldFail).toEqual({
      conformance: { validations: 30, failed: 0, wouldFailRate: 0 },
      forward: { validations: 30, failed: 30, wouldFailRate: 1 },
      undeclared: { validations: 10, failed: 0, wouldFailRate: 0 },
    });
    expect(subject.versions[2]!.wouldFail.backward).toEqual({
      validations: 60,
      failed: 30,
      wouldFailRate: 0.5,
    });

    // The group's own lag reaches zero once everything is read and committed.
    await waitFor(
      async () =>
        value(await scrape(monitor), `schemawatch_consumer_lag_records{topic="${topic}",partition="0"}`) ===
        0,
      "lag 0",
    );
  });

  it("misses no record across a stop and a restart while producers keep sending", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-restart");
    await createTopic(brokers, topic, 2);
    const configPath = await configFor(topic, freshGroupId(), brokers);
    const first = await start(configPath);
    await waitFor(() => first.health.ready, "the first monitor to be assigned");

    let produced = 0;
    let second: RunningMonitor | undefined;
    for (let batch = 0; batch < 12; batch++) {
      const messages = Array.from({ length: 25 }, (_, i) => ({
        value: JSON.stringify({ id: batch * 100 + i, event: "view" }),
        headers: header("web", "1.0.0"),
      }));
      await produce(brokers, topic, messages);
      produced += messages.length;
      if (batch === 3) await first.stop(); // records of batches 4..7 arrive while nobody reads
      if (batch === 7) {
        second = await start(configPath);
      }
    }
    const firstCount = totalRecords(first);
    expect(firstCount).toBeGreaterThanOrEqual(1);
    await waitFor(
      () => firstCount + totalRecords(second!) === produced,
      `${produced} records across both runs`,
    );
    // One more record on each partition, produced after all the others: once both are counted, a
    // record read twice (the partitions are read in order) would have been counted too.
    await produce(
      brokers,
      topic,
      [0, 1].map((partition) => ({
        value: JSON.stringify({ id: 9_000 + partition, event: "view" }),
        headers: header("sentinel", "1.0.0"),
        partition,
      })),
    );
    await waitFor(
      () => second!.pipeline.tallies.records.some((c) => c.labels.producer === "sentinel" && c.value === 2),
      "the 2 sentinel records",
    );
    await waitFor(() => !Number.isNaN(totalRecords(second!)), "the validations in flight");
    expect(produced).toBe(300);
    expect(firstCount + totalRecords(second!)).toBe(302);
  });

  it("stays up and not ready while the broker is unreachable", async () => {
    const configPath = await configFor(freshTopic("sw-down"), freshGroupId(), ["127.0.0.1:1"]);
    const monitor = await start(configPath);
    expect(monitor.health.brokerUp).toBe(false);
    const ready = await fetch(`${monitor.address}/readyz`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as { reason: string }).reason).toMatch(/^broker unreachable/);
    expect((await fetch(`${monitor.address}/healthz`)).status).toBe(200);
    expect(value(await scrape(monitor), "schemawatch_broker_up")).toBe(0);
  });
});
