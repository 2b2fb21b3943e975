import { describe, expect, it } from "vitest";
import { decodeAvro, type AvroValue } from "../../../../src/formats/avro/decode.js";
import { parseAvro } from "../../../../src/formats/avro/schema.js";

// Bodies a writer's schema cannot decode, each one byte from one it can: every bound of the decoder
// of sampled Avro records, where mutation testing found no test (docs/testing.md). A body that does
// not decode is `avro_decode`, unknown use; one that does must not be refused.

/** The view of `bytes` as one value of a record whose only field `v` is of `type`, or the reason. */
function decode(type: unknown, bytes: number[]): unknown {
  const schema = parseAvro({
    name: "t.avsc",
    text: JSON.stringify({ type: "record", name: "R", fields: [{ name: "v", type }] }),
    references: [],
  });
  const decoded = decodeAvro(schema, Uint8Array.from(bytes), 0);
  return typeof decoded === "string" ? decoded : (decoded as AvroValue).view;
}

const BAD = "avro_decode";
const ENUM = { type: "enum", name: "E", symbols: ["A", "B", "C"] };

describe("the Avro decoder, one byte either side of each bound", () => {
  it("reads a boolean as 0 or 1 only", () => {
    expect(decode("boolean", [1])).toEqual({ v: true });
    expect(decode("boolean", [2])).toBe(BAD);
  });

  it("takes an enum index within the symbols, a union index within the branches", () => {
    expect(decode(ENUM, [4])).toEqual({ v: "C" });
    expect(decode(ENUM, [6])).toBe(BAD);
    expect(decode(ENUM, [1])).toBe(BAD); // -1
    expect(decode(["null", "int"], [2, 6])).toEqual({ v: 3 });
    expect(decode(["null", "int"], [4, 6])).toBe(BAD);
    expect(decode(["null", "int"], [1])).toBe(BAD);
  });

  it("takes a length up to the end of the body, and no negative one", () => {
    expect(decode("string", [4, 0x61, 0x62])).toEqual({ v: "ab" });
    expect(decode("string", [6, 0x61, 0x62])).toBe(BAD);
    expect(decode("string", [1, 0x61])).toBe(BAD);
    expect(decode("bytes", [0])).toEqual({ v: "" });
    expect(decode({ type: "fixed", name: "F", size: 3 }, [1, 2, 3])).toEqual({ v: "\u0001\u0002\u0003" });
    expect(decode({ type: "fixed", name: "F", size: 3 }, [1, 2])).toBe(BAD);
    expect(decode("float", [0, 0, 0x80, 0x3f])).toEqual({ v: 1 });
    expect(decode("float", [0, 0, 0x80])).toBe(BAD);
    expect(decode("double", [0, 0, 0, 0, 0, 0, 0xf0, 0x3f])).toEqual({ v: 1 });
    expect(decode("double", [0, 0, 0, 0, 0, 0, 0xf0])).toBe(BAD);
  });

  it("reads an int of at most 5 bytes and a long of at most 10", () => {
    expect(decode("int", [0x80, 0x80, 0x80, 0x80, 0x01])).toEqual({ v: 2 ** 27 });
    expect(decode("int", [0x80, 0x80, 0x80, 0x80, 0x80, 0x01])).toBe(BAD);
    expect(decode("long", [...new Array<number>(9).fill(0x80), 0x01])).toEqual({ v: 2 ** 62 });
    expect(decode("long", [...new Array<number>(10).fill(0x80), 0x01])).toBe(BAD);
    expect(decode("long", [0x80])).toBe(BAD);
  });

  it("refuses a byte after the value", () => {
    expect(decode("int", [2])).toEqual({ v: 1 });
    expect(decode("int", [2, 0])).toBe(BAD);
  });

  it("reads blocks of items, a negative count followed by the block's size", () => {
    const ints = { type: "array", items: "int" };
    expect(decode(ints, [4, 2, 4, 0])).toEqual({ v: [1, 2] });
    // -2 items, 2 bytes, then the items.
    expect(decode(ints, [3, 4, 2, 4, 0])).toEqual({ v: [1, 2] });
    // A block that claims more items than the body could hold.
    expect(decode({ type: "array", items: "null" }, [0xfe, 0xff, 0xff, 0xff, 0x0f, 0])).toBe(BAD);
    expect(decode({ type: "map", values: "int" }, [2, 2, 0x6b, 6, 0])).toEqual({ v: { k: 3 } });
  });
});
