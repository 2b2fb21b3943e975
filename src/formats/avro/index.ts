import type { Decoded, Format } from "../format.js";
import { decodeAvro, type AvroValue } from "./decode.js";
import { checkAvro } from "./check.js";
import { AVRO_FIELDS } from "./fields.js";
import { parseAvro, type AvroSchema } from "./schema.js";

export { AVRO_RULES } from "./resolve.js";
export type { AvroSchema } from "./schema.js";

const decoded: Decoded = { value: undefined, text: "" };

/**
 * Avro (`.avsc` files, registry type AVRO). A schema is parsed and checked by avsc (docs/architecture.md,
 * "Formats"); a sampled body is decoded once with its writer's schema by our own decoder (bounded in
 * depth and in items, so a crafted body ends in `avro_decode` or `too_deep`, never a hang); each reader
 * is resolved against the writer as the spec's "Schema Resolution" says, per record: a union branch or
 * an enum symbol fails only the records that use it. A body without its writer version cannot be
 * decoded at all: `avro_decode`.
 */
export const AVRO_FORMAT: Format = {
  name: "avro",
  registryType: "AVRO",
  extensions: [".avsc"],
  needsWriter: true,
  parse: parseAvro,

  decode(writer, body, start) {
    const schema = writer?.schema as AvroSchema | undefined;
    if (schema?.format !== "avro") return "avro_decode";
    const result = decodeAvro(schema, body, start);
    if (typeof result === "string") return result;
    decoded.value = result;
    return decoded;
  },

  check(reader, value, out) {
    checkAvro((reader.schema as AvroSchema).root, value as AvroValue, out);
  },

  document: (value) => (value as AvroValue).view,

  fields: AVRO_FIELDS,
};
