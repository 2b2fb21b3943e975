import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { ProtoDecoded, decodeProto } from "../../../../src/formats/protobuf/decode.js";
import type { ReaderCheck } from "../../../../src/formats/format.js";
import { ProtoReadPlan } from "../../../../src/formats/protobuf/plan.js";
import type { ProtoSchema } from "../../../../src/formats/protobuf/parse.js";
import { confluentRecord, encode, proto } from "../../../helpers/protobuf.js";

/** What `reader` makes of a record `writer` wrote from `value` (its first message). */
function read(
  writer: ProtoSchema,
  reader: ProtoSchema,
  value: Record<string, unknown> | Uint8Array,
): ReaderCheck {
  const body = value instanceof Uint8Array ? value : encode(writer, writer.messages[0]!.fullName, value);
  const decoded = decodeProto(writer, confluentRecord(1, [0], body), 5);
  if (!(decoded instanceof ProtoDecoded)) throw new Error(`did not decode: ${decoded}`);
  const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
  new ProtoReadPlan(writer, reader).check(decoded, out);
  return out;
}

const ok: ReaderCheck = { outcome: "ok", rule: null, location: null };
const v3 = (fields: string, extra = "") =>
  proto(`syntax = "proto3"; package p; message M { ${fields} } ${extra}`);
const v2 = (fields: string, extra = "") =>
  proto(`syntax = "proto2"; package p; message M { ${fields} } ${extra}`);

