// The record batch decoder on batches written byte by byte: the fields kafkajs's encoder cannot write
// (offsets and timestamps past 2^53, varlongs of 8 to 10 bytes, names of -1 bytes, `__proto__`) and
// the malformed ones it must refuse, each with the error that says where the bytes went wrong.
import { describe, expect, it, vi } from "vitest";
import {
  HeaderNames,
  decodeRecordBatch,
  type BatchDecoderDeps,
} from "../../../../src/kafka/patches/record-batch.js";

/** Zigzag varint (or varlong) bytes of a signed 64-bit integer. */
function zz(n: bigint | number): number[] {
  let v = BigInt.asUintN(64, (BigInt(n) << 1n) ^ (BigInt(n) < 0n ? -1n : 0n));
  const out: number[] = [];
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v > 0n ? low | 0x80 : low);
  } while (v > 0n);
  return out;
}
const text = (s: string): number[] => [...zz(Buffer.byteLength(s)), ...Buffer.from(s)];

interface RecordParts {
  timestamp?: number[];
  offsetDelta?: number;
  key?: number[];
  value?: number[];
  headers?: number[][];
}
/** A record's body (without its length): attributes 0, then the parts given, well formed by default. */
function body(p: RecordParts = {}): number[] {
  return [
    0,
    ...(p.timestamp ?? zz(0)),
    ...zz(p.offsetDelta ?? 0),
    ...(p.key ?? zz(-1)),
    ...(p.value ?? [...zz(1), 0x76]),
    ...zz(p.headers?.length ?? 0),
    ...(p.headers ?? []).flat(),
  ];
}
const framed = (b: number[]): number[] => [...zz(b.length), ...b];

interface BatchOptions {
  baseOffset?: bigint;
  firstTimestamp?: bigint;
  attributes?: number;
  count?: number;
}
/** A record batch (magic 2) around record bytes given as they go on the wire. */
function batch(records: number[], o: BatchOptions = {}): Buffer {
  const header = Buffer.alloc(61);
  header.writeBigInt64BE(o.baseOffset ?? 100n, 0);
  header.writeInt32BE(49 + records.length, 8);
  header.writeInt8(2, 16);
  header.writeInt16BE(o.attributes ?? 0, 21);
  header.writeBigInt64BE(o.firstTimestamp ?? 1796112000000n, 27);
  header.writeBigInt64BE(1796112000000n, 35);
  header.writeBigInt64BE(-1n, 43);
  header.writeInt32BE(o.count ?? 1, 57);
  return Buffer.concat([header, Buffer.from(records)]);
}

const partialError = (message: string): Error => Object.assign(new Error(message), { name: "Partial" });
const deps: BatchDecoderDeps = { names: new HeaderNames(), codecFor: () => null, partialError };
const decode = (buffer: Buffer, d: BatchDecoderDeps = deps) => decodeRecordBatch({ buffer, offset: 0 }, d);
const one = async (buffer: Buffer) => (await decode(buffer)).records[0]!;

