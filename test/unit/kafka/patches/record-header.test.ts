// `KafkaRecord.header(name)` reads one header from the batch's bytes without making the headers
// object: on random header sets (repeated names, null and empty values, nameless headers, empty,
// non-ASCII, invalid UTF-8 and `__proto__` names) it must answer what `headerValue` reads from
// `headers` for every name asked, on records of the real in-place decoder, directly and through
// the BatchRecord the sink is handed.
import type { KafkaMessage } from "kafkajs";
import { describe, expect, it } from "vitest";
import { BatchRecord } from "../../../../src/kafka/batch.js";
import { KafkaRecord } from "../../../../src/kafka/patches/kafka-record.js";
import {
  HeaderNames,
  decodeRecordBatch,
  type BatchDecoderDeps,
} from "../../../../src/kafka/patches/record-batch.js";
import { HeaderDecoder, headerValue, recordHeader } from "../../../../src/pipeline/record.js";

/** Zigzag varint bytes of a small signed integer. */
function zz(n: number): number[] {
  let v = n >= 0 ? n * 2 : -n * 2 - 1;
  const out: number[] = [];
  do {
    const low = v & 0x7f;
    v = Math.floor(v / 128);
    out.push(v > 0 ? low | 0x80 : low);
  } while (v > 0);
  return out;
}
const bytes = (b: Buffer | null): number[] => (b === null ? zz(-1) : [...zz(b.length), ...b]);

/** A record batch (magic 2) of records with these headers, each a name and a value (null: none). */
function batch(records: Array<Array<[Buffer | null, Buffer | null]>>): Buffer {
  const body = records.flatMap((headers, i) => {
    const record = [0, ...zz(0), ...zz(i), ...zz(-1), ...zz(1), 0x76, ...zz(headers.length)];
    for (const [name, value] of headers) record.push(...bytes(name), ...bytes(value));
    return [...zz(record.length), ...record];
  });
  const header = Buffer.alloc(61);
  header.writeBigInt64BE(100n, 0);
  header.writeInt32BE(49 + body.length, 8);
  header.writeInt8(2, 16);
  header.writeBigInt64BE(1796112000000n, 27);
  header.writeBigInt64BE(1796112000000n, 35);
  header.writeBigInt64BE(-1n, 43);
  header.writeInt32BE(records.length, 57);
  return Buffer.concat([header, Buffer.from(body)]);
}

const partialError = (message: string): Error => Object.assign(new Error(message), { name: "Partial" });
const deps: BatchDecoderDeps = { names: new HeaderNames(), codecFor: () => null, partialError };

/** Names on the wire: null is a nameless header (kafkajs's "null"); the last two are not UTF-8. */
const NAMES: Array<Buffer | null> = [
  ...[
    "producer",
    "trace-id",
    "schema-version",
    "",
    "__proto__",
    "toString",
    "null",
    "é",
    "名前",
    "\uFFFD",
  ].map((n) => Buffer.from(n)),
  null,
  Buffer.from([0xff]),
  Buffer.from([0xc3]),
];
/** Names asked: every name above as text, and some no header has. */
const ASKED = [
  "producer",
  "trace-id",
  "schema-version",
  "",
  "__proto__",
  "toString",
  "constructor",
  "null",
  "é",
  "名前",
  "\uFFFD",
  "\uD800",
  "missing",
  "Producer",
];

/** A deterministic generator (mulberry32), so that a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomHeaders(next: () => number): Array<[Buffer | null, Buffer | null]> {
  const count = Math.floor(next() * 7);
  const headers: Array<[Buffer | null, Buffer | null]> = [];
  for (let i = 0; i < count; i++) {
    const name = NAMES[Math.floor(next() * NAMES.length)]!;
    const kind = next();
    const value =
      kind < 0.25
        ? null
        : kind < 0.35
          ? Buffer.alloc(0)
          : kind < 0.7
            ? Buffer.from(`v${Math.floor(next() * 3)}`)
            : Buffer.from(`${"t".repeat(Math.floor(next() * 60))}${next()}`);
    headers.push([name, value]);
  }
  return headers;
}

describe("KafkaRecord.header", () => {
  it("reads every name as headerValue reads the headers object, on 2,000 random header sets", async () => {
    const next = random(37);
    let found = 0;
    let asked = 0;
    for (let round = 0; round < 100; round++) {
      const sets = Array.from({ length: 20 }, () => randomHeaders(next));
      const decoded = await decodeRecordBatch({ buffer: batch(sets), offset: 0 }, deps);
      expect(decoded.records).toHaveLength(20);
      const sink = new BatchRecord("t", 0);
      for (const record of decoded.records) {
        expect(record).toBeInstanceOf(KafkaRecord);
        const kafka = record as KafkaRecord;
        const headers = kafka.headers;
        // kafkajs types a header value as never null; its decoder (and ours) gives null.
        sink.fill(kafka as unknown as KafkaMessage);
        for (const name of ASKED) {
          const expected = headerValue(headers, name);
          expect(kafka.header(name), name).toEqual(expected);
          expect(sink.header(name), name).toEqual(expected);
          expect(recordHeader(sink, name), name).toEqual(expected);
          asked++;
          if (expected !== undefined) found++;
        }
        // Once the sink read the headers object, it answers from it, alike.
        expect(sink.headers).toEqual(headers);
        for (const name of ASKED) expect(sink.header(name), name).toEqual(headerValue(headers, name));
      }
    }
    expect(asked).toBe(2000 * ASKED.length);
    // The sets hit names often enough for the comparison to mean something.
    expect(found).toBeGreaterThan(2000);
  });

  it("answers the first non-null value, a nameless header for null, and nothing inherited", async () => {
    const b = (s: string) => Buffer.from(s);
    const decoded = await decodeRecordBatch(
      {
        buffer: batch([
          [
            [b("p"), null],
            [b("p"), b("first")],
            [b("p"), b("second")],
            [null, b("nameless")],
            [b("null"), b("named")],
            [b("__proto__"), null],
            [Buffer.from([0xc3]), b("bad")],
          ],
        ]),
        offset: 0,
      },
      deps,
    );
    const record = decoded.records[0] as KafkaRecord;
    expect(record.header("p")).toEqual(b("first"));
    expect(record.header("null")).toEqual(b("nameless"));
    expect(record.header("__proto__")).toBeUndefined();
    expect(record.header("toString")).toBeUndefined();
    expect(record.header("\uFFFD")).toEqual(b("bad"));
    expect(headerValue(record.headers, "toString")).toBeUndefined();
    expect(headerValue({}, "__proto__")).toBeUndefined();
  });

  it("reads through the headers object for a record without a reader (a capture's, a held copy)", () => {
    const record = {
      topic: "t",
      partition: 0,
      offset: "1",
      timestamp: 0,
      key: null,
      value: null,
      headers: { producer: [null, "web"], version: Buffer.from("3") },
    };
    expect(recordHeader(record, "producer")).toBe("web");
    expect(new HeaderDecoder("version").text(record)).toBe("3");
    expect(new HeaderDecoder("producer").text({ ...record, headers: undefined })).toBeUndefined();
  });
});
