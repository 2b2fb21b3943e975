import { resolve } from "node:path";
import { CompressionTypes } from "kafkajs";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { countedRecords, startReplica as start } from "../../helpers/live.js";
import { writeTree } from "../../helpers/files.js";
import { freePort } from "../../helpers/ports.js";
import { spawnCli, type CliProcess } from "../../helpers/process.js";
import {
  createTopic,
  damageFirstBatch,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
  withAdmin,
  type TestMessage,
} from "../../helpers/kafka.js";

// Windows of a few seconds stand in for the default 7 days. Replicas publish every 10 s (the judge
// interval), so learning another replica's evidence takes up to that long.
const topics: string[] = [];
const children: CliProcess[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

afterEach(async () => {
  const brokers = await kafkaBrokers();
  const created = topics.splice(0);
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: created })).catch(() => undefined);
});

async function setup(partitions: number, window = "3s") {
  const brokers = await kafkaBrokers();
  const topic = freshTopic("sw-shared");
  const stateTopic = freshTopic("sw-state");
  topics.push(topic, stateTopic);
  await createTopic(brokers, topic, partitions);
  const dir = await writeTree({
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
state:
  topic: ${stateTopic}
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    drainWindow: ${window}
    readyWindow: ${window}
    minSamples: 10
`,
  });
  return { brokers, topic, stateTopic, configPath: `${dir}/config.yaml` };
}

async function pair(configPath: string): Promise<[RunningMonitor, RunningMonitor]> {
  const a = await start(configPath, "replica-a");
  const b = await start(configPath, "replica-b");
  await waitFor(
    () => a.health.assignedPartitions === 1 && b.health.assignedPartitions === 1,
    "one partition each",
  );
  return [a, b];
}

const message = (version: "1.0" | "1.1", partition: number, producer = "web"): TestMessage => ({
  value: JSON.stringify(version === "1.1" ? { id: 1, event: "buy", amount: 3 } : { id: 1, event: "view" }),
  headers: { producer, "schema-version": `event/${version}` },
  partition,
});

const drained = (monitor: RunningMonitor) =>
  monitor.report().subjects[0]!.versions.find((v) => v.version === "1.0.0")!.verdict!;
const counted = countedRecords;
const mine = (monitor: RunningMonitor, topic: string) => [...monitor.health.assigned.get(topic)!][0]!;

describe("the shared state topic", () => {
  it("two replicas splitting the partitions agree that 1.0.0 is drained, and that traffic brings it back", async () => {
    const { brokers, topic, configPath } = await setup(2);
    const [a, b] = await pair(configPath);
    await produce(brokers, topic, [message("1.1", 0), message("1.1", 1)]);
    await waitFor(() => counted(a) + counted(b) === 2, "2 records between them");
    await waitFor(() => drained(a).yes && drained(b).yes, "both replicas to call 1.0.0 drained");
    for (const replica of [a, b]) {
      const text = await (await fetch(`${replica.address}/metrics`)).text();
      expect(text).toContain('schemawatch_version_removable{subject="event",version="1.0.0"} 1');
    }

    // One 1.0 record on one partition: its owner sees it, the other replica learns it from the topic.
    await produce(brokers, topic, [message("1.0", mine(a, topic), "batch-job")]);
    await waitFor(() => !drained(a).yes, "the owner to take 1.0.0 back");
    await waitFor(() => !drained(b).yes, "the other replica to take 1.0.0 back");
    expect(drained(b).reasons[0]).toMatch(/ from producer batch-job$/);
  }, 180_000);

  it("a replica that takes a partition over inherits its coverage", async () => {
    const { brokers, topic, configPath } = await setup(2);
    const [a, b] = await pair(configPath);
    const theirs = mine(b, topic);
    await produce(brokers, topic, [message("1.1", 0), message("1.1", 1)]);
    await waitFor(() => counted(a) + counted(b) === 2, "2 records between them");
    const published = () => a.lifecycle.lifecycle.coverage.get(topic, theirs);
    const own = () => b.lifecycle.lifecycle.coverage.get(topic, theirs)!;
    await waitFor(
      () => published()?.lastOffset === own().lastOffset && published()?.coveredSince === own().coveredSince,
      "b's coverage to reach a through the state topic",
    );
    const coveredSince = own().coveredSince;
    expect(a.lifecycle.lifecycle.coverage.isShared(topic, theirs)).toBe(true);

    const handover = Date.now();
    await b.stop();
    await waitFor(() => a.health.assignedPartitions === 2, "a to take both partitions");
    await produce(brokers, topic, [message("1.1", theirs)]);
    await waitFor(() => counted(a) === 2, "the record on the partition taken over");
    expect(a.lifecycle.lifecycle.coverage.get(topic, theirs)!.coveredSince).toBe(coveredSince);
    const gaps = a.lifecycle.lifecycle.coverage.gaps.filter(
      (g) => g.partition === theirs && g.at >= handover,
    );
    expect(gaps).toEqual([]);
    expect(a.lifecycle.lifecycle.coverage.isShared(topic, theirs)).toBe(false);
  }, 180_000);

  it("a replica killed without a word: its partition stops counting as observed within 5 s of its last heartbeat, so a record sent there never stands behind a drained verdict", async () => {
    const { brokers, topic, configPath } = await setup(2);
    const a = await start(configPath, "replica-a");
    // The victim runs in its own process (a SIGKILL), with the product's timings: its partition stays
    // unread until its 30 s session expires.
    const b = spawnCli(["run", "--config", configPath, "--port", String(await freePort())], {
      SCHEMAWATCH_REPLICA_ID: "replica-b",
    });
    children.push(b);
    await waitFor(() => a.health.assignedPartitions === 1, "one partition each", 120_000);
    const theirs = 1 - mine(a, topic);
    await produce(brokers, topic, [message("1.1", 0), message("1.1", 1)]);
    // b's partition counts for a through b's published coverage (not through a's own past reading).
    await waitFor(
      () => a.lifecycle.lifecycle.coverage.isShared(topic, theirs) && drained(a).yes,
      "a to call 1.0.0 drained, b's published partition included",
      120_000,
    );

    b.kill("SIGKILL");
    const killedAt = Date.now();
    await produce(brokers, topic, [message("1.0", theirs, "batch-job")]);
    const seen: Array<{ after: number; yes: boolean; reasons: string[] }> = [];
    await waitFor(
      () => {
        const verdict = drained(a);
        seen.push({ after: Date.now() - killedAt, yes: verdict.yes, reasons: verdict.reasons });
        return verdict.reasons.some((r) => r.endsWith("from producer batch-job"));
      },
      "a to take b's partition over and read the 1.0 record",
      120_000,
      100,
    );
    // Up to 5 s (aliveSlackMs) after b's last heartbeat, a second earlier at most, b's partition still
    // counts as observed: past that, until a has read the record, never drained.
    const late = seen.filter((s) => s.after >= 6_000);
    expect(late.length).toBeGreaterThan(20);
    expect(late.filter((s) => s.yes)).toEqual([]);
    expect(late[0]!.reasons).toEqual([
      expect.stringMatching(new RegExp(`^partition ${topic}/${theirs} not observed since `)),
    ]);
  }, 240_000);

  it("a state batch that cannot be decoded is reported and restarts every window, never reads as tombstones", async () => {
    const { brokers, topic, stateTopic, configPath } = await setup(1, "2s");
    await createTopic(brokers, stateTopic, 1);
    await produce(
      brokers,
      stateTopic,
      Array.from({ length: 3 }, () => ({ key: `coverage/${topic}/0`, value: "{}", partition: 0 })),
      { compression: CompressionTypes.GZIP },
    );
    await damageFirstBatch(brokers, stateTopic, 0, 0, 8);
    const monitor = await start(configPath, "replica-a");
    await waitFor(() => monitor.lifecycle.stateProblem !== undefined, "the problem to be reported");
    expect(monitor.lifecycle.stateProblem).toBe(
      `state topic ${stateTopic}: record batch ending at offset 2 cannot be decoded: every window restarts`,
    );
    await waitFor(() => monitor.health.ready, "the partition to be assigned");
    await produce(brokers, topic, [message("1.1", 0)]);
    await waitFor(() => counted(monitor) === 1, "the record");
    await waitFor(
      () => monitor.lifecycle.lifecycle.knownPartitions.has(topic),
      "the partitions to be listed",
    );
    const verdict = drained(monitor);
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons).toEqual([
      expect.stringMatching(new RegExp(`^coverage gap on ${topic}/0 until `)),
    ]);
  }, 180_000);

  it("a corrupt record in the state topic is reported and restarts the window, never reads as no traffic", async () => {
    const { brokers, topic, stateTopic, configPath } = await setup(1, "2s");
    const monitor = await start(configPath, "replica-a");
    await waitFor(() => monitor.health.ready, "the partition to be assigned");
    await produce(brokers, topic, [message("1.1", 0)]);
    await waitFor(() => drained(monitor).yes, "1.0.0 to drain");

    await produce(brokers, stateTopic, [{ key: `coverage/${topic}/0`, value: "{not json" }]);
    await waitFor(() => monitor.lifecycle.stateProblem !== undefined, "the problem to be reported");
    expect(monitor.lifecycle.stateProblem).toBe(
      `state topic ${stateTopic}: record coverage/${topic}/0 is unreadable: treated as a coverage gap`,
    );
    const verdict = drained(monitor);
    expect(verdict.yes).toBe(false);
    expect(verdict.reasons).toEqual([
      expect.stringMatching(new RegExp(`^coverage gap on ${topic}/0 until `)),
    ]);
    const report = monitor.report();
    expect(report.stateProblem).toBe(monitor.lifecycle.stateProblem);
    expect(report.subjects[0]!.recentGaps.map((g) => g.reason)).toContain("state-unreadable");
  }, 180_000);
});
