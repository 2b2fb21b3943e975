// The codecs as kafkajs uses them: installed into its codec table and called by its own record batch
// decoder (loaded from kafkajs's sources, which it does not export), on batches whose records
// section is a committed fixture written by the Kafka Java client.
import { createRequire } from "node:module";

import { CompressionCodecs, CompressionTypes } from "kafkajs";
import { describe, expect, it } from "vitest";

import {
  DEFAULT_MAX_BATCH_BYTES,
  SUPPORTED_CODECS,
  kafkaCodecs,
  registerCodecs,
  type CodecName,
  type KafkaCodec,
} from "../../../../../src/kafka/patches/codecs/index.js";
import { expectCodecError, fixture, manifest } from "./fixtures.js";

const require = createRequire(import.meta.url);
const kafkajsDecoder = require("kafkajs/src/protocol/decoder") as new (buffer: Buffer) => unknown;
const decodeRecordBatch = require("kafkajs/src/protocol/recordBatch/v0/decoder") as (
  decoder: unknown,
) => Promise<{ records: { key: Buffer; value: Buffer; headers: Record<string, Buffer> }[] }>;

const ATTRIBUTES: Record<CodecName, number> = { gzip: 1, snappy: 2, lz4: 3, zstd: 4 };
const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];
const RECORDS = manifest.inputs["records"]!.records!;

/** A magic-2 record batch around a compressed records section, as a broker sends it. */
function recordBatch(codec: CodecName, records: Buffer, count: number): Buffer {
  const header = Buffer.alloc(61);
  header.writeBigInt64BE(1000n, 0); // base offset
  header.writeInt32BE(49 + records.length, 8); // length of what follows
  header.writeInt32BE(0, 12); // partition leader epoch
  header.writeInt8(2, 16); // magic
  header.writeInt32BE(0, 17); // CRC (kafkajs does not check it)
  header.writeInt16BE(ATTRIBUTES[codec], 21);
  header.writeInt32BE(count - 1, 23); // last offset delta
  header.writeBigInt64BE(1796112000000n, 27);
  header.writeBigInt64BE(1796112000000n, 35);
  header.writeBigInt64BE(-1n, 43); // producer id
  header.writeInt16BE(-1, 51);
  header.writeInt32BE(-1, 53);
  header.writeInt32BE(count, 57);
  return Buffer.concat([header, records]);
}

describe("registerCodecs", () => {
  it("names the codecs it supports, in the Java client's spelling", () => {
    expect(SUPPORTED_CODECS).toEqual(["gzip", "snappy", "lz4", "zstd"]);
    expect(DEFAULT_MAX_BATCH_BYTES).toBe(64 * 1024 * 1024);
  });

  it("installs one codec per compression attribute into the table it is given", () => {
    const table: Record<number, () => unknown> = {};
    registerCodecs(table);
    expect(Object.keys(table).sort()).toEqual(["1", "2", "3", "4"]);
    for (const factory of Object.values(table)) {
      const codec = factory() as KafkaCodec;
      expect(typeof codec.decompress).toBe("function");
      expect(typeof codec.compress).toBe("function");
    }
  });

  it.each(["gzip", "snappy", "lz4", "zstd"] as const)(
    "lets kafkajs's own batch decoder read the Java client's %s batch record by record",
    async (codec) => {
      registerCodecs(CompressionCodecs);
      expect([
        CompressionTypes.GZIP,
        CompressionTypes.Snappy,
        CompressionTypes.LZ4,
        CompressionTypes.ZSTD,
      ]).toEqual([ATTRIBUTES.gzip, ATTRIBUTES.snappy, ATTRIBUTES.lz4, ATTRIBUTES.zstd]);
      const batch = recordBatch(codec, fixture(`${codec}-kafka.bin`), RECORDS);
      const { records } = await decodeRecordBatch(new kafkajsDecoder(batch));
      expect(records).toHaveLength(RECORDS);
      records.forEach((record, i) => {
        const producer = PRODUCERS[i % PRODUCERS.length]!;
        expect(record.key.toString()).toBe(`${producer}:${i}`);
        expect(record.headers["producer"]!.toString()).toBe(producer);
        expect(record.headers["schema-version"]!.toString()).toBe(i % 3 === 0 ? "event/1.0" : "event/1.1");
        expect((JSON.parse(record.value.toString()) as { id: number }).id).toBe(100000 + i);
      });
    },
  );

  it("hands kafkajs a CodecError for a corrupt batch", async () => {
    registerCodecs(CompressionCodecs);
    const records = Buffer.from(fixture("lz4-kafka.bin"));
    records.writeUInt32LE(0x7fffffff, 7); // the first block's size, after magic, FLG, BD and checksum
    const error = await decodeRecordBatch(new kafkajsDecoder(recordBatch("lz4", records, RECORDS))).catch(
      (e: unknown) => e,
    );
    expectCodecError(error, "lz4", /exceeds the frame's 65536/);
  });

  it("caps every codec at maxBatchBytes", async () => {
    const codecs = kafkaCodecs({ maxBatchBytes: 70_116 });
    for (const codec of SUPPORTED_CODECS) {
      const error = await codecs[codec].decompress(fixture(`${codec}-kafka.bin`)).catch((e: unknown) => e);
      expectCodecError(error, codec, /more than 70116 bytes/);
    }
    const exact = kafkaCodecs({ maxBatchBytes: 70_117 });
    for (const codec of SUPPORTED_CODECS) {
      expect(await exact[codec].decompress(fixture(`${codec}-kafka.bin`))).toHaveLength(70_117);
    }
  });

  it.each([0, -1, 1.5, Number.NaN])("refuses maxBatchBytes %s", (max) => {
    expect(() => kafkaCodecs({ maxBatchBytes: max })).toThrow(/maxBatchBytes must be a positive integer/);
  });

  it("compresses with gzip and zstd, and says it does not write snappy or lz4", async () => {
    const codecs = kafkaCodecs();
    const text = Buffer.from("schemawatch ".repeat(100));
    for (const codec of ["gzip", "zstd"] as const) {
      expect(await codecs[codec].decompress(await codecs[codec].compress({ buffer: text }))).toEqual(text);
    }
    for (const codec of ["snappy", "lz4"] as const) {
      await expect(codecs[codec].compress({ buffer: text })).rejects.toMatchObject({
        code: "CODEC_UNSUPPORTED",
        message: `schemawatch reads ${codec} batches but does not write them: produce with gzip, zstd or none`,
      });
    }
  });
});
