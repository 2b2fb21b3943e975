import { SchemawatchError } from "../errors.js";
import type { SubjectConfig } from "../config/types.js";

/**
 * Refuses what a subject's format cannot have: a format that decodes only with its writer's schema
 * (Avro) would have to decode every record, not just the sample, to read a version or a producer at a
 * JSON Pointer in the body. The subject's format is known once its catalog is (its files' extension
 * or its registry's `schemaType`), hence a check of the config made when the catalog is built.
 */
export function checkFormatSources(
  configPath: string,
  subject: SubjectConfig,
  format: { readonly name: string; readonly needsWriter: boolean },
): void {
  if (!format.needsWriter) return;
  const where = `${configPath}: subject ${subject.name} is ${format.name}`;
  if (subject.writer.sources.includes("pointer") && subject.writer.defaultSources !== true)
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `${where}: writer.sources cannot include pointer, which would decode every record; its records name their writer by schema id (wire, guid-header) or header`,
    );
  if (subject.producer.pointer !== undefined)
    throw new SchemawatchError(
      "CONFIG_INVALID",
      `${where}: producer.pointer cannot be used, which would decode every record; name producers by producer.header or producer.keyPattern`,
    );
}
