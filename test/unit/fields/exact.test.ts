import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { FieldPresence, fieldPresenceOf } from "../../../src/fields/exact.js";

const any = (pointer: string) => ({ pointer, every: false });
const every = (pointer: string) => ({ pointer, every: true });
const FIELDS = [any("/amount"), every("/currency")];

describe("the exact read of a field's presence", () => {
  it("is unknown for every field when a record that may carry one is not JSON", () => {
    for (const payload of [
      "{'id':1,'amount':3}",
      "{id:1,amount:3}",
      '{"id":1,"amount":3,}',
      '{"id":1,"amount":}',
      '{"id":1,"amount":3}{"id":2}',
      '{"id":1,"amount":3} {"currency":"EUR"}',
      "{'id':1,'\\u0061mount':3}",
      '{"id":1,"currency":"EUR"} // amount',
    ])
      expect(fieldPresenceOf(payload, FIELDS), payload).toEqual(["unknown", "unknown"]);
    // Invalid UTF-8 in a string value: not strict UTF-8, not read.
    const invalid = Buffer.concat([Buffer.from('{"amount":3,"x":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expect(fieldPresenceOf(invalid, FIELDS)).toEqual(["unknown", "unknown"]);
  });

  it("reads a record that holds none of the names, in any dialect, as lacking them all", () => {
    // No name where a key's would be, and no backslash: no field is in it, however it is written.
    expect(fieldPresenceOf("{'id':1,'total':3}", FIELDS)).toEqual(["absent", "absent"]);
    expect(fieldPresenceOf('{"id":1,"note":"amounts"}', FIELDS)).toEqual(["absent", "absent"]);
  });

  it("does not take a key that ends in an escaped quote and the name for the field", () => {
    expect(fieldPresenceOf('{"id":1,"x\\"currency":"EUR","y\\"amount":3}', FIELDS)).toEqual([
      "absent",
      "absent",
    ]);
    // A key that is the name, written with escapes, is the field.
    expect(fieldPresenceOf('{"\\u0061mount":3,"curr\\u0065ncy":"EUR"}', FIELDS)).toEqual([
      "present",
      "present",
    ]);
  });

  it("tells a field by its pointer: nested objects, array items and top-level arrays", () => {
    const fields = [any("/sku"), any("/items/*/sku"), every("/order/currency"), every("/currency")];
    expect(fieldPresenceOf('{"items":[{"sku":"a"}]}', fields)).toEqual([
      "absent",
      "present",
      "absent",
      "absent",
    ]);
    expect(fieldPresenceOf('{"sku":"a","items":[],"order":{"currency":"EUR"}}', fields)).toEqual([
      "present",
      "absent",
      "present",
      "absent",
    ]);
    expect(fieldPresenceOf('[{"sku":"a","currency":"EUR"}]', fields)).toEqual([
      "absent",
      "absent",
      "absent",
      "absent",
    ]);
    // An escaped key in an array item is that item's field.
    expect(fieldPresenceOf('{"items":[{"id":1},{"\\u0073ku":"a"}]}', fields)).toEqual([
      "absent",
      "present",
      "absent",
      "absent",
    ]);
    // Names escaped as RFC 6901 says.
    expect(fieldPresenceOf('{"a/b":{"c~d":1}}', [any("/a~1b/c~0d")])).toEqual(["present"]);
  });

  it("calls an optional field carried only where every place its pointer reaches leads to it", () => {
    const fields = [any("/items/*/sku"), every("/items/*/sku")];
    expect(fieldPresenceOf('{"items":[{"sku":"a"},{"id":2}]}', fields)).toEqual(["present", "absent"]);
    expect(fieldPresenceOf('{"items":[{"sku":"a"},{"sku":"b"}]}', fields)).toEqual(["present", "present"]);
    // No item, an item that is not an object, items that is not an array: not every place leads to it.
    expect(fieldPresenceOf('{"items":[],"sku":1}', fields)).toEqual(["absent", "absent"]);
    expect(fieldPresenceOf('{"items":[1,{"sku":"a"}]}', fields)).toEqual(["present", "absent"]);
    expect(fieldPresenceOf('{"items":{"*":{"sku":"a"}}}', fields)).toEqual(["present", "absent"]);
    // A key written twice: each value is a place (a parser keeps the last; the verdict errs safe).
    expect(fieldPresenceOf('{"items":[{"sku":"a"}],"items":[]}', fields)).toEqual(["present", "absent"]);
  });

  it("counts a key with a null value as carried, and a property named __proto__ as any other", () => {
    expect(fieldPresenceOf('{"amount":null,"currency":null}', FIELDS)).toEqual(["present", "present"]);
    expect(fieldPresenceOf('{"__proto__":{"amount":1}}', [any("/__proto__/amount")])).toEqual(["present"]);
    expect(fieldPresenceOf('{"x":{"amount":1}}', [any("/constructor")])).toEqual(["absent"]);
  });

  it("reads only the records the byte search says may carry a field", () => {
    const presence = new FieldPresence(FIELDS);
    presence.check(Buffer.from('{"id":1,"total":3}'), 0);
    presence.check(Buffer.from('{"id":1,"note":"the amount"}'), 0);
    expect(presence.reads).toBe(0);
    expect([...presence.verdicts]).toEqual([0, 0]);
    presence.check(Buffer.from('{"id":1,"amount":3}'), 0);
    expect(presence.reads).toBe(1);
    expect([...presence.verdicts]).toEqual([1, 0]);
    // Past a wire prefix.
    presence.check(Buffer.concat([Buffer.from([0, 0, 0, 0, 7]), Buffer.from('{"currency":"EUR"}')]), 5);
    expect([...presence.verdicts]).toEqual([0, 1]);
  });
});
