import { describe, expect, it } from "vitest";
import { PROTOBUF_FIELDS, deprecatedFields } from "../../../../src/formats/protobuf/fields.js";
import { apicurioRef, encode, proto } from "../../../helpers/protobuf.js";

const V1 = proto(`syntax = "proto3"; package pay;
message Payment {
  string id = 1;
  int64 amount = 2 [deprecated = true];
  repeated Line lines = 3;
  map<string, Line> by_sku = 4;
  Payment parent = 5;
}
message Line { string sku = 1; int32 qty = 2 [deprecated = true]; }`);
// v2 renames amount (same number) and marks the line's sku deprecated; qty is no longer deprecated.
const V2 = proto(`syntax = "proto3"; package pay;
message Payment {
  string id = 1;
  int64 amount_cents = 2 [deprecated = true];
  repeated Line items = 3;
  map<string, Line> by_sku = 4;
  Payment parent = 5;
}
message Line { string sku = 1 [deprecated = true]; int32 qty = 2; }`);
// parent (5) is a Payment again: a message already on the path is not entered, so 5.2 is not a field here.

describe("deprecated Protobuf fields", () => {
  it("are named by number path, shown by the newest version's names, with the versions that mark them", () => {
    const fields = deprecatedFields([
      { label: "1.0.0", retired: false, schema: V1 },
      { label: "2.0.0", retired: false, schema: V2 },
    ]);
    expect(fields.map((f) => [f.id, f.pointer, f.key, f.deprecatedIn])).toEqual([
      ["2", "/amount_cents", "amount_cents", ["1.0.0", "2.0.0"]],
      ["3.1", "/items/*/sku", "sku", ["2.0.0"]],
      ["3.2", "/items/*/qty", "qty", ["1.0.0"]],
      ["4.2.1", "/by_sku/*/sku", "sku", ["2.0.0"]],
      ["4.2.2", "/by_sku/*/qty", "qty", ["1.0.0"]],
    ]);
    expect(fields[0]!.numbers).toEqual([2]);
  });

  it("leave out a retired version's marks", () => {
    const fields = deprecatedFields([
      { label: "1.0.0", retired: true, schema: V1 },
      { label: "2.0.0", retired: false, schema: V2 },
    ]);
    expect(fields.map((f) => [f.id, f.deprecatedIn])).toEqual([
      ["2", ["2.0.0"]],
      ["3.1", ["2.0.0"]],
      ["4.2.1", ["2.0.0"]],
    ]);
  });
});

describe("Protobuf field presence for the fields room (PROTOBUF_FIELDS.presence)", () => {
  const versions = [
    { version: { text: "1.0.0" }, status: "deprecated" as const, schema: V1 },
    { version: { text: "2.0.0" }, status: "active" as const, schema: V2 },
  ];
  const names = (verdicts: Uint8Array) => [...verdicts].map((v) => ["absent", "present", "unknown"][v]);

  it("finds a field by its number under any version's name, and says unknown for a name no version has", () => {
    const presence = PROTOBUF_FIELDS.presence(versions, [
      "/amount",
      "/amount_cents",
      "/items/*/sku",
      "/nope",
    ]);
    const v1Body = encode(V1, "pay.Payment", { id: "a", amount: 5, lines: [{ qty: 1 }] });
    presence.check(versions[0], Uint8Array.from([0, ...v1Body]), 0);
    expect(names(presence.verdicts)).toEqual(["present", "present", "absent", "unknown"]);
    // Apicurio's Ref naming the writer's own first message, then the body.
    const v2Body = encode(V2, "pay.Payment", { id: "b", items: [{ sku: "s" }] });
    presence.check(versions[1], apicurioRef("Payment", v2Body), 0);
    expect(names(presence.verdicts)).toEqual(["absent", "absent", "present", "unknown"]);
  });

  it("is unknown throughout for a record of no Protobuf writer version", () => {
    const presence = PROTOBUF_FIELDS.presence(versions, ["/amount_cents"]);
    presence.check(undefined, Uint8Array.from([0, 0x10, 0x05]), 0);
    expect(names(presence.verdicts)).toEqual(["unknown"]);
    presence.check(versions[1], Uint8Array.from([0, 0x10, 0x05]), 0);
    expect(names(presence.verdicts)).toEqual(["present"]);
  });
});
