import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import {
  Cursor,
  LEN,
  SGROUP,
  VARINT,
  encodeMessageIndexes,
  int64Of,
  readApicurioRef,
  readMessageIndexes,
  readVarint,
  skipValue,
  uint64Of,
  zigzag32,
  zigzag64Of,
} from "../../../../src/formats/protobuf/wire.js";

const at = (pos = 0): Cursor => Object.assign(new Cursor(), { pos });

describe("varints", () => {
  it("reads one to ten bytes, 64 bits as two halves", () => {
    const c = at();
    expect(readVarint(Uint8Array.from([0x96, 0x01]), c, 2)).toBe(true);
    expect([c.value, c.pos]).toEqual([150, 2]);
    // -1 as an int64: ten bytes, all bits set.
    const minusOne = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    const m = at();
    expect(readVarint(minusOne, m, 10)).toBe(true);
    expect([m.lo, m.hi, m.pos]).toEqual([0xffffffff, 0xffffffff, 10]);
    expect(int64Of(m)).toBe(-1n);
    expect(uint64Of(m)).toBe(18446744073709551615n);
    expect(zigzag64Of(m)).toBe(-9223372036854775808n);
    // 2^35 crosses the halves at the fifth byte.
    const big = Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]);
    const b = at();
    expect(readVarint(big, b, 6)).toBe(true);
    expect([b.lo, b.hi, b.value]).toEqual([0, 8, 2 ** 35]);
  });

  it("says false for a varint cut short or longer than ten bytes, and moves nothing", () => {
    const c = at();
    expect(readVarint(Uint8Array.from([0x80, 0x80]), c, 2)).toBe(false);
    expect(c.pos).toBe(0);
    expect(readVarint(new Uint8Array(11).fill(0x80), c, 11)).toBe(false);
    // The end bounds the read, not the array.
    expect(readVarint(Uint8Array.from([0x96, 0x01]), c, 1)).toBe(false);
  });

  it("reads zigzag as sint32 does", () => {
    expect([0, 1, 2, 3, 4294967295].map(zigzag32)).toEqual([0, -1, 1, -2, -2147483648]);
  });
});

describe("skipping a field", () => {
  it("skips each wire type within the end, and a group to its end tag", () => {
    const c = at();
    expect(skipValue(Uint8Array.from([0x03, 0x61, 0x62, 0x63]), c, 4, LEN, 1, 1)).toBe(true);
    expect(c.pos).toBe(4);
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0x05, 0x61]), c, 2, LEN, 1, 1)).toBe(false);
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0xac, 0x02]), c, 2, VARINT, 1, 1)).toBe(true);
    // Group 2 holding field 1 = 5, then its end tag.
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0x08, 0x05, 0x14]), c, 3, SGROUP, 1, 2)).toBe(true);
    expect(c.pos).toBe(3);
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0x08, 0x05]), c, 2, SGROUP, 1, 2)).toBe(false);
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0x00]), c, 1, 6, 1, 1)).toBe(false);
  });

  it("refuses a group that another field's end tag closes, or that holds a tag of field 0 (Protobuf's readers do)", () => {
    const c = at();
    // Group 3 closed by group 2's end tag.
    expect(skipValue(Uint8Array.from([0x08, 0x05, 0x14]), c, 3, SGROUP, 1, 3)).toBe(false);
    c.pos = 0;
    // Group 2 holding a tag of field 0 (a varint), then its end tag.
    expect(skipValue(Uint8Array.from([0x00, 0x05, 0x14]), c, 3, SGROUP, 1, 2)).toBe(false);
    // Group 2 holding group 1, each closed by its own end tag; one deep is not enough for it.
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0x0b, 0x0c, 0x14]), c, 3, SGROUP, 2, 2)).toBe(true);
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0x0b, 0x0c, 0x14]), c, 3, SGROUP, 1, 2)).toBe(false);
    // A tag past 32 bits inside a group.
    c.pos = 0;
    expect(skipValue(Uint8Array.from([0x88, 0x80, 0x80, 0x80, 0x10, 0x05, 0x14]), c, 7, SGROUP, 1, 2)).toBe(
      false,
    );
  });
});

describe("Confluent's message indexes", () => {
  it("writes [0] as one 0 byte, and other paths as a zigzag count and zigzag indexes", () => {
    expect([...encodeMessageIndexes([0])]).toEqual([0]);
    expect([...encodeMessageIndexes([1])]).toEqual([2, 2]);
    expect([...encodeMessageIndexes([2, 0, 70])]).toEqual([6, 4, 0, 0x8c, 0x01]);
  });

  it("reads them back, with where the message begins", () => {
    expect(readMessageIndexes(Uint8Array.from([9, 0, 8, 1]), 1)).toEqual({ indexes: [0], start: 2 });
    expect(readMessageIndexes(Uint8Array.from([6, 4, 0, 0x8c, 0x01, 8]), 0)).toEqual({
      indexes: [2, 0, 70],
      start: 5,
    });
    // The [0] shortcut is also readable written out in full.
    expect(readMessageIndexes(Uint8Array.from([2, 0]), 0)).toEqual({ indexes: [0], start: 2 });
  });

  it("refuses a negative count or index, a count past 32, and bytes that end first", () => {
    expect(readMessageIndexes(Uint8Array.from([1]), 0)).toBeNull();
    expect(readMessageIndexes(Uint8Array.from([2, 1]), 0)).toBeNull();
    expect(readMessageIndexes(Uint8Array.from([66]), 0)).toBeNull();
    expect(readMessageIndexes(Uint8Array.from([4, 2]), 0)).toBeNull();
    expect(readMessageIndexes(Uint8Array.from([]), 0)).toBeNull();
  });
});

describe("Apicurio's Ref", () => {
  const names = new Set(["Order", "Line"]);
  const ref = (name: string): number[] => [name.length + 2, 0x0a, name.length, ...Buffer.from(name)];

  it("is read when it names one of the file's messages", () => {
    expect(readApicurioRef(Uint8Array.from([...ref("Order"), 8, 1]), 0, names)).toEqual({
      name: "Order",
      start: 8,
    });
  });

  it("is not a Ref when it names no message, holds more than the name, or runs past the bytes", () => {
    expect(readApicurioRef(Uint8Array.from([...ref("Other"), 8, 1]), 0, names)).toBeNull();
    expect(
      readApicurioRef(Uint8Array.from([9, 0x0a, 5, ...Buffer.from("Order"), 0x10, 1]), 0, names),
    ).toBeNull();
    expect(readApicurioRef(Uint8Array.from([7, 0x0a, 5, 0x4f]), 0, names)).toBeNull();
    // Confluent's [0] shortcut, then a message: not a Ref.
    expect(readApicurioRef(Uint8Array.from([0, 0x0a, 1, 0x61]), 0, names)).toBeNull();
  });
});
