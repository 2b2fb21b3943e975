import { describe, expect, it } from "vitest";
import { reservoirDocument } from "../../../src/pipeline/subject-pipeline.js";
import {
  decodeCounts,
  failureCounts,
  lossCounts,
  recordCounts,
  validationCounts,
} from "../../helpers/monitor.js";
import { confluentAvro as confluent } from "../../helpers/binary-capture.js";
import { payFilesPipeline } from "../../helpers/pay-files.js";

const kind = (symbols: string[]) => ({ type: "enum", name: "Kind", symbols });
const V1 = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [
    { name: "id", type: "long" },
    { name: "kind", type: kind(["CARD", "CASH"]) },
  ],
};
const V2 = {
  ...V1,
  fields: [
    { name: "id", type: "long" },
    { name: "kind", type: kind(["CARD", "CASH", "IOU"]) },
    { name: "currency", type: "string", default: "EUR" },
  ],
};
const payPipeline = (extra = "", ratio = 1) => payFilesPipeline("avsc", { v1: V1, v2: V2 }, { extra, ratio });

describe("pipeline: an Avro subject", () => {
  it("counts every record by its schema id, and judges each sample by Avro's resolution in both directions", async () => {
    const { pipeline, send } = await payPipeline();
    send("web", confluent(11, V1, { id: 1, kind: "CASH" }));
    send("web", confluent(12, V2, { id: 2, kind: "CARD", currency: "USD" }));
    send("app", confluent(12, V2, { id: 3, kind: "IOU", currency: "USD" }));
    expect(recordCounts(pipeline)).toEqual(["app 2.0.0=1", "web 1.0.0=1", "web 2.0.0=1"]);
    // v1 read by v2: currency defaulted (lossy, read). v2 read by v1: currency dropped (read), but
    // the symbol IOU v1 lacks fails that record only.
    expect(validationCounts(pipeline)).toEqual([
      "app 2.0.0>1.0.0 forward fail=1",
      "app 2.0.0>2.0.0 conformance pass=1",
      "web 1.0.0>1.0.0 conformance pass=1",
      "web 1.0.0>2.0.0 backward pass=1",
      "web 2.0.0>1.0.0 forward pass=1",
      "web 2.0.0>2.0.0 conformance pass=1",
    ]);
    expect(failureCounts(pipeline)).toEqual(["app 1.0.0 enum_symbol /kind=1"]);
    // The reads that passed but dropped or defaulted what the writer sent, counted apart by rule.
    expect(lossCounts(pipeline)).toEqual([
      "web 1.0.0>2.0.0 field_defaulted /currency=1",
      "web 2.0.0>1.0.0 field_dropped /currency=1",
    ]);
  });

  it("counts a body its writer cannot read as avro_decode, unknown use, and never stops", async () => {
    const { pipeline, send, unread } = await payPipeline();
    const good = confluent(12, V2, { id: 2, kind: "CARD", currency: "USD" });
    send("web", good.subarray(0, good.length - 2));
    send("web", Buffer.from('{"id":1}'));
    send("web", good);
    expect(recordCounts(pipeline)).toEqual(["web 2.0.0=2", "web none=1"]);
    expect(decodeCounts(pipeline)).toEqual(["pay avro_decode=2"]);
    expect(unread).toEqual(["pay/0 avro_decode 1", "pay/0 avro_decode 1"]);
    expect(validationCounts(pipeline)).toEqual([
      "web 2.0.0>1.0.0 forward pass=1",
      "web 2.0.0>2.0.0 conformance pass=1",
    ]);
  });

  it("never reads a version from the body: the default writer order leaves pointer out", async () => {
    const { pipeline, send } = await payPipeline();
    expect(pipeline.subjects.get("pay")!.writer.needsPayload).toBe(false);
    // JSON that names a version at /schema, as a JSON subject's default order would read it.
    send("web", Buffer.from('{"schema":"pay/1.0"}'));
    expect(recordCounts(pipeline)).toEqual(["web none=1"]);
  });

  it("counts a record that is not sampled without decoding its body", async () => {
    const { pipeline, send } = await payPipeline("", 0.5);
    const broken = Buffer.concat([
      confluent(11, V1, { id: 1, kind: "CASH" }).subarray(0, 5),
      Buffer.from([0xff]),
    ]);
    send("web", broken); // not sampled: counted, never decoded
    send("web", confluent(11, V1, { id: 1, kind: "CASH" }));
    expect(recordCounts(pipeline)).toEqual(["web 1.0.0=2"]);
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(validationCounts(pipeline)).toEqual([
      "web 1.0.0>1.0.0 conformance pass=1",
      "web 1.0.0>2.0.0 backward pass=1",
    ]);
  });

  it("keeps the body of a sample in the reservoir, decoded again with its writer when a reload asks", async () => {
    const { pipeline, send } = await payPipeline();
    send("web", confluent(12, V2, { id: 7, kind: "IOU", currency: "USD" }));
    const pay = pipeline.subjects.get("pay")!;
    expect(pay.reservoir[0]).toMatchObject({ writer: "2.0.0", bytes: expect.any(Uint8Array) });
    const value = reservoirDocument(pay.reservoir[0]!, pay.subject);
    expect(pay.subject.format.document(value)).toEqual({ id: 7, kind: "IOU", currency: "USD" });
  });
});
