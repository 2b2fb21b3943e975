import { normalizeGuid } from "../catalog/load.js";
import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import { tryParseVersion } from "../catalog/version.js";
import type { IdLookups } from "../catalog/lookups.js";
import type { WireId, WriterConfig } from "../config/types.js";
import { compilePointer, readPointer, type Pointer } from "./pointer.js";
import { HeaderDecoder, recordHeaderBytes, type DecodeReason, type SourceRecord } from "./record.js";

/** The Confluent header that carries a schema GUID: a magic byte 1 followed by 16 bytes. */
export const GUID_HEADER = "__value_schema_id";
/**
 * The headers Apicurio's serdes write in header mode (`apicurio.registry.headers.enabled`): the id
 * their `apicurio.registry.use-id` names, as an 8-byte big-endian long; the body then has no prefix.
 */
export const APICURIO_GLOBAL_ID_HEADER = "apicurio.value.globalId";
export const APICURIO_CONTENT_ID_HEADER = "apicurio.value.contentId";
const MAX_CACHED_TEXTS = 1024;
/** The high word of an 8-byte id past which it is no longer an exact double: no registry has such ids. */
const MAX_HIGH_WORD = 0x1fffff;

/**
 * What reading the writer version found. `version` is undefined for a record that declares none.
 * `payloadStart` is where the body starts after a wire prefix: 5 for Confluent's (and Apicurio's
 * 4-byte ids), 9 for Apicurio's 8-byte ids; 0 without a prefix. With
 * `unknown_schema_id`, `lookup` is the lookup of the id in flight (from `lookups`), which the record
 * may wait for; undefined when there is none.
 */
export interface WriterResult {
  version: CatalogVersion | undefined;
  payloadStart: number;
  error: DecodeReason | undefined;
  lookup: PromiseLike<unknown> | undefined;
  lookups: IdLookups | undefined;
}

/**
 * Finds a record's writer version in the configured order. Every source but `pointer` reads only a
 * header or the first bytes (the wire prefix), so most records are counted without parsing their body.
 */
export class WriterResolver {
  readonly #sources: WriterConfig["sources"];
  /** The wire prefix's length: the magic byte and the id. */
  readonly #prefix: number;
  readonly #wireId: WireId;
  readonly #apicurioHeaders: boolean;
  readonly #header: HeaderDecoder;
  readonly #pointer: Pointer;
  readonly #subject: CatalogSubject;
  readonly #lookups: IdLookups | undefined;
  readonly needsPayload: boolean;
  /** Declared texts seen so far and what they mean; producers repeat a handful of them endlessly. */
  readonly #texts = new Map<string, CatalogVersion | DecodeReason>();

  /**
   * Ids are looked up in the subject's own versions: one schema registered under two subjects has one
   * id. One the subject does not know is `unknown_schema_id`, and is handed to `lookups`.
   */
  constructor(subject: CatalogSubject, config: WriterConfig, lookups?: IdLookups) {
    this.#subject = subject;
    this.#lookups = lookups;
    // A format that decodes only with its writer's schema cannot read a version in the body: the
    // default order leaves `pointer` out for it (a configured one is refused, catalog/format-sources.ts).
    this.#sources = subject.format.needsWriter
      ? config.sources.filter((source) => source !== "pointer")
      : config.sources;
    this.#prefix = 1 + config.wire.idBytes;
    this.#wireId = config.wire.id;
    this.#apicurioHeaders = this.#sources.includes("apicurio-header");
    this.#header = new HeaderDecoder(config.header);
    this.#pointer = compilePointer(config.pointer);
    this.needsPayload = this.#sources.includes("pointer");
  }

