import protobuf from "protobufjs";
import { encodeMessageIndexes } from "../../src/formats/protobuf/wire.js";
import { parseProto, type ProtoSchema } from "../../src/formats/protobuf/parse.js";

/** A version's `.proto` text parsed as the catalog parses it, with references by import path. */
export function proto(
  text: string,
  references: Record<string, string> = {},
  name = "test.proto",
): ProtoSchema {
  const refs = Object.entries(references).map(([path, body]) => ({ name: path, text: body, references: [] }));
  return parseProto({ name, text, references: refs });
}

/**
 * A message of `schema` encoded by protobufjs (an encoder independent of the reader under test), from
 * a plain object of field values, as a producer's serializer writes its body.
 */
export function encode(schema: ProtoSchema, typeName: string, value: Record<string, unknown>): Uint8Array {
  const type = schema.root.lookupType(typeName);
  return type.encode(type.fromObject(value)).finish();
}

/** A record's value as Confluent's serializer writes it: 0, the id big-endian, the message indexes, the body. */
export function confluentRecord(id: number, indexes: readonly number[], body: Uint8Array): Uint8Array {
  const prefix = new Uint8Array(5);
  new DataView(prefix.buffer).setUint32(1, id);
  return Uint8Array.from([...prefix, ...encodeMessageIndexes(indexes), ...body]);
}

/** Apicurio's `Ref` (a delimited message whose field 1 is the type's name) in front of a body. */
export function apicurioRef(name: string, body: Uint8Array): Uint8Array {
  const nameBytes = new TextEncoder().encode(name);
  const ref = [0x0a, nameBytes.length, ...nameBytes];
  return Uint8Array.from([ref.length, ...ref, ...body]);
}

export { protobuf };
