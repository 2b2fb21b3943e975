import { describe, expect, it } from "vitest";
import type { IdLookups } from "../../../src/catalog/lookups.js";
import type { PipelineHooks } from "../../../src/pipeline/pipeline.js";
import type { HeaderValue } from "../../../src/pipeline/record.js";
import { GUID_HEADER } from "../../../src/pipeline/writer.js";
import { liveLifecycle } from "../../helpers/lifecycle.js";
import {
  decodeCounts,
  eventPipeline,
  record,
  recordCounts,
  validationCounts,
} from "../../helpers/monitor.js";

/** A pipeline of the `event` catalog (1.0 deprecated) that lists each unknown use it reports. */
async function watched(subjectExtra = "", hooks: PipelineHooks = {}) {
  const unread: string[] = [];
  const { pipeline } = await eventPipeline(subjectExtra, "", {
    ...hooks,
    unreadable: [
      (_s, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
    ],
  });
  const tombstones = () =>
    pipeline.tallies.tombstones.map((c) => `${c.labels.topic} ${c.labels.subject}=${c.value}`);
  return { pipeline, unread, tombstones };
}

const nullValue = (headers: Record<string, HeaderValue> = {}, key?: string) =>
  record(undefined, headers, key === undefined ? {} : { key });
const emptyValue = (headers: Record<string, HeaderValue> = {}) =>
  record(undefined, headers, { raw: Buffer.alloc(0) });

describe("tombstones (a null or empty value)", () => {
  it("under the default writer sources: writer none and a tombstone, never unknown use nor a decode error", async () => {
    const { pipeline, unread, tombstones } = await watched();
    expect(tombstones()).toEqual(["events event=0"]);
    for (let i = 0; i < 3; i++) pipeline.process(nullValue());
    for (let i = 0; i < 2; i++) pipeline.process(emptyValue());
    expect(recordCounts(pipeline)).toEqual(["unknown none=5"]);
    expect(tombstones()).toEqual(["events event=5"]);
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(validationCounts(pipeline)).toEqual([]);
    expect(unread).toEqual([]);
  });

  it("with the version only in the payload, and with sampling that would skip undeclared records: still no unknown use", async () => {
    const { pipeline, unread, tombstones } = await watched(
      "    writer:\n      sources: [pointer]\n    sampling:\n      ratio: 0.01\n",
    );
    for (let i = 0; i < 4; i++) pipeline.process(nullValue());
    expect(recordCounts(pipeline)).toEqual(["unknown none=4"]);
    expect(tombstones()).toEqual(["events event=4"]);
    expect(unread).toEqual([]);
  });

  it("a version header on a tombstone declares no use of that version: counted as writer none", async () => {
    const { pipeline, unread, tombstones } = await watched();
    pipeline.process(nullValue({ "schema-version": "event/1.0", producer: "web" }));
    pipeline.process(emptyValue({ "schema-version": "9.9", producer: "web" }));
    expect(recordCounts(pipeline)).toEqual(["web none=2"]);
    expect(tombstones()).toEqual(["events event=2"]);
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(unread).toEqual([]);
  });

  it("an unknown GUID header on a tombstone waits for no lookup", async () => {
    const requested: string[] = [];
    const lookups: IdLookups = {
      request: () => undefined,
      requestGuid: (guid) => (requested.push(guid), new Promise<void>(() => undefined)),
      wait: 60_000,
      waitRecords: 100,
    };
    const { pipeline, unread } = await watched("", { lookups: () => lookups });
    const guid = Buffer.concat([Buffer.from([1]), Buffer.alloc(16, 0xab)]);
    pipeline.process(nullValue({ [GUID_HEADER]: guid }));
    expect([pipeline.waitingForLookups, requested.length]).toEqual([0, 0]);
    expect(recordCounts(pipeline)).toEqual(["unknown none=1"]);
    expect(unread).toEqual([]);
  });

  it("names the producer from its header or key", async () => {
    const { pipeline } = await watched("    producer:\n      keyPattern: '^([a-z]+):'\n");
    pipeline.process(nullValue({}, "billing:7"));
    pipeline.process(nullValue({}, "7"));
    expect(recordCounts(pipeline)).toEqual(["billing none=1", "unknown none=1"]);
  });

  it("are observed when they come (the latest, whatever order their timestamps have), and a key too long is counted", async () => {
    const { pipeline } = await watched("    producer:\n      keyPattern: '^([a-z]+):'\n");
    const at = (timestamp: number) => record(undefined, {}, { timestamp, key: "billing:1" });
    pipeline.process(at(1_796_112_000_000));
    pipeline.process(at(1_796_112_009_000));
    pipeline.process(at(1_796_112_005_000));
    pipeline.process(record(undefined, {}, { key: "b".repeat(16_385) }));
    const none = (producer: string) =>
      pipeline.tallies.allSeries.find(
        (s) => s.count.labels.producer === producer && s.count.labels.writer_version === "none",
      )!;
    expect(none("billing").lastObservedMs).toBe(1_796_112_009_000);
    expect(none("billing").count.value).toBe(3);
    expect(decodeCounts(pipeline)).toEqual(["events key_too_long=1"]);
    expect(recordCounts(pipeline)).toEqual(["billing none=3", "unknown none=1"]);
  });

  it("a value of one space is no tombstone: not JSON, and its version (in the payload) unknown", async () => {
    const { pipeline, unread, tombstones } = await watched();
    pipeline.process(record(undefined, {}, { raw: Buffer.from(" ") }));
    expect(recordCounts(pipeline)).toEqual(["unknown unknown=1"]);
    expect(tombstones()).toEqual(["events event=0"]);
    expect(decodeCounts(pipeline)).toEqual(["events not_json=1"]);
    expect(unread).toEqual(["events/0 not_json 1"]);
  });

  it("leave a deprecated version no evidence of use: the lifecycle keeps no unknown use for them", async () => {
    const { pipeline, lifecycle } = await liveLifecycle();
    pipeline.process(record({ id: 1, event: "view", amount: 2 }, { "schema-version": "1.1" }));
    for (let i = 0; i < 3; i++) pipeline.process(nullValue());
    pipeline.process(emptyValue({ "schema-version": "1.0" }));
    expect(lifecycle.unreadableOf("event")).toEqual([]);
    expect(recordCounts(pipeline)).toEqual(["unknown 1.1.0=1", "unknown none=4"]);
  });
});
