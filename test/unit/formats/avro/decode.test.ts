import avro from "avsc";
import { describe, expect, it } from "vitest";
import type { CatalogVersion } from "../../../../src/catalog/types.js";
import { AVRO_FORMAT } from "../../../../src/formats/avro/index.js";
import { decodeAvro, type AvroValue } from "../../../../src/formats/avro/decode.js";
import { parseAvro, type AvroSchema } from "../../../../src/formats/avro/schema.js";

const source = (schema: unknown) => ({ name: "test.avsc", text: JSON.stringify(schema), references: [] });
const PAY = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [
    { name: "id", type: "long" },
    { name: "note", type: ["null", "string", "int"], default: null },
    { name: "kind", type: { type: "enum", name: "Kind", symbols: ["CARD", "CASH"] } },
    { name: "tags", type: { type: "map", values: "int" } },
    { name: "lines", type: { type: "array", items: "double" } },
    { name: "code", type: { type: "fixed", name: "Code", size: 2 } },
    { name: "raw", type: "bytes" },
    { name: "ok", type: "boolean" },
    { name: "ratio", type: "float" },
  ],
};
const pay = parseAvro(source(PAY));
// avsc writes the bodies, as Confluent's serializer would after its 5-byte prefix: an independent encoder.
const avscPay = avro.Type.forSchema(PAY as avro.Schema, { wrapUnions: true });
const body = (value: unknown) => avscPay.toBuffer(value);
const VALUE = {
  id: -4503599627370495,
  note: { int: -3 },
  kind: "CASH",
  tags: JSON.parse('{"a":1,"__proto__":2}') as Record<string, number>,
  lines: [1.5, -2],
  code: Buffer.from([0x41, 0xff]),
  raw: Buffer.from([0, 255]),
  ok: true,
  ratio: 0.5,
};

