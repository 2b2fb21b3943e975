import { describe, expect, it } from "vitest";
import type { VersionStatus } from "../../../../src/catalog/types.js";
import { AVRO_FIELDS } from "../../../../src/formats/avro/fields.js";
import { parseAvro } from "../../../../src/formats/avro/schema.js";
import type { FieldsVersion, ParsedSchema } from "../../../../src/formats/format.js";

// The edges of the Avro fields' rules that a deprecated field's verdict rests on: which versions are
// read, how each field is named once, in which order, how far a recursive record is followed, and
// when a record's presence is unknown (mutation testing, docs/testing.md, found each untested).

const DEPRECATED = { "confluent:tags": ["DEPRECATED"] };
const version = (text: string, status: VersionStatus, schema: unknown): FieldsVersion => ({
  version: { text },
  status,
  schema: parseAvro({ name: `${text}.avsc`, text: JSON.stringify(schema), references: [] }),
});
const pointers = (versions: FieldsVersion[]) =>
  AVRO_FIELDS.deprecated(versions).map((f) => `${f.pointer} [${f.deprecatedIn}]`);
/** A version of another format, and one whose schema did not load: neither is read as Avro. */
const JSON_VERSION: FieldsVersion = {
  version: { text: "0.1.0" },
  status: "active",
  schema: { format: "json" } as unknown as ParsedSchema,
};
const NO_SCHEMA: FieldsVersion = { version: { text: "0.2.0" }, status: "active" };

describe("deprecated Avro fields, at their edges", () => {
  it("are listed shallower first, then by pointer, whatever order the schema declares them in", () => {
    const schema = {
      type: "record",
      name: "Pay",
      fields: [
        { name: "zeta", type: "long", ...DEPRECATED },
        {
          name: "nested",
          type: { type: "record", name: "In", fields: [{ name: "a", type: "long", ...DEPRECATED }] },
        },
        { name: "alpha", type: "long", ...DEPRECATED },
        { name: "mid", type: "long", ...DEPRECATED },
      ],
    };
    expect(pointers([version("1.0.0", "active", schema)])).toEqual([
      "/alpha [1.0.0]",
      "/mid [1.0.0]",
      "/zeta [1.0.0]",
      "/nested/a [1.0.0]",
    ]);
  });

  it("name a version once for a field two union branches both carry", () => {
    const branch = (name: string) => ({
      type: "record",
      name,
      fields: [{ name: "x", type: "long", ...DEPRECATED }],
    });
    const schema = {
      type: "record",
      name: "Pay",
      fields: [{ name: "u", type: ["null", branch("A"), branch("B")] }],
    };
    expect(pointers([version("1.0.0", "active", schema), version("2.0.0", "active", schema)])).toEqual([
      "/u/x [1.0.0,2.0.0]",
    ]);
  });

  it("follow a recursive record once along each path", () => {
    const node = {
      type: "record",
      name: "Node",
      fields: [
        { name: "value", type: "long", ...DEPRECATED },
        { name: "next", type: ["null", "Node"], default: null },
      ],
    };
    expect(pointers([version("1.0.0", "active", node)])).toEqual(["/value [1.0.0]"]);
  });

  it("follow records 16 deep and no deeper", () => {
    // R0 { d; c: R1 { d; c: R2 ... } }: R15's d is 16 segments deep, R16's d 17.
    let inner: Record<string, unknown> = {
      type: "record",
      name: "R17",
      fields: [{ name: "d", type: "long", ...DEPRECATED }],
    };
    for (let i = 16; i >= 0; i--)
      inner = {
        type: "record",
        name: `R${i}`,
        fields: [
          { name: "c", type: inner },
          { name: "d", type: "long", ...DEPRECATED },
        ],
      };
    const found = AVRO_FIELDS.deprecated([version("1.0.0", "active", inner)]).map((f) => f.pointer);
    expect(found).toHaveLength(16);
    expect(found.at(-1)).toBe(`${"/c".repeat(15)}/d`);
  });

  it("count an array's items as a level of their own", () => {
    // R0 { c: array<R1 { c: array<R2 ...> }>, d }: Ri lies 2i deep, so R7's d is the deepest read.
    let inner: Record<string, unknown> = {
      type: "record",
      name: "R10",
      fields: [{ name: "d", type: "long", ...DEPRECATED }],
    };
    for (let i = 9; i >= 0; i--)
      inner = {
        type: "record",
        name: `R${i}`,
        fields: [
          { name: "c", type: { type: "array", items: inner } },
          { name: "d", type: "long", ...DEPRECATED },
        ],
      };
    const found = AVRO_FIELDS.deprecated([version("1.0.0", "active", inner)]).map((f) => f.pointer);
    expect(found).toHaveLength(8);
    expect(found.at(-1)).toBe(`${"/c/*".repeat(7)}/d`);
  });

  it("leave out versions of another format, or without a schema, and retired ones", () => {
    const schema = { type: "record", name: "Pay", fields: [{ name: "x", type: "long", ...DEPRECATED }] };
    expect(
      pointers([
        JSON_VERSION,
        NO_SCHEMA,
        version("1.0.0", "retired", schema),
        version("2.0.0", "active", schema),
      ]),
    ).toEqual(["/x [2.0.0]"]);
  });
});

describe("Avro field presence, at its edges", () => {
  const schema = {
    type: "record",
    name: "Pay",
    fields: [
      { name: "id", type: "long" },
      { name: "x", type: "long", ...DEPRECATED },
    ],
  };
  const v1 = version("1.0.0", "active", schema);
  const names = (verdicts: Uint8Array) => [...verdicts].map((v) => ["absent", "present", "unknown"][v]);

  it("is absent for a pointer that goes on through a field that is no record", () => {
    const presence = AVRO_FIELDS.presence([v1], ["/x", "/id/more", "/x/y/z"]);
    presence.check(v1, Uint8Array.from([2, 4]), 0);
    expect(names(presence.verdicts)).toEqual(["present", "absent", "absent"]);
  });

  it("is unknown for a record without a body, or whose writer is no Avro version", () => {
    const presence = AVRO_FIELDS.presence([v1], ["/x", "/id"]);
    presence.check(v1, null, 0);
    expect(names(presence.verdicts)).toEqual(["unknown", "unknown"]);
    presence.check(v1, Uint8Array.from([2, 4]), 0);
    expect(names(presence.verdicts)).toEqual(["present", "present"]);
    presence.check(JSON_VERSION, Uint8Array.from([2, 4]), 0);
    expect(names(presence.verdicts)).toEqual(["unknown", "unknown"]);
    presence.check(NO_SCHEMA, Uint8Array.from([2, 4]), 0);
    expect(names(presence.verdicts)).toEqual(["unknown", "unknown"]);
  });
});
