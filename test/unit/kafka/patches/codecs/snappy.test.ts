import { describe, expect, it } from "vitest";

import { CodecError } from "../../../../../src/kafka/patches/codecs/errors.js";
import { decompressSnappy } from "../../../../../src/kafka/patches/codecs/snappy.js";
import { cutPoints, expectCodecError, fixture, fixturesOf, sha256, thrown } from "./fixtures.js";

const CAP = 64 * 1024 * 1024;
const XERIAL_HEADER = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1]);
const decode = (bytes: Uint8Array, cap = CAP): Buffer => decompressSnappy(bytes, cap);

/** A xerial stream of the given raw blocks. */
function xerial(...blocks: Uint8Array[]): Buffer {
  const parts: Uint8Array[] = [XERIAL_HEADER];
  for (const block of blocks) {
    const length = Buffer.alloc(4);
    length.writeInt32BE(block.length);
    parts.push(length, block);
  }
  return Buffer.concat(parts);
}

/** The xerial chunks of a stream: [offset, length] each. */
function chunksOf(stream: Buffer): number[][] {
  const chunks: number[][] = [];
  for (let at = 16; at < stream.length; at += 4 + stream.readInt32BE(at))
    chunks.push([at, stream.readInt32BE(at)]);
  return chunks;
}

// "hello " as a literal, then a copy of 11 bytes from 6 back (2-byte offset): "hello hello hello".
const HELLO = Buffer.from([17, 0x14, ...Buffer.from("hello "), 0x2a, 6, 0]);

