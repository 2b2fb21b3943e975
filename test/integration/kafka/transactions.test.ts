import { afterEach, describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { holdTransaction, type HeldTransaction } from "../../helpers/java-transaction.js";
import { produce, waitFor, type TestMessage } from "../../helpers/kafka.js";
import { countedRecords, eventTopicConfig, metricValue, startLiveMonitor } from "../../helpers/live.js";

// A real Java transactional producer holds a transaction of deprecated-version records open across the
// end of a drain window of a few seconds (the default is 7 days; the rule is the same). A committed
// reader cannot see those records, so they are unknown use: the version must not drain meanwhile.

const WINDOW_S = 6;
const held: HeldTransaction[] = [];
afterEach(() => {
  for (const t of held.splice(0)) t.kill();
});

const setup = () => eventTopicConfig({ prefix: "sw-tx-open", partitions: 1, drainWindow: `${WINDOW_S}s` });

const v11 = (n: number): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    value: JSON.stringify({ id: i, event: "buy", amount: 3 }),
    headers: { producer: "mobile", "schema-version": "event/1.1" },
  }));

const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, "Z");

function drained(monitor: RunningMonitor) {
  return monitor.report().subjects[0]!.versions.find((v) => v.version === "1.0.0")!.verdict!;
}

const recordsOf = (monitor: RunningMonitor, version: string) =>
  monitor.status().subjects[0]!.versions.find((v) => v.version === version)!.records;

/**
 * A monitor reading `topic` with 3 records of the active version counted, then 50 records of the
 * deprecated 1.0.0 in a transaction held open until the drain window has passed since observation began.
 */
async function openAcrossTheWindow(workers: number) {
  const { brokers, topic, configPath } = await setup();
  const monitor = await startLiveMonitor(configPath, {}, { workers });
  await waitFor(() => monitor.health.ready, "partitions to be assigned", 60_000);
  await produce(brokers, topic, v11(3));
  await waitFor(() => countedRecords(monitor) === 3, "the 3 records of 1.1.0", 60_000);
  const transaction = await holdTransaction(
    brokers,
    `sw-hold-${topic}`,
    Array.from({ length: 50 }, (_, i) => ({
      topic,
      partition: 0,
      value: JSON.stringify({ id: i, event: "view" }),
      headers: { producer: "web", "schema-version": "event/1.0" },
    })),
  );
  held.push(transaction);
  const coverage = monitor.lifecycle.lifecycle.coverage;
  await waitFor(() => coverage.openTransaction(topic, 0) !== undefined, "the open transaction", 60_000);
  const coveredSince = coverage.get(topic, 0)!.coveredSince;
  // Past the end of the window that began with the first observation, with a judge tick after it.
  await waitFor(() => Date.now() > coveredSince + (WINDOW_S + 2) * 1000, "the drain window to pass", 60_000);
  return { brokers, topic, monitor, transaction };
}

describe("an open transaction through a real broker", () => {
  it("keeps a deprecated version it holds from draining across the end of the window, and counts its records once it commits", async () => {
    const { topic, monitor, transaction } = await openAcrossTheWindow(0);
    const open = monitor.lifecycle.lifecycle.coverage.openTransaction(topic, 0)!;
    const verdict = drained(monitor);
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons).toEqual([
      `an open transaction on ${topic}/0 since ${iso(open.since)}: 50 records not yet readable (counted once it commits, never if it aborts)`,
    ]);
    const before = Date.now();
    const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
    const after = Date.now();
    expect(metricValue(metrics, 'schemawatch_version_removable{subject="event",version="1.0.0"}')).toBe(0);
    // the age is read at scrape time, between before and after
    const age = metricValue(
      metrics,
      `schemawatch_open_transaction_age_seconds{topic="${topic}",partition="0"}`,
    )!;
    expect(age).toBeGreaterThanOrEqual((before - open.since) / 1000);
    expect(age).toBeLessThanOrEqual((after - open.since) / 1000);
    expect(metricValue(metrics, `schemawatch_open_transaction_records{topic="${topic}",partition="0"}`)).toBe(
      50,
    );
    expect(monitor.status().openTransactions).toEqual([{ topic, partition: 0, records: 50 }]);
    const report = monitor.report().subjects[0]!;
    expect(report.openTransactions).toEqual([
      { topic, partition: 0, since: new Date(open.since).toISOString(), records: 50 },
    ]);
    expect(recordsOf(monitor, "1.0.0")).toBe(0);

    await transaction.commit();
    await waitFor(() => countedRecords(monitor) === 53, "the 50 committed records", 60_000);
    expect(recordsOf(monitor, "1.0.0")).toBe(50);
    await waitFor(
      () => monitor.lifecycle.lifecycle.coverage.openTransaction(topic, 0) === undefined,
      "the transaction to be read past",
      60_000,
    );
    const committed = drained(monitor);
    expect(committed.yes).toBe(false);
    expect(committed.reasons).toHaveLength(1);
    expect(committed.reasons[0]).toMatch(/^last seen (just now|\d+s ago) from producer web$/);
  });

  for (const workers of [0, 1]) {
    it(`an aborted transaction's records never count, and the version drains once the group has read past them (workers: ${workers})`, async () => {
      const { topic, monitor, transaction } = await openAcrossTheWindow(workers);
      expect(drained(monitor).yes).toBe(false);
      await transaction.abort();
      await waitFor(() => drained(monitor).yes, "1.0.0 to drain after the abort", 60_000);
      expect(drained(monitor).reasons).toEqual([]);
      expect(countedRecords(monitor)).toBe(3);
      expect(recordsOf(monitor, "1.0.0")).toBe(0);
      expect(monitor.lifecycle.lifecycle.coverage.openTransaction(topic, 0)).toBeUndefined();
      // the next lag measurement finds the partition's ends together again
      await waitFor(() => monitor.status().openTransactions.length === 0, "the ends to meet", 60_000);
      const metrics = await (await fetch(`${monitor.address}/metrics`)).text();
      expect(
        metricValue(metrics, `schemawatch_open_transaction_records{topic="${topic}",partition="0"}`),
      ).toBe(0);
    });
  }
});
