import { normalizeGuid } from "../catalog/load.js";
import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import { tryParseVersion } from "../catalog/version.js";
import type { IdLookups } from "../catalog/lookups.js";
import type { WriterConfig } from "../config/types.js";
import { compilePointer, readPointer, type Pointer } from "./pointer.js";
import { HeaderDecoder, headerBytes, type DecodeReason, type SourceRecord } from "./record.js";

/** The Confluent header that carries a schema GUID: a magic byte 1 followed by 16 bytes. */
export const GUID_HEADER = "__value_schema_id";
const WIRE_PREFIX = 5;
const MAX_CACHED_TEXTS = 1024;

/**
 * What reading the writer version found. `version` is undefined for a record that declares none.
 * `payloadStart` is 5 for a Confluent wire-format record, whose JSON starts after the prefix. With
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
 * header or the first five bytes, so most records are counted without parsing their JSON.
 */
export class WriterResolver {
  readonly #sources: WriterConfig["sources"];
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
    if (value && value.length > 0 && value[0] === 0) {
      // A Confluent wire-format record carries its schema id whether or not `wire` is configured;
      // its JSON starts after the prefix either way.
      if (value.length < WIRE_PREFIX) {
        out.error = "truncated_wire_prefix";
        return true;
      }
      out.payloadStart = WIRE_PREFIX;
    }
    for (const source of this.#sources) {
      switch (source) {
        case "wire": {
          if (out.payloadStart !== WIRE_PREFIX) break;
          const id = value!.readUInt32BE(1);
          const version = this.#subject.byConfluentId.get(id);
          if (version) out.version = version;
          else {
            // The lookup brings the version: the caller may hold the record until it does.
            out.error = "unknown_schema_id";
            out.lookup = this.#lookups?.request(id);
            out.lookups = this.#lookups;
          }
          return true;
        }
        case "guid-header": {
          const bytes = headerBytes(record.headers, GUID_HEADER);
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
          const text = this.#header.text(record.headers);
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
