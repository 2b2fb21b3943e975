import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { countedRecords, metricValue, startLiveMonitor } from "../../helpers/live.js";
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

// A key pattern with a nested quantifier, which an operator may well write, and one key that makes
// a backtracking engine run for hours: the monitor stopped answering, never committed the record's
// offset, and stalled on it again after every restart.

const NESTED = "^(a+)+$";
const HOSTILE = "a".repeat(40) + "!";

const event = (id: number, key: string): TestMessage => ({
  key,
  value: JSON.stringify({ id, event: "buy", amount: 3 }),
  headers: { "schema-version": "event/1.1" },
});

describe("a key pattern through a real broker", () => {
  it("a key that would make it backtrack does not stall the monitor: the records after it are counted, /metrics answers, the offset is committed", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-key-pattern");
    const groupId = freshGroupId();
    await createTopic(brokers, topic, 1);
    const dir = await writeTree({
      "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${groupId}
  lagInterval: 500ms
logLevel: silent
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    producer:
      keyPattern: '${NESTED}'
`,
    });
    const monitor = await startLiveMonitor(`${dir}/config.yaml`);
    await waitFor(() => monitor.health.ready, "partitions to be assigned");

    const tooLong = "a".repeat(20_000);
    const messages = [
      event(0, HOSTILE),
      ...Array.from({ length: 10 }, (_, i) => event(i + 1, "aaa")),
      event(11, tooLong),
      event(12, HOSTILE),
    ];
    await produce(brokers, topic, messages);
    await waitFor(() => countedRecords(monitor) === messages.length, `${messages.length} records`);

    const response = await fetch(`${monitor.address}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    const records = (producer: string) =>
      metricValue(
        text,
        `schemawatch_records_total{topic="${topic}",subject="event",producer="${producer}",writer_version="1.1.0"}`,
      );
    expect([records("aaa"), records("unknown")]).toEqual([10, 3]);
    expect(metricValue(text, `schemawatch_decode_errors_total{topic="${topic}",reason="key_too_long"}`)).toBe(
      1,
    );
    // The offset moves past every record, the hostile ones included: a restart does not meet them again.
    await waitFor(
      async () =>
        withAdmin(brokers, async (admin) => {
          const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
          return offsets!.partitions[0]!.offset === String(messages.length);
        }),
      `the group's offset to reach ${messages.length}`,
    );
  });
});
