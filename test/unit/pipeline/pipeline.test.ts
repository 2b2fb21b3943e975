import { describe, expect, it } from "vitest";
import { Corpus } from "../../../src/corpus/corpus.js";
import { feedCorpus } from "../../../src/corpus/feed.js";
import { resolve } from "node:path";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import {
  decodeCounts,
  eventConfigYaml,
  eventPipeline,
  record,
  recordCounts,
  validationCounts,
  wire,
} from "../../helpers/monitor.js";

const V1 = { id: 1, event: "view" };
const V11 = { id: 2, event: "buy", amount: 5 };

describe("pipeline: writer version", () => {
  it("reads a header in every accepted form", async () => {
    const { pipeline } = await eventPipeline();
    pipeline.process(record(V1, { "schema-version": "event/1.0", producer: "web" }));
    pipeline.process(record(V1, { "schema-version": "1.0.0", producer: "web" }));
    pipeline.process(record(V11, { "schema-version": Buffer.from("v1.1"), producer: "mobile" }));
    expect(recordCounts(pipeline)).toEqual(["mobile 1.1.0=1", "web 1.0.0=2"]);
  });

  it("counts a version the catalog does not know, or another subject's, as unknown_version of writer unknown", async () => {
    const { pipeline } = await eventPipeline();
    pipeline.process(record(V1, { "schema-version": "event/9.0" }));
    pipeline.process(record(V1, { "schema-version": "order/1.0" }));
    pipeline.process(record(V1, { "schema-version": "latest" }));
    expect(recordCounts(pipeline)).toEqual(["unknown unknown=3"]);
    expect(decodeCounts(pipeline)).toEqual(["events unknown_version=3"]);
  });

  it("reads the Confluent wire prefix and validates the JSON after it", async () => {
    const { pipeline } = await eventPipeline();
    pipeline.process(record(undefined, { producer: "billing" }, { raw: wire(102, V11) }));
    pipeline.process(record(undefined, { producer: "billing" }, { raw: wire(999, V11) }));
    pipeline.process(record(undefined, { producer: "billing" }, { raw: Buffer.from([0, 0, 1]) }));
    expect(recordCounts(pipeline)).toEqual(["billing 1.1.0=1", "billing unknown=2"]);
    expect(decodeCounts(pipeline)).toEqual(["events truncated_wire_prefix=1", "events unknown_schema_id=1"]);
    expect(validationCounts(pipeline)).toEqual([
      "billing 1.1.0>1.0.0 forward fail=1",
      "billing 1.1.0>1.1.0 conformance pass=1",
      "billing 1.1.0>2.0.0 backward pass=1",
    ]);
  });

  it("reads the __value_schema_id GUID header", async () => {
    const { pipeline } = await eventPipeline();
    const guid = Buffer.concat([Buffer.from([1]), Buffer.from("0f8e1a523c4d4b6e9f70112233445566", "hex")]);
    pipeline.process(record(V1, { __value_schema_id: guid, producer: "web" }));
    pipeline.process(record(V1, { __value_schema_id: Buffer.from([1, 2, 3]) }));
    expect(recordCounts(pipeline)).toEqual(["unknown unknown=1", "web 1.0.0=1"]);
    expect(decodeCounts(pipeline)).toEqual(["events unknown_schema_id=1"]);
  });

  it('reads a JSON Pointer into the payload, as the article\'s "schema": "event/1.1"', async () => {
    const { pipeline } = await eventPipeline(
      "    writer:\n      sources: [pointer]\n      pointer: /schema\n",
    );
    pipeline.process(record({ ...V1, schema: "event/1.0" }, { producer: "web" }));
    pipeline.process(record({ ...V1 }, { producer: "web" }));
    expect(recordCounts(pipeline)).toEqual(["web 1.0.0=1", "web none=1"]);
  });

  it("tries the sources in the configured order", async () => {
    const { pipeline } = await eventPipeline("    writer:\n      sources: [header, wire]\n");
    pipeline.process(record(undefined, { "schema-version": "1.0.0", producer: "p" }, { raw: wire(102, V1) }));
    expect(recordCounts(pipeline)).toEqual(["p 1.0.0=1"]);
  });

  it("directions follow the writer: undeclared records validate as undeclared", async () => {
    const { pipeline } = await eventPipeline();
    pipeline.process(record(V1, { producer: "legacy" }));
    expect(validationCounts(pipeline)).toEqual([
      "legacy none>1.0.0 undeclared pass=1",
      "legacy none>1.1.0 undeclared pass=1",
      "legacy none>2.0.0 undeclared fail=1",
    ]);
    expect(
      pipeline.tallies.failures
        .filter((c) => c.value > 0)
        .map((c) => [c.labels.reader_version, c.labels.keyword]),
    ).toEqual([["2.0.0", "required"]]);
  });
});

