// Every compression codec, end to end: records written by the Kafka Java client (its own snappy-java,
// lz4-java and zstd-jni, its batching) through the real broker, read back by a plain kafkajs consumer
// with schemawatch's codecs installed, value for value, header for header, offset for offset.
import { createHash } from "node:crypto";
import { CompressionCodecs } from "kafkajs";
import type { IHeaders } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { registerCodecs, type KafkaCodec } from "../../../src/kafka/patches/codecs/index.js";
import {
  kafkaClientClasspath,
  produceWithJava,
  type JavaCompression,
  type JavaRecord,
} from "../../helpers/java-producer.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  waitFor,
} from "../../helpers/kafka.js";

const RECORDS = 400;
const PARTITIONS = 2;
const BASE_TIME = 1796112000000;
const ATTRIBUTE: Record<Exclude<JavaCompression, "none">, number> = { gzip: 1, snappy: 2, lz4: 3, zstd: 4 };
const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];

interface Seen {
  key: Buffer | null;
  value: Buffer | null;
  headers: IHeaders | undefined;
  timestamp: string;
}

/**
 * The distinct compressed batches each codec decompressed (by their bytes' hash) and the records in
 * them, counted by wrapping the installed codecs. Distinct, because a consumer may fetch a batch again
 * (a rebalance on a loaded machine): that is kafkajs's business, not how the producer batched.
 */
const decompressed = new Map<number, Map<string, number>>();

function tallyOf(attribute: number): { batches: number; records: number } | undefined {
  const batches = decompressed.get(attribute);
  if (batches === undefined) return undefined;
  return { batches: batches.size, records: [...batches.values()].reduce((sum, n) => sum + n, 0) };
}

/** The number of records in a decompressed records section: each starts with its varint length. */
function countRecords(section: Buffer): number {
  let count = 0;
  for (let at = 0; at < section.length; count++) {
    let raw = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = section[at++]!;
      raw |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80);
    at += (raw >>> 1) ^ -(raw & 1);
  }
  return count;
}

function jsonEvent(i: number): string {
  return JSON.stringify({
    id: 100000 + i,
    event: ["view", "click", "buy"][i % 3],
    amount: (i * 37) % 1000,
    user: `u-${(i * 7919) % 50000}`,
    session: `${((i * 2654435761) >>> 0).toString(16)}-${i % 97}`,
    page: `/products/${i % 900}`,
    timestamp: new Date(BASE_TIME + i).toISOString(),
  });
}

/** Ordinary events, and the edge cases Kafka allows: no key, a tombstone, binary, null and repeated headers. */
function records(topic: string): JavaRecord[] {
  return Array.from({ length: RECORDS }, (_, i): JavaRecord => {
    const producer = PRODUCERS[i % PRODUCERS.length]!;
    const headers: [string, string | Buffer | null][] = [
      ["producer", producer],
      ["schema-version", i % 2 === 0 ? "event/1.0" : "event/1.1"],
    ];
    if (i % 7 === 0) headers.push(["trace", null]);
    if (i % 11 === 0) headers.push(["tag", "a"], ["tag", Buffer.from([0, 1, 2, 255])]);
    if (i % 13 === 0) headers.push(["empty", ""]);
    return {
      topic,
      partition: i % PARTITIONS,
      key: i === 0 ? null : `${producer}:${i}`,
      value: i === 1 ? null : i === 2 ? Buffer.from(Array.from({ length: 256 }, (_, b) => b)) : jsonEvent(i),
      headers,
      timestamp: BASE_TIME + i,
    };
  });
}

const asBuffer = (value: string | Buffer | null | undefined): Buffer | null =>
  value === null || value === undefined ? null : Buffer.from(value);

/** What kafkajs must show for a record's headers: a repeated name becomes an array, null stays null. */
function expectedHeaders(record: JavaRecord): IHeaders {
  const headers: IHeaders = {};
  for (const [name, value] of record.headers ?? []) {
    const bytes = asBuffer(value) as Buffer;
    const before = headers[name];
    headers[name] =
      before === undefined ? bytes : Array.isArray(before) ? [...before, bytes] : [before, bytes];
  }
  return headers;
}

