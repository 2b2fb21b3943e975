import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { MAX_DEPTH, ProtoDecoded, decodeProto } from "../../../../src/formats/protobuf/decode.js";
import { encodeMessageIndexes } from "../../../../src/formats/protobuf/wire.js";
import { apicurioRef, confluentRecord, encode, proto } from "../../../helpers/protobuf.js";

const SCHEMA = proto(`
syntax = "proto3";
package pay;
message Payment {
  string id = 1;
  int64 amount = 2;
  uint64 big = 3;
  sint32 delta = 4;
  bytes raw = 5;
  Status status = 6;
  repeated int32 codes = 7;
  map<string, Line> lines = 8;
  double rate = 9;
  fixed64 f64 = 10;
  sfixed32 s32 = 11;
  bool ok = 12;
  Line first = 13;
  message Line { string sku = 1; sint64 qty = 2; }
}
message Refund { string payment_id = 1; float share = 2; }
enum Status { UNKNOWN = 0; PAID = 1; }
`);

const body = (type: string, value: Record<string, unknown>) => encode(SCHEMA, type, value);
const decoded = (value: Uint8Array): ProtoDecoded => {
  const result = decodeProto(SCHEMA, value, 5);
  if (!(result instanceof ProtoDecoded)) throw new Error(`expected a message, got ${result}`);
  return result;
};

