import { gzipSync, zstdCompressSync } from "node:zlib";

import { describe, expect, it } from "vitest";

import {
  compressGzip,
  compressZstd,
  decompressGzip,
  decompressZstd,
} from "../../../../../src/kafka/patches/codecs/zlib.js";
import { cutPoints, expectCodecError, fixture, fixturesOf, sha256, thrown } from "./fixtures.js";

const CAP = 64 * 1024 * 1024;

describe.each([
  { codec: "gzip" as const, decompress: decompressGzip, compress: compressGzip, sync: gzipSync },
  { codec: "zstd" as const, decompress: decompressZstd, compress: compressZstd, sync: zstdCompressSync },
])("$codec", ({ codec, decompress, compress, sync }) => {
  it.each(fixturesOf(codec))(
    "decodes $name to exactly the producer's input",
    async ({ name, bytes, sha256: hash }) => {
      const out = await decompress(fixture(name), CAP);
      expect(out.length).toBe(bytes);
      expect(sha256(out)).toBe(hash);
    },
  );

  it("reads concatenated members or frames", () => {
    const one = fixture(`${codec}-kafka.bin`);
    const out = decompress(Buffer.concat([one, one]), CAP);
    expect(out.length).toBe(2 * 70_117);
  });

  it("round-trips what it compresses", async () => {
    const text = Buffer.from("schemawatch ".repeat(1000));
    expect(decompress(await compress(text), CAP)).toEqual(text);
  });

  it("stops a decompression bomb at the cap", () => {
    const bomb = sync(Buffer.alloc(4 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(20_000);
    expect(decompress(bomb, CAP)).toHaveLength(4 * 1024 * 1024);
    expectCodecError(
      thrown(() => decompress(bomb, 1024 * 1024)),
      codec,
      /more than 1048576 bytes \(the batch size cap\)/,
    );
  });

  it("rejects another format, and every truncation, with a CodecError", () => {
    expectCodecError(
      thrown(() => decompress(Buffer.from("not compressed at all"), CAP)),
      codec,
    );
    const whole = fixture(`${codec}-kafka.bin`);
    for (const cut of cutPoints(whole.length, 50)) {
      expectCodecError(
        thrown(() => decompress(whole.subarray(0, cut), CAP)),
        codec,
      );
    }
  });
});
