import { describe, expect, it } from "vitest";
import type { CatalogSubject, CatalogVersion } from "../../../../src/catalog/types.js";
import { parseVersion } from "../../../../src/catalog/version.js";
import { evaluate } from "../../../../src/engine/evaluate.js";
import type { Decoded, ReaderCheck } from "../../../../src/formats/format.js";
import { FORMATS, formatOfFile, formatOfRegistryType } from "../../../../src/formats/index.js";
import { PROTOBUF_FORMAT } from "../../../../src/formats/protobuf/index.js";
import { confluentRecord, encode } from "../../../helpers/protobuf.js";

const V1 =
  'syntax = "proto3"; package pay; message Payment { string id = 1; int64 amount = 2; string legacy = 3; }';
const V2 =
  'syntax = "proto3"; package pay; message Payment { string id = 1; int32 amount = 2; string currency = 4; }';

const version = (text: string, proto: string): CatalogVersion =>
  ({
    version: parseVersion(text, "test"),
    status: "active",
    schema: PROTOBUF_FORMAT.parse({ name: `pay/${text}.proto`, text: proto, references: [] }),
  }) as unknown as CatalogVersion;
const v1 = version("1.0", V1);
const v2 = version("2.0", V2);
const subject = { readers: [v1, v2], format: PROTOBUF_FORMAT } as unknown as CatalogSubject;

const record = (writer: CatalogVersion, value: Record<string, unknown>): Uint8Array => {
  const schema = writer.schema as Parameters<typeof encode>[0];
  return confluentRecord(1, [0], encode(schema, "pay.Payment", value));
};

describe("the Protobuf format", () => {
  it("is found by registry type and by the .proto extension", () => {
    expect(formatOfRegistryType("PROTOBUF")).toBe(PROTOBUF_FORMAT);
    expect(formatOfFile("/schemas/pay/1.0.PROTO")).toBe(PROTOBUF_FORMAT);
    expect(FORMATS.get("protobuf")).toBe(PROTOBUF_FORMAT);
    expect(PROTOBUF_FORMAT.needsWriter).toBe(true);
  });

  it("decodes a sampled body with its writer's schema, and gives its JSON view", () => {
    const decoded = PROTOBUF_FORMAT.decode(
      v1,
      record(v1, { id: "p", amount: "12", legacy: "x" }),
      5,
    ) as Decoded;
    expect(decoded.text).toBe("");
    expect(PROTOBUF_FORMAT.document(decoded.value)).toEqual({ id: "p", amount: "12", legacy: "x" });
  });

  it("cannot decode a body without a writer version, or one that is no message of it", () => {
    expect(PROTOBUF_FORMAT.decode(undefined, record(v1, { id: "p" }), 5)).toBe("protobuf_decode");
    expect(PROTOBUF_FORMAT.decode(v1, Uint8Array.from([0, 0, 0, 0, 1, 0, 0x0a, 0x05]), 5)).toBe(
      "protobuf_decode",
    );
    expect(PROTOBUF_FORMAT.decode(v1, Uint8Array.from([0, 0, 0, 0, 1, 2, 2, 0x08, 0x01]), 5)).toBe(
      "protobuf_decode",
    );
  });

  it("gives evaluate each reader's outcome in both directions, per record", () => {
    const judge = (writer: CatalogVersion, value: Record<string, unknown>) => {
      const decoded = PROTOBUF_FORMAT.decode(writer, record(writer, value), 5) as Decoded;
      return evaluate(decoded.value, subject, writer.version).map((r) => [
        r.direction,
        r.passed,
        r.lossy,
        r.keyword,
        r.instancePath,
      ]);
    };
    // v1's amount fits v2's int32; its legacy field is dropped by v2, and v2 reads currency's default.
    expect(judge(v1, { id: "p", amount: "12", legacy: "x" })).toEqual([
      ["conformance", true, false, null, null],
      ["backward", true, true, "unknown_field", "/legacy"],
    ]);
    // An amount past 32 bits: v2 truncates it.
    expect(judge(v1, { id: "p", amount: "5000000000" })).toEqual([
      ["conformance", true, false, null, null],
      ["backward", false, false, "value_changed", "/amount"],
    ]);
    // v2's records read by v1: currency is dropped, legacy read as its default.
    expect(judge(v2, { id: "p", amount: 3, currency: "EUR" })).toEqual([
      ["forward", true, true, "unknown_field", "/currency"],
      ["conformance", true, false, null, null],
    ]);
  });

  it("says a reader without a Protobuf schema fails, rather than guessing", () => {
    const decoded = PROTOBUF_FORMAT.decode(v1, record(v1, { id: "p" }), 5) as Decoded;
    const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
    PROTOBUF_FORMAT.check({ schema: undefined } as unknown as CatalogVersion, decoded.value, out);
    expect(out).toEqual({ outcome: "fails", rule: "message_unknown", location: "" });
  });
});