describe("decoding a sampled Protobuf body", () => {
  it("reads the message the indexes name, with a JSON view by the writer's names", () => {
    const value = confluentRecord(
      7,
      [0],
      body("pay.Payment", {
        id: "p-1",
        amount: "-9007199254740993",
        big: "18446744073709551615",
        delta: -3,
        raw: Buffer.from([0xff, 0x00]),
        status: 1,
        codes: [1, 300],
        lines: { a: { sku: "x", qty: "-2" } },
        rate: 0.5,
        f64: "9007199254740993",
        s32: -7,
        ok: true,
        first: { sku: "y" },
      }),
    );
    const result = decoded(value);
    expect(result.message.fullName).toBe("pay.Payment");
    expect(result.start).toBe(6);
    expect(result.document()).toEqual({
      id: "p-1",
      amount: "-9007199254740993",
      big: "18446744073709551615",
      delta: -3,
      raw: "/wA=",
      status: "PAID",
      codes: [1, 300],
      lines: { a: { sku: "x", qty: "-2" } },
      rate: 0.5,
      f64: "9007199254740993",
      s32: -7,
      ok: true,
      first: { sku: "y" },
    });
    // Made once, on first use.
    expect(result.document()).toBe(result.document());
  });

  it("reads a later message by its index, and Apicurio's Ref with or without indexes before it", () => {
    const refund = body("pay.Refund", { payment_id: "p-1", share: 0.25 });
    expect(decoded(confluentRecord(7, [1], refund)).document()).toEqual({ payment_id: "p-1", share: 0.25 });
    const prefix = confluentRecord(7, [], new Uint8Array()).subarray(0, 5);
    const apicurio = Uint8Array.from([...prefix, ...apicurioRef("Refund", refund)]);
    expect(decoded(apicurio).message.name).toBe("Refund");
    const both = Uint8Array.from([...prefix, ...encodeMessageIndexes([0]), ...apicurioRef("Refund", refund)]);
    expect(decoded(both).message.name).toBe("Refund");
  });

  it("reads Apicurio's Ref followed by message indexes, and a Ref alone in a header-mode body", () => {
    const refund = body("pay.Refund", { payment_id: "p-1", share: 0.25 });
    // Ref, then `[1]` (count 1, index 1, both zigzag), then the body: Apicurio 3 sending indexes.
    const refThenIndexes = Uint8Array.from([...apicurioRef("Refund", encodeMessageIndexes([1])), ...refund]);
    const withIndexes = decodeProto(SCHEMA, refThenIndexes, 0);
    expect(withIndexes instanceof ProtoDecoded && withIndexes.document()).toEqual({
      payment_id: "p-1",
      share: 0.25,
    });
    const shortcut = Uint8Array.from([...apicurioRef("Refund", encodeMessageIndexes([0])), ...refund]);
    expect(decoded(Uint8Array.from([0, 0, 0, 0, 7, ...shortcut])).message.name).toBe("Refund");
    // Header mode: no prefix, the Ref at byte 0.
    const headerMode = decodeProto(SCHEMA, apicurioRef("Refund", refund), 0);
    expect(headerMode instanceof ProtoDecoded && headerMode.document()).toEqual({
      payment_id: "p-1",
      share: 0.25,
    });
    // A count of indexes whose bytes end first is malformed, not a crash.
    expect(
      decodeProto(SCHEMA, Uint8Array.from([...apicurioRef("Refund", Uint8Array.of(0x04, 0x02))]), 0),
    ).toBe("protobuf_decode");
  });

  it("leaves out what the writer does not know and keeps an enum number it lacks as the number", () => {
    // Field 99 (unknown), status 5 (not in the enum), an empty body's defaults not written.
    const extra = Uint8Array.from([0x98, 0x06, 0x01, 0x30, 0x05]);
    expect(decoded(confluentRecord(7, [0], extra)).document()).toEqual({ status: 5 });
    expect(decoded(confluentRecord(7, [0], new Uint8Array())).document()).toEqual({});
  });

  it("counts a body whose group another field's end tag closes, or holding a tag of field 0, as one that does not decode", () => {
    // An unknown group (field 20) closed by its own end tag decodes; by field 21's, or holding a tag
    // of field 0, it does not: Protobuf's readers refuse both.
    const unknownGroup = (inner: number[], end: number[]) =>
      decodeProto(
        SCHEMA,
        confluentRecord(7, [0], Uint8Array.from([0xa3, 0x01, ...inner, ...end, 0x10, 0x01])),
        5,
      );
    expect(unknownGroup([0x08, 0x01], [0xa4, 0x01])).toBeInstanceOf(ProtoDecoded);
    expect(unknownGroup([0x08, 0x01], [0xac, 0x01])).toBe("protobuf_decode");
    expect(unknownGroup([0x00, 0x01], [0xa4, 0x01])).toBe("protobuf_decode");
    // A group the schema declares (proto2's `group`): the same.
    const grouped = proto(
      'syntax = "proto2"; message G { optional group Item = 3 { optional int32 a = 1; } }',
    );
    const declared = (end: number) =>
      decodeProto(grouped, confluentRecord(7, [0], Uint8Array.from([0x1b, 0x08, 0x01, end])), 5);
    expect(declared(0x1c)).toBeInstanceOf(ProtoDecoded);
    expect(declared(0x24)).toBe("protobuf_decode");
  });

  it("counts a body that does not decode, an index past the file's messages, and a nest too deep", () => {
    const ok = body("pay.Payment", { id: "p-1" });
    expect(decodeProto(SCHEMA, confluentRecord(7, [2], ok), 5)).toBe("protobuf_decode");
    expect(decodeProto(SCHEMA, confluentRecord(7, [0, 1], ok), 5)).toBe("protobuf_decode");
    // A length past the end, a field number 0, a wire type 7, a group never ended, a varint cut short.
    for (const bad of [[0x0a, 0x09, 0x61], [0x00, 0x01], [0x0f], [0xfb, 0x01], [0x10, 0x80]])
      expect(decodeProto(SCHEMA, confluentRecord(7, [0], Uint8Array.from(bad)), 5)).toBe("protobuf_decode");
    // The first message's field 13 holds a Line, whose bytes must be a Line: a string with a bad length is not.
    expect(decodeProto(SCHEMA, confluentRecord(7, [0], Uint8Array.from([0x6a, 0x02, 0x0a, 0x05])), 5)).toBe(
      "protobuf_decode",
    );
    // Negative count in the indexes.
    expect(decodeProto(SCHEMA, Uint8Array.from([0, 0, 0, 0, 7, 0x01]), 5)).toBe("protobuf_decode");
    // Messages nested in a message field of their own type: MAX_DEPTH deep is read, one more is not.
    const deep = proto('syntax = "proto3"; message N { N n = 1; int32 x = 2; }');
    const nest = (levels: number): Uint8Array => {
      let nested: number[] = [0x10, 0x01];
      for (let i = 0; i < levels; i++) nested = [0x0a, ...varint(nested.length), ...nested];
      return confluentRecord(1, [0], Uint8Array.from(nested));
    };
    expect(decodeProto(deep, nest(MAX_DEPTH + 1), 5)).toBe("too_deep");
    expect(decodeProto(deep, nest(MAX_DEPTH), 5)).toBeInstanceOf(ProtoDecoded);
  });
});

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
