import { describe, expect, it } from "vitest";
import { ProtoPresence } from "../../../../src/formats/protobuf/presence.js";
import { encodeMessageIndexes } from "../../../../src/formats/protobuf/wire.js";
import { apicurioRef, confluentRecord, encode, proto } from "../../../helpers/protobuf.js";

const SCHEMA = proto(`syntax = "proto3"; package pay;
message Payment {
  string id = 1;
  int64 amount = 2;
  repeated Line lines = 3;
  map<string, Line> by_sku = 4;
  repeated int32 codes = 5;
}
message Line { string sku = 1; int32 qty = 2; }`);

// amount, lines/*/qty, by_sku/*/sku, codes, and lines itself.
const PATHS = [[2], [3, 2], [4, 2, 1], [5], [3]];
const NAMES = ["absent", "present", "unknown"];

function presence(value: Uint8Array, paths = PATHS): string[] {
  const into = new Uint8Array(paths.length);
  const scanner = new ProtoPresence(SCHEMA, paths);
  const count = scanner.check(value, 5, into);
  const names = [...into].map((v) => NAMES[v]!);
  expect(count).toBe(names.filter((n) => n === "present").length);
  return names;
}
const record = (value: Record<string, unknown>, indexes = [0]) =>
  confluentRecord(1, indexes, encode(SCHEMA, "pay.Payment", value));

describe("the Protobuf presence scan", () => {
  it("finds fields by number at their place, in lists and maps, without decoding", () => {
    expect(presence(record({ id: "a" }))).toEqual(["absent", "absent", "absent", "absent", "absent"]);
    expect(presence(record({ amount: "5", codes: [1] }))).toEqual([
      "present",
      "absent",
      "absent",
      "present",
      "absent",
    ]);
    expect(presence(record({ lines: [{ sku: "a" }, { sku: "b", qty: 2 }] }))).toEqual([
      "absent",
      "present",
      "absent",
      "absent",
      "present",
    ]);
    expect(presence(record({ by_sku: { k: { sku: "s" } } }))).toEqual([
      "absent",
      "absent",
      "present",
      "absent",
      "absent",
    ]);
  });

  it("does not see a field that proto3 did not write because it held its default", () => {
    expect(presence(record({ amount: "0", codes: [] }))).toEqual([
      "absent",
      "absent",
      "absent",
      "absent",
      "absent",
    ]);
  });

  it("does not take the same number elsewhere for the field (qty's 2 at the top is amount)", () => {
    expect(presence(record({ amount: "7" }), [[3, 2]])).toEqual(["absent"]);
  });

  it("counts a field present whatever wire type carries it, and everything under a parent that is no message", () => {
    // Field 2 written as a string; field 3 holding bytes that are no message.
    const odd = Uint8Array.from([0x12, 0x01, 0x61, 0x1a, 0x02, 0x0a, 0x09]);
    expect(presence(confluentRecord(1, [0], odd))).toEqual([
      "present",
      "present",
      "absent",
      "absent",
      "present",
    ]);
  });

  it("reads Apicurio's Ref and the [0] path written out; another message's records are unknown", () => {
    const body = encode(SCHEMA, "pay.Payment", { amount: "5" });
    const prefix = [0, 0, 0, 0, 1];
    expect(presence(Uint8Array.from([...prefix, ...apicurioRef("Payment", body)]), [[2]])).toEqual([
      "present",
    ]);
    expect(presence(Uint8Array.from([...prefix, 2, 0, ...body]), [[2]])).toEqual(["present"]);
    expect(
      presence(Uint8Array.from([...prefix, ...encodeMessageIndexes([0]), ...apicurioRef("Payment", body)]), [
        [2],
      ]),
    ).toEqual(["present"]);
    expect(presence(confluentRecord(1, [1], body), [[2]])).toEqual(["unknown"]);
    expect(presence(Uint8Array.from([...prefix, ...apicurioRef("Line", body)]), [[2]])).toEqual(["unknown"]);
  });

  it("says unknown for what it had not found when the bytes break, and for a missing body", () => {
    // amount found, then lines' tag (present: it is on the wire) with a length past the end.
    const broken = Uint8Array.from([0x10, 0x05, 0x1a, 0x09, 0x0a]);
    expect(presence(confluentRecord(1, [0], broken))).toEqual([
      "present",
      "unknown",
      "unknown",
      "unknown",
      "present",
    ]);
    const into = new Uint8Array(1);
    expect(new ProtoPresence(SCHEMA, [[2]]).check(null, 5, into)).toBe(0);
    expect([...into]).toEqual([2]);
    expect(presence(Uint8Array.from([0, 0, 0, 0, 1]), [[2]])).toEqual(["unknown"]);
  });

  it("reads tags of several bytes, numbers past the dense table, and skips groups and long lengths", () => {
    // Field 5000 (tag 40000: 0xc0 0xb8 0x02) as a varint, after a group (field 7) holding a varint,
    // and a string of 200 bytes (a two-byte length).
    const long = [0x0a, 0xc8, 0x01, ...new Array<number>(200).fill(0x61)];
    const body = [0x3b, 0x08, 0x01, 0x3c, ...long, 0xc0, 0xb8, 0x02, 0x01];
    expect(presence(confluentRecord(1, [0], Uint8Array.from(body)), [[5000], [7], [1], [2]])).toEqual([
      "present",
      "present",
      "present",
      "absent",
    ]);
    // A group never ended: what was not found is unknown.
    expect(
      presence(confluentRecord(1, [0], Uint8Array.from([0x10, 0x01, 0x3b, 0x08, 0x01])), [[2], [3]]),
    ).toEqual(["present", "unknown"]);
  });

  it("answers with no paths without reading", () => {
    expect(new ProtoPresence(SCHEMA, []).check(Uint8Array.from([9]), 0, new Uint8Array(0))).toBe(0);
  });
});