describe("what a reader of another version makes of a record, by field number", () => {
  it("reads a record of its own version whole", () => {
    const s = v3("string id = 1; repeated int32 n = 2; map<string, int32> m = 3;");
    expect(read(s, s, { id: "a", n: [1, 2], m: { k: 1 } })).toEqual(ok);
  });

  it("drops a field it does not know (lossy), naming the writer's field", () => {
    const w = v3("string id = 1; string note = 2;");
    const r = v3("string id = 1;");
    expect(read(w, r, { id: "a", note: "x" })).toEqual({
      outcome: "lossy",
      rule: "unknown_field",
      location: "/note",
    });
    // Only records that carry it: proto3 writes no empty string.
    expect(read(w, r, { id: "a" })).toEqual(ok);
  });

  it("reads a default where the writer's message has no such field (lossy), but not for a message or oneof", () => {
    const w = v3("string id = 1;");
    const r = v3("string id = 1; int32 count = 2; M child = 3; oneof o { int32 a = 4; }");
    expect(read(w, r, { id: "a" })).toEqual({ outcome: "lossy", rule: "default_read", location: "/count" });
    // The writer has the field and left it at its default: the reader reads the same default.
    expect(read(r, r, { id: "a" })).toEqual(ok);
  });

  it("reads a proto2 default of its own where the writer's default differs (lossy)", () => {
    const w = v2("optional int32 level = 1 [default = 3];");
    const r = v2("optional int32 level = 1 [default = 5];");
    expect(read(w, r, {})).toEqual({ outcome: "lossy", rule: "default_read", location: "/level" });
    expect(read(w, r, { level: 4 })).toEqual(ok);
  });

  it("misses a proto2 required field the writer did not write (fails)", () => {
    const w = v2("optional string id = 1; optional string name = 2;");
    const r = v2("optional string id = 1; required string name = 2;");
    expect(read(w, r, { id: "a" })).toEqual({
      outcome: "fails",
      rule: "missing_required",
      location: "/name",
    });
    expect(read(w, r, { id: "a", name: "n" })).toEqual(ok);
  });

  it("misreads a number whose type changed: across Protobuf's compatible groups, per value", () => {
    const w = v3("sint32 delta = 1;");
    const r = v3("int32 delta = 1;");
    expect(read(w, r, { delta: -1 })).toEqual({
      outcome: "fails",
      rule: "type_reinterpreted",
      location: "/delta",
    });
    // zigzag(0) = 0: this record reads the same.
    const zero = Uint8Array.from([0x08, 0x00]);
    expect(read(w, r, zero)).toEqual(ok);
    // A wire type the reader does not expect: a string read as an int.
    expect(read(v3("string delta = 1;"), r, { delta: "x" })).toEqual({
      outcome: "fails",
      rule: "type_reinterpreted",
      location: "/delta",
    });
    // A double's bits read as a fixed64.
    expect(read(v3("double d = 1;"), v3("fixed64 d = 1;"), { d: 1.5 })).toEqual({
      outcome: "fails",
      rule: "type_reinterpreted",
      location: "/d",
    });
  });

  it("reads a compatible type change as written when the value fits, else value_changed", () => {
    const w = v3("int64 n = 1; uint32 u = 2; fixed64 f = 3;");
    const r = v3("int32 n = 1; int32 u = 2; sfixed64 f = 3;");
    expect(read(w, r, { n: "5", u: 7, f: "9" })).toEqual(ok);
    expect(read(w, r, { n: "4294967301" })).toEqual({
      outcome: "fails",
      rule: "value_changed",
      location: "/n",
    });
    expect(read(w, r, { u: 4294967295 })).toEqual({
      outcome: "fails",
      rule: "value_changed",
      location: "/u",
    });
    expect(read(w, r, { f: "18446744073709551615" })).toEqual({
      outcome: "fails",
      rule: "value_changed",
      location: "/f",
    });
    // int32 → bool: 1 reads as true, 2 does not stay 2.
    expect(read(v3("int32 b = 1;"), v3("bool b = 1;"), { b: 1 })).toEqual(ok);
    expect(read(v3("int32 b = 1;"), v3("bool b = 1;"), { b: 2 })).toEqual({
      outcome: "fails",
      rule: "value_changed",
      location: "/b",
    });
  });

  it("reads bytes as a string only when they are UTF-8, and bytes as a message only when they are one", () => {
    const w = v3("bytes b = 1;");
    expect(read(w, v3("string b = 1;"), { b: Buffer.from("é") })).toEqual(ok);
    expect(read(w, v3("string b = 1;"), { b: Buffer.from([0xc3]) })).toEqual({
      outcome: "fails",
      rule: "not_utf8",
      location: "/b",
    });
    const asMessage = v3("N b = 1;", "message N { int32 x = 1; }");
    expect(read(w, asMessage, { b: Buffer.from([0x08, 0x05]) })).toEqual(ok);
    expect(read(w, asMessage, { b: Buffer.from([0x0a, 0x09]) })).toEqual({
      outcome: "fails",
      rule: "type_reinterpreted",
      location: "/b",
    });
  });

  it("keeps one of several values where a list became one value, and one oneof member: the others misread (fails)", () => {
    const w = v3("repeated string tag = 1; int32 a = 2; int32 b = 3;");
    const r = v3("string tag = 1; oneof pick { int32 a = 2; int32 b = 3; }");
    expect(read(w, r, { tag: ["x"] })).toEqual(ok);
    // The same past the numbers counted in arrays (256 and up).
    const far = (label: string) => v3(`${label} string tag = 1000;`);
    expect(read(far("repeated"), far(""), { tag: ["x"] })).toEqual(ok);
    expect(read(far("repeated"), far(""), { tag: ["x", "y"] })).toEqual({
      outcome: "fails",
      rule: "values_dropped",
      location: "/tag",
    });
    expect(read(w, r, { tag: ["x", "y"] })).toEqual({
      outcome: "fails",
      rule: "values_dropped",
      location: "/tag",
    });
    expect(read(w, r, { a: 1, b: 2 })).toEqual({
      outcome: "fails",
      rule: "oneof_overwritten",
      location: "/b",
    });
  });

  it("gets an enum number it has no name for (lossy), and a packed list element by its index", () => {
    const w = v3("E e = 1; repeated int64 xs = 2;", "enum E { Z = 0; A = 1; B = 2; }");
    const r = v3("E e = 1; repeated int32 xs = 2;", "enum E { Z = 0; A = 1; }");
    expect(read(w, r, { e: 1 })).toEqual(ok);
    expect(read(w, r, { e: 2 })).toEqual({ outcome: "lossy", rule: "unknown_enum_value", location: "/e" });
    expect(read(w, r, { xs: ["1", "8589934592"] })).toEqual({
      outcome: "fails",
      rule: "value_changed",
      location: "/xs/1",
    });
  });

  it("names the worst outcome, its first case, and paths into nested messages, lists and maps", () => {
    const w = v3(
      "repeated L lines = 1; map<string, L> byKey = 2; string gone = 3;",
      "message L { string sku = 1; sint32 q = 2; }",
    );
    const r = v3(
      "repeated L lines = 1; map<string, L> byKey = 2;",
      "message L { string sku = 1; int32 q = 2; }",
    );
    expect(read(w, r, { gone: "x", lines: [{ sku: "a" }, { sku: "b", q: -2 }] })).toEqual({
      outcome: "fails",
      rule: "type_reinterpreted",
      location: "/lines/1/q",
    });
    // A map's key is payload: the path says `*`.
    expect(read(w, r, { byKey: { secret: { q: -1 } } })).toEqual({
      outcome: "fails",
      rule: "type_reinterpreted",
      location: "/byKey/*/q",
    });
  });

  it("reads a renamed first message as the reader's first, and says when the reader has no such message", () => {
    const w = proto(
      'syntax = "proto3"; package p; message Old { string id = 1; } message Other { int32 x = 1; }',
    );
    const r = proto('syntax = "proto3"; package p; message New { string id = 1; }');
    expect(read(w, r, { id: "a" })).toEqual(ok);
    const other = decodeProto(w, confluentRecord(1, [1], Uint8Array.from([0x08, 0x01])), 5) as ProtoDecoded;
    const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
    new ProtoReadPlan(w, r).check(other, out);
    expect(out).toEqual({ outcome: "fails", rule: "message_unknown", location: "" });
  });

  it("says a reader file of enums only (a shared enum's file) has no such message, even the writer's first", () => {
    const w = proto('syntax = "proto3"; package p; enum S { Z = 0; ON = 1; } message M { S s = 1; }');
    const enums = proto('syntax = "proto3"; package p; enum S { Z = 0; ON = 1; }');
    expect(read(w, enums, { s: 1 })).toEqual({ outcome: "fails", rule: "message_unknown", location: "" });
    // As a writer it has no record to check, and a plan for it is made all the same.
    expect(new ProtoReadPlan(enums, w)).toBeInstanceOf(ProtoReadPlan);
  });
});

