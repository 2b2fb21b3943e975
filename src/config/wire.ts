import { SchemawatchError } from "../errors.js";
import { DEFAULTS } from "./defaults.js";
import type { Where } from "./registries.js";
import type { WireConfig, WriterSource } from "./types.js";

/** A subject as the file writes it, as far as its wire prefix goes. */
interface RawWireSubject {
  readonly registry?: unknown;
  readonly writer?: { readonly sources?: readonly WriterSource[]; readonly wire?: Partial<WireConfig> };
}

const refuse = (at: string, message: string) => new SchemawatchError("CONFIG_INVALID", `${at}: ${message}`);

/**
 * A subject's `writer.wire`, defaults filled in. Bytes cannot tell a 4-byte id from an 8-byte one, so
 * the width is the config's word, and a combination no serializer writes is refused here rather than
 * read as ids that name the wrong versions: an 8-byte id is Apicurio's (its Confluent API has none so
 * wide), and Apicurio's own ids are mapped to versions through the subject's registry.
 */
export function wireFrom(subject: RawWireSubject, index: number, where: Where): WireConfig {
  const raw = subject.writer?.wire;
  const wire: WireConfig = { ...DEFAULTS.writer.wire, ...raw };
  if (raw === undefined) return wire;
  const at = where(["subjects", index, "writer", "wire"]);
  const sources = subject.writer?.sources;
  if (sources !== undefined && !sources.includes("wire"))
    throw refuse(
      at,
      "is set, but writer.sources leaves out wire, so no prefix is read: add wire to writer.sources or remove writer.wire",
    );
  if (wire.idBytes === 8 && wire.id === "schemaId")
    throw refuse(
      at,
      "idBytes 8 with id schemaId: an 8-byte id is written by Apicurio's serdes (DefaultIdHandler in 2.x, Legacy8ByteIdHandler in 3.x), as the id their apicurio.registry.use-id names: set id to globalId (their default) or contentId",
    );
  if (wire.id !== "schemaId" && subject.registry === undefined)
    throw refuse(
      at,
      `id ${wire.id} is an Apicurio id, which only the subject's registry maps to a version: give the subject a registry, or set id to schemaId with each version's confluentId`,
    );
  return wire;
}
