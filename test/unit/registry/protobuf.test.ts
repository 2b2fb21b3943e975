import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../src/catalog/compiler.js";
import { primaryOf, type ProtoSchema } from "../../../src/formats/protobuf/parse.js";
import { compileRegistryVersion, type CompiledVersion } from "../../../src/registry/compile.js";
import type { RegistryVersion } from "../../../src/registry/types.js";

const MONEY = 'syntax = "proto3"; package shop; message Money { int64 units = 1; string currency = 2; }';
const ORDER =
  'syntax = "proto3"; package shop; import "shop/money.proto"; message Order { Money total = 1; }';

const order = (references: RegistryVersion["references"]): RegistryVersion => ({
  subject: "order-value",
  version: 2,
  id: 41,
  schema: ORDER,
  text: ORDER,
  schemaType: "PROTOBUF",
  references,
  referenceEntries: [{ name: "shop/money.proto", subject: "money", version: 1 }],
  deleted: false,
});

describe("a registered Protobuf version", () => {
  it("is parsed by the Protobuf format with its references by import path", () => {
    const built = compileRegistryVersion(
      "main",
      order([
        {
          name: "shop/money.proto",
          subject: "money",
          version: 1,
          id: 40,
          schema: MONEY,
          text: MONEY,
          references: [],
          schemaType: "PROTOBUF",
        },
      ]),
      new SchemaCompiler(),
    ) as CompiledVersion;
    const schema = built.schema as ProtoSchema;
    expect(schema.format).toBe("protobuf");
    const total = primaryOf(schema).fields.get(1)!;
    expect([
      total.name,
      total.message!.fullName,
      [...total.message!.fields.values()].map((f) => f.name),
    ]).toEqual(["total", "shop.Money", ["units", "currency"]]);
    expect(built.file.path).toBe("registry:main/order-value/versions/2");
  });

  it("is left out, naming it, when an import is in none of its references", () => {
    expect(compileRegistryVersion("main", order([]), new SchemaCompiler())).toMatchObject({
      reason: "invalid_schema",
      message:
        'registry:main/order-value/versions/2 (id 41) is left out: registry:main/order-value/versions/2: not a valid .proto file: imports "shop/money.proto", which none of its references gives',
    });
  });

  it("reads a reference of enums only (a shared enum's subject), and leaves out that subject's own version", () => {
    const STATUS = 'syntax = "proto3"; package shop; enum Status { UNKNOWN = 0; ON = 1; OFF = 2; }';
    const DEVICE =
      'syntax = "proto3"; package shop; import "shop/status.proto"; message Device { Status status = 1; }';
    const status: RegistryVersion = {
      subject: "status",
      version: 1,
      id: 50,
      schema: STATUS,
      text: STATUS,
      schemaType: "PROTOBUF",
      references: [],
      deleted: false,
    };
    const device: RegistryVersion = {
      ...status,
      subject: "device-value",
      id: 51,
      schema: DEVICE,
      text: DEVICE,
      references: [
        {
          name: "shop/status.proto",
          subject: "status",
          version: 1,
          id: 50,
          schema: STATUS,
          text: STATUS,
          references: [],
          schemaType: "PROTOBUF",
        },
      ],
      referenceEntries: [{ name: "shop/status.proto", subject: "status", version: 1 }],
    };
    const built = compileRegistryVersion("main", device, new SchemaCompiler()) as CompiledVersion;
    const field = primaryOf(built.schema as ProtoSchema).fields.get(1)!;
    expect([field.kind, [...field.enumValues!.values()]]).toEqual(["enum", ["UNKNOWN", "ON", "OFF"]]);
    expect(compileRegistryVersion("main", status, new SchemaCompiler())).toMatchObject({
      reason: "invalid_schema",
      message:
        "registry:main/status/versions/1 (id 50) is left out: registry:main/status/versions/1: declares no message, and a subject's schema needs one to decode its records as: a .proto file of enums only can only be imported by another",
    });
  });
});