describe("pipeline: producer", () => {
  it("names producers from a key pattern, and 'unknown' when absent", async () => {
    const { pipeline } = await eventPipeline("    producer:\n      keyPattern: '^([a-z-]+):'\n");
    pipeline.process(record(V1, { "schema-version": "1.0" }, { key: "checkout:123" }));
    pipeline.process(record(V1, { "schema-version": "1.0" }, { key: "no-colon" }));
    pipeline.process(record(V1, { "schema-version": "1.0" }));
    expect(recordCounts(pipeline)).toEqual(["checkout 1.0.0=1", "unknown 1.0.0=2"]);
  });

  it("names producers from a JSON Pointer", async () => {
    const { pipeline } = await eventPipeline("    producer:\n      pointer: /source\n");
    pipeline.process(record({ ...V1, source: "batch" }, { "schema-version": "1.0" }));
    expect(recordCounts(pipeline)).toEqual(["batch 1.0.0=1"]);
  });

  it("folds producers outside the allow-list into 'other' and counts the overflow", async () => {
    const { pipeline } = await eventPipeline("    producer:\n      allow: [web]\n");
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "intruder" }));
    expect(recordCounts(pipeline)).toEqual(["other 1.0.0=1", "web 1.0.0=1"]);
    expect(pipeline.subjects.get("event")!.producer.overflow).toBe(1);
  });

  it("caps distinct producers at maxValues", async () => {
    const { pipeline } = await eventPipeline("    producer:\n      maxValues: 2\n");
    for (const name of ["a", "b", "c", "a", "d"])
      pipeline.process(record(V1, { "schema-version": "1.0", producer: name }));
    expect(recordCounts(pipeline)).toEqual(["a 1.0.0=2", "b 1.0.0=1", "other 1.0.0=2"]);
    expect(pipeline.subjects.get("event")!.producer.overflow).toBe(2);
  });
});

describe("pipeline: sampling", () => {
  it("validates exactly the configured share and counts every record", async () => {
    const { pipeline } = await eventPipeline("    sampling:\n      ratio: 0.25\n");
    for (let i = 0; i < 100; i++) pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    expect(recordCounts(pipeline)).toEqual(["web 1.0.0=100"]);
    expect(validationCounts(pipeline)).toEqual([
      "web 1.0.0>1.0.0 conformance pass=25",
      "web 1.0.0>1.1.0 backward pass=25",
      "web 1.0.0>2.0.0 backward fail=25",
    ]);
    expect(pipeline.subjects.get("event")!.sampler.effectiveRatio()).toBe(0.25);
  });

  it("caps validations per second and lowers the effective ratio", async () => {
    let now = 1_000_000;
    const { pipeline } = await eventPipeline("    sampling:\n      maxPerSecond: 10\n", "", {
      now: () => now,
    });
    for (let i = 0; i < 40; i++) pipeline.process(record(V1, { "schema-version": "1.0" }));
    now += 500; // half a second refills five tokens
    for (let i = 0; i < 40; i++) pipeline.process(record(V1, { "schema-version": "1.0" }));
    const sampler = pipeline.subjects.get("event")!.sampler;
    expect(validationCounts(pipeline)).toContain("unknown 1.0.0>1.0.0 conformance pass=15");
    expect(sampler.effectiveRatio()).toBe(15 / 80);
  });
});

describe("pipeline: bad records", () => {
  it("counts each kind of undecodable record by reason and keeps going", async () => {
    const { pipeline } = await eventPipeline("", "maxRecordBytes: 64\n");
    pipeline.process(record(undefined, { "schema-version": "1.0" }, { raw: Buffer.from('{"id": ') }));
    pipeline.process(record(undefined, {}, { raw: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]) }));
    pipeline.process(record(undefined, {}, { raw: Buffer.alloc(65, 0x20) }));
    pipeline.process(record(undefined, {}, { raw: Buffer.alloc(0) }));
    pipeline.process(record(V1, {}, { topic: "somebody-elses-topic" }));
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    // The empty value is a tombstone, no decode error (tombstones.test.ts).
    expect(decodeCounts(pipeline)).toEqual([
      "events not_json=1",
      "events not_utf8=1",
      "events too_large=1",
      "unknown unknown_topic=1",
    ]);
    expect(validationCounts(pipeline)).toContain("web 1.0.0>1.0.0 conformance pass=1");
  });
});

