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

  it("reads records of versions that import a file of enums only, by the enum's values (no version of its own)", async () => {
    // v1 imports the enum as it was, v2 a copy that adds STANDBY = 3: a v2 record carrying it reaches a
    // v1 reader as a number without a name.
    const status = (extra: string) =>
      `syntax = "proto3"; package shop; enum Status { UNKNOWN = 0; ON = 1; OFF = 2;${extra} }`;
    const device = (path: string) =>
      `syntax = "proto3"; package shop; import "${path}"; message Device { string id = 1; Status status = 2; }`;
    const files = { "common/status.proto": status(""), "common/status-next.proto": status(" STANDBY = 3;") };
    const { pipeline, send, unread } = await payFilesPipeline(
      "proto",
      { v1: device("common/status.proto"), v2: device("common/status-next.proto") },
      { files },
    );
    const d1 = proto(device("common/status.proto"), { "common/status.proto": files["common/status.proto"] });
    const d2 = proto(device("common/status-next.proto"), {
      "common/status-next.proto": files["common/status-next.proto"],
    });
    const sent = (id: number, value: Record<string, unknown>) =>
      Buffer.from(confluentRecord(id, [0], encode(id === 11 ? d1 : d2, "shop.Device", value)));
    send("web", sent(11, { id: "a", status: "ON" }));
    send("web", sent(11, { id: "b", status: "OFF" }));
    send("app", sent(12, { id: "c", status: "STANDBY" }));
    send("app", sent(12, { id: "d", status: "ON" }));
    expect(recordCounts(pipeline)).toEqual(["app 2.0.0=2", "web 1.0.0=2"]);
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(unread).toEqual([]);
    expect(validationCounts(pipeline)).toEqual([
      "app 2.0.0>1.0.0 forward pass=2",
      "app 2.0.0>2.0.0 conformance pass=2",
      "web 1.0.0>1.0.0 conformance pass=2",
      "web 1.0.0>2.0.0 backward pass=2",
    ]);
    expect(failureCounts(pipeline)).toEqual([]);
    expect(lossCounts(pipeline)).toEqual(["app 2.0.0>1.0.0 unknown_enum_value /status=1"]);
  });
});
