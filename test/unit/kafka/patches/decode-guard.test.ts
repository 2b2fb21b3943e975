// The decode guard in kafkajs's own decoding path: batches are built with kafkajs's record batch
// encoder (the bytes a broker would send), then corrupted the ways a real topic can be.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import {
  UNDECODABLE,
  installDecodeGuard,
  type UndecodableBatch,
} from "../../../../src/kafka/patches/decode-guard.js";

installDecodeGuard();
const require = createRequire(import.meta.url);

interface Encoded {
  buffer: Buffer;
}
type EncodeBatch = (options: Record<string, unknown>) => Promise<Encoded>;
type EncodeRecord = (options: Record<string, unknown>) => Encoded;
interface DecodedRecord {
  offset: string;
  value: Buffer | null;
  [UNDECODABLE]?: UndecodableBatch;
}

const encodeBatch = (require("kafkajs/src/protocol/recordBatch/v0/index.js") as { RecordBatch: EncodeBatch })
  .RecordBatch;
const encodeRecord = require("kafkajs/src/protocol/recordBatch/record/v0/index.js") as EncodeRecord;
const Long = require("kafkajs/src/utils/long.js") as { fromInt(n: number): unknown };
const decodeMessages = require("kafkajs/src/protocol/requests/fetch/v4/decodeMessages.js") as (
  decoder: unknown,
) => Promise<DecodedRecord[]>;
const Decoder = require("kafkajs/src/protocol/decoder.js") as new (buffer: Buffer) => unknown;

const GZIP = 1;
const HEADER_SIZE = 61;
const ATTRIBUTES = 21;

async function batch(firstOffset: number, values: string[], compression = 0): Promise<Buffer> {
  const records = values.map((value, i) =>
    encodeRecord({ offsetDelta: i, timestampDelta: 0, key: null, value: Buffer.from(value), headers: {} }),
  );
  const encoded = await encodeBatch({
    compression,
    firstOffset: Long.fromInt(firstOffset),
    firstTimestamp: 1796112000000,
    maxTimestamp: 1796112000000,
    lastOffsetDelta: values.length - 1,
    records,
  });
  return encoded.buffer;
}

/** The record set of one partition in a fetch response: its size, then the batches. */
async function decode(...batches: Buffer[]): Promise<DecodedRecord[]> {
  const messages = Buffer.concat(batches);
  const size = Buffer.alloc(4);
  size.writeInt32BE(messages.length);
  return decodeMessages(new Decoder(Buffer.concat([size, messages])));
}

const summary = (records: DecodedRecord[]) =>
  records.map((r) => (r[UNDECODABLE] ? `undecodable ${r.offset}` : `${r.offset}=${r.value?.toString()}`));

describe("the decode guard", () => {
  it("leaves good batches to kafkajs, compressed or not", async () => {
    const records = await decode(await batch(0, ["a", "b"]), await batch(2, ["c"], GZIP));
    expect(summary(records)).toEqual(["0=a", "1=b", "2=c"]);
  });

  it("turns a batch whose compressed bytes are corrupt into one marker at its last offset, and reads on", async () => {
    const bad = await batch(2, ["c", "d", "e"], GZIP);
    bad.fill(0x55, HEADER_SIZE, HEADER_SIZE + 8); // the gzip magic and header are gone
    const records = await decode(await batch(0, ["a", "b"]), bad, await batch(5, ["f"]));
    expect(summary(records)).toEqual(["0=a", "1=b", "undecodable 4", "5=f"]);
    const marker = records[2]![UNDECODABLE]!;
    expect(marker).toEqual({
      firstOffset: "2",
      lastOffset: "4",
      records: 3,
      codec: "gzip",
      problem: expect.stringMatching(/^gzip batch could not be decoded: Error: /),
    });
  });

  it("turns a batch naming a codec Kafka does not define into a marker", async () => {
    const bad = await batch(0, ["a", "b"]);
    bad.writeInt16BE(bad.readInt16BE(ATTRIBUTES) | 6, ATTRIBUTES);
    const records = await decode(bad, await batch(2, ["c"]));
    expect(summary(records)).toEqual(["undecodable 1", "2=c"]);
    expect(records[0]![UNDECODABLE]).toMatchObject({ codec: "codec 6", records: 2 });
  });

  it("turns uncompressed records that do not parse into a marker", async () => {
    const bad = await batch(0, ["a", "b"]);
    // The first record's length varint now claims far more bytes than the batch has.
    bad.writeUInt8(0x7e, HEADER_SIZE);
    const records = await decode(bad, await batch(2, ["c"]));
    expect(summary(records)).toEqual(["undecodable 1", "2=c"]);
    expect(records[0]![UNDECODABLE]).toMatchObject({ codec: "none", records: 2 });
  });

  it("still leaves a batch cut short by the fetch size to kafkajs, which fetches it again", async () => {
    const whole = await batch(2, ["c", "d"]);
    const records = await decode(await batch(0, ["a", "b"]), whole.subarray(0, whole.length - 3));
    expect(summary(records)).toEqual(["0=a", "1=b"]);
  });

  it("is installed once, however often it is asked to be", () => {
    const before = require("kafkajs/src/protocol/recordBatch/v0/decoder.js") as unknown;
    installDecodeGuard();
    expect(require("kafkajs/src/protocol/recordBatch/v0/decoder.js")).toBe(before);
  });
});

describe("record timestamps", () => {
  it("reads kafkajs's decimal timestamps exactly, falling back to Number() for anything else", async () => {
    const { timestampOf } = await import("../../../../src/kafka/batch.js");
    for (const text of ["1796112000000", "0", "-1", "123456789012345", "9007199254740993", "", "12a", " 5"])
      expect(timestampOf(text), text).toBe(Number(text));
  });
});
