import avro from "avsc";
import type { CatalogVersion } from "../../src/catalog/types.js";
import { AVRO_FORMAT } from "../../src/formats/avro/index.js";
import type { Decoded, ReaderCheck } from "../../src/formats/format.js";

/** A version of the format's own making. */
export const avroVersion = (schema: unknown) =>
  ({
    schema: AVRO_FORMAT.parse({ name: "t.avsc", text: JSON.stringify(schema), references: [] }),
  }) as unknown as CatalogVersion;

/** A record of `schema` written by avsc (an independent encoder). */
export const writeAvro = (schema: unknown, value: unknown) =>
  avro.Type.forSchema(schema as avro.Schema, { wrapUnions: true }).toBuffer(value);

/** What a reader of `readerSchema` makes of `value` written with `writerSchema`, into `out` (reused if given). */
export function readAvro(
  writerSchema: unknown,
  value: unknown,
  readerSchema: unknown,
  out: ReaderCheck = { outcome: "ok", rule: null, location: null },
): ReaderCheck {
  const decoded = AVRO_FORMAT.decode(avroVersion(writerSchema), writeAvro(writerSchema, value), 0) as Decoded;
  AVRO_FORMAT.check(avroVersion(readerSchema), decoded.value, out);
  return out;
}