describe("decompressSnappy", () => {
  it.each(fixturesOf("snappy"))(
    "decodes $name to exactly the producer's input",
    ({ name, bytes, sha256: hash }) => {
      const out = decode(fixture(name));
      expect(out.length).toBe(bytes);
      expect(sha256(out)).toBe(hash);
    },
  );

  it("reads the Java client's xerial framing across several 32 KB chunks", () => {
    const stream = fixture("snappy-kafka.bin");
    expect(stream.subarray(0, 16)).toEqual(XERIAL_HEADER);
    expect(chunksOf(stream)).toHaveLength(3);
  });

  it("reads concatenated xerial streams, header and all, as snappy-java does", () => {
    const once = fixture("snappy-kafka.bin");
    const out = decode(Buffer.concat([once, once]));
    expect(out).toEqual(Buffer.concat([decode(once), decode(once)]));
  });

  it("decodes every element kind: literals with 0-4 length bytes and copies with 1, 2 and 4 byte offsets", () => {
    expect(decode(HELLO).toString()).toBe("hello hello hello");
    // A 100-byte literal (one length byte), then a 1-byte-offset copy of 7 from 100 back.
    const text = Buffer.from("x".repeat(40) + "0123456789".repeat(6));
    const oneByte = Buffer.from([107, 60 << 2, 99, ...text, ((7 - 4) << 2) | 1, 100]);
    expect(decode(oneByte).toString()).toBe(text.toString() + text.subarray(0, 7).toString());
    // A 2-byte and a 4-byte literal length, and a 4-byte-offset copy.
    const twoByte = Buffer.from([3, 61 << 2, 2, 0, 65, 66, 67]);
    expect(decode(twoByte).toString()).toBe("ABC");
    const fourByte = Buffer.from([6, 63 << 2, 2, 0, 0, 0, 65, 66, 67, ((3 - 1) << 2) | 3, 3, 0, 0, 0]);
    expect(decode(fourByte).toString()).toBe("ABCABC");
  });

  it("expands an overlapping copy into a run", () => {
    // "ab", then 20 bytes from 2 back: the copy reads what it has just written.
    const run = Buffer.from([22, 1 << 2, 97, 98, ((20 - 1) << 2) | 2, 2, 0]);
    expect(decode(run).toString()).toBe("ab".repeat(11));
    // And a long one, past the short-copy loop.
    const long = Buffer.from([
      201,
      1,
      0,
      120,
      ((64 - 1) << 2) | 2,
      1,
      0,
      ...Array(2)
        .fill([((64 - 1) << 2) | 2, 1, 0])
        .flat(),
      ((8 - 1) << 2) | 2,
      1,
      0,
    ]);
    expect(decode(long).toString()).toBe("x".repeat(201));
  });

  it("decodes a copy long enough for the native copy when it does not overlap", () => {
    const text = "abcdefghijklmnopqrstuvwxyz0123456789";
    const block = Buffer.from([72, (36 - 1) << 2, ...Buffer.from(text), ((36 - 1) << 2) | 2, 36, 0]);
    expect(decode(block).toString()).toBe(text + text);
  });

  it("reads a raw block as itself and an empty xerial stream as nothing", () => {
    expect(decode(xerial(HELLO)).toString()).toBe("hello hello hello");
    expect(decode(xerial(HELLO, HELLO)).toString()).toBe("hello hello hello".repeat(2));
    expect(decode(fixture("snappy-kafka-empty.bin"))).toHaveLength(0);
    expect(decode(Buffer.from([0]))).toHaveLength(0);
  });

  it("keeps each xerial chunk's copies inside that chunk", () => {
    // The second chunk copies from 6 back, which would be the first chunk's output.
    const second = Buffer.from([6, ((6 - 1) << 2) | 2, 6, 0]);
    expectCodecError(
      thrown(() => decode(xerial(HELLO, second))),
      "snappy",
      /before the start of the block/,
    );
  });

  it.each([
    ["a copy with offset 0", Buffer.from([5, 0, 97, ((4 - 1) << 2) | 2, 0, 0]), /before the start/],
    ["a copy from before the start", Buffer.from([5, 0, 97, ((4 - 1) << 2) | 2, 2, 0]), /before the start/],
    ["a literal past the declared length", Buffer.from([1, 1 << 2, 97, 98]), /literal runs past/],
    ["a copy past the declared length", Buffer.from([3, 0, 97, ((4 - 1) << 2) | 2, 1, 0]), /copy runs past/],
    ["output shorter than declared", Buffer.from([9, 0, 97]), /8 bytes short/],
    [
      "a preamble longer than 32 bits",
      Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x01]),
      /not a valid 32-bit varint/,
    ],
    ["a preamble that never ends", Buffer.from([0xff, 0xff]), /preamble is truncated/],
    ["an empty input", Buffer.alloc(0), /preamble is truncated/],
    ["a truncated xerial header", XERIAL_HEADER.subarray(0, 12), /xerial header is truncated/],
    [
      "a chunk longer than the input",
      Buffer.concat([XERIAL_HEADER, Buffer.from([0, 0, 1, 0, 5])]),
      /truncated/,
    ],
    [
      "a truncated chunk length",
      Buffer.concat([XERIAL_HEADER, Buffer.from([0, 0])]),
      /chunk length is truncated/,
    ],
  ])("rejects %s", (_what, bytes, problem) => {
    expectCodecError(
      thrown(() => decode(bytes)),
      "snappy",
      problem,
    );
  });

  it.each(["snappy-kafka.bin", "snappy-raw.bin"])(
    "rejects every truncation of %s with a CodecError",
    (name) => {
      const whole = fixture(name);
      for (const cut of cutPoints(whole.length)) {
        // A cut at a xerial chunk boundary is still a valid (shorter) stream; every other cut must fail.
        const boundary =
          name === "snappy-kafka.bin" &&
          (cut === 16 || chunksOf(whole).some(([at, n]) => cut === at! + 4 + n!));
        if (boundary) continue;
        expectCodecError(
          thrown(() => decode(whole.subarray(0, cut))),
          "snappy",
        );
      }
    },
  );

  it("turns corrupted bytes into a CodecError or into output of the declared size, never anything else", () => {
    const whole = fixture("snappy-kafka.bin");
    let rejected = 0;
    for (const at of cutPoints(whole.length, 400)) {
      const bytes = Buffer.from(whole);
      bytes[at] = bytes[at]! ^ 0x5a;
      try {
        expect(decode(bytes).length).toBeLessThanOrEqual(CAP);
      } catch (error) {
        expectCodecError(error, "snappy");
        rejected++;
      }
    }
    expect(rejected).toBeGreaterThan(100);
  });

  it("refuses, before allocating, a block or a stream that declares more than the cap", () => {
    // A 5-byte input declaring 4 GiB.
    const bomb = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expectCodecError(
      thrown(() => decode(bomb)),
      "snappy",
      /more than 67108864 bytes \(the batch size cap\)/,
    );
    const stream = fixture("snappy-kafka.bin");
    expect(decode(stream, 70_117)).toHaveLength(70_117);
    const error = thrown(() => decode(stream, 70_116));
    expectCodecError(error, "snappy", /more than 70116 bytes/);
    expect(error).toBeInstanceOf(CodecError);
  });
});
