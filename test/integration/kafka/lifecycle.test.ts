import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  produce,
  waitFor,
  withAdmin,
  type TestMessage,
} from "../../helpers/kafka.js";

// Windows of a few seconds stand in for the default 7 days; the rules are the same.

async function setup(partitions: number, window = "4s") {
  const brokers = await kafkaBrokers();
  const topic = freshTopic("sw-lifecycle");
  await createTopic(brokers, topic, partitions);
  const dir = await writeTree({
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    drainWindow: ${window}
    readyWindow: ${window}
    minSamples: 10
`,
  });
  return { brokers, topic, configPath: `${dir}/config.yaml`, statePath: `${dir}/.schemawatch-state.json` };
}

async function start(configPath: string): Promise<RunningMonitor> {
  const monitor = await startLiveMonitor(configPath);
  await waitFor(() => monitor.health.ready, "partitions to be assigned");
  return monitor;
}

const v10 = (n: number, producer = "web"): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    value: JSON.stringify({ id: i, event: "view" }),
    headers: { producer, "schema-version": "event/1.0" },
  }));
const v11 = (n: number, producer = "mobile", amount = true): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    value: JSON.stringify(amount ? { id: i, event: "buy", amount: 3 } : { id: i, event: "view" }),
    headers: { producer, "schema-version": "event/1.1" },
  }));

function verdictOf(monitor: RunningMonitor, version: string) {
  const entry = monitor.report().subjects[0]!.versions.find((v) => v.version === version)!;
  return entry.verdict!;
}

const counted = countedRecords;

describe("lifecycle verdicts through a real broker", () => {
  it("a restart in the middle of the drain window keeps the window; the version drains after it", async () => {
    const { brokers, topic, configPath, statePath } = await setup(2);
    const first = await start(configPath);
    await produce(brokers, topic, v10(10));
    await waitFor(() => counted(first) === 10, "10 records");
    await first.stop();
    const saved = JSON.parse(await readFile(statePath, "utf8"));
    const coveredBefore = saved.partitions.map((p: { coveredSince: number }) => p.coveredSince).sort();
    await produce(brokers, topic, v11(10)); // while the monitor is down

    const second = await start(configPath);
    await waitFor(() => counted(second) === 10, "the 10 records produced while down");
    const report = second.report().subjects[0]!;
    // Catching up from committed offsets is no gap: coverage still starts where it did.
    expect(report.coverage.map((c) => Date.parse(c.coveredSince)).sort()).toEqual(coveredBefore);
    expect(report.recentGaps).toEqual([]);
    expect(verdictOf(second, "1.0.0").yes).toBe(false);
    await waitFor(() => verdictOf(second, "1.0.0").yes, "1.0.0 to drain");
    const text = await (await fetch(`${second.address}/metrics`)).text();
    expect(text).toContain('schemawatch_version_removable{subject="event",version="1.0.0"} 1');
  });

  it("records lost to retention while down are a gap that restarts the window", async () => {
    const { brokers, topic, configPath } = await setup(1);
    const first = await start(configPath);
    await produce(brokers, topic, v10(5));
    await waitFor(() => counted(first) === 5, "5 records");
    await first.stop();
    await produce(brokers, topic, v10(5));
    // deleteRecords moves the log start offset exactly as retention does.
    await withAdmin(brokers, async (admin) => {
      await admin.fetchTopicMetadata({ topics: [topic] }); // kafkajs needs the leaders before deleting
      await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: "8" }] });
    });

    await produce(brokers, topic, v11(2));

    const second = await start(configPath);
    await waitFor(() => counted(second) === 4, "the 2 surviving 1.0 records and 2 new ones");
    const gaps = second.report().subjects[0]!.recentGaps;
    expect(gaps.map((g) => [g.partition, g.reason, g.detail])).toEqual([
      [
        0,
        "offsets-skipped",
        "offsets 5..7 were never processed (retention, or a reset to the latest offset)",
      ],
    ]);
    const reasons = verdictOf(second, "1.0.0").reasons;
    expect(reasons[reasons.length - 1]).toMatch(
      new RegExp(`^coverage gap on ${topic}/0 until \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ$`),
    );
    const text = await (await fetch(`${second.address}/metrics`)).text();
    expect(text).toContain(`schemawatch_coverage_gap_total{topic="${topic}"} 1`);
  });

  it("a drained version that receives traffic again goes back to in use", async () => {
    const { brokers, topic, configPath } = await setup(1, "2s");
    const monitor = await start(configPath);
    await produce(brokers, topic, v10(3));
    await waitFor(() => counted(monitor) === 3, "3 records");
    await waitFor(() => verdictOf(monitor, "1.0.0").yes, "1.0.0 to drain");
    await produce(brokers, topic, v10(1, "batch-job"));
    await waitFor(() => counted(monitor) === 4, "the returning record");
    const verdict = verdictOf(monitor, "1.0.0");
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons[0]).toMatch(/^last seen (just now|\d+ms ago|\d+s ago) from producer batch-job$/);
  });

  it("two replicas splitting the partitions each refuse to call a version drained on partitions they do not see", async () => {
    const { brokers, topic, configPath } = await setup(2, "2s");
    const dir = configPath.replace(/config\.yaml$/, "");
    // Each replica keeps its own state file: without a shared state topic, neither can vouch for the other's partitions.
    const other = `${dir}replica-b.yaml`;
    await writeFile(other, (await readFile(configPath, "utf8")) + "state:\n  file: replica-b-state.json\n");
    const a = await start(configPath);
    const b = await startLiveMonitor(other);
    await waitFor(
      () => a.health.assignedPartitions === 1 && b.health.assignedPartitions === 1,
      "one partition each",
    );
    await produce(brokers, topic, [...v11(4).map((m, i) => ({ ...m, partition: i % 2 }))]);
    await waitFor(() => counted(a) + counted(b) === 4, "4 records between them");
    // Until each replica has observed its own partition for the whole window (and has the partitions
    // listed, and no window of either partition is still running): from then on, only the partition
    // it does not see can keep 1.0.0 from being drained.
    const mineOf = (replica: RunningMonitor) => [...replica.health.assigned.get(topic)!][0]!;
    await waitFor(
      () =>
        [a, b].every((replica) =>
          verdictOf(replica, "1.0.0").reasons.every(
            (r) =>
              !r.includes(`${topic}/${mineOf(replica)} `) &&
              !r.startsWith("the partitions of ") &&
              !r.startsWith("coverage gap on "),
          ),
        ),
      "each replica to cover its own partition for the window",
    );
    for (const replica of [a, b]) {
      const mine = mineOf(replica);
      const theirs = 1 - mine;
      const verdict = verdictOf(replica, "1.0.0");
      expect(verdict.yes).toBe(false);
      // The first replica to join may have read both partitions before the second took one over.
      expect(verdict.reasons).toHaveLength(1);
      expect(verdict.reasons[0]).toMatch(
        new RegExp(
          `^partition ${topic}/${theirs} (never observed \\(no member that shares this state reads it\\)|not observed since \\S+)$`,
        ),
      );
    }
  });

  it("a candidate that requires amount becomes ready once the last producer starts sending it", async () => {
    const { brokers, topic, configPath } = await setup(1, "3s");
    const monitor = await start(configPath);
    await produce(brokers, topic, [...v11(10, "mobile"), ...v11(5, "checkout", false)]);
    await waitFor(() => counted(monitor) === 15, "15 records");
    const before = verdictOf(monitor, "2.0.0");
    expect(before.yes).toBe(false);
    expect(before.reasons.filter((r) => r.startsWith("producer "))).toEqual([
      "producer checkout: 5 of 5 samples fail 2.0.0 (required at root), last one just now",
    ]);
    // checkout now sends amount too; from here on every sample passes 2.0.0. Traffic goes on, each
    // round counted before the next, until the window has passed and 2.0.0 is ready.
    let sent = 15;
    await waitFor(async () => {
      await produce(brokers, topic, [...v11(2, "mobile"), ...v11(2, "checkout", true)]);
      sent += 4;
      await waitFor(() => counted(monitor) === sent, `${sent} records`);
      return verdictOf(monitor, "2.0.0").yes;
    }, "2.0.0 to be ready");
    const after = verdictOf(monitor, "2.0.0");
    expect(after.reasons).toEqual([]);
    expect(after.yes).toBe(true);
    expect((after.evidence["producers"] as Record<string, { failures: number }>)["checkout"]!.failures).toBe(
      5,
    );
  });

  it("a transactional producer's commit markers are neither skipped offsets nor an unread backlog", async () => {
    const { brokers, topic, configPath } = await setup(1);
    const monitor = await start(configPath);
    const producer = kafkaClient(brokers).producer({
      transactionalId: `sw-tx-${topic}`,
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
    await producer.connect();
    try {
      // two transactions of 3 records: offsets 0-2, marker 3, offsets 4-6, marker 7
      for (let t = 0; t < 2; t++) {
        const transaction = await producer.transaction();
        await transaction.send({
          topic,
          messages: v11(3).map((m) => ({ value: m.value, headers: m.headers })),
        });
        await transaction.commit();
        await waitFor(() => counted(monitor) === 3 * (t + 1), `${3 * (t + 1)} records`);
      }
    } finally {
      await producer.disconnect();
    }
    const coverage = monitor.lifecycle.lifecycle.coverage;
    expect(coverage.gaps.map((g) => g.reason)).toEqual(["first-observation"]);
    expect(coverage.get(topic, 0)!.lastOffset).toBe("7");
    expect(coverage.isCatchingUp(topic, 0)).toBe(false);
    await monitor.stop();
  });
});
