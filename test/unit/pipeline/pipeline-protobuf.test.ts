import { describe, expect, it } from "vitest";
import {
  decodeCounts,
  failureCounts,
  lossCounts,
  recordCounts,
  validationCounts,
} from "../../helpers/monitor.js";
import { payFilesPipeline } from "../../helpers/pay-files.js";
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

const payPipeline = (ratio = 1) => payFilesPipeline("proto", { v1: V1, v2: V2 }, { ratio });

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
    expect(failureCounts(pipeline)).toEqual(["web 2.0.0 type_reinterpreted /delta=1"]);
    expect(lossCounts(pipeline)).toEqual([
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
