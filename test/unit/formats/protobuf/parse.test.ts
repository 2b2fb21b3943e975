import { describe, expect, it } from "vitest";
import { isSchemawatchError } from "../../../../src/errors.js";
import {
  messageAt,
  messageNamed,
  parseProtoVersion,
  primaryOf,
} from "../../../../src/formats/protobuf/parse.js";
import { PROTOBUF_FORMAT } from "../../../../src/formats/protobuf/index.js";
import { proto } from "../../../helpers/protobuf.js";

const ORDERS = `
syntax = "proto3";
package shop.v1;
import "shop/common.proto";
import "google/protobuf/timestamp.proto";
enum Kind { KIND_UNSPECIFIED = 0; }
message Order {
  string id = 1;
  Money total = 2;
  google.protobuf.Timestamp at = 3;
  message Line { string sku = 1; message Note { string text = 1; } }
  message Gift { string to = 1; }
  repeated Line lines = 4;
}
message Refund { string order_id = 1; }
`;
const COMMON = `syntax = "proto3"; package shop.v1; import "shop/units.proto"; message Money { int64 units = 1; Unit unit = 2; }`;
const UNITS = `syntax = "proto3"; package shop.v1; enum Unit { UNIT_UNSPECIFIED = 0; EUR = 1; }`;

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isSchemawatchError(error)) return `${error.code}: ${error.message}`;
    throw error;
  }
  throw new Error("did not throw");
}

