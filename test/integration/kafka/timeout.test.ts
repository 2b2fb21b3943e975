// Records crafted against a schema pattern that backtracks, on a real broker: with validation on the
// consumer's thread (workers: 0) and on two workers, every record is counted exactly, the crafted ones
// as `timeout`, /healthz answers while they are judged, and the group's commits reach the end.
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
  withAdmin,
  type TestMessage,
} from "../../helpers/kafka.js";
import { countedRecords, metricValue, startLiveMonitor } from "../../helpers/live.js";

const EVIL = JSON.stringify({ name: "a".repeat(40) + "!" });

/** `hostile` 1.0 (deprecated) and 1.1 (active), each with its `name` pattern. */
async function configFor(topic: string, brokers: string[], pattern10: string, pattern11: string) {
  const schema = (version: string, pattern: string) => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `https://example.com/hostile/${version}.json`,
    type: "object",
    properties: { name: { type: "string", pattern } },
  });
  const dir = await writeTree({
    "schemas/1.0.json": schema("1.0", pattern10),
    "schemas/1.1.json": schema("1.1", pattern11),
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId("sw-timeout")}
  lagInterval: 1s
logLevel: silent
subjects:
  - name: hostile
    topics: [${topic}]
    schemas: schemas
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
`,
  });
  return `${dir}/config.yaml`;
}

const header = (producer: string, version?: string) => ({
  producer,
  ...(version ? { "schema-version": version } : {}),
});

/** 40 ordinary records from `web`, and from `partner` 12 crafted ones declaring 1.1 and 3 declaring none. */
function messages(): TestMessage[] {
  const out: TestMessage[] = [];
  for (let i = 0; i < 40; i++) {
    out.push({ value: JSON.stringify({ name: "a".repeat(1 + (i % 5)) }), headers: header("web", "1.1") });
    if (i % 3 === 0 && i < 36) out.push({ value: EVIL, headers: header("partner", "1.1") });
  }
  for (let i = 0; i < 3; i++) out.push({ value: EVIL, headers: header("partner") });
  return out;
}

async function committedAtEnd(brokers: string[], monitor: RunningMonitor, topic: string): Promise<boolean> {
  return withAdmin(brokers, async (admin) => {
    const [high] = await admin.fetchTopicOffsets(topic);
    const [committed] = await admin.fetchOffsets({ groupId: monitor.config.kafka.groupId, topics: [topic] });
    return committed?.partitions[0]?.offset === high?.high;
  });
}

describe.each([0, 2])("records crafted against a backtracking pattern, workers: %i", (workers) => {
  it("are counted exactly, as timeout, while /healthz answers and the commits reach the end", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-timeout");
    await createTopic(brokers, topic, 1);
    // 1.1's backreference keeps it on the backtracking engine: only the time budget can stop it.
    const configPath = await configFor(topic, brokers, "^(a+)+$", "^((a+)+)\\1?$");
    const monitor = await startLiveMonitor(configPath, {}, { workers });
    await waitFor(() => monitor.health.ready, "the monitor to be assigned its partition", 30_000);
    const sent = messages();
    expect(sent).toHaveLength(55);
    await produce(brokers, topic, sent);

    // While the crafted records are being judged, the HTTP endpoints answer.
    let answeredWhileJudging = false;
    await waitFor(async () => {
      const before = monitor.pipeline.pendingValidations;
      const health = await fetch(`${monitor.address}/healthz`, { signal: AbortSignal.timeout(5_000) });
      expect(health.status).toBe(200);
      if (before > 0 && monitor.pipeline.pendingValidations > 0) answeredWhileJudging = true;
      return answeredWhileJudging || countedRecords(monitor) === 55;
    }, "/healthz to answer while records are judged");
    expect(answeredWhileJudging).toBe(true);

    await waitFor(() => countedRecords(monitor) === 55, "55 records to be counted", 60_000);
    const text = await (
      await fetch(`${monitor.address}/metrics`, { signal: AbortSignal.timeout(5_000) })
    ).text();
    const series = (labels: string) => `{topic="${topic}",subject="hostile",${labels}}`;
    const records = (producer: string, writer: string) =>
      metricValue(
        text,
        `schemawatch_records_total${series(`producer="${producer}",writer_version="${writer}"`)}`,
      );
    expect(records("web", "1.1.0")).toBe(40);
    expect(records("partner", "1.1.0")).toBe(12);
    expect(records("partner", "none")).toBe(3);
    expect(metricValue(text, `schemawatch_decode_errors_total{topic="${topic}",reason="timeout"}`)).toBe(15);
    const validation = (producer: string, reader: string, direction: string, result: string) =>
      metricValue(
        text,
        `schemawatch_validations_total${series(`producer="${producer}",writer_version="1.1.0",reader_version="${reader}",direction="${direction}",result="${result}"`)}`,
      );
    expect(validation("web", "1.1.0", "conformance", "pass")).toBe(40);
    expect(validation("web", "1.0.0", "forward", "pass")).toBe(40);
    // A stopped validation records neither a pass nor a fail.
    expect(validation("partner", "1.1.0", "conformance", "pass")).toBe(0);
    expect(validation("partner", "1.1.0", "conformance", "fail")).toBe(0);
    // Its offset is committed like any other: a restart would not read the crafted records again.
    await waitFor(() => committedAtEnd(brokers, monitor, topic), "the commits to reach the end", 30_000);
  });

  it("judges the nested quantifier on the linear engine: exact counts, no timeout", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-linear");
    await createTopic(brokers, topic, 1);
    const configPath = await configFor(topic, brokers, "^(a+)+$", "^(a|aa)+$");
    const monitor = await startLiveMonitor(configPath, {}, { workers });
    await waitFor(() => monitor.health.ready, "the monitor to be assigned its partition", 30_000);
    await produce(brokers, topic, messages());
    await waitFor(() => countedRecords(monitor) === 55, "55 records to be counted", 60_000);
    const text = await (await fetch(`${monitor.address}/metrics`)).text();
    const series = (labels: string) => `{topic="${topic}",subject="hostile",${labels}}`;
    const validation = (
      producer: string,
      writer: string,
      reader: string,
      direction: string,
      result: string,
    ) =>
      metricValue(
        text,
        `schemawatch_validations_total${series(`producer="${producer}",writer_version="${writer}",reader_version="${reader}",direction="${direction}",result="${result}"`)}`,
      );
    expect(metricValue(text, `schemawatch_decode_errors_total{topic="${topic}",reason="timeout"}`)).toBe(0);
    expect(validation("partner", "1.1.0", "1.1.0", "conformance", "fail")).toBe(12);
    expect(validation("partner", "1.1.0", "1.0.0", "forward", "fail")).toBe(12);
    expect(validation("partner", "none", "1.1.0", "undeclared", "fail")).toBe(3);
    expect(validation("web", "1.1.0", "1.1.0", "conformance", "pass")).toBe(40);
    await waitFor(() => committedAtEnd(brokers, monitor, topic), "the commits to reach the end", 30_000);
  });
});
