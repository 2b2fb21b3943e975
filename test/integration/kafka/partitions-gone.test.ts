import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { createTopic, produce, waitFor, withAdmin, type TestMessage } from "../../helpers/kafka.js";
import { countedRecords, eventTopicConfig, startLiveMonitor } from "../../helpers/live.js";

// A monitored topic deleted and created again with fewer partitions: the partitions that are gone must
// stop being required for a verdict (not block it forever), and their going restarts the window. With
// as many partitions, while the monitor is down: what the new log held before the monitor came back was
// never read, so the window restarts too.

const v10: TestMessage = {
  value: JSON.stringify({ id: 0, event: "sell" }),
  headers: { producer: "legacy", "schema-version": "event/1.0" },
};

const v11 = (n: number): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    value: JSON.stringify({ id: i, event: "buy", amount: 3 }),
    headers: { producer: "mobile", "schema-version": "event/1.1" },
  }));

function drained(monitor: RunningMonitor) {
  return monitor.report().subjects[0]!.versions.find((v) => v.version === "1.0.0")!.verdict!;
}

async function recreate(brokers: string[], topic: string, partitions: number): Promise<void> {
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: [topic], timeout: 15_000 }));
  // Deletion completes in the background: create again once the name is free.
  await waitFor(
    async () => {
      try {
        await createTopic(brokers, topic, partitions);
        return true;
      } catch {
        return false;
      }
    },
    `${topic} to be created again`,
    60_000,
  );
}

describe("a monitored topic recreated with fewer partitions", () => {
  it("leaves the window: the gone partitions are forgotten (also by the state file), the rest restart, and the version drains again", async () => {
    const { brokers, topic, dir, configPath } = await eventTopicConfig({
      prefix: "sw-fewer",
      partitions: 3,
      drainWindow: "4s",
      extra: (folder) => `state:\n  file: ${folder}/state.json\n`,
    });
    const statePath = `${dir}/state.json`;

    const first = await startLiveMonitor(configPath);
    await waitFor(() => first.health.ready, "partitions to be assigned", 60_000);
    await produce(
      brokers,
      topic,
      [0, 1, 2].flatMap((partition) => v11(2).map((m) => ({ ...m, partition }))),
    );
    await waitFor(() => countedRecords(first) === 6, "6 records on 3 partitions", 60_000);
    await waitFor(() => drained(first).yes, "1.0.0 to drain on 3 partitions", 60_000);
    await first.stop();

    await recreate(brokers, topic, 1);
    const second = await startLiveMonitor(configPath);
    const coverage = second.lifecycle.lifecycle.coverage;
    await waitFor(
      () => coverage.partitionsOf(topic).length === 1,
      "the gone partitions to be forgotten",
      60_000,
    );
    const gaps = coverage.gaps.filter((g) => g.reason === "partitions-removed");
    expect(gaps.map((g) => [g.topic, g.partition, g.detail])).toEqual([
      [
        topic,
        0,
        `partitions ${topic}/1, ${topic}/2 no longer exist (topic ${topic} was recreated with fewer partitions)`,
      ],
    ]);
    // The window restarted: not drained at once, then drained once it has passed on the one partition.
    expect(drained(second).yes).toBe(false);
    await waitFor(() => drained(second).yes, "1.0.0 to drain on the recreated topic", 60_000);
    expect(drained(second).reasons).toEqual([]);
    await second.stop();
    const saved = JSON.parse(await readFile(statePath, "utf8")) as {
      partitions: { topic: string; partition: number }[];
    };
    expect(saved.partitions.filter((p) => p.topic === topic).map((p) => p.partition)).toEqual([0]);
  });

  it("as many partitions, while the monitor was down: the group starts anew, a gap; a deprecated record in the new log is never taken as absent", async () => {
    const { brokers, topic, configPath } = await eventTopicConfig({
      prefix: "sw-anew",
      partitions: 1,
      drainWindow: "4s",
      extra: (folder) => `state:\n  file: ${folder}/state.json\n`,
    });
    const first = await startLiveMonitor(configPath);
    await waitFor(() => first.health.ready, "the partition to be assigned", 60_000);
    await produce(brokers, topic, v11(10));
    await waitFor(() => countedRecords(first) === 10, "10 records", 60_000);
    await waitFor(() => drained(first).yes, "1.0.0 to drain", 60_000);
    await first.stop();

    // The new log's first record is of the deprecated version, written while nobody watched; the group
    // lost its offsets with the topic, so the monitor starts at the log's end and never reads it.
    await recreate(brokers, topic, 1);
    await produce(brokers, topic, [v10]);
    const second = await startLiveMonitor(configPath);
    const coverage = second.lifecycle.lifecycle.coverage;
    await waitFor(() => coverage.gaps.some((g) => g.reason === "offsets-lost"), "the lost offsets", 60_000);
    expect(
      coverage.gaps.filter((g) => g.reason === "offsets-lost").map((g) => [g.topic, g.partition, g.detail]),
    ).toEqual([
      [
        topic,
        0,
        "the group has no committed offset for it, so reading starts at offset 1 (the topic was created again, or the group's offsets expired)",
      ],
    ]);
    expect(drained(second).yes).toBe(false);
    await produce(brokers, topic, v11(2));
    await waitFor(() => countedRecords(second) === 2, "2 records of the new log", 60_000);
    // The window restarted at the gap: drained once it has passed, counting from there.
    await waitFor(() => drained(second).yes, "1.0.0 to drain on the new log", 60_000);
    expect(countedRecords(second)).toBe(2);
    await second.stop();
  });
});
