import type { CatalogVersion } from "../../catalog/types.js";
import type { Decoded, Format, ReaderCheck } from "../format.js";
import { ProtoDecoded, decodeProto } from "./decode.js";
import { parseProtoFile, parseProtoVersion, protoImports, type ProtoSchema } from "./parse.js";
import { ProtoReadPlan } from "./plan.js";
import { PROTOBUF_FIELDS } from "./fields.js";

const decoded: Decoded = { value: undefined, text: "" };

function planOf(writer: ProtoSchema, reader: ProtoSchema): ProtoReadPlan {
  let plan = writer.plans.get(reader);
  if (plan === undefined) writer.plans.set(reader, (plan = new ProtoReadPlan(writer, reader)));
  return plan;
}

const protoOf = (version: CatalogVersion | undefined): ProtoSchema | undefined =>
  version?.schema?.format === "protobuf" ? (version.schema as ProtoSchema) : undefined;

/**
 * Protobuf: a version is a `.proto` file (parse.ts, protobufjs), a record's body is Confluent's
 * message indexes or Apicurio's `Ref`, then a message of the writer's file (decode.ts, our own
 * bounded walk), and a reader reads it as Protobuf's parsers do, field number by field number
 * (plan.ts): `lossy` when it drops or defaults what the writer sent, `fails` when it misreads it.
 */
export const PROTOBUF_FORMAT: Format = {
  name: "protobuf",
  registryType: "PROTOBUF",
  extensions: [".proto"],
  needsWriter: true,

  // A version's file: one of its messages is what a record is (an enums-only file is an import).
  parse: (source) => parseProtoVersion(source),

  // `diff` of a file of enums only (a shared enum's subject): its enums are compared (diff/protobuf/enums.ts).
  parseFile: (source) => parseProtoFile(source),

  imports: (text) => protoImports(text),

  decode(writer, body, start) {
    const schema = protoOf(writer);
    // A record without a writer version of this format cannot be read: its bytes name no message.
    if (schema === undefined) return "protobuf_decode";
    const result = decodeProto(schema, body, start);
    if (typeof result === "string") return result;
    decoded.value = result;
    decoded.text = "";
    return decoded;
  },

  check(reader, value, out: ReaderCheck) {
    const schema = protoOf(reader);
    const record = value as ProtoDecoded;
    if (schema === undefined || !(record instanceof ProtoDecoded)) {
      out.outcome = "fails";
      out.rule = "message_unknown";
      out.location = "";
      return;
    }
    planOf(record.writer, schema).check(record, out);
  },

  document: (value) => (value instanceof ProtoDecoded ? value.document() : undefined),

  fields: PROTOBUF_FIELDS,
};
