import { describe, expect, it } from "vitest";

import { decompressLz4 } from "../../../../../src/kafka/patches/codecs/lz4.js";
import { xxhash32 } from "../../../../../src/kafka/patches/codecs/xxhash32.js";
import { cutPoints, expectCodecError, fixture, fixturesOf, sha256, thrown } from "./fixtures.js";

const CAP = 64 * 1024 * 1024;
const MAGIC = [0x04, 0x22, 0x4d, 0x18];
const INDEPENDENT = 0x60; // version 01 and independent blocks: what Kafka writes
const BLOCKS_64K = 0x40;
const BLOCKS_4M = 0x70;
const decode = (bytes: Uint8Array, cap = CAP): Buffer => decompressLz4(bytes, cap);

interface Frame {
  flags: number;
  bd: number;
  /** Offset of the descriptor's checksum byte. */
  hc: number;
  blocks: { at: number; size: number; uncompressed: boolean }[];
}

/** The structure of the first frame in bytes, to show which variant a fixture is. */
function frameOf(bytes: Buffer): Frame {
  const flags = bytes[4]!;
  const bd = bytes[5]!;
  const hc = 6 + (flags & 0x08 ? 8 : 0) + (flags & 0x01 ? 4 : 0);
  const blocks: Frame["blocks"] = [];
  for (let at = hc + 1; ;) {
    const header = bytes.readUInt32LE(at);
    if (header === 0) break;
    const size = header & 0x7fffffff;
    blocks.push({ at: at + 4, size, uncompressed: header >>> 31 === 1 });
    at += 4 + size + (flags & 0x10 ? 4 : 0);
  }
  return { flags, bd, hc, blocks };
}

/** A copy of a frame with its descriptor changed and its descriptor checksum made right again. */
function withDescriptor(bytes: Buffer, change: (descriptor: Buffer) => void): Buffer {
  const copy = Buffer.from(bytes);
  const { hc } = frameOf(copy);
  change(copy.subarray(4, hc));
  copy[hc] = (xxhash32(copy, 4, hc) >>> 8) & 0xff;
  return copy;
}

/** A frame of the given blocks (each compressed unless marked), with a correct descriptor checksum. */
function frame(
  blocks: { data: number[] | Buffer; raw?: boolean }[],
  flags = INDEPENDENT,
  bd = BLOCKS_64K,
): Buffer {
  const descriptor = Buffer.from([flags, bd]);
  const parts: Buffer[] = [
    Buffer.from(MAGIC),
    descriptor,
    Buffer.from([(xxhash32(descriptor) >>> 8) & 0xff]),
  ];
  for (const block of blocks) {
    const data = Buffer.from(block.data);
    const header = Buffer.alloc(4);
    header.writeUInt32LE((data.length | (block.raw ? 0x80000000 : 0)) >>> 0);
    parts.push(header, data);
  }
  parts.push(Buffer.alloc(4));
  return Buffer.concat(parts);
}

/** One block that expands to `total` bytes: "A", a match of total - 2 bytes from 1 back, then "B". */
function runBlock(total: number): number[] {
  const bytes = [0x1f, 65, 1, 0];
  let rest = total - 2 - 19;
  for (; rest >= 255; rest -= 255) bytes.push(255);
  bytes.push(rest, 0x10, 66);
  return bytes;
}