describe("the record batch decoder, byte by byte", () => {
  it("adds an offset delta to a base offset exactly, below and beyond 2^53 and below zero", async () => {
    for (const [base, delta] of [
      [9007199254740991n - 0x80000000n, 0x7fffffff],
      [4611686018427387905n, 3],
      [9223372036854775000n, 800],
      [-4611686018427387905n, 1],
    ] as const) {
      const r = await one(batch(framed(body({ offsetDelta: delta })), { baseOffset: base }));
      expect(r.offset, `${base} + ${delta}`).toBe((base + BigInt(delta)).toString());
    }
  });

  it("adds a timestamp delta of 1 to 10 bytes to a first timestamp exactly, whatever their sizes and signs", async () => {
    const firsts = [1796112000000n, 9007199254740993n, 4611686018427387905n, -1152921504606846977n, -5n];
    // -(2^54 + 2) zigzags to 2^55 + 3: 8 bytes with low bits a number cannot hold; 2^55 to a 7th byte of 0x80.
    const deltas = [
      0n,
      -7n,
      123456789n,
      2n ** 47n,
      2n ** 54n + 1n,
      -(2n ** 54n) - 2n,
      2n ** 55n,
      -(2n ** 62n) - 12345n,
    ];
    for (const first of firsts) {
      for (const delta of deltas) {
        const records = [...framed(body({ timestamp: zz(delta) })), ...framed(body({ offsetDelta: 1 }))];
        const b = await decode(batch(records, { firstTimestamp: first, count: 2 }));
        const expected = (first + delta).toString();
        expect(b.records[0]!.timestamp, `${first} + ${delta}`).toBe(expected);
        // The next record is read from where the varlong ended.
        expect(b.records[1]!.offset, `${first} + ${delta}`).toBe("101");
      }
    }
    expect(zz(-(2n ** 54n) - 2n)).toHaveLength(8);
    expect(zz(2n ** 55n)[6]).toBe(0x80);
  });

  it("gives every record of a LOG_APPEND_TIME batch the batch's max timestamp", async () => {
    const r = await one(batch(framed(body({ timestamp: zz(2n ** 60n) })), { attributes: 0x08 }));
    expect(r.timestamp).toBe("1796112000000");
  });

  it("refuses a timestamp varlong longer than 10 bytes, or cut off by the end of the data", async () => {
    const eleven = [...Array<number>(10).fill(0x81), 0x01];
    await expect(decode(batch(framed(body({ timestamp: eleven }))))).rejects.toThrow(
      new RangeError("a varlong longer than 10 bytes"),
    );
    for (const cut of [[0x80], [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]]) {
      // The record ends with the varlong's last byte, and so does the batch and the data.
      await expect(decode(batch(framed([0, ...cut])))).rejects.toThrow(
        new RangeError("a timestamp delta runs past the record"),
      );
    }
  });

  it("refuses a varint longer than 5 bytes and one cut off by the end of the data", async () => {
    for (const long of [
      [0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
      [0x81, 0x81, 0x81, 0x81, 0x81, 0x01],
    ]) {
      await expect(decode(batch(framed(body({ key: long }))))).rejects.toThrow(
        new RangeError("a varint longer than 5 bytes"),
      );
    }
    await expect(decode(batch(framed([0, 0, 0x80])))).rejects.toThrow(
      new RangeError("a varint runs past the data"),
    );
  });

  it("refuses a record that runs past its batch, or ends before its attributes", async () => {
    const record = framed(body());
    const longer = [...zz(body().length + 3), ...body()];
    // Bytes after the batch in the fetch response are not the record's to read.
    const buffer = Buffer.concat([batch(longer), Buffer.from([0, 0, 0, 1, 2, 0])]);
    await expect(decode(buffer)).rejects.toThrow(new RangeError("record 0 of the batch runs past its end"));
    await expect(decode(batch([...record, ...record], { count: 3 }))).rejects.toThrow(
      new RangeError("a varint runs past the data"),
    );
    for (const length of [0, -1, -2]) {
      await expect(decode(batch([...zz(length), ...body()])), `${length}`).rejects.toThrow(
        new RangeError("a record ends before its attributes"),
      );
    }
  });

  it("refuses a key, a value or a header that runs past its record, or of a length below -1", async () => {
    const records = (p: RecordParts) => [...framed(body(p)), ...framed(body())];
    const cases: Array<[RecordParts, string]> = [
      [{ key: [...zz(-2), 1, 2, 3] }, "a field runs past its record"],
      [{ key: [...zz(4), 1, 2, 3] }, "a field runs past its record"],
      [{ value: [...zz(3), 1] }, "a field runs past its record"],
      [{ headers: [[...zz(-2), 0x61, 0x62, ...zz(-1)]] }, "a header name runs past its record"],
      [{ headers: [[...zz(9), 0x61, ...zz(-1)]] }, "a header name runs past its record"],
      [{ headers: [[...text("a"), ...zz(3), 1]] }, "a field runs past its record"],
    ];
    for (const [parts, message] of cases) {
      await expect(decode(batch(records(parts), { count: 2 })), message).rejects.toThrow(
        new RangeError(message),
      );
    }
  });

  it("refuses a record whose last field's length would be read from bytes past its end", async () => {
    // Each record ends where its last field's length should begin; a 0x01 follows it inside the
    // batch, which read as that length would be -1 (null) and pass for a well-formed record.
    const cut: Array<[number[], string]> = [
      [[0, ...zz(0), ...zz(0), ...zz(-1), ...zz(-1), ...zz(1), ...text("a")], "a field runs past its record"],
      [[0, ...zz(0), ...zz(0), ...zz(-1), ...zz(-1), ...zz(1)], "a header name runs past its record"],
      [[0, ...zz(0), ...zz(0), ...zz(-1), ...zz(-1)], "a header count runs past its record"],
      [[0, ...zz(0), ...zz(0), ...zz(-1)], "a field runs past its record"],
      [[0, ...zz(0), ...zz(0)], "a field runs past its record"],
      [[0, ...zz(0)], "an offset delta runs past its record"],
      [[0], "a timestamp delta runs past its record"],
    ];
    for (const [record, message] of cut) {
      await expect(decode(batch([...framed(record), 0x01])), message).rejects.toThrow(
        new RangeError(message),
      );
    }
    // The same record with its header's value length inside it decodes.
    const whole = await one(
      batch([
        ...framed([0, ...zz(0), ...zz(0), ...zz(-1), ...zz(-1), ...zz(1), ...text("a"), ...zz(-1)]),
        0x01,
      ]),
    );
    expect(whole.headers).toEqual({ a: null });
  });

  it("reads a header name of -1 bytes as the name null, as kafkajs does, and a one-byte name as itself", async () => {
    const r = await one(
      batch(
        framed(
          body({
            headers: [
              [...zz(-1), ...zz(1), 0x78],
              [...text("k"), ...zz(-1)],
            ],
          }),
        ),
      ),
    );
    expect(r.headers).toEqual({ null: Buffer.from("x"), k: null });
  });

  it("reads a header named __proto__ as an own, ordinary header and leaves the prototype alone", async () => {
    const proto = [...text("__proto__"), ...zz(1), 0x61];
    const r = await one(batch(framed(body({ headers: [proto, [...text("__proto__"), ...zz(1), 0x62]] }))));
    expect(Object.getPrototypeOf(r.headers)).toBe(Object.prototype);
    expect(Object.keys(r.headers)).toEqual(["__proto__"]);
    expect(Object.getOwnPropertyDescriptor(r.headers, "__proto__")).toEqual({
      value: [Buffer.from("a"), Buffer.from("b")],
      enumerable: true,
      writable: true,
      configurable: true,
    });
    const single = await one(batch(framed(body({ headers: [proto] }))));
    expect(Object.getOwnPropertyDescriptor(single.headers, "__proto__")?.value).toEqual(Buffer.from("a"));
  });

  it("reads each header after a null or empty one from where that one ends", async () => {
    const r = await one(
      batch(
        framed(
          body({
            headers: [
              [...text("a"), ...zz(-1)],
              [...text("b"), ...zz(0)],
              [...zz(-1), ...text("c")],
              [...text("d"), ...text("e")],
            ],
          }),
        ),
      ),
    );
    expect(r.headers).toEqual({ a: null, b: Buffer.alloc(0), null: Buffer.from("c"), d: Buffer.from("e") });
  });

  it("reads a length written in more bytes than it needs (a continuation byte of 0x80)", async () => {
    // Zigzag 0 as [0x80, 0x00] and 1 (zigzag 2) as [0x82, 0x00]: a name of no bytes, a value of one.
    const r = await one(batch(framed(body({ headers: [[0x80, 0x00, 0x82, 0x00, 0x76]] }))));
    expect(r.headers).toEqual({ "": Buffer.from("v") });
  });

  it("shares header values up to 32 bytes, the 16 seen last, and slices longer ones", async () => {
    const names = new HeaderNames();
    const value = (v: string) => ({
      buffer: Buffer.from(`..${v}..`),
      start: 2,
      length: Buffer.byteLength(v),
    });
    const read = (v: string) => {
      const { buffer, start, length } = value(v);
      return names.value(buffer, start, length);
    };
    for (const length of [32, 33]) {
      const first = read("v".repeat(length));
      expect(read("v".repeat(length)) === first, `${length} bytes`).toBe(length <= 32);
    }
    const kept = Array.from({ length: 16 }, (_, i) => read(`value-${i}`));
    for (let i = 0; i < 16; i++) expect(read(`value-${i}`), `value-${i}`).toBe(kept[i]);
  });

  it("reads an uncompressed batch of count -1, and a compressed one of count 0 or -1, as no records", async () => {
    expect((await decode(batch([], { count: -1 }))).records).toEqual([]);
    const codec = { decompress: () => Promise.reject(new Error("nothing to decompress")) };
    for (const count of [0, -1]) {
      const b = await decode(batch([], { count, attributes: 1 }), { ...deps, codecFor: () => codec });
      expect(b.records).toEqual([]);
    }
  });

  it("decodes header names without a shared cache of names", async () => {
    const r = await decodeRecordBatch(
      { buffer: batch(framed(body({ headers: [[...text("trace"), ...zz(-1)]] }))), offset: 0 },
      { codecFor: () => null, partialError },
    );
    expect(r.records[0]!.headers).toEqual({ trace: null });
  });

  it("throws the caller's partial-message error with both lengths for a batch the fetch cut short", async () => {
    const whole = batch(framed(body()));
    await expect(decode(whole.subarray(0, whole.length - 2))).rejects.toMatchObject({
      name: "Partial",
      message: `Tried to decode a partial record batch: remainingBytes(${whole.length - 14}) < recordBatchLength(${whole.length - 12})`,
    });
  });
});

describe("the header name cache", () => {
  /** A buffer holding the name at `start` after other bytes, whose decodes are counted. */
  function named(name: string, start = 3): { buffer: Buffer; decodes: () => number } {
    const buffer = Buffer.concat([
      Buffer.from("zzzzzzzz".slice(0, start)),
      Buffer.from(name),
      Buffer.from("!"),
    ]);
    const spy = vi.spyOn(buffer, "toString");
    return { buffer, decodes: () => spy.mock.calls.length };
  }

  it("decodes a name once, then finds it by its bytes wherever they sit", () => {
    const names = new HeaderNames();
    const first = named("trace-id", 0);
    expect(names.name(first.buffer, 0, 8)).toBe("trace-id");
    expect(first.decodes()).toBe(1);
    for (const start of [0, 3, 5]) {
      const again = named("trace-id", start);
      expect(names.name(again.buffer, start, 8)).toBe("trace-id");
      expect(again.decodes(), `at ${start}`).toBe(0);
    }
    // Same length, other bytes; and a prefix of a known name: decoded, not confused with it.
    const other = named("trace-ix");
    expect(names.name(other.buffer, 3, 8)).toBe("trace-ix");
    expect(names.name(named("trace").buffer, 3, 5)).toBe("trace");
    expect(other.decodes()).toBe(1);
  });

  it("keeps a copy of the name's bytes, not the fetch response's memory", () => {
    const names = new HeaderNames();
    const first = named("abc");
    names.name(first.buffer, 3, 3);
    first.buffer.write("xyz", 3);
    const again = named("abc");
    expect(names.name(again.buffer, 3, 3)).toBe("abc");
    expect(again.decodes()).toBe(0);
  });

  it("keeps names up to 64 bytes, the 16 seen last", () => {
    const names = new HeaderNames();
    for (const length of [64, 65]) {
      const name = "n".repeat(length);
      names.name(named(name).buffer, 3, length);
      const again = named(name);
      expect(names.name(again.buffer, 3, length)).toBe(name);
      expect(again.decodes(), `${length} bytes`).toBe(length <= 64 ? 0 : 1);
    }
    for (let i = 0; i < 16; i++) names.name(named(`name-${i}`.padEnd(8, "-")).buffer, 3, 8);
    for (let i = 0; i < 16; i++) {
      const again = named(`name-${i}`.padEnd(8, "-"));
      expect(names.name(again.buffer, 3, 8)).toBe(`name-${i}`.padEnd(8, "-"));
      expect(again.decodes(), `name-${i}`).toBe(0);
    }
    // The 64-byte name was the oldest of 17: gone.
    const oldest = named("n".repeat(64));
    expect(names.name(oldest.buffer, 3, 64)).toBe("n".repeat(64));
    expect(oldest.decodes()).toBe(1);
  });
});
