import { describe, expect, it } from "vitest";
import type { ReaderCheck } from "../../../../src/formats/format.js";
import { readAvro as read } from "../../../helpers/avro.js";

// The edges of an Avro reader's check that mutation testing found untested (docs/testing.md): the
// first failure of a record is the one it reports, wherever later ones lie; a value the reader drops
// is stepped over exactly, whatever it holds, so the fields after it are judged on their own values.

const rec = (fields: unknown[]) => ({ type: "record", name: "Pay", fields });
const abc = { type: "enum", name: "E", symbols: ["A", "B", "C"] };
const ab = { type: "enum", name: "E", symbols: ["A", "B"] };

describe("an Avro reader's check, at its edges", () => {
  it("reports the first failure of a record, in a field, an array item or a union branch", () => {
    const fields = (e: unknown) => [
      { name: "first", type: e },
      { name: "second", type: "E" },
    ];
    expect(read(rec(fields(abc)), { first: "C", second: "C" }, rec(fields(ab)))).toEqual({
      outcome: "fails",
      rule: "enum_symbol",
      location: "/first",
    });
    const list = (e: unknown) => rec([{ name: "xs", type: { type: "array", items: e } }]);
    expect(read(list(abc), { xs: ["A", "C", "C"] }, list(ab))).toEqual({
      outcome: "fails",
      rule: "enum_symbol",
      location: "/xs/1",
    });
    // A failing branch of a union, then a field the reader cannot read at all (no promotion).
    const union = (e: unknown, n: string) =>
      rec([
        { name: "u", type: ["null", e] },
        { name: "n", type: n },
      ]);
    expect(read(union(abc, "long"), { u: { E: "C" }, n: 1 }, union(ab, "int"))).toEqual({
      outcome: "fails",
      rule: "enum_symbol",
      location: "/u",
    });
    expect(read(union(abc, "long"), { u: { E: "A" }, n: 1 }, union(ab, "int"))).toEqual({
      outcome: "fails",
      rule: "type_mismatch",
      location: "/n",
    });
  });

  it("reports the first failure of an array's records, and resets what it reports for the next record", () => {
    const item = {
      type: "record",
      name: "It",
      fields: [
        { name: "a", type: abc },
        { name: "b", type: "E" },
      ],
    };
    const readerItem = {
      type: "record",
      name: "It",
      fields: [
        { name: "a", type: ab },
        { name: "b", type: "E" },
      ],
    };
    const writer = rec([{ name: "xs", type: { type: "array", items: item } }]);
    const reader = rec([{ name: "xs", type: { type: "array", items: readerItem } }]);
    const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
    const check = (value: unknown) => ({ ...read(writer, value, reader, out) });
    const failing = {
      xs: [
        { a: "C", b: "A" },
        { a: "A", b: "A" },
      ],
    };
    expect(check(failing)).toEqual({ outcome: "fails", rule: "enum_symbol", location: "/xs/0/a" });
    // The same `out` for the next record, which every reader reads.
    expect(check({ xs: [{ a: "A", b: "B" }] })).toEqual({ outcome: "ok", rule: null, location: null });
  });

  it("steps over a dropped field of any kind before judging the next on its own value", () => {
    const inner = {
      type: "record",
      name: "In",
      fields: [
        { name: "k", type: abc },
        { name: "j", type: "E" },
      ],
    };
    const dropped = [
      ["an enum", abc, "C"],
      ["a record holding two enums", inner, { k: "C", j: "B" }],
      ["a union", ["null", abc], { E: "C" }],
      ["an array", { type: "array", items: abc }, ["C", "C"]],
      ["a map", { type: "map", values: abc }, { a: "C" }],
    ] as const;
    const readerOut = rec([{ name: "last", type: ab }]);
    for (const [what, type, value] of dropped) {
      // `gone` defines the enum E; `last` is of it too.
      const writer = rec([
        { name: "gone", type },
        { name: "last", type: "E" },
      ]);
      // The last field holds A: readable; the dropped one is only lost.
      expect(read(writer, { gone: value, last: "A" }, readerOut), what).toEqual({
        outcome: "lossy",
        rule: "field_dropped",
        location: "/gone",
      });
      // The last field holds C: it fails, whatever the dropped one held.
      expect(read(writer, { gone: value, last: "C" }, readerOut), what).toEqual({
        outcome: "fails",
        rule: "enum_symbol",
        location: "/last",
      });
    }
  });
});