async function consumeAll(brokers: string[], topic: string, count: number): Promise<Map<string, Seen>> {
  const seen = new Map<string, Seen>();
  const consumer = kafkaClient(brokers).consumer({ groupId: freshGroupId(), maxWaitTimeInMs: 200 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        const { key, value, headers, timestamp } = message;
        seen.set(`${partition}:${message.offset}`, { key, value, headers, timestamp });
      },
    });
    await waitFor(() => seen.size >= count, `${count} records on ${topic}`);
  } finally {
    await consumer.disconnect();
  }
  return seen;
}

describe("records from the Kafka Java client, every compression.type", () => {
  let brokers: string[];
  const installed = new Map<number, () => unknown>();

  beforeAll(async () => {
    brokers = await kafkaBrokers();
    registerCodecs(CompressionCodecs);
    const table = CompressionCodecs as unknown as Record<number, () => KafkaCodec>;
    for (const attribute of Object.values(ATTRIBUTE)) {
      const codec = table[attribute]!();
      installed.set(attribute, table[attribute]!);
      const counted: KafkaCodec = {
        compress: (encoder) => codec.compress(encoder),
        decompress: async (buffer) => {
          const out = await codec.decompress(buffer);
          const batches = decompressed.get(attribute) ?? new Map<string, number>();
          batches.set(createHash("sha256").update(buffer).digest("hex"), countRecords(out));
          decompressed.set(attribute, batches);
          return out;
        },
      };
      table[attribute] = () => counted;
    }
  });

  afterAll(() => {
    const table = CompressionCodecs as unknown as Record<number, () => unknown>;
    for (const [attribute, factory] of installed) table[attribute] = factory;
  });

  it.each(["none", "gzip", "snappy", "lz4", "zstd"] as const)(
    "reads back every %s record exactly, at the offsets the producer was given",
    async (compression) => {
      const topic = freshTopic(`sw-codec-${compression}`);
      await createTopic(brokers, topic, PARTITIONS);
      const sent = records(topic);
      decompressed.clear();

      const produced = await produceWithJava(brokers, { compression, records: sent });

      // Offsets: each partition's records in the order sent, from 0.
      for (let p = 0; p < PARTITIONS; p++) {
        const offsets = produced.filter((r) => r.partition === p).map((r) => r.offset);
        expect(offsets).toEqual(Array.from({ length: RECORDS / PARTITIONS }, (_, i) => String(i)));
      }

      const seen = await consumeAll(brokers, topic, RECORDS);
      expect(seen.size).toBe(RECORDS);
      sent.forEach((record, i) => {
        const at = produced[i]!;
        expect(at.partition).toBe(record.partition);
        const message = seen.get(`${at.partition}:${at.offset}`);
        expect(message, `record ${i}`).toBeDefined();
        expect(message!.key).toEqual(asBuffer(record.key));
        expect(message!.value).toEqual(asBuffer(record.value));
        expect(message!.headers).toEqual(expectedHeaders(record));
        expect(message!.timestamp).toBe(String(record.timestamp));
      });

      // The records really came compressed, in one batch per partition (a linger.ms longer than any
      // run and a large batch.size keep every record sent before the flush together), and through the
      // codec of their compression.type only.
      if (compression === "none") {
        expect(decompressed.size).toBe(0);
      } else {
        expect([...decompressed.keys()]).toEqual([ATTRIBUTE[compression]]);
        expect(tallyOf(ATTRIBUTE[compression])).toEqual({ batches: PARTITIONS, records: RECORDS });
      }
    },
  );

  it("names the missing jars and the command that fetches them", () => {
    expect(() => kafkaClientClasspath("/nonexistent/libs")).toThrow(
      /No kafka-clients-\*\.jar in \/nonexistent\/libs[\s\S]*scripts\/kafka-broker\.sh fetch/,
    );
  });
});
