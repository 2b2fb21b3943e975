import { describe, expect, it } from "vitest";
import { MAX_PATH, ProtoPresence } from "../../../../src/formats/protobuf/presence.js";
import { seededRandom } from "../../../../src/stats/thinning.js";
import { apicurioRef, confluentRecord, encode, proto } from "../../../helpers/protobuf.js";

// The presence scan against a slow reference written from its rule (presence.ts's head): the bytes
// read into a list of fields first (a field's tag counts even when its value then breaks), the paths
// applied to that list after. Every truncation of a set of records, and seeded byte changes of them,
// must get the same verdict from both: a record the scan reads as "absent" where no Protobuf reader
// could read it would be evidence of absence from an unreadable record, which is how a deprecated
// field is wrongly called drained.

const SCHEMA = proto(`syntax = "proto3"; package pay;
message Payment {
  string id = 1;
  int64 amount = 2;
  repeated Line lines = 3;
  map<string, Line> by_sku = 4;
  repeated int32 codes = 5;
  fixed64 stamp = 6;
  float rate = 8;
}
message Line { string sku = 1; int32 qty = 2; }`);

type Verdict = "absent" | "present" | "unknown";

interface Field {
  number: number;
  wire: number;
  /** The value's bytes (a length-delimited field's content), when the value could be read. */
  from: number;
  to: number;
  /** The tag was read, its value was not. */
  broken: boolean;
}

/** A varint of at most `max` bytes before `end`: its value and the position past it, or null. */
function varint(bytes: Uint8Array, pos: number, end: number, max: number): [bigint, number] | null {
  let value = 0n;
  for (let n = 0; n < max; n++) {
    if (pos + n >= end) return null;
    const byte = bytes[pos + n]!;
    value |= BigInt(byte & 0x7f) << BigInt(7 * n);
    if (byte < 0x80) return [value, pos + n + 1];
  }
  return null;
}

/** A tag (at most 5 bytes, its low 32 bits read): field number and wire type, or null for a bad one. */
function tag(bytes: Uint8Array, pos: number, end: number): [number, number, number] | null {
  const read = varint(bytes, pos, end, 5);
  if (read === null) return null;
  const low = Number(read[0] & 0xffffffffn);
  const number = Math.floor(low / 8);
  return number === 0 ? null : [number, low % 8, read[1]];
}

/** Past one value of `wire` (a group of field `number`, at most `groups` deep), or null. */
function pastValue(
  bytes: Uint8Array,
  pos: number,
  end: number,
  wire: number,
  number: number,
  groups: number,
): number | null {
  switch (wire) {
    case 0:
      return varint(bytes, pos, end, 10)?.[1] ?? null;
    case 1:
      return pos + 8 <= end ? pos + 8 : null;
    case 5:
      return pos + 4 <= end ? pos + 4 : null;
    case 2: {
      const read = varint(bytes, pos, end, 5);
      if (read === null || read[0] > BigInt(end - read[1])) return null;
      return read[1] + Number(read[0]);
    }
    case 3: {
      if (groups === 0) return null;
      for (;;) {
        const t = tag(bytes, pos, end);
        if (t === null) return null;
        if (t[1] === 4) return t[0] === number ? t[2] : null;
        const next = pastValue(bytes, t[2], end, t[1], t[0], groups - 1);
        if (next === null) return null;
        pos = next;
      }
    }
    default:
      return null;
  }
}

/** A message's fields in order, up to the first that breaks (kept, `broken`); whether it broke. */
function fields(bytes: Uint8Array, pos: number, end: number): { list: Field[]; broken: boolean } {
  const list: Field[] = [];
  while (pos < end) {
    const t = tag(bytes, pos, end);
    if (t === null) return { list, broken: true };
    const [number, wire, at] = t;
    const past = wire === 4 ? null : pastValue(bytes, at, end, wire, number, 32);
    if (past === null) {
      list.push({ number, wire, from: at, to: at, broken: true });
      return { list, broken: true };
    }
    const from = wire === 2 ? varint(bytes, at, end, 5)![1] : at;
    list.push({ number, wire, from, to: past, broken: false });
    pos = past;
  }
  return { list, broken: false };
}

interface Step {
  key?: number;
  next?: Map<number, Step>;
}

function trie(paths: readonly (readonly number[])[]): Map<number, Step> {
  const root = new Map<number, Step>();
  paths.forEach((path, key) => {
    let level = root;
    path.forEach((number, depth) => {
      const step = level.get(number) ?? {};
      level.set(number, step);
      if (depth === path.length - 1) step.key = key;
      else level = step.next ??= new Map();
    });
  });
  return root;
}