describe("pipeline: records it cannot fully read", () => {
  const deep = (depth: number) => `{"id":1,"event":"view","x":${"[".repeat(depth)}${"]".repeat(depth)}}`;

  it("reads the version and producer of a too-large or unparseable record from its headers and counts it", async () => {
    const unread: string[] = [];
    const { pipeline } = await eventPipeline("", "maxRecordBytes: 64\n", {
      unreadable: [
        (_s, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
      ],
    });
    const big = Buffer.from(JSON.stringify({ id: 1, event: "view", pad: "x".repeat(80) }));
    pipeline.process(record(undefined, { "schema-version": "1.0", producer: "web" }, { raw: big }));
    pipeline.process(
      record(undefined, { "schema-version": "1.0", producer: "web" }, { raw: Buffer.from("{") }),
    );
    expect(recordCounts(pipeline)).toEqual(["web 1.0.0=2"]);
    expect(decodeCounts(pipeline)).toEqual(["events not_json=1", "events too_large=1"]);
    expect(validationCounts(pipeline)).toEqual([]);
    // The version was read: no unknown use.
    expect(unread).toEqual([]);
  });

  it("counts a record whose version lives in a payload it cannot read as writer unknown, and says so", async () => {
    const unread: string[] = [];
    const { pipeline } = await eventPipeline(
      "    writer:\n      sources: [pointer]\n      pointer: /schema\n",
      "maxRecordBytes: 64\n",
      {
        unreadable: [
          (_s, topic, partition, reason, records) =>
            unread.push(`${topic}/${partition} ${reason} ${records}`),
        ],
      },
    );
    pipeline.process(record(undefined, { producer: "batch" }, { raw: Buffer.alloc(65, 0x20) }));
    pipeline.process(record(undefined, { producer: "batch" }, { raw: Buffer.from([0xff, 0x7b]) }));
    pipeline.process(record({ ...V1, schema: "event/1.0" }, { producer: "web" }));
    expect(recordCounts(pipeline)).toEqual(["batch unknown=2", "web 1.0.0=1"]);
    expect(unread).toEqual(["events/0 too_large 1", "events/0 not_utf8 1"]);
  });

  it("takes a record too large or too deep to validate as unknown use only when it declares no version", async () => {
    const unread: string[] = [];
    const hooks = {
      unreadable: [
        (_s: unknown, topic: string, partition: number, reason: string, records: number) =>
          unread.push(`${topic}/${partition} ${reason} ${records}`),
      ],
    };
    const small = await eventPipeline("", "maxRecordBytes: 64\n", hooks);
    const large = Buffer.from(JSON.stringify({ ...V1, pad: "x".repeat(80) }));
    small.pipeline.process(record(undefined, { producer: "web" }, { raw: large }));
    small.pipeline.process(
      record(undefined, { producer: "web", "schema-version": "event/1.0" }, { raw: large }),
    );
    expect(decodeCounts(small.pipeline)).toEqual(["events too_large=2"]);
    expect(unread).toEqual(["events/0 too_large 1"]);

    unread.length = 0;
    const deep = Buffer.from(`${"[".repeat(300)}${"]".repeat(300)}`);
    const { pipeline } = await eventPipeline("", "", hooks);
    pipeline.process(record(undefined, { producer: "web" }, { raw: deep }));
    pipeline.process(record(undefined, { producer: "web", "schema-version": "event/1.0" }, { raw: deep }));
    expect(decodeCounts(pipeline)).toEqual(["events too_deep=2"]);
    expect(unread).toEqual(["events/0 too_deep 1"]);
  });

  it("reads a header sent without a value (null) as absent", async () => {
    const { pipeline } = await eventPipeline();
    pipeline.process(record(V1, { "schema-version": null, producer: null }));
    pipeline.process(record(V1, { "schema-version": [null, "1.0"], producer: [null, "web"] }));
    pipeline.process(record(V11, { "schema-version": "1.1", producer: null }));
    expect(recordCounts(pipeline)).toEqual(["unknown 1.1.0=1", "unknown none=1", "web 1.0.0=1"]);
    expect(decodeCounts(pipeline)).toEqual([]);
  });

  it("counts a document nested deeper than MAX_DOCUMENT_DEPTH as too_deep for its version, and validates nothing of it", async () => {
    const errors: unknown[] = [];
    const { pipeline } = await eventPipeline("", "", {
      validated: [feedCorpus(new Corpus({ maxShapes: 10, redact: [] }))],
      internalError: (error) => errors.push(error),
    });
    pipeline.process(
      record(undefined, { "schema-version": "1.0", producer: "deep" }, { raw: Buffer.from(deep(100_000)) }),
    );
    expect(recordCounts(pipeline)).toEqual(["deep 1.0.0=1"]);
    expect(decodeCounts(pipeline)).toEqual(["events too_deep=1"]);
    expect(validationCounts(pipeline)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("counts a bug as internal_error and hands the error, never the record's contents, to its logger", async () => {
    const seen: string[] = [];
    const unread: string[] = [];
    const { pipeline } = await eventPipeline("", "", {
      validated: [
        () => {
          throw new TypeError("a bug");
        },
      ],
      internalError: (error, r) => seen.push(`${(error as Error).message} at ${r.topic}/${r.partition}`),
      unreadable: [
        (_s, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
      ],
    });
    pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    expect(decodeCounts(pipeline)).toEqual(["events internal_error=1"]);
    expect(seen).toEqual(["a bug at events/0"]);
    // Where the record broke is unknown, and so is what it declared.
    expect(unread).toEqual(["events/0 internal_error 1"]);
  });

  it("takes an undeclared record the sampler skips as unknown use while the subject has a deprecated version", async () => {
    const unread: string[] = [];
    const { pipeline } = await eventPipeline("    sampling:\n      ratio: 0.5\n", "", {
      unreadable: [
        (_s, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
      ],
    });
    // ratio 0.5 validates exactly every second record of the subject
    for (let i = 0; i < 4; i++) pipeline.process(record(V1, { producer: "legacy" }));
    for (let i = 0; i < 4; i++) pipeline.process(record(V1, { "schema-version": "1.0", producer: "web" }));
    expect(recordCounts(pipeline)).toEqual(["legacy none=4", "web 1.0.0=4"]);
    expect(validationCounts(pipeline)).toEqual([
      "legacy none>1.0.0 undeclared pass=2",
      "legacy none>1.1.0 undeclared pass=2",
      "legacy none>2.0.0 undeclared fail=2",
      "web 1.0.0>1.0.0 conformance pass=2",
      "web 1.0.0>1.1.0 backward pass=2",
      "web 1.0.0>2.0.0 backward fail=2",
    ]);
    // the two skipped undeclared records; the skipped declared ones still declare 1.0.0
    expect(unread).toEqual(["events/0 not_validated 1", "events/0 not_validated 1"]);
  });

  it("takes nothing from a skipped undeclared record when no version is deprecated", async () => {
    const config = parseConfig(
      eventConfigYaml("    sampling:\n      ratio: 0.5\n").replace(
        '"1.0.0": { status: deprecated,',
        '"1.0.0": { status: active,',
      ),
      resolve("test/config.yaml"),
    );
    const unread: string[] = [];
    const pipeline = new Pipeline(await loadCatalog(config), config, {
      unreadable: [(_s, topic, partition, reason) => unread.push(`${topic}/${partition} ${reason}`)],
    });
    for (let i = 0; i < 4; i++) pipeline.process(record(V1, { producer: "legacy" }));
    expect(recordCounts(pipeline)).toEqual(["legacy none=4"]);
    expect(unread).toEqual([]);
  });

  it("counts an undecodable batch's records as writer unknown and undecodable_batch", async () => {
    const unread: string[] = [];
    const { pipeline } = await eventPipeline("", "", {
      unreadable: [
        (_s, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
      ],
    });
    pipeline.undecodableBatch("events", 2, 30);
    expect(recordCounts(pipeline)).toEqual(["unknown unknown=30"]);
    expect(decodeCounts(pipeline)).toEqual(["events undecodable_batch=30"]);
    expect(unread).toEqual(["events/2 undecodable_batch 30"]);
  });
});
