import avro from "avsc";
import { describe, expect, it } from "vitest";
import type { CatalogVersion } from "../../../../src/catalog/types.js";
import { diffAvro, type AvroDirection } from "../../../../src/diff/avro/index.js";
import { AVRO_FORMAT, type AvroSchema } from "../../../../src/formats/avro/index.js";
import type { Decoded, ReaderCheck } from "../../../../src/formats/format.js";

// The pairs of Confluent's own AvroCompatibilityTest (confluentinc/schema-registry,
// core/src/test/java/io/confluent/kafka/schemaregistry/avro/AvroCompatibilityTest.java), each with
// the answer its checker gives: BACKWARD is "NEW reads OLD", FORWARD "OLD reads NEW".
const record = (fields: unknown[]) => ({ type: "record", name: "myrecord", fields });
const SCHEMAS = {
  1: record([{ type: "string", name: "f1" }]),
  2: record([
    { type: "string", name: "f1" },
    { type: "string", name: "f2", default: "foo" },
  ]),
  3: record([
    { type: "string", name: "f1" },
    { type: "string", name: "f2" },
  ]),
  4: record([{ type: "string", name: "f1_new", aliases: ["f1"] }]),
  6: record([{ type: ["null", "string"], name: "f1", doc: "doc of f1" }]),
  7: record([{ type: ["null", "string", "int"], name: "f1", doc: "doc of f1" }]),
  8: record([
    { type: "string", name: "f1" },
    { type: "string", name: "f2", default: "foo" },
    { type: "string", name: "f3", default: "bar" },
  ]),
};
type Id = keyof typeof SCHEMAS;
const parse = (id: Id) =>
  AVRO_FORMAT.parse({ name: `schema${id}`, text: JSON.stringify(SCHEMAS[id]), references: [] }) as AvroSchema;

// [new, old, direction, compatible?, Confluent's words]
const CONFLUENT: ReadonlyArray<readonly [Id, Id, "backward" | "forward", boolean, string]> = [
  [2, 1, "backward", true, "adding a field with default is a backward compatible change"],
  [3, 1, "backward", false, "adding a field w/o default is not a backward compatible change"],
  [4, 1, "backward", true, "changing field name with alias is a backward compatible change"],
  [6, 1, "backward", true, "evolving a field type to a union is a backward compatible change"],
  [1, 6, "backward", false, "removing a type from a union is not a backward compatible change"],
  [7, 6, "backward", true, "adding a new type in union is a backward compatible change"],
  [6, 7, "backward", false, "removing a type from a union is not a backward compatible change"],
  [8, 2, "backward", true, "iteratively adding fields with defaults is a compatible change"],
  [3, 2, "backward", true, "removing a default is a compatible change, but not transitively"],
  [2, 1, "forward", true, "adding a field is a forward compatible change"],
  [3, 1, "forward", true, "adding a field is a forward compatible change"],
  [3, 2, "forward", true, "adding a field is a forward compatible change"],
  [2, 3, "forward", true, "adding a field is a forward compatible change"],
  [1, 8, "forward", true, "iteratively removing fields with defaults is a compatible change"],
  [1, 2, "forward", true, "removing a field with a default is a compatible change"],
  [1, 3, "forward", false, "removing a default is not a transitively compatible change (1 against 3)"],
];

/** The witness, written by avsc with the writer's schema, decoded and checked by the monitor's own path. */
function readerOutcome(writer: AvroSchema, reader: AvroSchema, witness: unknown): ReaderCheck {
  const body = avro.Type.forSchema(writer.json as avro.Schema, { wrapUnions: true }).toBuffer(witness);
  const decoded = AVRO_FORMAT.decode({ schema: writer } as unknown as CatalogVersion, body, 0) as Decoded;
  const out: ReaderCheck = { outcome: "ok", rule: null, location: null };
  AVRO_FORMAT.check({ schema: reader } as unknown as CatalogVersion, decoded.value, out);
  return out;
}

describe("diff of an Avro pair, against Confluent's AvroCompatibilityTest", () => {
  it.each(CONFLUENT)("schema%s after schema%s, %s: compatible %s (%s)", (next, old, way, compatible) => {
    const result = diffAvro(parse(old), parse(next));
    const side: AvroDirection = result[way];
    expect(side.verdict).toBe(compatible ? "ok" : "breaks");
    if (side.verdict === "breaks") {
      // The witness is a record its writer writes and its reader cannot read, as the monitor judges it.
      const [writer, reader] = way === "backward" ? [parse(old), parse(next)] : [parse(next), parse(old)];
      expect(readerOutcome(writer, reader, side.witness)).toEqual({
        outcome: "fails",
        rule: side.rule,
        location: side.location,
      });
    }
  });

  it("classifies both ways, and names the rule, the place and the record of each break", () => {
    expect(diffAvro(parse(1), parse(2)).compatibility).toBe("FULL");
    expect(diffAvro(parse(6), parse(7))).toEqual({
      compatibility: "BACKWARD",
      backward: { verdict: "ok" },
      forward: { verdict: "breaks", rule: "union_branch", location: "/f1", witness: { f1: { int: 0 } } },
      whole: false,
    });
    expect(diffAvro(parse(1), parse(3))).toEqual({
      compatibility: "FORWARD",
      backward: { verdict: "breaks", rule: "missing_default", location: "/f2", witness: { f1: "" } },
      forward: { verdict: "ok" },
      whole: false,
    });
    // Whole: each side reads every record of the other with nothing dropped, defaulted or failing.
    expect([diffAvro(parse(1), parse(1)).whole, diffAvro(parse(1), parse(2)).whole]).toEqual([true, false]);
    // A recursive record is whole when each level is: its plan back to itself is judged where first met.
    const list = (doc: string) =>
      AVRO_FORMAT.parse({
        name: doc,
        text: JSON.stringify({
          type: "record",
          name: "Node",
          doc,
          fields: [
            { name: "value", type: "long" },
            { name: "next", type: ["null", "Node"], default: null },
          ],
        }),
        references: [],
      }) as AvroSchema;
    expect(diffAvro(list("one"), list("two")).whole).toBe(true);
  });
});
