import { describe, expect, it } from "vitest";
import { deprecatedFields } from "../../../../src/formats/protobuf/fields.js";
import { proto } from "../../../helpers/protobuf.js";

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
