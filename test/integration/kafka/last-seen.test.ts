import { describe, expect, it } from "vitest";
import { countedRecords, eventTopicConfig, metricValue, startLiveMonitor } from "../../helpers/live.js";
import { produce, waitFor } from "../../helpers/kafka.js";

// Live, the last-seen gauge is when the monitor read the record, never the producer's timestamp
// (issue 30): the dashboard's "time since last seen" read 400 days for a version sent a second ago.

const DAY = 86_400_000;

describe("the last-seen gauge against a real broker", () => {
  it("is when the monitor read the newest record, whatever timestamp its producer set", async () => {
    const { brokers, topic, configPath } = await eventTopicConfig({
      prefix: "sw-last-seen",
      partitions: 1,
      drainWindow: "7d",
    });
    const monitor = await startLiveMonitor(configPath);
    await waitFor(() => monitor.health.ready, "the monitor to be assigned its partition");
    const sentFrom = Date.now();
    // A mirrored or backfilled record keeps its timestamp: 400 days old. The broker refuses one more
    // than an hour ahead (message.timestamp.after.max.ms), so 50 minutes ahead stands for the future.
    await produce(brokers, topic, [
      {
        value: JSON.stringify({ id: 1, event: "view" }),
        headers: { producer: "web", "schema-version": "1.0" },
        timestamp: String(sentFrom - 400 * DAY),
      },
      {
        value: JSON.stringify({ id: 2, event: "buy", amount: 5 }),
        headers: { producer: "mobile", "schema-version": "1.1" },
        timestamp: String(sentFrom + 50 * 60_000),
      },
    ]);
    await waitFor(() => countedRecords(monitor) === 2, "both records to be counted");
    const readBy = Date.now();
    const text = await (await fetch(`${monitor.address}/metrics`)).text();
    for (const version of ["1.0.0", "1.1.0"]) {
      const seen = metricValue(
        text,
        `schemawatch_version_last_seen_timestamp_seconds{subject="event",version="${version}"}`,
      )!;
      // The monitor's clock ticks every 250 ms: read no earlier than a tick before the send.
      expect({ version, read: seen >= (sentFrom - 250) / 1000 && seen <= readBy / 1000 }).toEqual({
        version,
        read: true,
      });
    }
    const report = await (await fetch(`${monitor.address}/api/report`)).json();
    const lastSeen = (
      report as { subjects: Array<{ versions: Array<{ version: string; lastSeen: string }> }> }
    ).subjects[0]!.versions.find((v) => v.version === "1.0.0")!.lastSeen;
    expect(Date.parse(lastSeen)).toBeGreaterThanOrEqual(sentFrom - 250);
    expect(Date.parse(lastSeen)).toBeLessThanOrEqual(readBy);
  });
});