  /**
   * Reads the version from everything but the payload. `document` is the parsed payload when the
   * caller has one; without it, the `pointer` source is skipped and `pending` is set.
   */
  resolve(record: SourceRecord, out: WriterResult, document?: unknown): boolean {
    out.version = undefined;
    out.payloadStart = 0;
    out.error = undefined;
    out.lookup = undefined;
    const value = record.value;
    // Apicurio's deserializers read its id headers first, and a body written with them has no prefix
    // (its first byte may well be 0: an Avro null branch, a zero): so does schemawatch.
    let native: Buffer | undefined;
    let nativeKind: WireId = "globalId";
    if (this.#apicurioHeaders) {
      native = recordHeaderBytes(record, APICURIO_GLOBAL_ID_HEADER);
      if (native === undefined) {
        native = recordHeaderBytes(record, APICURIO_CONTENT_ID_HEADER);
        if (native !== undefined) nativeKind = "contentId";
      }
    }
    if (native === undefined && value && value.length > 0 && value[0] === 0) {
      // A wire-format record carries its schema id whether or not `wire` is configured; its body
      // starts after the prefix either way.
      if (value.length < this.#prefix) {
        out.error = "truncated_wire_prefix";
        return true;
      }
      out.payloadStart = this.#prefix;
    }
    // An index, not for-of: this runs for every record, and for-of's iterator results cost ~120 bytes of
    // garbage a record where V8 does not optimize them away (bench/consumer.js allocations).
    const sources = this.#sources;
    for (let i = 0; i < sources.length; i++) {
      switch (sources[i]) {
        case "wire": {
          if (out.payloadStart === 0) break;
          if (this.#prefix === 5) this.#byId(this.#wireId, value!.readUInt32BE(1), out);
          else this.#byLong(this.#wireId, value!, 1, out);
          return true;
        }
        case "apicurio-header": {
          if (native === undefined) break;
          if (native.length !== 8) out.error = "bad_id_header";
          else this.#byLong(nativeKind, native, 0, out);
          return true;
        }
        case "guid-header": {
          const bytes = recordHeaderBytes(record, GUID_HEADER);
          if (!bytes) break;
          if (bytes.length !== 17 || bytes[0] !== 1) {
            out.error = "unknown_schema_id";
            return true;
          }
          const guid = normalizeGuid(bytes.subarray(1).toString("hex"));
          const version = this.#subject.byConfluentGuid.get(guid);
          if (version) out.version = version;
          else {
            out.error = "unknown_schema_id";
            out.lookup = this.#lookups?.requestGuid(guid);
            out.lookups = this.#lookups;
          }
          return true;
        }
        case "header": {
          const text = this.#header.text(record);
          if (text === undefined) break;
          this.#fromText(text, out);
          return true;
        }
        case "pointer": {
          if (document === undefined) return false;
          const declared = readPointer(document, this.#pointer);
          if (typeof declared !== "string") break;
          this.#fromText(declared, out);
          return true;
        }
      }
    }
    return true;
  }

  /** An 8-byte big-endian id at `at`; one past 2^53 names no version any registry has. */
  #byLong(kind: WireId, bytes: Buffer, at: number, out: WriterResult): void {
    const high = bytes.readUInt32BE(at);
    if (high > MAX_HIGH_WORD) {
      out.error = "unknown_schema_id";
      return;
    }
    this.#byId(kind, high * 0x1_0000_0000 + bytes.readUInt32BE(at + 4), out);
  }

  /** The version an id names in this subject; an unknown one is handed to `lookups`. */
  #byId(kind: WireId, id: number, out: WriterResult): void {
    const subject = this.#subject;
    const byId =
      kind === "schemaId"
        ? subject.byConfluentId
        : kind === "globalId"
          ? subject.byGlobalId
          : subject.byContentId;
    const version = byId.get(id);
    if (version) {
      out.version = version;
      return;
    }
    // The lookup brings the version: the caller may hold the record until it does.
    out.error = "unknown_schema_id";
    const lookups = this.#lookups;
    out.lookup = kind === "schemaId" ? lookups?.request(id) : lookups?.requestNative?.(kind, id);
    out.lookups = lookups;
  }

  #fromText(text: string, out: WriterResult): void {
    let meaning = this.#texts.get(text);
    if (meaning === undefined) {
      meaning = this.#interpret(text);
      if (this.#texts.size < MAX_CACHED_TEXTS) this.#texts.set(text, meaning);
    }
    if (typeof meaning === "string") out.error = meaning;
    else out.version = meaning;
  }

  /** `event/1.1`, `1.1.0` or `v1.1`: a version of this subject, or unknown_version. */
  #interpret(text: string): CatalogVersion | DecodeReason {
    const slash = text.lastIndexOf("/");
    if (slash >= 0 && text.slice(0, slash) !== this.#subject.name) return "unknown_version";
    const version = tryParseVersion(slash >= 0 ? text.slice(slash + 1) : text);
    return (version && this.#subject.byVersion.get(version.text)) || "unknown_version";
  }
}