describe("a package renamed", () => {
  it("finds the writer's message by its own name in the reader's package, not only the first", () => {
    const w = proto(
      'syntax = "proto3"; package a; message First { int32 x = 1; } message Second { string s = 1; }',
    );
    const r = proto(
      'syntax = "proto3"; package b; message First { int32 x = 1; } message Second { bytes s = 1; }',
    );
    const second = decodeProto(
      w,
      confluentRecord(1, [1], Uint8Array.from([0x0a, 0x01, 0x61])),
      5,
    ) as ProtoDecoded;
    const out: ReaderCheck = { outcome: "fails", rule: "x", location: "/x" };
    new ProtoReadPlan(w, r).check(second, out);
    expect(out).toEqual(ok);
  });
});

describe("crafted bytes", () => {
  it("never throw: each body decodes to a failure reason or to a message every reader judges", () => {
    const w = v3(
      "repeated L lines = 1; map<string, L> m = 2; sint64 s = 3; double d = 4; bytes b = 5; E e = 6; repeated int32 p = 7;",
      "message L { string sku = 1; L next = 2; fixed32 f = 3; } enum E { Z = 0; }",
    );
    const readers = [
      w,
      v2(
        "optional string lines = 1; required int64 s = 3; optional L b = 5; optional float d = 4;",
        "message L { optional sint32 sku = 1; }",
      ),
    ];
    let seed = 7;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) >>> 16) & 0xff;
    const reasons = new Map<string, number>();
    const valid = encode(w, "p.M", {
      lines: [{ sku: "a", next: { sku: "b", f: 9 } }],
      m: { k: { sku: "c" } },
      s: "-5",
      d: 0.5,
      b: Buffer.from([8, 1]),
      p: [1, 2, 300],
    });
    for (let i = 0; i < 3000; i++) {
      // Random bytes, and the valid body with one byte changed and its end cut at random.
      // A copy: protobufjs gives a Buffer, whose slice is a view.
      const mutated = Uint8Array.from(valid.subarray(0, valid.length - (next() < 32 ? 1 : 0)));
      mutated[next() % mutated.length] = next();
      const body = i % 2 === 0 ? Uint8Array.from({ length: 1 + (i % 40) }, next) : mutated;
      const decoded = decodeProto(w, confluentRecord(1, [0], body), 5);
      if (!(decoded instanceof ProtoDecoded)) {
        reasons.set(decoded, (reasons.get(decoded) ?? 0) + 1);
        continue;
      }
      decoded.document();
      for (const reader of readers) {
        const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
        new ProtoReadPlan(w, reader).check(decoded, out);
        reasons.set(out.outcome, (reasons.get(out.outcome) ?? 0) + 1);
      }
    }
    // Every body is accounted for (the seed is fixed, so the counts are too).
    // 692 bodies decode, each judged by both readers; 2,308 do not (3 of them a group that another
    // field's end tag closes, or that holds a tag of field 0, which decoded before 2026-12-08).
    expect(Object.fromEntries([...reasons].sort())).toEqual({
      fails: 779,
      lossy: 48,
      ok: 557,
      protobuf_decode: 2308,
    });
  });
});
