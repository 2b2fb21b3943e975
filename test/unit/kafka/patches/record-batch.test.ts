// schemawatch's record batch decoder against kafkajs's own, on the same bytes: batches that kafkajs's
// encoder writes (every field varied at random, compressed and not) and batches the Java client's codecs
// compressed. Both must give deeply equal batch and record objects (ours read field by field: its
// records make their key, value and headers when read).
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { registerCodecs } from "../../../../src/kafka/patches/codecs/index.js";
import { plainRecord, type KafkaRecord } from "../../../../src/kafka/patches/kafka-record.js";
import {
  HeaderNames,
  decodeRecordBatch,
  type BatchDecoderDeps,
} from "../../../../src/kafka/patches/record-batch.js";
import { fixture, manifest } from "./codecs/fixtures.js";

const require = createRequire(import.meta.url);
interface Encoded {
  buffer: Buffer;
}
const { RecordBatch } = require("kafkajs/src/protocol/recordBatch/v0/index.js") as {
  RecordBatch: (options: Record<string, unknown>) => Promise<Encoded>;
};
const encodeRecord = require("kafkajs/src/protocol/recordBatch/record/v0/index.js") as (
  options: Record<string, unknown>,
) => Encoded;
const Long = require("kafkajs/src/utils/long.js") as { fromString(s: string): unknown };
const Decoder = require("kafkajs/src/protocol/decoder.js") as new (buffer: Buffer) => {
  buffer: Buffer;
  offset: number;
};
const compression = require("kafkajs/src/protocol/message/compression/index.js") as {
  Codecs: Record<number, () => unknown>;
  lookupCodecByAttributes(a: number): { decompress(b: Buffer): Promise<Buffer> } | null;
};
const errors = require("kafkajs/src/errors.js") as { KafkaJSPartialMessageError: new (m: string) => Error };
// kafkajs's own decoder, loaded from its file: the module the guard would replace.
const kafkajsDecode = require("kafkajs/src/protocol/recordBatch/v0/decoder.js") as (
  d: unknown,
) => Promise<unknown>;

registerCodecs(compression.Codecs);
const deps: BatchDecoderDeps = {
  // One cache of header names for every batch of the test, as for every batch of a process.
  names: new HeaderNames(),
  codecFor: (attributes) => compression.lookupCodecByAttributes(attributes),
  partialError: (message) => new errors.KafkaJSPartialMessageError(message),
};

const GZIP = 1;
const ZSTD = 4;