describe("decompressLz4", () => {
  it.each(fixturesOf("lz4"))(
    "decodes $name to exactly the producer's input",
    ({ name, bytes, sha256: hash }) => {
      const out = decode(fixture(name));
      expect(out.length).toBe(bytes);
      expect(sha256(out)).toBe(hash);
    },
  );

  it("reads the Java client's frames: independent 64 KB blocks, no checksums, uncompressed blocks", () => {
    const kafka = frameOf(fixture("lz4-kafka.bin"));
    expect([kafka.flags, kafka.bd, kafka.blocks.length]).toEqual([INDEPENDENT, BLOCKS_64K, 2]);
    expect(frameOf(fixture("lz4-kafka-mixed.bin")).blocks.map((b) => b.uncompressed)).toEqual([false, true]);
  });

  it("allocates the output of Kafka's frames once: a compressed block's 64 KB bound, a stored block's size", () => {
    const sizes = (name: string) => {
      const out = decode(fixture(name));
      const bound = frameOf(fixture(name)).blocks.reduce(
        (sum, b) => sum + (b.uncompressed ? b.size : 65536),
        0,
      );
      return { length: out.length, allocated: out.buffer.byteLength, bound };
    };
    // two compressed blocks: 2 × 64 KiB for 70 117 bytes, within one block of the size
    expect(sizes("lz4-kafka.bin")).toEqual({ length: 70_117, allocated: 131_072, bound: 131_072 });
    // a compressed block (64 KiB) and a stored one (8 KiB): exactly the size
    expect(sizes("lz4-kafka-mixed.bin")).toEqual({ length: 73_728, allocated: 73_728, bound: 73_728 });
    // Content size known: exactly that.
    expect(decode(fixture("lz4-content-size.bin")).buffer.byteLength).toBe(70_117);
  });

  it("is given every frame variant by the fixtures", () => {
    const linked = frameOf(fixture("lz4-linked.bin"));
    expect(linked.flags & 0x20).toBe(0);
    expect(linked.flags & 0x04).toBe(0x04); // the content checksum, on by default in the lz4 tool
    expect(linked.blocks.length).toBe(2);
    expect(frameOf(fixture("lz4-block-checksum.bin")).flags & 0x14).toBe(0x10);
    expect(frameOf(fixture("lz4-content-size.bin")).flags & 0x08).toBe(0x08);
    expect(frameOf(fixture("lz4-mixed.bin")).blocks.some((b) => b.uncompressed)).toBe(true);
  });

  it("lets linked blocks refer to the block before, and only linked ones", () => {
    const linked = fixture("lz4-linked.bin");
    const asIndependent = withDescriptor(linked, (d) => (d[0] = d[0]! | 0x20));
    expectCodecError(
      thrown(() => decode(asIndependent)),
      "lz4",
      /before the start of its window/,
    );
  });

  it("accepts the descriptor checksum Kafka computed before magic 1 (KAFKA-3160)", () => {
    const bytes = Buffer.from(fixture("lz4-kafka.bin"));
    const { hc } = frameOf(bytes);
    bytes[hc] = (xxhash32(bytes, 0, hc) >>> 8) & 0xff;
    expect(sha256(decode(bytes))).toBe(sha256(decode(fixture("lz4-kafka.bin"))));
    bytes[hc] = bytes[hc]! ^ 1;
    expectCodecError(
      thrown(() => decode(bytes)),
      "lz4",
      /descriptor's checksum does not match/,
    );
  });

  it("reads concatenated frames and skips skippable frames", () => {
    const one = fixture("lz4-kafka.bin");
    const skippable = Buffer.from([0x53, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const out = decode(Buffer.concat([one, skippable, fixture("lz4-linked.bin")]));
    expect(out).toEqual(Buffer.concat([decode(one), decode(fixture("lz4-linked.bin"))]));
  });

  it("decodes hand-built blocks: a run, a raw block, a literal of more than 15 bytes", () => {
    expect(decode(frame([{ data: runBlock(100) }])).toString()).toBe("A".repeat(99) + "B");
    expect(decode(frame([{ data: Buffer.from("plain"), raw: true }])).toString()).toBe("plain");
    const text = Buffer.from("0123456789abcdefghij");
    expect(decode(frame([{ data: [0xf0, 20 - 15, ...text] }])).toString()).toBe(text.toString());
    expect(decode(frame([]))).toHaveLength(0);
  });

  it("verifies block checksums and the content checksum", () => {
    const blockSums = Buffer.from(fixture("lz4-block-checksum.bin"));
    const { blocks } = frameOf(blockSums);
    blockSums[blocks[1]!.at + 10] = blockSums[blocks[1]!.at + 10]! ^ 0x01;
    expectCodecError(
      thrown(() => decode(blockSums)),
      "lz4",
      /a block checksum does not match/,
    );
    const contentSum = Buffer.from(fixture("lz4-linked.bin"));
    contentSum[contentSum.length - 1] = contentSum[contentSum.length - 1]! ^ 0x01;
    expectCodecError(
      thrown(() => decode(contentSum)),
      "lz4",
      /content checksum does not match/,
    );
  });

  it("checks the declared content size, and refuses one above the cap before decoding", () => {
    const sized = fixture("lz4-content-size.bin");
    const wrong = withDescriptor(sized, (d) => d.writeUInt32LE(70_118, 2));
    expectCodecError(
      thrown(() => decode(wrong)),
      "lz4",
      /holds 70117 bytes, not the 70118 it declares/,
    );
    const short = withDescriptor(sized, (d) => d.writeUInt32LE(70_116, 2));
    expectCodecError(
      thrown(() => decode(short)),
      "lz4",
      /holds more than the 70116 bytes it declares/,
    );
    const huge = withDescriptor(sized, (d) => d.writeUInt32LE(1, 6));
    expectCodecError(
      thrown(() => decode(huge)),
      "lz4",
      /more than 67108864 bytes/,
    );
  });

  it("stops a decompression bomb at the cap, and decodes the same bytes below it", () => {
    const bomb = frame([{ data: runBlock(2 * 1024 * 1024) }], INDEPENDENT, BLOCKS_4M);
    expect(bomb.length).toBeLessThan(9000);
    expect(decode(bomb)).toHaveLength(2 * 1024 * 1024);
    expectCodecError(
      thrown(() => decode(bomb, 1024 * 1024)),
      "lz4",
      /more than 1048576 bytes \(the batch size cap\)/,
    );
    const raw = frame([{ data: Buffer.alloc(1000), raw: true }]);
    expectCodecError(
      thrown(() => decode(raw, 999)),
      "lz4",
      /more than 999 bytes/,
    );
  });

  it.each([
    ["an empty input", Buffer.alloc(0), /input is empty/],
    ["another format", Buffer.from('{"id":1}'), /not an LZ4 frame/],
    ["the legacy format", Buffer.from([0x02, 0x21, 0x4c, 0x18, 0, 0, 0, 0]), /legacy LZ4 format/],
    [
      "bytes after the frame",
      Buffer.concat([frame([]), Buffer.from([1, 2, 3, 4])]),
      /unexpected bytes after/,
    ],
    [
      "a short tail after the frame",
      Buffer.concat([frame([]), Buffer.from([1])]),
      /magic number \(truncated/,
    ],
    ["version 00", frame([], 0x20), /unsupported frame version/],
    ["a reserved FLG bit", frame([], INDEPENDENT | 0x02), /reserved bits/],
    ["a reserved BD bit", frame([], INDEPENDENT, BLOCKS_64K | 0x01), /reserved bits/],
    ["a block size id below 4", frame([], INDEPENDENT, 0x30), /block maximum size id 3/],
    ["a dictionary", frame([], INDEPENDENT | 0x01), /dictionary/],
    [
      "a block above the maximum block size",
      frame([{ data: Buffer.alloc(65537), raw: true }]),
      /exceeds the frame's 65536/,
    ],
    [
      "a block that expands past the maximum",
      frame([{ data: runBlock(70_000) }]),
      /expands past the frame's maximum block size/,
    ],
    ["a match offset of 0", frame([{ data: [0x10, 65, 0, 0, 0x10, 66] }]), /before the start of its window/],
    [
      "a match from before the start",
      frame([{ data: [0x10, 65, 2, 0, 0x10, 66] }]),
      /before the start of its window/,
    ],
    ["a block that ends inside a match offset", frame([{ data: [0x10, 65, 1] }]), /middle of a block/],
    ["a block that ends inside a literal", frame([{ data: [0x50, 65, 66] }]), /middle of a block/],
    ["a block that ends in a literal length", frame([{ data: [0xf0, 255] }]), /middle of a block/],
    ["a block that ends in a match length", frame([{ data: [0x1f, 65, 1, 0, 255] }]), /middle of a block/],
  ])("rejects %s", (_what, bytes, problem) => {
    expectCodecError(
      thrown(() => decode(bytes)),
      "lz4",
      problem,
    );
  });

  it.each(["lz4-kafka.bin", "lz4-linked.bin", "lz4-block-checksum.bin", "lz4-kafka-mixed.bin"])(
    "rejects every truncation of %s with a CodecError",
    (name) => {
      const whole = fixture(name);
      for (const cut of cutPoints(whole.length)) {
        expectCodecError(
          thrown(() => decode(whole.subarray(0, cut))),
          "lz4",
        );
      }
    },
  );

  it("turns corrupted bytes into a CodecError or output, never anything else; with checksums, always an error", () => {
    for (const name of ["lz4-kafka.bin", "lz4-block-checksum.bin"]) {
      const whole = fixture(name);
      const { blocks } = frameOf(whole);
      let rejected = 0;
      let flips = 0;
      for (const at of cutPoints(whole.length, 400)) {
        const bytes = Buffer.from(whole);
        bytes[at] = bytes[at]! ^ 0x5a;
        flips++;
        try {
          expect(decode(bytes).length).toBeLessThanOrEqual(CAP);
          // Only a flip inside block data can slip through, and only without block checksums.
          expect(name).toBe("lz4-kafka.bin");
          expect(blocks.some((b) => at >= b.at && at < b.at + b.size)).toBe(true);
        } catch (error) {
          expectCodecError(error, "lz4");
          rejected++;
        }
      }
      if (name === "lz4-block-checksum.bin") expect(rejected).toBe(flips);
      else expect(rejected).toBeGreaterThan(100);
    }
  });
});
