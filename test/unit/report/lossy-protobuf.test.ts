import { describe, expect, it } from "vitest";
import { renderReport } from "../../../src/report/render.js";
import { payFilesPipeline } from "../../helpers/pay-files.js";
import { confluentRecord, encode, proto } from "../../helpers/protobuf.js";

const V1 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; string note = 2; sint32 delta = 3; }`;
// v2 drops note (2) and reads delta as an int32: a sint32's negative values misread.
const V2 = `syntax = "proto3"; package shop;
message Pay { int64 id = 1; int32 delta = 3; }`;
const schemas = { 11: proto(V1), 12: proto(V2) };
const confluent = (id: 11 | 12, value: Record<string, unknown>) =>
  Buffer.from(confluentRecord(id, [0], encode(schemas[id], "shop.Pay", value)));

describe("lossy reads of a Protobuf subject in the report (issue 36)", () => {
  it("counts a pair's lossy reads beside its failures, and ranks the failure's item above the loss's", async () => {
    const { send: from, report: reportOf } = await payFilesPipeline("proto", { v1: V1, v2: V2 });
    const send = (raw: Buffer) => from("web", raw);
    send(confluent(11, { id: "1", note: "x" }));
    send(confluent(11, { id: "2", note: "y" }));
    send(confluent(11, { id: "3", delta: -1 }));
    const report = reportOf();
    const backward = report.subjects[0]!.wouldFail.find((e) => e.direction === "backward")!;
    // The record with delta -1 fails 2.0.0; the two with a note read without it: lossy, among the passes.
    expect(backward).toEqual({
      writer: "1.0.0",
      reader: "2.0.0",
      direction: "backward",
      validations: 3,
      failed: 1,
      wouldFailRate: 1 / 3,
      failures: [{ keyword: "type_reinterpreted", count: 1, pointer: "/delta" }],
      lossy: 2,
      losses: [{ rule: "unknown_field", count: 2, pointer: "/note" }],
      producers: { web: { validations: 3, failed: 1, lossy: 2 } },
    });
    // The failure acts; the loss is told below it, as info (not-ready: no monitor runs this report).
    expect(report.attention.map((i) => [i.level, i.kind, i.what])).toEqual([
      [
        "act",
        "backward-incompatible",
        "producer web: 33.3% of its sampled 1.0.0 records (1 of 3) would break consumers upgraded to 2.0.0 (type_reinterpreted at /delta)",
      ],
      ["act", "not-ready", "the monitor is not ready: catalog not loaded"],
      [
        "info",
        "lossy-read",
        "producer web: consumers upgraded to 2.0.0 read 66.7% of its sampled 1.0.0 records (2 of 3) with data dropped or defaulted (unknown_field at /note)",
      ],
    ]);
    const text = renderReport(report, "text");
    expect(
      text.split("\n").filter((l) => l.startsWith("    1.0.0   2.0.0") || l.startsWith("  format")),
    ).toEqual([
      "  format           Protobuf",
      "    1.0.0   2.0.0   backward          33.3%             1 / 3  type_reinterpreted  /delta             web 1/3",
      "    1.0.0   2.0.0   backward   66.7%            2 / 3  unknown_field  /note  web 2/3",
    ]);
  });

  it("tells the operator what a consumer loses by the rule, not the direction: an upgraded reader that drops a field, an old one that reads a default", async () => {
    const { send, report: reportOf } = await payFilesPipeline("proto", { v1: V1, v2: V2 });
    // web's 1.0 note is a field 2.0 does not have: consumers upgraded to 2.0 drop it. app's 2.0
    // records lack the note 1.0 has: consumers still on 1.0 read its default.
    send("web", confluent(11, { id: "1", note: "x" }));
    send("app", confluent(12, { id: "2" }));
    const report = reportOf();
    expect(
      report.attention.filter((i) => i.kind === "lossy-read").map((i) => [i.cause, i.producer, i.action]),
    ).toEqual([
      [
        "unknown_field",
        "web",
        "Nothing breaks: check that the consumers upgraded to 2.0.0 do not need what they drop, or move web to 2.0.0.",
      ],
      [
        "default_read",
        "app",
        "Nothing breaks: check that the defaults consumers still on 1.0.0 read stand for what app means, or upgrade them.",
      ],
    ]);
  });
});