/** A small deterministic random source, so that a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  // A small seed's first draws are small too (seed 1 gives 0.0001, then 0.01): without these, every
  // batch of a small seed held a single record.
  for (let i = 0; i < 8; i++) next();
  return next;
}

const NAMES = ["producer", "schema-version", "trace-id", "", "ünï", "__value_schema_id"];

async function randomBatch(rand: () => number, compressionType: number): Promise<Buffer> {
  const count = 1 + Math.floor(rand() * 20);
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
  const records = Array.from({ length: count }, (_, i) => {
    const headers: Record<string, Buffer | string | null | Array<Buffer | string | null>> = {};
    for (let h = Math.floor(rand() * 5); h > 0; h--) {
      // Mostly the same few names, sometimes one of 40 others: the name cache is hit and evicted.
      const name =
        rand() < 0.8 ? NAMES[Math.floor(rand() * NAMES.length)]! : `name-${Math.floor(rand() * 40)}`;
      // kafkajs's encoder cannot write a header without a value; the Java producer's tests cover those.
      const value = rand() < 0.5 ? `v${Math.floor(rand() * 1000)}` : bytes(Math.floor(rand() * 20));
      const existing = headers[name];
      headers[name] =
        existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
    }
    return encodeRecord({
      offsetDelta: i * (1 + Math.floor(rand() * 3)),
      timestampDelta: Math.floor((rand() - 0.3) * 2 ** (rand() < 0.1 ? 40 : 20)),
      key: rand() < 0.2 ? null : bytes(Math.floor(rand() * 40)),
      value: rand() < 0.1 ? null : bytes(Math.floor(rand() * 300)),
      headers,
    });
  });
  const base =
    rand() < 0.2 ? 9007199254740000n + BigInt(Math.floor(rand() * 10000)) : BigInt(Math.floor(rand() * 1e9));
  const encoded = await RecordBatch({
    compression: compressionType,
    firstOffset: Long.fromString(base.toString()),
    firstTimestamp: 1796112000000 + Math.floor(rand() * 1e6),
    maxTimestamp: 1796112000000 + 1e6,
    lastOffsetDelta: count * 3,
    transactional: rand() < 0.2,
    records,
  });
  const batch = Buffer.from(encoded.buffer);
  // Flip the timestamp type (LOG_APPEND_TIME) and the control flag on some batches.
  const attributes = batch.readInt16BE(21);
  batch.writeInt16BE(attributes | (rand() < 0.2 ? 0x08 : 0) | (rand() < 0.1 ? 0x20 : 0), 21);
  return batch;
}

async function both(batch: Buffer): Promise<[unknown, unknown]> {
  const ours = await decodeRecordBatch(new Decoder(batch), deps);
  const theirs = await kafkajsDecode(new Decoder(batch));
  return [{ ...ours, records: ours.records.map(plainRecord) }, theirs];
}

describe("the record batch decoder", () => {
  it("gives exactly kafkajs's objects for 600 random batches, uncompressed, gzip and zstd", async () => {
    for (let seed = 1; seed <= 600; seed++) {
      const rand = random(seed);
      const batch = await randomBatch(rand, [0, GZIP, ZSTD][seed % 3]!);
      const [ours, theirs] = await both(batch);
      expect(ours, `seed ${seed}`).toEqual(theirs);
    }
  });

  it("gives every record of a batch one frame, the batch's records' bytes, with its value inside", async () => {
    let values = 0;
    const ids: number[] = [];
    for (let seed = 1; seed <= 90; seed++) {
      const batch = await randomBatch(random(seed), [0, GZIP, ZSTD][seed % 3]!);
      const { records } = await decodeRecordBatch(new Decoder(batch), deps);
      const frames = new Set(records.map((r) => (r as KafkaRecord).frame));
      expect(frames.size, `seed ${seed}`).toBe(1);
      const { bytes, id } = [...frames][0]!;
      ids.push(id);
      // Uncompressed: the batch's bytes after its 61-byte header; compressed: the decompressed records.
      if (seed % 3 === 0) expect(bytes.equals(batch.subarray(61)), `seed ${seed}`).toBe(true);
      for (const record of records) {
        if (record.value === null) continue;
        const at = record.value.byteOffset - bytes.byteOffset;
        expect(record.value.buffer, `seed ${seed}`).toBe(bytes.buffer);
        expect(bytes.subarray(at, at + record.value.length).equals(record.value), `seed ${seed}`).toBe(true);
        expect(at >= 0 && at + record.value.length <= bytes.length, `seed ${seed}`).toBe(true);
        values++;
      }
    }
    // Each batch's frame has a number of its own, in the order they were read.
    expect(ids.map((id) => id - ids[0]!)).toEqual(Array.from({ length: 90 }, (_, i) => i));
    // 90 batches of 1 to 20 records, about one value in ten null.
    expect(values).toBe(871);
  });

  it("gives exactly kafkajs's objects for the batches the Java client compressed", async () => {
    const ATTRIBUTE = { gzip: 1, snappy: 2, lz4: 3, zstd: 4 } as const;
    let checked = 0;
    for (const [name, entry] of Object.entries(manifest.fixtures)) {
      const records = manifest.inputs[entry.input]!.records;
      if (!records || !name.endsWith("-kafka.bin")) continue;
      const body = fixture(name);
      const header = Buffer.alloc(61);
      header.writeBigInt64BE(5000n, 0);
      header.writeInt32BE(49 + body.length, 8);
      header.writeInt8(2, 16);
      header.writeInt16BE(ATTRIBUTE[entry.codec], 21);
      header.writeInt32BE(records - 1, 23);
      header.writeBigInt64BE(1796112000000n, 27);
      header.writeBigInt64BE(1796112000000n, 35);
      header.writeBigInt64BE(-1n, 43);
      header.writeInt32BE(records, 57);
      const [ours, theirs] = await both(Buffer.concat([header, body]));
      expect(ours, name).toEqual(theirs);
      expect((ours as { records: unknown[] }).records).toHaveLength(records);
      checked++;
    }
    expect(checked).toBe(4);
  });

  it("moves the fetch position past the batch, and throws kafkajs's partial error for a batch cut short", async () => {
    const batch = await randomBatch(random(7), 0);
    const decoder = new Decoder(Buffer.concat([batch, Buffer.from([1, 2, 3])]));
    await decodeRecordBatch(decoder, deps);
    expect(decoder.offset).toBe(batch.length);
    const cut = new Decoder(batch.subarray(0, batch.length - 5));
    await expect(decodeRecordBatch(cut, deps)).rejects.toMatchObject({ name: "KafkaJSPartialMessageError" });
  });

  it("reads a header named like an Object.prototype member as that header", async () => {
    const record = encodeRecord({
      offsetDelta: 0,
      key: null,
      value: Buffer.from("v"),
      headers: { toString: "a", constructor: ["b", "c"] },
    });
    const { buffer } = await RecordBatch({ firstOffset: Long.fromString("0"), records: [record] });
    const ours = await decodeRecordBatch(new Decoder(buffer), deps);
    expect(ours.records[0]!.headers).toEqual({
      toString: Buffer.from("a"),
      constructor: [Buffer.from("b"), Buffer.from("c")],
    });
  });

  it("gives every record one Buffer for a short header value that repeats, and slices for long ones", async () => {
    const trace = "0123456789abcdef0123456789abcdef0"; // 33 bytes: longer than any value looked for
    const records = [0, 1].map((i) =>
      encodeRecord({
        offsetDelta: i,
        key: null,
        value: Buffer.from("v"),
        headers: { producer: "web", trace },
      }),
    );
    const { buffer } = await RecordBatch({ firstOffset: Long.fromString("0"), records });
    const ours = await decodeRecordBatch(new Decoder(buffer), { ...deps, names: new HeaderNames() });
    const [a, b] = ours.records.map((r) => r.headers);
    expect(a).toEqual({ producer: Buffer.from("web"), trace: Buffer.from(trace) });
    expect(b).toEqual(a);
    expect(b!.producer).toBe(a!.producer);
    expect(b!.trace).not.toBe(a!.trace);
    // The shared one is a copy: it does not change with the fetch response's bytes.
    buffer.fill(0);
    expect(a!.producer).toEqual(Buffer.from("web"));
  });
});
