import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Health } from "../../../src/health/health.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { buildReport } from "../../../src/report/model.js";
import { renderReport } from "../../../src/report/render.js";
import { buildStatus } from "../../../src/report/status.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";
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
    const yaml = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: 1 }
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
    const catalog = await loadCatalog(config);
    const pipeline = new Pipeline(catalog, config);
    const send = (raw: Buffer) =>
      pipeline.process(record(undefined, { producer: "web" }, { raw, topic: "pay" }));
    send(confluent(11, { id: "1", note: "x" }));
    send(confluent(11, { id: "2", note: "y" }));
    send(confluent(11, { id: "3", delta: -1 }));
    const report = buildReport(buildStatus(catalog, pipeline, new Health()), pipeline.tallies, undefined);
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
    const yaml = `subjects:
  - name: pay
    topics: [pay]
    schemas: schemas/pay
    sampling: { ratio: 1 }
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
    const catalog = await loadCatalog(config);
    const pipeline = new Pipeline(catalog, config);
    const send = (producer: string, raw: Buffer) =>
      pipeline.process(record(undefined, { producer }, { raw, topic: "pay" }));
    // web's 1.0 note is a field 2.0 does not have: consumers upgraded to 2.0 drop it. app's 2.0
    // records lack the note 1.0 has: consumers still on 1.0 read its default.
    send("web", confluent(11, { id: "1", note: "x" }));
    send("app", confluent(12, { id: "2" }));
    const report = buildReport(buildStatus(catalog, pipeline, new Health()), pipeline.tallies, undefined);
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