function keysUnder(level: Map<number, Step>, into: number[] = []): number[] {
  for (const step of level.values()) {
    if (step.key !== undefined) into.push(step.key);
    if (step.next) keysUnder(step.next, into);
  }
  return into;
}

/** Marks what the message at `level` holds; false when its bytes break. */
function apply(
  bytes: Uint8Array,
  from: number,
  to: number,
  level: Map<number, Step>,
  marks: Verdict[],
): boolean {
  const read = fields(bytes, from, to);
  for (const field of read.list) {
    const step = level.get(field.number);
    if (step === undefined) continue;
    if (step.key !== undefined) marks[step.key] = "present";
    if (step.next === undefined) continue;
    if (field.wire !== 2) for (const key of keysUnder(step.next)) marks[key] = "present";
    else if (!field.broken && !apply(bytes, field.from, field.to, step.next, marks))
      for (const key of keysUnder(step.next)) marks[key] = "present";
  }
  return !read.broken;
}

/** The rule's verdicts for a body after Confluent's 5-byte prefix and its `[0]`. */
function reference(bytes: Uint8Array, paths: readonly (readonly number[])[]): Verdict[] {
  const marks: Verdict[] = paths.map(() => "absent");
  if (!apply(bytes, 6, bytes.length, trie(paths), marks))
    return marks.map((m) => (m === "absent" ? "unknown" : m));
  return marks;
}

const NAMES: Verdict[] = ["absent", "present", "unknown"];
function scanned(bytes: Uint8Array, paths: readonly (readonly number[])[]): Verdict[] {
  const into = new Uint8Array(paths.length);
  const count = new ProtoPresence(SCHEMA, paths).check(bytes, 5, into);
  const verdicts = [...into].map((v) => NAMES[v]!);
  expect(count).toBe(verdicts.filter((v) => v === "present").length);
  return verdicts;
}

// amount, lines/*/qty, by_sku/*/sku, codes, lines, lines/*/qty/1 (under a varint), stamp, a group's
// field 7, a far number, lines/*/sku, id, rate.
const PATHS = [[2], [3, 2], [4, 2, 1], [5], [3], [3, 2, 1], [6], [7], [5000], [3, 1], [1], [8]];

/** A tag's bytes: field `number`, wire type `wire`, as a varint. */
function tagBytes(number: number, wire: number): number[] {
  const out: number[] = [];
  let value = number * 8 + wire;
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  return [...out, value];
}
const group = (number: number, inner: number[]) => [...tagBytes(number, 3), ...inner, ...tagBytes(number, 4)];
const BODIES: Uint8Array[] = [
  encode(SCHEMA, "pay.Payment", { id: "p-1", amount: "12", codes: [1, 300, 70000] }),
  encode(SCHEMA, "pay.Payment", {
    lines: [{ sku: "a", qty: 2 }, { sku: "bb" }],
    by_sku: { k: { sku: "s", qty: 1 } },
    stamp: "99",
    rate: 1.5,
  }),
  encode(SCHEMA, "pay.Payment", { amount: "-1", lines: [{ qty: 300 }] }),
  // A group (field 7) around a varint, a fixed64 and a nested group; then field 5000 and amount.
  Uint8Array.from([
    ...group(7, [0x08, 0x96, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, ...group(9, [0x1d, 1, 2, 3, 4])]),
    0xc0,
    0xb8,
    0x02,
    0x01,
    0x10,
    0x05,
  ]),
  // lines holding bytes that are no message, then a line whose qty is a string.
  Uint8Array.from([0x1a, 0x02, 0x0a, 0x09, 0x1a, 0x03, 0x12, 0x01, 0x61, 0x28, 0x07]),
  // A group of a two-byte number holding a string and a fixed32, then a group holding a group.
  Uint8Array.from([
    ...group(20, [0x0a, 0x02, 0x61, 0x62, 0x15, 1, 2, 3, 4]),
    ...group(7, group(300, [0x08, 0x01])),
    0x10,
    0x02,
  ]),
  // A string of 128 bytes (its length 0x80 0x01), an empty line, amount.
  encode(SCHEMA, "pay.Payment", { id: "x".repeat(128), lines: [{}], amount: "3" }),
  // id's length written in five bytes (3: readers take it), then amount; a group holding a six-byte tag.
  Uint8Array.from([0x0a, 0x83, 0x80, 0x80, 0x80, 0x00, 0x61, 0x62, 0x63, 0x10, 0x01]),
  Uint8Array.from([0x10, 0x01, 0x3b, 0x88, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01, 0x3c, 0x08, 0x01]),
];

