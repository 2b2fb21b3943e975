import { describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { countedRecords, eventTopicConfig, metricValue, startLiveMonitor } from "../../helpers/live.js";
import { produce, waitFor, type TestMessage } from "../../helpers/kafka.js";

// A compacted topic's deletes (tombstones: a key, a null value, no header) beside the active
// version's traffic. The window of a few seconds stands in for the default 7 days.

const v11 = (n: number): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `order-${i}`,
    value: JSON.stringify({ id: i, event: "buy", amount: 3 }),
    headers: { producer: "mobile", "schema-version": "event/1.1" },
  }));
const tombstones = (n: number, from: number): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({ key: `order-${from + i}`, value: null }));

function verdictOf(monitor: RunningMonitor, version: string) {
  return monitor.report().subjects[0]!.versions.find((v) => v.version === version)!.verdict!;
}

describe("tombstones through a real broker", () => {
  it("are counted apart and are no use of any version: the deprecated version drains while they keep coming", async () => {
    const { brokers, topic, configPath } = await eventTopicConfig({
      prefix: "sw-tombstones",
      partitions: 1,
      drainWindow: "3s",
    });
    const monitor = await startLiveMonitor(configPath);
    await waitFor(() => monitor.health.ready, "partitions to be assigned");
    await produce(brokers, topic, [...v11(5), ...tombstones(5, 0)]);
    await waitFor(() => countedRecords(monitor) === 10, "10 records");
    // Deletes go on all through the window: each round is counted before the next is sent.
    let sent = 10;
    let deleted = 5;
    await waitFor(async () => {
      await produce(brokers, topic, [...v11(1), ...tombstones(2, deleted)]);
      sent += 3;
      deleted += 2;
      await waitFor(() => countedRecords(monitor) === sent, `${sent} records`);
      return verdictOf(monitor, "1.0.0").yes;
    }, "1.0.0 to drain");

    const report = monitor.report().subjects[0]!;
    expect(report.unknownUse).toEqual([]);
    expect(verdictOf(monitor, "1.0.0").reasons).toEqual([]);
    const text = await (await fetch(`${monitor.address}/metrics`)).text();
    const series = (name: string, labels: string) => metricValue(text, `${name}{${labels}}`);
    expect(series("schemawatch_tombstones_total", `topic="${topic}",subject="event"`)).toBe(deleted);
    expect(
      series(
        "schemawatch_records_total",
        `topic="${topic}",subject="event",producer="unknown",writer_version="none"`,
      ),
    ).toBe(deleted);
    expect(
      series(
        "schemawatch_records_total",
        `topic="${topic}",subject="event",producer="unknown",writer_version="unknown"`,
      ),
    ).toBe(0);
    expect(
      series(
        "schemawatch_records_total",
        `topic="${topic}",subject="event",producer="mobile",writer_version="1.1.0"`,
      ),
    ).toBe(sent - deleted);
    expect(text).not.toContain('reason="empty"');
    expect(text).toContain('schemawatch_version_removable{subject="event",version="1.0.0"} 1');
  });
});
