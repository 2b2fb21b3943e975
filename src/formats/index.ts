import { extname } from "node:path";
import type { Format, FormatName } from "./format.js";
import { AVRO_FORMAT } from "./avro/index.js";
import { JSON_FORMAT } from "./json.js";
import { PROTOBUF_FORMAT } from "./protobuf/index.js";

export type { Format, FormatName } from "./format.js";
export { JSON_FORMAT } from "./json.js";
export { AVRO_FORMAT } from "./avro/index.js";

/** Every format schemawatch reads, by name. A new format is one entry here and its own folder. */
export const FORMATS: ReadonlyMap<FormatName, Format> = new Map<FormatName, Format>([
  ["json", JSON_FORMAT],
  ["avro", AVRO_FORMAT],
  ["protobuf", PROTOBUF_FORMAT],
]);

/**
 * The format of a registry's `schemaType`: absent (or empty) is AVRO, as Confluent's clients read it;
 * undefined for a type no format here reads.
 */
export function formatOfRegistryType(schemaType: string | undefined | null): Format | undefined {
  const type = schemaType === undefined || schemaType === null || schemaType === "" ? "AVRO" : schemaType;
  for (const format of FORMATS.values()) if (format.registryType === type) return format;
  return undefined;
}

/** The format whose schema files end with this path's extension (case-insensitive); undefined for none. */
export function formatOfFile(path: string): Format | undefined {
  const extension = extname(path).toLowerCase();
  for (const format of FORMATS.values()) if (format.extensions.includes(extension)) return format;
  return undefined;
}

/** Every schema file extension a subject's folder is read for. */
export function schemaExtensions(): string[] {
  return [...FORMATS.values()].flatMap((f) => f.extensions);
}
