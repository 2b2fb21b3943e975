import avro from "avsc";
import { describe, expect, it } from "vitest";
import { FORMAT_DIFFS, type BinaryWitness } from "../../../src/diff/formats.js";
import { AVRO_FORMAT } from "../../../src/formats/avro/index.js";
import { proto } from "../../helpers/protobuf.js";

const avsc = (schema: unknown) =>
  AVRO_FORMAT.parse({ name: "test", text: JSON.stringify(schema), references: [] });
const hash = (size: number) => ({
  type: "record",
  name: "Block",
  fields: [{ name: "hash", type: { type: "fixed", name: "Hash", size } }],
});

describe("FORMAT_DIFFS", () => {
  it("holds a diff for Avro and Protobuf, none for JSON Schema (the JSON engine is diff/index.ts)", () => {
    expect([...FORMAT_DIFFS.keys()]).toEqual(["avro", "protobuf"]);
  });

  it("is one Avro change for a rule breaking both ways at one place, with both witnesses as written", () => {
    const old = avsc(hash(2));
    const next = avsc(hash(3));
    const result = FORMAT_DIFFS.get("avro")!.diff(old, next, "strict");
    expect(result).toEqual({
      policy: "strict",
      compatibility: "NONE",
      backward: "breaks",
      forward: "breaks",
      bump: "major",
      unit: "records",
      changes: [
        {
          kind: "fixed-size",
          path: "/hash",
          backward: "breaks",
          forward: "breaks",
          reason: "a fixed type's size differs between writer and reader",
          breaksUnder: "both",
          witness: {
            backward: { record: { hash: "\u0000\u0000" }, hex: "0000", base64: "AAA=" },
            forward: { record: { hash: "\u0000\u0000\u0000" }, hex: "000000", base64: "AAAA" },
          },
        },
      ],
    });
    // The bytes are the writer's: its own schema reads them back as the record.
    const witness = result.changes[0]!.witness!.backward as BinaryWitness;
    const writer = avro.Type.forSchema(hash(2) as avro.Schema);
    expect(writer.fromBuffer(Buffer.from(witness.hex, "hex"))).toEqual({ hash: Buffer.from([0, 0]) });
    expect(Buffer.from(witness.base64, "base64").toString("hex")).toBe(witness.hex);
  });

  it("is no change and no bump for the same Avro schema twice", () => {
    const result = FORMAT_DIFFS.get("avro")!.diff(avsc(hash(2)), avsc(hash(2)), "lenient");
    expect(result).toEqual({
      policy: "lenient",
      compatibility: "FULL",
      backward: "ok",
      forward: "ok",
      bump: "none",
      changes: [],
      unit: "records",
    });
  });

  it("gives a Protobuf witness its message, its JSON view and its bytes in hex and base64", () => {
    const message = (type: string) => `syntax = "proto3";\nmessage M { ${type} n = 1; }\n`;
    const result = FORMAT_DIFFS.get("protobuf")!.diff(
      proto(message("int32")),
      proto(message("bool")),
      "strict",
    );
    expect(result.changes[0]!.witness).toEqual({
      backward: {
        message: "M",
        record: { n: -1 },
        hex: "08ffffffffffffffffff01",
        base64: "CP///////////wE=",
      },
    });
  });
});
