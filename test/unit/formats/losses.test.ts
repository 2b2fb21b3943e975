import { describe, expect, it } from "vitest";
import { AVRO_RULES } from "../../../src/formats/avro/resolve.js";
import { lossKind } from "../../../src/formats/losses.js";
import { PROTO_RULES } from "../../../src/formats/protobuf/plan.js";

describe("lossKind", () => {
  it("knows every lossy rule of every format, and no failure's", () => {
    const kinds = (rules: readonly string[]) => rules.map((r) => `${r} ${lossKind(r) ?? "-"}`);
    // A rule added to a format's list fails this until it is placed here and in formats/losses.ts.
    expect(kinds(AVRO_RULES)).toEqual([
      "missing_default -",
      "union_branch -",
      "enum_symbol -",
      "name_mismatch -",
      "fixed_size -",
      "type_mismatch -",
      "field_dropped dropped",
      "field_defaulted defaulted",
      "enum_defaulted defaulted",
    ]);
    expect(kinds(PROTO_RULES)).toEqual([
      "unknown_field dropped",
      "default_read defaulted",
      "values_dropped -",
      "oneof_overwritten -",
      "unknown_enum_value unnamed",
      "type_reinterpreted -",
      "value_changed -",
      "not_utf8 -",
      "missing_required -",
      "message_unknown -",
    ]);
    // JSON Schema's keywords are never losses, nor a name an object has by inheritance.
    expect(["required", "type", "toString", "constructor"].map(lossKind)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