describe("parsing a .proto version", () => {
  it("resolves imports from references by import path, transitively, and google/protobuf from protobufjs", () => {
    const schema = proto(ORDERS, { "shop/common.proto": COMMON, "shop/units.proto": UNITS });
    expect(schema.syntax).toBe("proto3");
    // Only the file's own messages, in its order; the enum and the imported Money are not among them.
    expect(schema.messages.map((m) => m.name)).toEqual(["Order", "Refund"]);
    expect([...schema.names]).toEqual(["Order", "Refund"]);
    const order = primaryOf(schema);
    expect(order.fullName).toBe("shop.v1.Order");
    expect([...order.fields.values()].map((f) => [f.number, f.name, f.kind])).toEqual([
      [1, "id", "string"],
      [2, "total", "message"],
      [3, "at", "message"],
      [4, "lines", "message"],
    ]);
    expect(order.fields.get(2)!.message!.fields.get(2)!.enumValues).toEqual(
      new Map([
        [0, "UNIT_UNSPECIFIED"],
        [1, "EUR"],
      ]),
    );
  });

  it("finds a message by Confluent's index path and by Apicurio's name", () => {
    const schema = proto(ORDERS, { "shop/common.proto": COMMON, "shop/units.proto": UNITS });
    expect(messageAt(schema, [0])!.fullName).toBe("shop.v1.Order");
    expect(messageAt(schema, [1])!.fullName).toBe("shop.v1.Refund");
    expect(messageAt(schema, [0, 0])!.fullName).toBe("shop.v1.Order.Line");
    expect(messageAt(schema, [0, 1])!.fullName).toBe("shop.v1.Order.Gift");
    expect(messageAt(schema, [0, 0, 0])!.fullName).toBe("shop.v1.Order.Line.Note");
    expect(messageAt(schema, [2])).toBeUndefined();
    expect(messageAt(schema, [0, 2])).toBeUndefined();
    expect(messageNamed(schema, "Refund")!.fullName).toBe("shop.v1.Refund");
    expect(messageNamed(schema, "Line")).toBeUndefined();
  });

  it("models proto2 labels, defaults, deprecation, oneofs, maps and closed enums", () => {
    const schema = proto(`
      syntax = "proto2";
      message M {
        required int32 id = 1;
        optional string old = 2 [deprecated = true, default = "x"];
        oneof pick { int32 a = 3; string b = 4; }
        map<string, E> tags = 5;
        repeated sint64 deltas = 6 [packed = true];
        enum E { ONE = 1; TWO = 2; }
      }`);
    const m = primaryOf(schema);
    expect(schema.syntax).toBe("proto2");
    const f = (n: number) => m.fields.get(n)!;
    expect([f(1).required, f(2).required, f(2).deprecated, f(2).explicitDefault]).toEqual([
      true,
      false,
      true,
      "x",
    ]);
    expect([f(3).oneof, f(4).oneof, f(1).oneof]).toEqual(["pick", "pick", null]);
    expect([f(5).map, f(5).repeated, f(5).kind, f(5).message!.fields.get(1)!.kind]).toEqual([
      true,
      true,
      "message",
      "string",
    ]);
    expect([f(5).message!.fields.get(2)!.kind, f(5).message!.fields.get(2)!.closedEnum]).toEqual([
      "enum",
      true,
    ]);
    expect([f(6).packable, f(6).kind, f(6).wire]).toEqual([true, "sint64", 0]);
  });

  it("refuses text that does not parse, an import no reference gives, an unknown type", () => {
    expect(thrown(() => proto("message M { int32 x = ; }", {}, "bad.proto"))).toMatch(
      /^SCHEMA_INVALID: bad\.proto: not a valid \.proto file: illegal/,
    );
    expect(thrown(() => proto('syntax = "proto3"; import "x/y.proto"; message M {}', {}, "a.proto"))).toBe(
      'SCHEMA_INVALID: a.proto: not a valid .proto file: imports "x/y.proto", which none of its references gives',
    );
    expect(thrown(() => proto('syntax = "proto3"; message M { Nope n = 1; }', {}, "b.proto"))).toBe(
      "SCHEMA_INVALID: b.proto: not a valid .proto file: no such Type or Enum 'Nope' in Type .M",
    );
  });

  it("reads a file of enums only, as an import, and as a file of its own with no message", () => {
    const STATUS = 'syntax = "proto3"; package shop; enum Status { UNKNOWN = 0; ON = 1; OFF = 2; }';
    const device = proto(
      'syntax = "proto3"; package shop; import "shop/status.proto"; message Device { string id = 1; Status status = 2; }',
      { "shop/status.proto": STATUS },
    );
    expect(device.messages.map((m) => m.name)).toEqual(["Device"]);
    const status = primaryOf(device).fields.get(2)!;
    expect([status.kind, status.wire, [...status.enumValues!]]).toEqual([
      "enum",
      0,
      [
        [0, "UNKNOWN"],
        [1, "ON"],
        [2, "OFF"],
      ],
    ]);
    // On its own (a registry's reference subject, a shared file) it parses, with its enum and no message.
    const alone = proto(STATUS, {}, "shop/status.proto");
    expect([alone.messages.length, alone.enums.map((e) => e.name), [...alone.names]]).toEqual([
      0,
      ["Status"],
      [],
    ]);
    expect(messageAt(alone, [0])).toBeUndefined();
  });

  it("refuses a subject's version without a message (nothing to decode a record as), naming the file", () => {
    const refusal =
      "SCHEMA_INVALID: c.proto: declares no message, and a subject's schema needs one to decode its records as: a .proto file of enums only can only be imported by another";
    const enums = { name: "c.proto", text: 'syntax = "proto3"; enum E { A = 0; }', references: [] };
    expect(thrown(() => parseProtoVersion(enums))).toBe(refusal);
    // The format's parse is the version's: the catalog and the registry read a version through it.
    expect(thrown(() => PROTOBUF_FORMAT.parse(enums))).toBe(refusal);
    expect(thrown(() => PROTOBUF_FORMAT.parse({ ...enums, text: 'syntax = "proto3";' }))).toBe(refusal);
  });

  it("ends an import loop: a file already read is not read again", () => {
    const schema = proto('syntax = "proto3"; import "b.proto"; message A { B b = 1; }', {
      "b.proto": 'syntax = "proto3"; import "test.proto"; message B { int32 x = 1; }',
    });
    expect(schema.messages.map((m) => m.name)).toEqual(["A"]);
  });
});