describe("decoding an Avro body with its writer's schema", () => {
  it("gives the record as JSON values: unions unwrapped, enums by symbol, bytes and fixed as code points", () => {
    const decoded = decodeAvro(pay, body(VALUE), 0) as AvroValue;
    const view = decoded.view as Record<string, unknown>;
    expect(JSON.stringify(view)).toBe(
      '{"id":-4503599627370495,"note":-3,"kind":"CASH","tags":{"a":1,"__proto__":2},"lines":[1.5,-2],"code":"A\u00ff","raw":"\\u0000\u00ff","ok":true,"ratio":0.5}',
    );
    // The map key `__proto__` is an own key, as JSON.parse makes it, never the object's prototype.
    expect(Object.getPrototypeOf(view["tags"])).toBe(Object.prototype);
    // The trace: the union's branch and end, the enum's symbol, the map's and the array's counts and ends.
    expect([...decoded.trace]).toEqual([2, 2, 1, 2, 5, 2, 7]);
  });

  it("reads a body past a wire prefix, and longs beyond 2^53 as the nearest number", () => {
    const long = parseAvro(source("long"));
    const bytes = Buffer.concat([Buffer.from([0, 0, 0, 0, 7]), avro.Type.forSchema("long").toBuffer(-5)]);
    expect((decodeAvro(long, bytes, 5) as AvroValue).view).toBe(-5);
    // zigzag(2^62) in ten bytes: the largest magnitudes keep their sign.
    const big = Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect((decodeAvro(long, big, 0) as AvroValue).view).toBe(-(2 ** 63));
  });

  it("is avro_decode for a body that is not exactly one value of the writer", () => {
    const good = body(VALUE);
    expect(decodeAvro(pay, good.subarray(0, good.length - 1), 0)).toBe("avro_decode");
    expect(decodeAvro(pay, Buffer.concat([good, Buffer.from([0])]), 0)).toBe("avro_decode");
    // The union's branch index 3 of three branches.
    const badBranch = Buffer.from(good);
    badBranch[1] = 6;
    expect(decodeAvro(pay, badBranch, 0)).toBe("avro_decode");
    // A string whose length runs past the body.
    expect(decodeAvro(parseAvro(source("string")), Buffer.from([0x7e, 0x41]), 0)).toBe("avro_decode");
    // A varint of eleven bytes, and a boolean that is neither 0 nor 1.
    expect(decodeAvro(parseAvro(source("long")), Buffer.alloc(11, 0xff), 0)).toBe("avro_decode");
    expect(decodeAvro(parseAvro(source("boolean")), Buffer.from([2]), 0)).toBe("avro_decode");
  });

  it("ends a block of 2^40 items that take no bytes as avro_decode, at once, rather than filling memory", () => {
    const nulls = parseAvro(source({ type: "array", items: "null" }));
    // count 2^40 (zigzag: 2^41) as a varint, then nothing.
    const count = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20];
    expect(decodeAvro(nulls, Buffer.from([...count, 0]), 0)).toBe("avro_decode");
    expect((decodeAvro(nulls, Buffer.from([6, 0]), 0) as AvroValue).view).toEqual([null, null, null]);
  });

  it("is too_deep for a recursive record nested past 256 levels, however the stack stands", () => {
    const list = parseAvro(
      source({
        type: "record",
        name: "Node",
        fields: [{ name: "next", type: ["null", "Node"] }],
      }),
    );
    const nested = (levels: number) => Buffer.from([...Array<number>(levels).fill(2), 0]);
    expect(JSON.stringify((decodeAvro(list, nested(2), 0) as AvroValue).view)).toBe(
      '{"next":{"next":{"next":null}}}',
    );
    expect(decodeAvro(list, nested(300), 0)).toBe("too_deep");
    expect(decodeAvro(list, nested(100_000), 0)).toBe("too_deep");
  });

  it("cannot decode without the writer's Avro schema (a version that declares none, or a JSON one)", () => {
    expect(AVRO_FORMAT.decode(undefined, body(VALUE), 0)).toBe("avro_decode");
    const json = { schema: undefined } as unknown as CatalogVersion;
    expect(AVRO_FORMAT.decode(json, body(VALUE), 0)).toBe("avro_decode");
    const decoded = AVRO_FORMAT.decode({ schema: pay } as unknown as CatalogVersion, body(VALUE), 0);
    expect(typeof decoded === "object" && AVRO_FORMAT.document(decoded.value)).toMatchObject({
      id: VALUE.id,
    });
  });
});

describe("parsing an Avro schema", () => {
  it("resolves named types from its references, each version with a registry of its own", () => {
    const address = {
      name: "registry:main/address/versions/1",
      text: JSON.stringify({
        type: "record",
        name: "Address",
        namespace: "shop",
        fields: [{ name: "city", type: "string" }],
      }),
      references: [],
    };
    const order = parseAvro({
      name: "registry:main/order-value/versions/1",
      text: JSON.stringify({
        type: "record",
        name: "Order",
        namespace: "shop",
        fields: [{ name: "to", type: "Address" }],
      }),
      references: [address],
    }) as AvroSchema;
    expect(order.root.fields[0]!.node.name).toBe("shop.Address");
    // Without the reference, the same text names an unknown type: refused, naming the version.
    expect(() =>
      parseAvro({
        name: "registry:main/order-value/versions/2",
        text: order.json ? JSON.stringify(order.json) : "",
        references: [],
      }),
    ).toThrow(/^registry:main\/order-value\/versions\/2: not a valid Avro schema: .*Address/);
  });

  it("refuses text that is not JSON, or a field default of the wrong type, naming the file", () => {
    expect(() => parseAvro({ name: "a.avsc", text: "{", references: [] })).toThrow(
      /^a\.avsc: not valid JSON/,
    );
    expect(() =>
      parseAvro(source({ type: "record", name: "R", fields: [{ name: "n", type: "int", default: "x" }] })),
    ).toThrow(/^test\.avsc: not a valid Avro schema: incompatible field default/);
  });
});
