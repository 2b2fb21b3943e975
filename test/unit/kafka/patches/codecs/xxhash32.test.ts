import { describe, expect, it } from "vitest";

import { xxhash32 } from "../../../../../src/kafka/patches/codecs/xxhash32.js";

describe("xxhash32", () => {
  // Reference values of XXH32 (xxhsum -H0 and the xxHash test suite).
  it.each([
    ["", 0, 0x02cc5d05],
    ["a", 0, 0x550d7456],
    ["abc", 0, 0x32d153ff],
    ["Nobody inspects the spammish repetition", 0, 0xe2293b2f],
    ["", 1, 0x0b2cb792],
  ])("hashes %j with seed %i", (text, seed, expected) => {
    const bytes = Buffer.from(text);
    expect(xxhash32(bytes, 0, bytes.length, seed)).toBe(expected);
  });

  it("hashes a sub-range exactly as a copy of it", () => {
    const bytes = Buffer.from("0123456789abcdefghijklmnopqrstuvwxyz0123456789");
    expect(xxhash32(bytes, 3, 40)).toBe(xxhash32(Buffer.from(bytes.subarray(3, 40))));
    expect(xxhash32(bytes, 3, 40)).not.toBe(xxhash32(bytes, 3, 41));
  });
});
