import type { ProducerConfig } from "../config/types.js";
import { MAX_KEY_BYTES, compileKeyPattern, type KeyPattern } from "./key-pattern.js";
import { compilePointer, readPointer, type Pointer } from "./pointer.js";
import { HeaderDecoder, type SourceRecord } from "./record.js";

export const UNKNOWN_PRODUCER = "unknown";
export const OTHER_PRODUCER = "other";
/** Producer names become label values: keep them short and printable. */
const MAX_NAME_LENGTH = 64;
const PRINTABLE = /^[\x21-\x7e]+$/;

/**
 * Names the producer of a record from a header, the key, or the payload, and keeps the label bounded:
 * an allow-list when configured, else the first `maxValues` distinct names; everything past that is
 * `other`, and each such record is counted as an overflow. The key pattern runs in time linear in the
 * key, and never on a key longer than `MAX_KEY_BYTES` (`keyTooLong` tells the caller to count it).
 */
export class ProducerResolver {
  readonly #header: HeaderDecoder | undefined;
  readonly #keyPattern: KeyPattern | undefined;
  readonly #pointer: Pointer | undefined;
  readonly #allow: ReadonlySet<string> | undefined;
  readonly #max: number;
  readonly #seen = new Set<string>();
  readonly needsPayload: boolean;
  /** Records whose producer was folded into `other`. */
  overflow = 0;
  /** Whether the last record's key was too long for the key pattern to read (`MAX_KEY_BYTES`). */
  keyTooLong = false;

  constructor(config: ProducerConfig) {
    this.#header = config.header === undefined ? undefined : new HeaderDecoder(config.header);
    this.#keyPattern = config.keyPattern === undefined ? undefined : compileKeyPattern(config.keyPattern);
    this.#pointer = config.pointer === undefined ? undefined : compilePointer(config.pointer);
    this.#allow = config.allow ? new Set(config.allow) : undefined;
    this.#max = config.maxValues;
    this.needsPayload =
      this.#pointer !== undefined && this.#header === undefined && this.#keyPattern === undefined;
  }

  /** The producers known before any traffic: the allow-list, or none. */
  get declared(): readonly string[] {
    return this.#allow ? [...this.#allow] : [];
  }

  resolve(record: SourceRecord, document?: unknown): string {
    this.keyTooLong = false;
    return this.#bound(this.#raw(record, document));
  }

  #raw(record: SourceRecord, document: unknown): string | undefined {
    if (this.#header !== undefined) {
      const value = this.#header.text(record);
      if (value !== undefined) return value;
    }
    if (this.#keyPattern && record.key) {
      if (record.key.length > MAX_KEY_BYTES) this.keyTooLong = true;
      else {
        const name = this.#keyPattern.producerOf(record.key.toString("utf8"));
        if (name !== undefined) return name;
      }
    }
    if (this.#pointer && document !== undefined) {
      const value = readPointer(document, this.#pointer);
      if (typeof value === "string") return value;
    }
    return undefined;
  }

  #bound(name: string | undefined): string {
    if (name === undefined || name === "") return UNKNOWN_PRODUCER;
    if (this.#allow) {
      if (this.#allow.has(name)) return name;
      this.overflow++;
      return OTHER_PRODUCER;
    }
    if (this.#seen.has(name)) return name;
    if (this.#seen.size < this.#max && name.length <= MAX_NAME_LENGTH && PRINTABLE.test(name)) {
      this.#seen.add(name);
      return name;
    }
    this.overflow++;
    return OTHER_PRODUCER;
  }
}
