import { readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import type { QuantileSample } from "../../../src/stats/stats.js";
import { countedRecords, startReplica as start } from "../../helpers/live.js";
import { paySend as send, payTopic } from "../../helpers/pay-topic.js";
import { freshTopic, kafkaBrokers, produce, waitFor, withAdmin } from "../../helpers/kafka.js";

// Two replicas sharing a state topic through a real broker (issues 28 and 29): field evidence, field
// statistics and the retirement date of a version, each learnt from the other replica and kept across
// a restart. `/amount` is deprecated in pay 1.1; records carrying it go to replica A's partition only.

const topics: string[] = [];

afterEach(async () => {
  const brokers = await kafkaBrokers();
  const created = topics.splice(0);
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: created })).catch(() => undefined);
});

async function setup(state: "topic" | "file" = "topic") {
  const stateTopic = freshTopic("sw-state");
  const made = await payTopic({
    prefix: "sw-shared-fields",
    window: "20s",
    deprecated: true,
    top: `${state === "topic" ? `state:\n  topic: ${stateTopic}\n` : ""}stats:\n  bucket: 30s\n`,
  });
  topics.push(made.topic, stateTopic);
  return made;
}

/** Pay 1.0.0 retired in the config file, which a live monitor reloads when it changes. */
async function retire(configPath: string): Promise<void> {
  const text = await readFile(configPath, "utf8");
  await writeFile(
    configPath,
    text.replace('"1.0.0": { status: deprecated }', '"1.0.0": { status: retired }'),
  );
}

const since = (m: RunningMonitor) => m.lifecycle.lifecycle.retired.since("pay", "1.0.0");
const usesOf = (m: RunningMonitor) =>
  m.lifecycle.lifecycle.fields
    .usesOf("pay", "/amount")
    .map((u) => [u.producer, u.lastPresentAt, u.buckets.reduce((n, b) => n + b.present, 0)]);

const amount = (m: RunningMonitor): FieldVerdict =>
  m.report().subjects[0]!.fields!.find((f) => f.field === "/amount")!;
const mine = (m: RunningMonitor, topic: string) => [...m.health.assigned.get(topic)!][0]!;
const withoutLast = (reason: string) => reason.replace(/, the last one .*$/, "");

/** A monitor's quartiles of billing's /amount in the bucket that starts at `at`. */
const billing = (m: RunningMonitor, at: number): QuantileSample[] =>
  [...m.stats!.quantiles(at)].filter((q) => q.labels.producer === "billing" && q.labels.field === "/amount");

describe("replicas sharing field evidence, statistics and retirement dates", () => {
  it("B judges a deprecated field A saw carried, reports A's producer's quartiles, and a restart of A keeps both, and the retirement date", async () => {
    const { brokers, topic, configPath } = await setup();
    const a = await start(configPath, "replica-a");
    const b = await start(configPath, "replica-b");
    await waitFor(
      () => a.health.assignedPartitions === 1 && b.health.assignedPartitions === 1,
      "one partition each",
    );
    const partitionA = mine(a, topic);
    const partitionB = mine(b, topic);
    await produce(brokers, topic, [
      ...send("web", 5, `"total":1`, partitionA),
      ...send("web", 5, `"total":1`, partitionB),
    ]);
    await waitFor(() => countedRecords(a) === 5 && countedRecords(b) === 5, "5 records each");
    await waitFor(() => amount(b).yes, "B to call /amount drained", 90_000);

    // Billing sends the deprecated field, on A's partition only: B has none of its records.
    await produce(brokers, topic, send("billing", 4, `"amount":250,"total":2.5`, partitionA));
    await waitFor(() => countedRecords(a) === 9, "billing's records on A");
    await waitFor(() => !amount(b).yes, "B to take /amount back into use", 30_000);
    const status = (await (await fetch(`${b.address}/api/status`)).json()) as {
      fields: Record<string, FieldVerdict[]>;
    };
    const onB = status.fields["pay"]!.find((f) => f.field === "/amount")!;
    expect(onB.yes).toBe(false);
    expect(onB.reasons.map(withoutLast)).toEqual([
      "billing still sends /amount in 100% of its records (4 of 4 in the last 20s; writer 1.1.0)",
    ]);
    expect(b.lifecycle.lifecycle.fields.usesOf("pay", "/amount").map((u) => u.producer)).toEqual(["web"]);

    // Its statistics: B reports billing's quartiles, which only A measured, exactly as A does.
    const series = [...a.stats!.store.all()].find((s) => s.producer === "billing" && s.field === "/amount")!;
    const at = series.buckets()[0]!.index * a.config.stats.bucket;
    expect(billing(a, at).map((q) => q.value)).toEqual([
      expect.closeTo(250, -1),
      expect.closeTo(250, -1),
      expect.closeTo(250, -1),
    ]);
    await waitFor(() => billing(b, at).length === 3, "B to learn billing's statistics", 60_000);
    expect(billing(b, at)).toEqual(billing(a, at));
    expect([...b.stats!.store.all()].filter((s) => s.producer === "billing")).toEqual([]);

    // Pay 1.0.0 retired (the config file changes; both replicas reload it): one date, the earliest.
    const text = await readFile(configPath, "utf8");
    await writeFile(
      configPath,
      text.replace('"1.0.0": { status: deprecated }', '"1.0.0": { status: retired }'),
    );
    const since = (m: RunningMonitor) => m.lifecycle.lifecycle.retired.since("pay", "1.0.0");
    await waitFor(
      () => since(a) !== undefined && since(a) === since(b),
      "both replicas to agree on the date",
      30_000,
    );
    const retiredAt = since(a)!;

    // A restarts: its evidence, statistics and the date come back from the topic alone.
    const before = billing(a, at);
    await a.stop();
    const a2 = await start(configPath, "replica-a");
    expect(since(a2)).toBe(retiredAt);
    expect(billing(a2, at)).toEqual(before);
    expect(usesOf(a2)).toEqual(usesOf(a));
    expect(usesOf(a2).map(([producer, , carried]) => [producer, carried])).toEqual([
      ["billing", 4],
      ["web", 0],
    ]);
  }, 240_000);

  it("one monitor with a state file keeps its field evidence, statistics and retirement date across a restart", async () => {
    const { brokers, topic, configPath } = await setup("file");
    const first = await start(configPath, "solo");
    await waitFor(() => first.health.ready, "the partitions to be assigned");
    await produce(brokers, topic, [
      ...send("billing", 4, `"amount":250,"total":2.5`, 0),
      ...send("web", 3, `"total":1`, 1),
    ]);
    await waitFor(() => countedRecords(first) === 7, "7 records");
    // folded into the field evidence once a second
    await waitFor(() => usesOf(first).length === 2, "both producers' field evidence");
    await retire(configPath);
    await waitFor(() => since(first) !== undefined, "the reload to date the retirement");
    const series = [...first.stats!.store.all()].find(
      (s) => s.producer === "billing" && s.field === "/amount",
    )!;
    const at = series.buckets()[0]!.index * first.config.stats.bucket;
    const before = { since: since(first), uses: usesOf(first), quartiles: billing(first, at) };
    expect(before.quartiles).toHaveLength(3);
    expect(before.uses.map(([producer, , carried]) => [producer, carried])).toEqual([
      ["billing", 4],
      ["web", 0],
    ]);
    await first.stop();
    const second = await start(configPath, "solo");
    expect({ since: since(second), uses: usesOf(second), quartiles: billing(second, at) }).toEqual(before);
  }, 120_000);
});
