// Realistic bytes for codec benchmarks and test fixtures: the records section of a Kafka record batch
// (magic 2), which is what a codec compresses, filled with ~166-byte JSON events like
// examples/traffic and the headers schemawatch reads. Deterministic: the same count gives the same bytes.
import { Buffer } from "node:buffer";

const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];
const EVENTS = ["view", "click", "buy", "refund"];
const PAGES = ["/home", "/search", "/products", "/cart", "/checkout"];

function varint(out, value) {
  let v = (value << 1) ^ (value >> 31); // zigzag, as Kafka's record fields are
  v >>>= 0;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
}

function bytesField(out, bytes) {
  varint(out, bytes.length);
  for (const b of bytes) out.push(b);
}

/** The JSON value of event i: about 166 bytes, varied like real traffic (ids, prices, sessions). */
export function eventJson(i, random) {
  const producer = PRODUCERS[i % PRODUCERS.length];
  const session = Math.floor(random() * 0xffffffff)
    .toString(16)
    .padStart(8, "0");
  return JSON.stringify({
    id: 100000 + i,
    event: EVENTS[Math.floor(random() * EVENTS.length)],
    amount: Math.round(random() * 100000) / 100,
    user: `u-${Math.floor(random() * 50000)}`,
    session: `${session}-${(i % 977).toString(16)}`,
    page: `${PAGES[i % PAGES.length]}/${Math.floor(random() * 900)}`,
    timestamp: new Date(1796112000000 + i * 37).toISOString(),
    source: producer,
  });
}

/** A small deterministic generator (mulberry32): no Math.random, so every run compresses the same bytes. */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The records section of one batch holding records until it reaches `bytes` (at least one record):
 * each record with a key, a producer and a schema-version header, and a JSON value.
 * Returns { buffer, records }.
 */
export function recordsSection(bytes, seed = 1) {
  const random = seededRandom(seed);
  const out = [];
  let records = 0;
  while (out.length < bytes || records === 0) {
    const i = records;
    const body = [];
    body.push(0); // record attributes
    varint(body, i * 37); // timestamp delta
    varint(body, i); // offset delta
    bytesField(body, Buffer.from(`${PRODUCERS[i % PRODUCERS.length]}:${i}`));
    bytesField(body, Buffer.from(eventJson(i, random)));
    varint(body, 2);
    bytesField(body, Buffer.from("producer"));
    bytesField(body, Buffer.from(PRODUCERS[i % PRODUCERS.length]));
    bytesField(body, Buffer.from("schema-version"));
    bytesField(body, Buffer.from(i % 3 === 0 ? "event/1.0" : "event/1.1"));
    varint(out, body.length);
    for (const b of body) out.push(b);
    records++;
  }
  return { buffer: Buffer.from(out), records };
}
