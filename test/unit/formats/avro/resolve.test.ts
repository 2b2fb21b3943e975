import avro from "avsc";
import { describe, expect, it } from "vitest";
import { readAvro as read } from "../../../helpers/avro.js";

/** What avsc's own resolver says of the pair, where it can resolve it at all. */
function avscReads(writerSchema: unknown, value: unknown, readerSchema: unknown): unknown {
  const w = avro.Type.forSchema(writerSchema as avro.Schema, { wrapUnions: true });
  const r = avro.Type.forSchema(readerSchema as avro.Schema, { wrapUnions: true });
  return r.fromBuffer(w.toBuffer(value), r.createResolver(w));
}

const rec = (fields: unknown[], extra: Record<string, unknown> = {}) => ({
  type: "record",
  name: "Pay",
  fields,
  ...extra,
});
const OK = { outcome: "ok", rule: null, location: null };

describe("Avro schema resolution, per record", () => {
  it("reads the same schema, and promotions (int → long, float → double, string ↔ bytes), as ok", () => {
    const w = rec([
      { name: "n", type: "int" },
      { name: "f", type: "float" },
      { name: "s", type: "string" },
    ]);
    const r = rec([
      { name: "n", type: "long" },
      { name: "f", type: "double" },
      { name: "s", type: "bytes" },
    ]);
    expect(read(w, { n: 1, f: 1.5, s: "x" }, w)).toEqual(OK);
    expect(read(w, { n: 1, f: 1.5, s: "x" }, r)).toEqual(OK);
    expect(avscReads(w, { n: 1, f: 1.5, s: "x" }, r)).toMatchObject({ n: 1, f: 1.5 });
    // long → int is no promotion: every record fails.
    expect(read(r, { n: 1, f: 1.5, s: Buffer.from("x") }, w)).toEqual({
      outcome: "fails",
      rule: "type_mismatch",
      location: "/n",
    });
  });

  it("says lossy for a field the reader drops, or fills from its default, and fails a missing field without one", () => {
    const v1 = rec([
      { name: "id", type: "long" },
      { name: "memo", type: "string" },
    ]);
    const v2 = rec([
      { name: "id", type: "long" },
      { name: "currency", type: "string", default: "EUR" },
    ]);
    const v3 = rec([
      { name: "id", type: "long" },
      { name: "currency", type: "string" },
    ]);
    expect(read(v1, { id: 1, memo: "m" }, v2)).toEqual({
      outcome: "lossy",
      rule: "field_dropped",
      location: "/memo",
    });
    expect(read(v2, { id: 1, currency: "USD" }, rec([{ name: "id", type: "long" }]))).toEqual({
      outcome: "lossy",
      rule: "field_dropped",
      location: "/currency",
    });
    expect(read(rec([{ name: "id", type: "long" }]), { id: 1 }, v2)).toEqual({
      outcome: "lossy",
      rule: "field_defaulted",
      location: "/currency",
    });
    expect(read(v1, { id: 1, memo: "m" }, v3)).toEqual({
      outcome: "fails",
      rule: "missing_default",
      location: "/currency",
    });
  });

  it("fails only the records whose union branch the reader lacks, where avsc refuses the whole pair", () => {
    const w = rec([{ name: "note", type: ["null", "string", "int"] }]);
    const r = rec([{ name: "note", type: ["null", "string"] }]);
    expect(read(w, { note: { string: "hi" } }, r)).toEqual(OK);
    expect(read(w, { note: null }, r)).toEqual(OK);
    expect(read(w, { note: { int: 3 } }, r)).toEqual({
      outcome: "fails",
      rule: "union_branch",
      location: "/note",
    });
    expect(() => avscReads(w, { note: { string: "hi" } }, r)).toThrow(/cannot read/);
    // A writer branch promoted into a reader branch: int read as the reader's long.
    expect(read(w, { note: { int: 3 } }, rec([{ name: "note", type: ["null", "string", "long"] }]))).toEqual(
      OK,
    );
  });

  it("fails an enum symbol the reader lacks, and reads it as the reader's default (lossy) when it has one", () => {
    const kind = (symbols: string[], extra: Record<string, unknown> = {}) =>
      rec([{ name: "kind", type: { type: "enum", name: "Kind", symbols, ...extra } }]);
    const w = kind(["CARD", "CASH", "IOU"]);
    expect(read(w, { kind: "CASH" }, kind(["CARD", "CASH"]))).toEqual(OK);
    expect(read(w, { kind: "IOU" }, kind(["CARD", "CASH"]))).toEqual({
      outcome: "fails",
      rule: "enum_symbol",
      location: "/kind",
    });
    expect(read(w, { kind: "IOU" }, kind(["CARD", "CASH"], { default: "CARD" }))).toEqual({
      outcome: "lossy",
      rule: "enum_defaulted",
      location: "/kind",
    });
  });

  it("finds a field and a record by their aliases, and fails a record of another name", () => {
    const w = rec([{ name: "amount", type: "double" }]);
    const renamed = {
      type: "record",
      name: "Payment",
      aliases: ["Pay"],
      fields: [{ name: "total", type: "double", aliases: ["amount"] }],
    };
    expect(read(w, { amount: 2 }, renamed)).toEqual(OK);
    expect(avscReads(w, { amount: 2 }, renamed)).toMatchObject({ total: 2 });
    expect(read(w, { amount: 2 }, { ...renamed, aliases: [] })).toEqual({
      outcome: "fails",
      rule: "name_mismatch",
      location: "",
    });
  });

  it("locates a failure inside arrays by index and inside maps by `*` (a key is data, never said)", () => {
    const item = (types: string[]) => ({ type: "array", items: types });
    const w = rec([
      { name: "lines", type: item(["string", "int"]) },
      { name: "tags", type: { type: "map", values: ["string", "int"] } },
    ]);
    const r = rec([
      { name: "lines", type: item(["string"]) },
      { name: "tags", type: { type: "map", values: ["string"] } },
    ]);
    expect(read(w, { lines: [{ string: "a" }, { int: 1 }], tags: {} }, r)).toEqual({
      outcome: "fails",
      rule: "union_branch",
      location: "/lines/1",
    });
    expect(read(w, { lines: [], tags: { secret: { int: 1 } } }, r)).toEqual({
      outcome: "fails",
      rule: "union_branch",
      location: "/tags/*",
    });
    expect(read(w, { lines: [{ string: "a" }], tags: { k: { string: "v" } } }, r)).toEqual(OK);
  });
});
