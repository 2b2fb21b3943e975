import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import type { AvroSchema } from "../../../src/formats/avro/index.js";
import { compileRegistryVersion, type CompiledVersion } from "../../../src/registry/compile.js";
import type { RegistryVersion } from "../../../src/registry/types.js";

const ADDRESS = {
  type: "record",
  name: "Address",
  namespace: "shop",
  fields: [{ name: "city", type: "string" }],
};
const ORDER = {
  type: "record",
  name: "Order",
  namespace: "shop",
  fields: [{ name: "to", type: "shop.Address" }],
};

const order = (references: RegistryVersion["references"]): RegistryVersion => ({
  subject: "order-value",
  version: 2,
  id: 31,
  schema: ORDER,
  schemaType: "AVRO",
  references,
  referenceEntries: [{ name: "shop.Address", subject: "address", version: 1 }],
  deleted: false,
});

describe("a registered Avro version", () => {
  it("is parsed by the Avro format with the named types its references register", () => {
    const built = compileRegistryVersion(
      "main",
      order([
        {
          name: "shop.Address",
          subject: "address",
          version: 1,
          id: 30,
          schema: ADDRESS,
          references: [],
          schemaType: "AVRO",
        },
      ]),
      new SchemaCompiler(),
    ) as CompiledVersion;
    const schema = built.schema as AvroSchema;
    expect(schema.format).toBe("avro");
    expect(schema.root.fields[0]!.node.fields.map((f) => f.name)).toEqual(["city"]);
    expect(built.file.path).toBe("registry:main/order-value/versions/2");
    expect(built.file.json).toEqual(ORDER);
    expect(built.validate({ anything: true })).toBe(true);
  });

  it("is parsed from the registered text when the snapshot kept it", () => {
    const text = JSON.stringify({ type: "record", name: "Order", namespace: "shop", fields: [] });
    const built = compileRegistryVersion(
      "main",
      { ...order([]), text },
      new SchemaCompiler(),
    ) as CompiledVersion;
    expect((built.schema as AvroSchema).root.name).toBe("shop.Order");
    expect((built.schema as AvroSchema).root.fields).toEqual([]);
  });

  it("is left out, naming it, when a named type it uses is in none of its references", () => {
    expect(compileRegistryVersion("main", order([]), new SchemaCompiler())).toMatchObject({
      subject: "order-value",
      version: 2,
      id: 31,
      reason: "invalid_schema",
      message: expect.stringMatching(
        /^registry:main\/order-value\/versions\/2 \(id 31\) is left out: registry:main\/order-value\/versions\/2: not a valid Avro schema: .*shop\.Address/,
      ),
    });
  });
});
