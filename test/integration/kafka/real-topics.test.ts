// Topics as production writes them, through a real broker: records the monitor cannot fully read,
// null headers, deep documents, a batch the broker serves damaged, partitions added while running.
import { resolve } from "node:path";
import { CompressionTypes } from "kafkajs";
import { describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import type { MonitorStatus } from "../../../src/report/status.js";
import { writeTree } from "../../helpers/files.js";
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
import { produceWithJava, type JavaCompression, type JavaRecord } from "../../helpers/java-producer.js";
import { countedRecords, metricValue, startLiveMonitor } from "../../helpers/live.js";

interface Setup {
  readonly brokers: string[];
  readonly topics: string[];
  readonly configPath: string;
}

/** A monitor of `event` on fresh topics, reading from the beginning, with short windows. */
async function setup(
  partitions: number[],
  options: { extra?: string; subjectExtra?: string; window?: string } = {},
): Promise<Setup> {
  const brokers = await kafkaBrokers();
  const topics = partitions.map(() => freshTopic("sw-real"));
  for (const [i, topic] of topics.entries()) await createTopic(brokers, topic, partitions[i]);
  const dir = await writeTree({
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  fromBeginning: true
  lagInterval: 500ms
logLevel: silent
${options.extra ?? ""}subjects:
  - name: event
    topics: [${topics.join(", ")}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    producer:
      header: producer
    drainWindow: ${options.window ?? "3s"}
    readyWindow: ${options.window ?? "3s"}
${options.subjectExtra ?? ""}`,
  });
  return { brokers, topics, configPath: `${dir}/config.yaml` };
}

async function start(configPath: string): Promise<RunningMonitor> {
  const monitor = await startLiveMonitor(configPath);
  await waitFor(() => monitor.health.ready, "partitions to be assigned");
  return monitor;
}

const view = (id: number, producer: string, version = "event/1.0"): TestMessage => ({
  value: JSON.stringify({ id, event: "view" }),
  headers: { producer, "schema-version": version },
});
const paid = (id: number, producer = "mobile"): TestMessage => ({
  value: JSON.stringify({ id, event: "buy", amount: 3 }),
  headers: { producer, "schema-version": "event/1.1" },
});

async function scrape(monitor: RunningMonitor): Promise<string> {
  return (await fetch(`${monitor.address}/metrics`)).text();
}

function records(text: string, topic: string, producer: string, writer: string): number | undefined {
  return metricValue(
    text,
    `schemawatch_records_total{topic="${topic}",subject="event",producer="${producer}",writer_version="${writer}"}`,
  );
}

function decodeErrors(text: string, topic: string, reason: string): number | undefined {
  return metricValue(text, `schemawatch_decode_errors_total{topic="${topic}",reason="${reason}"}`);
}

const verdict = (monitor: RunningMonitor, version: string) =>
  monitor.report().subjects[0]!.versions.find((v) => v.version === version)!.verdict!;

/** Whether a verdict's reason is about observation (a partition not observed for the whole window). */
const aboutCoverage = (reason: string): boolean =>
  /^(no partition of |the partitions of |coverage gap on |partition )/.test(reason);

/**
 * Sends pair i = 0, 1, 2, ... (two records each), each counted before the next, until 1.0.0's
 * verdict no longer waits for coverage: the partition has been observed for the whole window, with
 * these records arriving throughout it. Returns the number of pairs sent.
 */
async function produceUntilCovered(
  monitor: RunningMonitor,
  send: (i: number) => Promise<unknown>,
): Promise<number> {
  let sent = 0;
  do {
    await send(sent);
    sent++;
    await waitFor(() => countedRecords(monitor) === 2 * sent, `${2 * sent} records`);
  } while (verdict(monitor, "1.0.0").reasons.some(aboutCoverage));
  return sent;
}

describe("real topics through a real broker", () => {
  it("a deprecated version sent only in records too large to parse is counted and not drained", async () => {
    const { brokers, topics, configPath } = await setup([1], { extra: "maxRecordBytes: 256\n" });
    const [topic] = topics as [string];
    const monitor = await start(configPath);
    const big = (id: number): TestMessage => ({
      value: JSON.stringify({ id, event: "view", pad: "x".repeat(400) }),
      headers: { producer: "archive", "schema-version": "event/1.0" },
    });
    // 1.1 traffic throughout, and a 1.0 record too large to parse, until the partition has been
    // observed for the whole drain window: only those records can keep 1.0.0 from being drained.
    const sent = await produceUntilCovered(monitor, (i) => produce(brokers, topic, [paid(i), big(i)]));
    const text = await scrape(monitor);
    expect(records(text, topic, "archive", "1.0.0")).toBe(sent);
    expect(records(text, topic, "mobile", "1.1.0")).toBe(sent);
    expect(decodeErrors(text, topic, "too_large")).toBe(sent);
    expect(decodeErrors(text, topic, "internal_error")).toBe(0);
    const v10 = verdict(monitor, "1.0.0");
    expect(v10.yes).toBe(false);
    expect(v10.reasons).toHaveLength(1);
    expect(v10.reasons[0]).toMatch(/^last seen (just now|\d+s ago) from producer archive$/);
    expect(metricValue(text, `schemawatch_version_removable{subject="event",version="1.0.0"}`)).toBe(0);
  });

  it("records whose version is in a payload too large to read are unknown use: nothing drains while they arrive", async () => {
    const { brokers, topics, configPath } = await setup([1], {
      extra: "maxRecordBytes: 256\n",
      subjectExtra: "    writer:\n      sources: [pointer]\n      pointer: /schema\n",
    });
    const [topic] = topics as [string];
    const monitor = await start(configPath);
    const big = (id: number): TestMessage => ({
      value: JSON.stringify({ schema: "event/1.0", id, event: "view", pad: "x".repeat(400) }),
      headers: { producer: "archive" },
    });
    const small = (id: number): TestMessage => ({
      value: JSON.stringify({ schema: "event/1.1", id, event: "buy", amount: 1 }),
      headers: { producer: "mobile" },
    });
    const sent = await produceUntilCovered(monitor, (i) => produce(brokers, topic, [small(i), big(i)]));
    const text = await scrape(monitor);
    expect(records(text, topic, "archive", "unknown")).toBe(sent);
    // No record of archive's was ever read as 1.0.0: no such series exists (producers are not allow-listed).
    expect(records(text, topic, "archive", "1.0.0")).toBeUndefined();
    expect(records(text, topic, "mobile", "1.1.0")).toBe(sent);
    const v10 = verdict(monitor, "1.0.0");
    expect(v10.yes).toBe(false);
    expect(v10.reasons).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${sent} records on ${topic}/0 could not be read \\(too_large\\) since \\S+, the last one (just now|\\d+s ago): their version is unknown, so 1\\.0\\.0 may still be in use$`,
        ),
      ),
    ]);
    expect(monitor.report().subjects[0]!.unknownUse).toEqual([
      expect.objectContaining({ topic, partition: 0, reason: "too_large", records: sent }),
    ]);
  });

  it("reads every codec the Java client writes, compressed and uncompressed topics together, counting exactly", async () => {
    const codecs: JavaCompression[] = ["none", "gzip", "snappy", "lz4", "zstd"];
    const { brokers, topics, configPath } = await setup(codecs.map(() => 2));
    const monitor = await start(configPath);
    // Per topic: 60 records of 1.0 from web, 90 of 1.1 from mobile, 30 undeclared from legacy.
    for (const [i, codec] of codecs.entries()) {
      const topic = topics[i]!;
      const records: JavaRecord[] = [];
      for (let n = 0; n < 180; n++) {
        const partition = n % 2;
        if (n % 6 < 2)
          records.push({
            topic,
            partition,
            value: JSON.stringify({ id: n, event: "view" }),
            headers: [
              ["producer", "web"],
              ["schema-version", "event/1.0"],
            ],
          });
        else if (n % 6 < 5)
          records.push({
            topic,
            partition,
            value: JSON.stringify({ id: n, event: "buy", amount: n }),
            headers: [
              ["producer", "mobile"],
              ["schema-version", "event/1.1"],
            ],
          });
        else
          records.push({
            topic,
            partition,
            value: JSON.stringify({ id: n, event: "click" }),
            headers: [["producer", "legacy"]],
          });
      }
      await produceWithJava(brokers, { compression: codec, records });
    }
    await waitFor(() => countedRecords(monitor) === 5 * 180, "every record of every topic");
    const text = await scrape(monitor);
    const validation = (
      topic: string,
      producer: string,
      writer: string,
      reader: string,
      direction: string,
      result: string,
    ) =>
      metricValue(
        text,
        `schemawatch_validations_total{topic="${topic}",subject="event",producer="${producer}",writer_version="${writer}",reader_version="${reader}",direction="${direction}",result="${result}"}`,
      );
    for (const topic of topics) {
      expect([
        records(text, topic, "web", "1.0.0"),
        records(text, topic, "mobile", "1.1.0"),
        records(text, topic, "legacy", "none"),
      ]).toEqual([60, 90, 30]);
      expect(records(text, topic, "unknown", "unknown")).toBe(0);
      expect(decodeErrors(text, topic, "undecodable_batch")).toBe(0);
      // An old 1.0 consumer rejects every 1.1 record; the 2.0 candidate rejects every 1.0 one.
      expect(validation(topic, "mobile", "1.1.0", "1.0.0", "forward", "fail")).toBe(90);
      expect(validation(topic, "mobile", "1.1.0", "1.1.0", "conformance", "pass")).toBe(90);
      expect(validation(topic, "web", "1.0.0", "2.0.0", "backward", "fail")).toBe(60);
      expect(validation(topic, "legacy", "none", "1.1.0", "undeclared", "pass")).toBe(30);
    }
    expect(monitor.health.problems()).toEqual([]);
  });

  it("counts records whose headers have no value (null), from a Java producer, like records without those headers", async () => {
    const { brokers, topics, configPath } = await setup([1]);
    const [topic] = topics as [string];
    const monitor = await start(configPath);
    await produceWithJava(brokers, {
      compression: "lz4",
      records: [
        {
          topic,
          value: JSON.stringify({ id: 1, event: "view" }),
          headers: [
            ["producer", null],
            ["schema-version", null],
          ],
        },
        {
          topic,
          value: JSON.stringify({ id: 2, event: "view" }),
          headers: [
            ["producer", null],
            ["schema-version", null],
          ],
        },
        {
          topic,
          value: JSON.stringify({ id: 3, event: "buy", amount: 1 }),
          headers: [
            ["producer", null],
            ["schema-version", "event/1.1"],
          ],
        },
        {
          topic,
          value: JSON.stringify({ id: 4, event: "view" }),
          headers: [
            ["producer", "web"],
            ["schema-version", null],
            ["schema-version", "event/1.0"],
          ],
        },
      ],
    });
    await waitFor(() => countedRecords(monitor) === 4, "4 records");
    const text = await scrape(monitor);
    expect(records(text, topic, "unknown", "none")).toBe(2);
    expect(records(text, topic, "unknown", "1.1.0")).toBe(1);
    expect(records(text, topic, "web", "1.0.0")).toBe(1);
    expect(decodeErrors(text, topic, "internal_error")).toBe(0);
  });

  it("counts a document nested 100 000 deep for its version and as too_deep, never as internal_error", async () => {
    const { brokers, topics, configPath } = await setup([1], { extra: "corpus:\n  enabled: true\n" });
    const [topic] = topics as [string];
    const monitor = await start(configPath);
    const depth = 100_000;
    await produce(brokers, topic, [
      {
        value: `{"id":1,"event":"view","x":${"[".repeat(depth)}${"]".repeat(depth)}}`,
        headers: { producer: "deep", "schema-version": "event/1.0" },
      },
      view(2, "web"),
    ]);
    await waitFor(() => countedRecords(monitor) === 2, "2 records");
    const text = await scrape(monitor);
    expect(records(text, topic, "deep", "1.0.0")).toBe(1);
    expect(decodeErrors(text, topic, "too_deep")).toBe(1);
    expect(decodeErrors(text, topic, "internal_error")).toBe(0);
  });

  it("a batch the broker serves damaged is counted, becomes a coverage gap and a named problem, and stalls nothing else", async () => {
    const { brokers, topics, configPath } = await setup([3, 1]);
    const [main, other] = topics as [string, string];
    // Partition 1 gets one gzip batch of 10 records, then its bytes are damaged on the broker's disk.
    await produce(
      brokers,
      main,
      Array.from({ length: 10 }, (_, i) => ({ ...view(i, "web"), partition: 1 })),
      { compression: CompressionTypes.GZIP },
    );
    await damageFirstBatch(brokers, main, 1, 0, 8);
    await produce(brokers, main, [
      ...Array.from({ length: 5 }, (_, i) => ({ ...paid(i), partition: 0 })),
      ...Array.from({ length: 7 }, (_, i) => ({ ...paid(i), partition: 2 })),
    ]);
    await produce(
      brokers,
      other,
      Array.from({ length: 4 }, (_, i) => view(i, "web")),
    );
    const monitor = await start(configPath);
    await waitFor(() => countedRecords(monitor) === 26, "26 records (16 read, 10 undecodable)");
    // Past the damaged batch, partition 1 is read as usual.
    await produce(brokers, main, [{ ...paid(99, "billing"), partition: 1 }]);
    await waitFor(() => countedRecords(monitor) === 27, "the record after the damaged batch");

    const text = await scrape(monitor);
    expect(records(text, main, "mobile", "1.1.0")).toBe(12);
    expect(records(text, main, "billing", "1.1.0")).toBe(1);
    expect(records(text, main, "unknown", "unknown")).toBe(10);
    expect(records(text, other, "web", "1.0.0")).toBe(4);
    expect(decodeErrors(text, main, "undecodable_batch")).toBe(10);
    expect(metricValue(text, "schemawatch_broker_up")).toBe(1);

    const gaps = monitor.report().subjects[0]!.recentGaps.filter((g) => g.reason === "undecodable-batch");
    expect(gaps.map((g) => `${g.topic}/${g.partition}`)).toEqual([`${main}/1`]);
    expect(gaps[0]!.detail).toMatch(/^offsets 0\.\.9: gzip batch cannot be decompressed: /);

    const readyz = await fetch(`${monitor.address}/readyz`);
    expect(readyz.status).toBe(200);
    const body = (await readyz.json()) as {
      status: string;
      problems: Array<{ problem: string; count: number }>;
    };
    expect(body.status).toBe("ready");
    expect(body.problems).toEqual([
      expect.objectContaining({
        count: 1,
        problem: expect.stringMatching(
          new RegExp(
            `^${main}/1: a batch of 10 records at offsets 0\\.\\.9 could not be decoded \\(gzip batch`,
          ),
        ),
      }),
    ]);
    const status = (await (await fetch(`${monitor.address}/api/status`)).json()) as MonitorStatus;
    expect(status.problems).toHaveLength(1);
    // The window of partition 1 restarted at the damaged batch (a 3 s window in this test).
    const until = new Date(Date.parse(gaps[0]!.at) + 3_000).toISOString().replace(/:\d\d\.\d{3}Z$/, "Z");
    expect(verdict(monitor, "1.0.0").reasons).toContain(`coverage gap on ${main}/1 until ${until}`);
  });

  it("reads partitions added to a monitored topic while running", async () => {
    const { brokers, topics, configPath } = await setup([1]);
    const [topic] = topics as [string];
    const monitor = await start(configPath);
    await produce(brokers, topic, [view(0, "web")]);
    await waitFor(() => countedRecords(monitor) === 1, "the first record");
    await withAdmin(brokers, (admin) =>
      admin.createPartitions({ topicPartitions: [{ topic, count: 3 }], timeout: 15_000 }),
    );
    // Produced at once: the records wait in the new partitions until the monitor notices them.
    await produce(brokers, topic, [
      ...Array.from({ length: 6 }, (_, i) => ({ ...paid(i), partition: 1 })),
      ...Array.from({ length: 4 }, (_, i) => ({ ...paid(i), partition: 2 })),
    ]);
    // kafkajs's metadata expires after tuning.metadataMaxAge (10 s), then the group rebalances.
    await waitFor(() => countedRecords(monitor) === 11, "the records of the added partitions").catch(
      (error: unknown) => {
        const counted = monitor.pipeline.tallies.records.reduce((s, c) => s + c.value, 0);
        throw new Error(
          `${(error as Error).message} (counted ${counted}, pending validations ${monitor.pipeline.pendingValidations}, assigned ${JSON.stringify([...(monitor.health.assigned.get(topic) ?? [])])})`,
        );
      },
    );
    expect(monitor.health.assigned.get(topic)).toEqual(new Set([0, 1, 2]));
    const firsts = monitor.lifecycle.lifecycle.coverage.gaps
      .filter((g) => g.topic === topic && g.reason === "first-observation")
      .map((g) => g.partition)
      .sort();
    expect(firsts).toEqual([0, 1, 2]);
  });
});
