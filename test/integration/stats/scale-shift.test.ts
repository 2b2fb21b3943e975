import { describe, expect, it } from "vitest";
import { clock } from "../../../src/stats/findings.js";
import { countedRecords, eventTopicConfig, startLiveMonitor } from "../../helpers/live.js";
import { produce, waitFor, type TestMessage } from "../../helpers/kafka.js";

// Issue 29 through a real broker: buckets of 5 s stand in for hours. One bucket of every producer's
// ordinary amounts (in cents), then, in the next bucket, billing's amounts in dollars and a new event
// value, and the three changes that are not findings: a 30% rise, one huge outlier, and a producer
// with 20 records in all.

const BUCKET_MS = 5_000;
/** Amounts between 10.00 and 99.99 in cents, spread evenly, the same in every round. */
const cents = (i: number) => 1000 + ((i * 7919) % 9000);

function records(producer: string, amounts: readonly number[], event = (_i: number) => "buy"): TestMessage[] {
  return amounts.map((amount, i) => ({
    key: `${producer}-${i}`,
    value: JSON.stringify({ id: i, event: event(i), amount }),
    headers: { producer, "schema-version": "event/1.1" },
  }));
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe("field statistics through a real broker", () => {
  it("find cents turned into dollars and a new enum value, named with the bucket they began in, and nothing else", async () => {
    const { brokers, topic, configPath } = await eventTopicConfig({
      prefix: "sw-stats",
      partitions: 1,
      drainWindow: "7d",
      extra: () => "stats:\n  bucket: 5s\n",
    });
    const monitor = await startLiveMonitor(configPath);
    await waitFor(() => monitor.health.ready, "partitions to be assigned");
    await produce(brokers, topic, [
      ...records("billing", range(60).map(cents)),
      ...records("trend", range(60).map(cents)),
      ...records("outlier", range(60).map(cents)),
      ...records("small", range(10).map(cents)),
    ]);
    await waitFor(() => countedRecords(monitor) === 190, "190 records");
    // The next bucket, once the monitor's coarse clock (ticked every 250 ms) is surely in it.
    const next = (Math.floor((Date.now() + 500) / BUCKET_MS) + 1) * BUCKET_MS;
    await waitFor(() => Date.now() >= next + 1_000, "the next bucket");
    await produce(brokers, topic, [
      ...records(
        "billing",
        range(60).map((i) => cents(i) / 100),
        (i) => (i === 0 ? "click" : "buy"),
      ),
      ...records(
        "trend",
        range(60).map((i) => cents(i) * 1.3),
      ),
      ...records(
        "outlier",
        range(60).map((i) => (i === 30 ? 1e12 : cents(i))),
      ),
      ...records(
        "small",
        range(10).map((i) => cents(i) / 100),
      ),
    ]);
    await waitFor(() => countedRecords(monitor) === 380, "380 records");

    let lines: string[] = [];
    const found = (field: string, producer: string, kind: string, value: number) =>
      `schemawatch_field_findings{subject="event",field="${field}",producer="${producer}",kind="${kind}"} ${value}`;
    await waitFor(async () => {
      const text = await (await fetch(`${monitor.address}/metrics`)).text();
      lines = text.split("\n").filter((l) => l.startsWith("schemawatch_field_findings{"));
      return lines.includes(found("/amount", "billing", "scale", 1));
    }, "the findings");
    // Every profiled field of every producer has its count, 0 where nothing is found.
    const expected = ["billing", "outlier", "small", "trend"].flatMap((p) => [
      found("/id", p, "scale", 0),
      found("/id", p, "peers", 0),
      found("/event", p, "new_value", p === "billing" ? 1 : 0),
      found("/event", p, "share", 0),
      found("/amount", p, "scale", p === "billing" ? 1 : 0),
      found("/amount", p, "peers", 0),
    ]);
    expect(lines.sort()).toEqual(expected.sort());
    expect(monitor.stats!.findings(Date.now()).map((f) => f.message)).toEqual([
      `billing's /event (event) sent a value never seen before, "click", since ${clock(next)} (once; 60 values before it)`,
      `billing's /amount (event, version 1.1.0) is 100 times smaller since ${clock(next)} while its schema did not change: check its unit`,
    ]);
  });
});
