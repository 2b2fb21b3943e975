import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { writeTree } from "../../helpers/files.js";
import { decodeCounts, record, recordCounts, validationCounts } from "../../helpers/monitor.js";
import { confluentRecord, encode, proto } from "../../helpers/protobuf.js";

const V1 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; string note = 2 [deprecated = true]; sint32 delta = 3; }`;
// v2 drops note (2), adds currency (4) and reads delta as an int32: a sint32's negative values misread.
const V2 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; int32 delta = 3; string currency = 4; }`;
const v1 = proto(V1);
const v2 = proto(V2);
const confluent = (id: number, value: Record<string, unknown>) =>
  Buffer.from(confluentRecord(id, [0], encode(id === 11 ? v1 : v2, "shop.Pay", value)));

async function payPipeline(ratio = 1) {
  const yaml = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: ${ratio} }
    versions:
      "1.0": { status: deprecated, confluentId: 11 }
      "2.0": { status: active, confluentId: 12 }
`;
  const dir = await writeTree({
    "schemas/pay/1.0.proto": V1,
    "schemas/pay/2.0.proto": V2,
    "config.yaml": yaml,
  });
  const config = parseConfig(yaml, `${dir}/config.yaml`);
  const unread: string[] = [];
  const pipeline = new Pipeline(await loadCatalog(config), config, {
    unreadable: [
      (_p, topic, partition, reason, records) => unread.push(`${topic}/${partition} ${reason} ${records}`),
    ],
  });
  const send = (producer: string, raw: Buffer) =>
    pipeline.process(record(undefined, { producer }, { raw, topic: "pay" }));
  return { pipeline, send, unread };
}

describe("pipeline: a Protobuf subject from .proto files", () => {
  it("counts every record by its schema id, and judges each sample field by field in both directions", async () => {
    const { pipeline, send } = await payPipeline();
    send("web", confluent(11, { id: "1", note: "x" }));
    send("web", confluent(11, { id: "2", delta: -1 }));
    send("app", confluent(12, { id: "3", currency: "EUR" }));
    expect(recordCounts(pipeline)).toEqual(["app 2.0.0=1", "web 1.0.0=2"]);
    // v1 read by v2: note dropped (lossy, passed); delta -1 as zigzag read as 1 (fails). v2 read by v1:
    // currency dropped (passed).
    expect(validationCounts(pipeline)).toEqual([
      "app 2.0.0>1.0.0 forward pass=1",
      "app 2.0.0>2.0.0 conformance pass=1",
      "web 1.0.0>1.0.0 conformance pass=2",
      "web 1.0.0>2.0.0 backward fail=1",
      "web 1.0.0>2.0.0 backward pass=1",
    ]);
    const failures = pipeline.tallies.failures.map(
      (c) => `${c.labels.producer} ${c.labels.reader_version} ${c.labels.keyword} ${c.pointer}=${c.value}`,
    );
    expect(failures).toEqual(["web 2.0.0 type_reinterpreted /delta=1"]);
    const losses = pipeline.tallies.losses.map(
      (c) =>
        `${c.labels.producer} ${c.labels.writer_version}>${c.labels.reader_version} ${c.labels.keyword} ${c.pointer}=${c.value}`,
    );
    expect(losses).toEqual([
      "web 1.0.0>2.0.0 unknown_field /note=1",
      "app 2.0.0>1.0.0 unknown_field /currency=1",
    ]);
  });

  it("counts a body its writer cannot read, or an index past its messages, as protobuf_decode: unknown use", async () => {
    const { pipeline, send, unread } = await payPipeline();
    const good = confluent(12, { id: "2", currency: "USD" });
    send("web", good.subarray(0, good.length - 2));
    send("web", Buffer.concat([good.subarray(0, 5), Buffer.from([2, 2]), good.subarray(6)]));
    send("web", good);
    expect(recordCounts(pipeline)).toEqual(["web 2.0.0=3"]);
    expect(decodeCounts(pipeline)).toEqual(["pay protobuf_decode=2"]);
    expect(unread).toEqual(["pay/0 protobuf_decode 1", "pay/0 protobuf_decode 1"]);
    expect(validationCounts(pipeline)).toEqual([
      "web 2.0.0>1.0.0 forward pass=1",
      "web 2.0.0>2.0.0 conformance pass=1",
    ]);
  });

  it("counts a record that is not sampled without decoding its body", async () => {
    const { pipeline, send } = await payPipeline(0.5);
    send("web", Buffer.from([0, 0, 0, 0, 11, 0, 0xff])); // not sampled: counted, never decoded
    send("web", confluent(11, { id: "1" }));
    expect(recordCounts(pipeline)).toEqual(["web 1.0.0=2"]);
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(validationCounts(pipeline)).toEqual([
      "web 1.0.0>1.0.0 conformance pass=1",
      "web 1.0.0>2.0.0 backward pass=1",
    ]);
  });
});
