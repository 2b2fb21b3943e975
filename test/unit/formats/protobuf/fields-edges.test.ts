import { describe, expect, it } from "vitest";
import type { FieldsVersion, ParsedSchema } from "../../../../src/formats/format.js";
import { PROTOBUF_FIELDS, walk } from "../../../../src/formats/protobuf/fields.js";
import { primaryOf } from "../../../../src/formats/protobuf/parse.js";
import { MAX_PATH } from "../../../../src/formats/protobuf/presence.js";
import { confluentRecord, encode, proto } from "../../../helpers/protobuf.js";

// The edges of the Protobuf fields' rules that a deprecated field's verdict rests on: which versions
// are read, the order fields are listed in, how far recursive messages are followed, how two number
// paths are kept apart, and when a record's presence is unknown (mutation testing, docs/testing.md,
// found each untested).

const version = (text: string, status: FieldsVersion["status"], source: string): FieldsVersion => ({
  version: { text },
  status,
  schema: proto(source),
});
const JSON_VERSION: FieldsVersion = {
  version: { text: "0.1.0" },
  status: "active",
  schema: { format: "json" } as unknown as ParsedSchema,
};
const NO_SCHEMA: FieldsVersion = { version: { text: "0.2.0" }, status: "active" };
const listed = (versions: FieldsVersion[]) =>
  PROTOBUF_FIELDS.deprecated(versions).map((f) => `${f.pointer} [${f.deprecatedIn}]`);
const names = (verdicts: Uint8Array) => [...verdicts].map((v) => ["absent", "present", "unknown"][v]);

const SHOP = `syntax = "proto3"; package shop;
message Order { Line line = 3; int64 total = 9 [deprecated = true]; int64 t31 = 31; }
message Line { int32 qty = 1 [deprecated = true]; }`;

describe("deprecated Protobuf fields, at their edges", () => {
  it("are listed shallower first, whatever their numbers", () => {
    expect(listed([version("1.0.0", "active", SHOP)])).toEqual(["/total [1.0.0]", "/line/qty [1.0.0]"]);
  });

  it("leave out versions of another format, or without a schema, and retired ones", () => {
    expect(
      listed([JSON_VERSION, NO_SCHEMA, version("1.0.0", "retired", SHOP), version("2.0.0", "active", SHOP)]),
    ).toEqual(["/total [2.0.0]", "/line/qty [2.0.0]"]);
  });

  it("follow mutually recursive messages once along each path", () => {
    const schema = proto(`syntax = "proto3"; package r;
message A { B b = 1; }
message B { A a = 1; B self = 2; string x = 3 [deprecated = true]; }`);
    expect(walk(primaryOf(schema)).map((f) => f.pointer)).toEqual(["/b", "/b/a", "/b/self", "/b/x"]);
  });

  it(`follow nested messages ${MAX_PATH} fields deep and no deeper`, () => {
    const messages = Array.from({ length: 18 }, (_, i) =>
      i === 17 ? `message M17 { int32 d = 1; }` : `message M${i} { M${i + 1} c = 1; int32 d = 2; }`,
    );
    const schema = proto(`syntax = "proto3"; package deep;\n${messages.join("\n")}`);
    const found = walk(primaryOf(schema));
    expect(Math.max(...found.map((f) => f.numbers.length))).toBe(MAX_PATH);
    expect(found.filter((f) => f.numbers.length === MAX_PATH).map((f) => f.pointer)).toEqual([
      "/c".repeat(MAX_PATH),
      `${"/c".repeat(MAX_PATH - 1)}/d`,
    ]);
    expect(found).toHaveLength(2 * MAX_PATH);
  });
});

describe("Protobuf field presence, at its edges", () => {
  const v1 = version("1.0.0", "active", SHOP);

  it("keeps apart number paths whose digits run together (3.1 and 31)", () => {
    const presence = PROTOBUF_FIELDS.presence([v1], ["/line/qty", "/t31"]);
    const schema = v1.schema as Parameters<typeof encode>[0];
    presence.check(v1, confluentRecord(1, [0], encode(schema, "shop.Order", { t31: 5 })), 5);
    expect(names(presence.verdicts)).toEqual(["absent", "present"]);
    presence.check(v1, confluentRecord(1, [0], encode(schema, "shop.Order", { line: { qty: 2 } })), 5);
    expect(names(presence.verdicts)).toEqual(["present", "absent"]);
  });

  it("is unknown for a record whose writer is no Protobuf version, or has no schema", () => {
    const presence = PROTOBUF_FIELDS.presence([JSON_VERSION, v1], ["/total"]);
    const bytes = Uint8Array.from([0, 0, 0, 0, 1, 0, 0x48, 0x01]);
    presence.check(v1, bytes, 5);
    expect(names(presence.verdicts)).toEqual(["present"]);
    presence.check(JSON_VERSION, bytes, 5);
    expect(names(presence.verdicts)).toEqual(["unknown"]);
    presence.check(NO_SCHEMA, bytes, 5);
    expect(names(presence.verdicts)).toEqual(["unknown"]);
  });
});
