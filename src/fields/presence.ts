import { Buffer } from "node:buffer";

/** A record's verdict for one field. The check errs only towards `PRESENT` (see `PresenceCheck`). */
export const ABSENT = 0;
export const PRESENT = 1;
/** The payload could not be read: unknown use, never evidence of absence. */
export const UNKNOWN = 2;
export type Presence = typeof ABSENT | typeof PRESENT | typeof UNKNOWN;
/** The `presence` label's values, indexed by `Presence`. */
export const PRESENCE_NAMES = ["absent", "present", "unknown"] as const;
export type PresenceName = (typeof PRESENCE_NAMES)[number];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * Whether each record carries each of a set of property names, read from its raw bytes without
 * parsing: cheap enough for every record, not a sample.
 *
 * The rule: a name is present when the document has a key of that name anywhere, at any depth (the
 * key's place is not checked, so `/amount` counts as present when only `/items/0/amount` is there),
 * whether it is written plainly (`"amount":`) or with escapes (`"\u0061mount":`, found by decoding
 * the keys that hold a backslash, only in payloads that hold one). A plain `"amount"` that is not
 * followed by `:` is a string value, not a key. In valid JSON the plain search cannot be fooled by a
 * string value (a quote inside one is escaped); in a payload that is not valid JSON it may find a
 * key that is not there, which errs towards present. A payload that is empty, that does not begin
 * with `{` or `[` and end with `}` or `]`, or whose escaped keys do not decode, is `UNKNOWN`.
 * Invalid UTF-8 is not looked for (that costs a pass over every byte): the bytes are searched as
 * they are, and a name's own bytes match exactly or not at all.
 */
export class PresenceCheck {
  readonly keys: readonly string[];
  /** Each key as JSON writes it without escapes, from its opening quote to its closing one. */
  readonly #needles: Uint8Array[];
  /** The shortest needle's length without its closing quote: the window of the skip search. */
  readonly #window: number;
  /** How far the window may move when its last byte is this one (Horspool's bad-character rule). */
  readonly #shift = new Uint8Array(256);
  readonly #keySet: ReadonlySet<string>;

  constructor(keys: readonly string[]) {
    this.keys = keys;
    this.#keySet = new Set(keys);
    this.#needles = keys.map((key) => Buffer.from(JSON.stringify(key), "utf8"));
    // Needles hold at least the two quotes; the window leaves out the closing one, which is the
    // commonest byte of JSON and would stop the search at every string.
    const window = Math.max(1, Math.min(...this.#needles.map((n) => n.length - 1)));
    this.#window = Math.min(window, 255);
    this.#shift.fill(this.#window);
    for (const needle of this.#needles) {
      for (let j = 0; j < this.#window - 1; j++)
        this.#shift[needle[j]!] = Math.min(this.#shift[needle[j]!]!, this.#window - 1 - j);
    }
    // A window ending in a needle's window-end byte is where a needle may start: 0 means "compare".
    for (const needle of this.#needles) this.#shift[needle[this.#window - 1]!] = 0;
  }

  /**
   * Fills `into[i]` with the verdict for `keys[i]` on the payload `bytes[start..]`; `into` must hold
   * at least as many entries as there are keys. Returns how many keys are present.
   */
  check(bytes: Uint8Array | null, start: number, into: Uint8Array): number {
    const keys = this.#needles.length;
    if (keys === 0) return 0;
    // Loops rather than `fill`: for a handful of keys a call into the runtime costs more.
    if (bytes === null || !looksLikeJson(bytes, start)) {
      for (let k = 0; k < keys; k++) into[k] = UNKNOWN;
      return 0;
    }
    for (let k = 0; k < keys; k++) into[k] = ABSENT;
    let present = this.#search(bytes, start, into);
    if (present < keys && indexOfByte(bytes, BACKSLASH, start) !== -1)
      present += this.#escapedKeys(bytes, start, into);
    return present;
  }

  /** The plain search: keys written without escapes, marked present; returns how many. */
  #search(bytes: Uint8Array, start: number, into: Uint8Array): number {
    const needles = this.#needles;
    const shift = this.#shift;
    const window = this.#window;
    const end = bytes.length;
    let present = 0;
    // `at` is the window's last byte; two skips a turn, since most windows skip.
    let at = start + window - 1;
    while (at < end) {
      let skip = shift[bytes[at]!]!;
      if (skip !== 0) {
        at += skip;
        if (at >= end) break;
        skip = shift[bytes[at]!]!;
        if (skip !== 0) {
          at += skip;
          continue;
        }
      }
      const pos = at - window + 1;
      if (bytes[pos] === QUOTE) {
        for (let k = 0; k < needles.length; k++) {
          if (into[k] === PRESENT) continue;
          const needle = needles[k]!;
          const length = needle.length;
          if (pos + length > end) continue;
          let j = 1;
          while (j < length && bytes[pos + j] === needle[j]) j++;
          if (j === length && followedByColon(bytes, pos + length)) {
            into[k] = PRESENT;
            if (++present === needles.length) return present;
          }
        }
      }
      at++;
    }
    return present;
  }

  /**
   * Keys that hold a backslash, decoded and compared with the names still absent. A tokenizer's pass
   * over the strings of the payload: only payloads that hold a backslash pay for it.
   */
  #escapedKeys(bytes: Uint8Array, start: number, into: Uint8Array): number {
    const end = bytes.length;
    let present = 0;
    let i = start;
    while (i < end) {
      if (bytes[i] !== QUOTE) {
        i++;
        continue;
      }
      const open = i;
      let escaped = false;
      i++;
      while (i < end && bytes[i] !== QUOTE) {
        if (bytes[i] === BACKSLASH) {
          escaped = true;
          i++;
        }
        i++;
      }
      const close = i;
      i++;
      if (!escaped || close >= end || !followedByColon(bytes, i)) continue;
      let key: unknown;
      try {
        key = JSON.parse(
          Buffer.from(bytes.buffer, bytes.byteOffset + open, close - open + 1).toString("utf8"),
        );
      } catch {
        // A key whose escapes do not decode: what it names cannot be known.
        for (let k = 0; k < this.keys.length; k++) if (into[k] === ABSENT) into[k] = UNKNOWN;
        return present;
      }
      if (typeof key !== "string" || !this.#keySet.has(key)) continue;
      for (let k = 0; k < this.keys.length; k++) {
        if (into[k] === ABSENT && this.keys[k] === key) {
          into[k] = PRESENT;
          present++;
        }
      }
    }
    return present;
  }
}

/** Whether the next byte past whitespace from `at` is a colon: the string before it is a key. */
function followedByColon(bytes: Uint8Array, at: number): boolean {
  let i = at;
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return bytes[i] === COLON;
}

/** Begins with `{` or `[` and ends with `}` or `]`, past whitespace: a JSON document, as far as bytes tell. */
function looksLikeJson(bytes: Uint8Array, start: number): boolean {
  let first = start;
  while (first < bytes.length && isSpace(bytes[first]!)) first++;
  let last = bytes.length - 1;
  while (last > first && isSpace(bytes[last]!)) last--;
  if (last <= first) return false;
  const open = bytes[first];
  const close = bytes[last];
  return (open === 0x7b && close === 0x7d) || (open === 0x5b && close === 0x5d);
}

/** Buffer's native search for one byte (a Uint8Array is searched as a Buffer view of the same bytes). */
function indexOfByte(bytes: Uint8Array, byte: number, from: number): number {
  const buffer = bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return buffer.indexOf(byte, from);
}

/** The verdicts for `keys` on one payload, by name: for tests, commands and anything off the hot path. */
export function presenceOf(payload: string | Uint8Array | null, keys: readonly string[]): PresenceName[] {
  const bytes = typeof payload === "string" ? Buffer.from(payload, "utf8") : payload;
  const into = new Uint8Array(keys.length);
  new PresenceCheck(keys).check(bytes, 0, into);
  return [...into].map((p) => PRESENCE_NAMES[p]!);
}
