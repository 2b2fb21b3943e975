import { describe, expect, it } from "vitest";
import type { VersionStatus } from "../../../../src/catalog/types.js";
import { AVRO_FIELDS } from "../../../../src/formats/avro/fields.js";
import { parseAvro } from "../../../../src/formats/avro/schema.js";

const tagged = (...tags: string[]) => ({ "confluent:tags": tags });
const ADDRESS = {
  type: "record",
  name: "Address",
  fields: [
    { name: "street", type: "string" },
    { name: "zip", type: "string", ...tagged("PII", "Deprecated") },
  ],
};
const V1 = {
  type: "record",
  name: "Pay",
  namespace: "shop",
  fields: [
    { name: "id", type: "long" },
    { name: "coupon", type: "string", ...tagged("DEPRECATED") },
    { name: "memo", type: "string", doc: "Deprecated: use note", deprecated: true },
    { name: "home", type: ADDRESS },
    { name: "work", type: ["null", "Address"], default: null },
    { name: "tags", type: { type: "map", values: "Address" } },
  ],
};
// v2: coupon renamed to voucher (alias coupon), still tagged; no more home; Address unchanged.
const V2 = {
  ...V1,
  fields: [
    V1.fields[0],
    { name: "voucher", aliases: ["coupon"], type: "string", ...tagged("deprecated") },
    // Address was defined inline by `home`: without it, `work` defines it.
    { name: "work", type: ["null", ADDRESS], default: null },
    V1.fields[5],
  ],
};
const version = (text: string, status: VersionStatus, schema: unknown) => ({
  version: { text },
  status,
  schema: parseAvro({ name: `${text}.avsc`, text: JSON.stringify(schema), references: [] }),
});
const v1 = version("1.0.0", "deprecated", V1);
const v2 = version("2.0.0", "active", V2);

describe("Avro fields for the fields room", () => {
  it("are the fields a non-retired version tags deprecated (confluent:tags, any case), at every place their record is used", () => {
    expect(AVRO_FIELDS.deprecated([v1, v2]).map((f) => `${f.pointer} ${f.key} [${f.deprecatedIn}]`)).toEqual([
      "/coupon coupon [1.0.0]",
      "/voucher voucher [2.0.0]",
      "/home/zip zip [1.0.0]",
      "/work/zip zip [1.0.0,2.0.0]",
      "/tags/*/zip zip [1.0.0,2.0.0]",
    ]);
    // A retired version's tags are not read; a doc or a `deprecated` attribute is no contract.
    expect(AVRO_FIELDS.deprecated([{ ...v1, status: "retired" }]).map((f) => f.pointer)).toEqual([]);
  });

  it("are present in a record by its writer version alone: absent where the writer lacks them, present under a union or a map", () => {
    const pointers = ["/coupon", "/voucher", "/home/zip", "/work/zip", "/tags/*/zip", "/id/x"];
    const presence = AVRO_FIELDS.presence([v1, v2], pointers);
    const names = () => [...presence.verdicts].map((v) => ["absent", "present", "unknown"][v]);
    // The body is never read: any bytes, even none.
    presence.check(v1, new Uint8Array(0), 0);
    expect(names()).toEqual(["present", "absent", "present", "present", "present", "absent"]);
    // v2's voucher answers for coupon too (its alias): erring towards "still in use".
    presence.check(v2, Uint8Array.from([1, 2, 3]), 0);
    expect(names()).toEqual(["present", "present", "absent", "present", "present", "absent"]);
    presence.check(undefined, Uint8Array.from([1]), 0);
    expect(names()).toEqual(["unknown", "unknown", "unknown", "unknown", "unknown", "unknown"]);
  });
});