function mutations(body: Uint8Array, random: () => number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let n = 0; n <= body.length; n++) out.push(body.slice(0, n));
  for (let i = 0; i < 40; i++) {
    const changed = body.slice();
    changed[Math.floor(random() * body.length)] = Math.floor(random() * 256);
    out.push(changed);
    const at = Math.floor(random() * (body.length + 1));
    const special = [0x00, 0x07, 0x0e, 0x0f, 0x80, 0xff, 0x3b, 0x3c, 0x12, 0x1a][Math.floor(random() * 10)]!;
    out.push(Uint8Array.from([...body.slice(0, at), special, ...body.slice(at)]));
  }
  return out;
}

// A schema id whose bytes read as fields (2 = 1, twice): a scan that started over at the record's
// second byte would find amount there.
const framed = (body: Uint8Array) => confluentRecord(0x10011001, [0], body);

describe("the Protobuf presence scan against its rule", () => {
  it("agrees with the reference on every truncation and on seeded byte changes of its records", () => {
    const random = seededRandom(0x5eed);
    let compared = 0;
    const verdicts = new Map<Verdict, number>();
    for (const body of BODIES)
      for (const bytes of mutations(body, random)) {
        const record = framed(bytes);
        const want = reference(record, PATHS);
        expect(scanned(record, PATHS), `body ${Buffer.from(bytes).toString("hex")}`).toEqual(want);
        for (const v of want) verdicts.set(v, (verdicts.get(v) ?? 0) + 1);
        compared++;
      }
    // Every verdict is exercised, each many times (the inputs are fixed by the seed).
    expect(compared).toBe(BODIES.length * 80 + BODIES.reduce((s, b) => s + b.length + 1, 0));
    expect(verdicts.get("absent")).toBeGreaterThan(500);
    expect(verdicts.get("present")).toBeGreaterThan(500);
    expect(verdicts.get("unknown")).toBeGreaterThan(500);
  });

  it("reads a record no Protobuf reader reads as unknown: an 11-byte varint, a group another tag ends, field 0 in a group", () => {
    const paths = [[2], [1]];
    // amount, then field 5 as a varint of 11 bytes.
    const long = [0x10, 0x01, 0x28, ...new Array<number>(10).fill(0x80), 0x01];
    expect(scanned(framed(Uint8Array.from(long)), paths)).toEqual(["present", "unknown"]);
    // Twelve is no better; nor is eleven inside a group, where a two-byte one reads.
    const twelve = [0x10, 0x01, 0x28, ...new Array<number>(11).fill(0x80), 0x01];
    expect(scanned(framed(Uint8Array.from(twelve)), paths)).toEqual(["present", "unknown"]);
    const inGroup = (varint: number[]) => framed(Uint8Array.from([0x10, 0x01, 0x3b, 0x08, ...varint, 0x3c]));
    expect(scanned(inGroup([...new Array<number>(10).fill(0x80), 0x01]), paths)).toEqual([
      "present",
      "unknown",
    ]);
    expect(scanned(inGroup([0x80, 0x01]), paths)).toEqual(["present", "absent"]);
    // Ten bytes is a varint every reader takes.
    const ten = [0x10, 0x01, 0x28, ...new Array<number>(9).fill(0x80), 0x01];
    expect(scanned(framed(Uint8Array.from(ten)), paths)).toEqual(["present", "absent"]);
    // Group 7 ended by group 8's end tag; then group 7 holding a tag of field 0.
    expect(scanned(framed(Uint8Array.from([0x10, 0x01, 0x3b, 0x44])), paths)).toEqual(["present", "unknown"]);
    expect(scanned(framed(Uint8Array.from([0x10, 0x01, 0x3b, 0x00, 0x01, 0x3c])), paths)).toEqual([
      "present",
      "unknown",
    ]);
    expect(scanned(framed(Uint8Array.from([0x10, 0x01, 0x3b, 0x3c])), paths)).toEqual(["present", "absent"]);
  });

  it("skips groups nested 32 deep and calls the 33rd unreadable", () => {
    const nested = (depth: number): number[] => (depth === 0 ? [0x08, 0x01] : group(7, nested(depth - 1)));
    const paths = [[2], [1]];
    expect(scanned(framed(Uint8Array.from([...nested(32), 0x10, 0x01])), paths)).toEqual([
      "present",
      "absent",
    ]);
    expect(scanned(framed(Uint8Array.from([...nested(33), 0x10, 0x01])), paths)).toEqual([
      "unknown",
      "unknown",
    ]);
    expect(reference(framed(Uint8Array.from([...nested(33), 0x10, 0x01])), paths)).toEqual([
      "unknown",
      "unknown",
    ]);
  });

  it("reads a tag's number from its low 32 bits and refuses a tag of six bytes", () => {
    // Field 2 with a five-byte tag whose last byte carries bits past 32 (0x70: dropped).
    expect(scanned(framed(Uint8Array.from([0x90, 0x80, 0x80, 0x80, 0x70, 0x05])), [[2]])).toEqual([
      "present",
    ]);
    expect(scanned(framed(Uint8Array.from([0x90, 0x80, 0x80, 0x80, 0x80, 0x00, 0x05])), [[2]])).toEqual([
      "unknown",
    ]);
    // The same inside a skipped group: its end tag written in five bytes still ends it.
    expect(scanned(framed(Uint8Array.from([0x3b, 0xbc, 0x80, 0x80, 0x80, 0x70, 0x10, 0x01])), [[2]])).toEqual(
      ["present"],
    );
  });

  it("reads an empty message on a path as one that lacks what lies under it", () => {
    const record = framed(encode(SCHEMA, "pay.Payment", { lines: [{}], amount: "3" }));
    expect(Buffer.from(record.subarray(6)).toString("hex")).toBe("10031a00");
    expect(scanned(record, [[3], [3, 2], [2]])).toEqual(["present", "absent", "present"]);
  });

  it("finds field numbers on either side of the dense table's end", () => {
    const paths = [[4095], [4096], [4097]];
    const at = (number: number) => scanned(framed(Uint8Array.from([...tagBytes(number, 0), 0x01])), paths);
    expect(at(4095)).toEqual(["present", "absent", "absent"]);
    expect(at(4096)).toEqual(["absent", "present", "absent"]);
    expect(at(4097)).toEqual(["absent", "absent", "present"]);
  });

  it("descends a path as deep as MAX_PATH and counts what lies deeper as its parent", () => {
    expect(MAX_PATH).toBe(16);
    // Sixteen levels of field 3 (a nested message each), the innermost holding field 2.
    let inner = [0x10, 0x01];
    for (let i = 0; i < 15; i++) inner = [0x1a, inner.length, ...inner];
    const record = framed(Uint8Array.from(inner));
    const deep = [...new Array<number>(15).fill(3), 2];
    expect(scanned(record, [deep])).toEqual(["present"]);
    // One level more is cut at 16 steps: field 3 at the 16th level stands for it, and is not there.
    expect(scanned(record, [[...new Array<number>(16).fill(3), 2]])).toEqual(["absent"]);
    expect(scanned(record, [[...new Array<number>(15).fill(3), 4]])).toEqual(["absent"]);
    // Sixteen levels of field 3 and a 17-step path: its 16th step, there, stands for the missing 9.
    const sixteen = framed(Uint8Array.from([0x1a, inner.length, ...inner]));
    expect(scanned(sixteen, [[...new Array<number>(16).fill(3), 9]])).toEqual(["present"]);
  });

  it("reads Confluent's [0] in both forms and Apicurio's Ref, and nothing else, before the message", () => {
    const body = encode(SCHEMA, "pay.Payment", { amount: "5" });
    const prefix = [0, 0, 0, 0, 1];
    const at = (bytes: number[]) => scanned(Uint8Array.from(bytes), [[2]]);
    // Bytes as long as the Ref but not it: no framing, whatever follows.
    const refLength = apicurioRef("Payment", new Uint8Array(0)).length;
    expect(at([...prefix, ...new Array<number>(refLength).fill(9), ...body])).toEqual(["unknown"]);
    // Nor does an unreadable framing start the scan anywhere else (the id's bytes read as amount).
    expect(at([0, 0x10, 0x01, 0x10, 0x01, 4, 0, 0x08, 0x01])).toEqual(["unknown"]);
    expect(at([...prefix, 0, ...body])).toEqual(["present"]);
    expect(at([...prefix, 2, 0, ...body])).toEqual(["present"]);
    expect(at([...prefix, 2, 2, ...body])).toEqual(["unknown"]);
    expect(at([...prefix, 4, 0, ...body])).toEqual(["unknown"]);
    expect(at([...prefix, ...apicurioRef("Payment", body)])).toEqual(["present"]);
    expect(at([...prefix, 0, ...apicurioRef("Payment", body)])).toEqual(["present"]);
    // A Ref cut short by the end of the record is no Ref.
    const ref = apicurioRef("Payment", new Uint8Array(0));
    expect(at([...prefix, ...ref.slice(0, ref.length - 1)])).toEqual(["unknown"]);
    expect(at([...prefix, ...ref])).toEqual(["absent"]);
  });
});
