import { Buffer } from "node:buffer";
import type { RecordFrame } from "../pipeline/record.js";

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
const APOSTROPHE = 0x27;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
/** How far past a payload the first search for a backslash in a frame reads on, at most. */
const WINDOW = 64 * 1024;

const isSpace = (byte: number): boolean => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * The first pass of the presence check (docs/fields.md): whether each record may carry each of a set
 * of property names, read from its raw bytes without parsing, cheap enough for every record.
 *
 * `ABSENT` is exact: the name is nowhere a key, in JSON or in a dialect of it. `PRESENT` here only
 * means "maybe present": the name's bytes lie where a key's would (after a quote, an opening brace, a
 * comma or whitespace, and before an optional closing quote, whitespace and a colon), so quoted,
 * single-quoted and unquoted keys are all found, at any depth; or a key written with escapes
 * (`"\u0061mount":`, found by decoding the keys that hold a backslash, only in payloads that hold one)
 * decodes to it. Such a record is then read exactly (exact.ts), which says where the key is and whether
 * the record is JSON at all. A payload that is empty, that does not begin with `{` or `[` and end with
 * `}` or `]`, whose escaped keys do not decode, or that holds a backslash outside a string, is `UNKNOWN`.
 * Invalid UTF-8 is not looked for here (that costs a pass over every byte): the exact read does.
 */
export class PresenceCheck {
  readonly keys: readonly string[];
  /** Each key as JSON writes it, without its quotes. */
  readonly #needles: Uint8Array[];
  /** How far apart the sampled byte pairs are: one less than the shortest needle (1 to 15). */
  readonly #stride: number;
  /**
   * Per byte pair (hashed by `pair`), a bit `j` for each place `j` (1 to the stride) where a needle's
   * bytes `j - 1, j` hash the same: where a needle could begin, `j` bytes before the pair's second byte.
   */
  readonly #starts = new Uint16Array(4096);
  readonly #keySet: ReadonlySet<string>;
  /**
   * What the last search for a backslash in a frame read (`#holdsBackslash`): in the frame numbered
   * `#frame` (0: none), no backslash lies from `#clearFrom` to before `#clearTo`, and one lies at
   * `#clearTo` when `#backslashAtClearTo` (offsets in the frame's bytes).
   */
  #frame = 0;
  #clearFrom = 0;
  #clearTo = 0;
  // Stryker disable next-line BooleanLiteral: read only after a search in a frame has set it
  #backslashAtClearTo = false;
  /** Native searches for a backslash so far: what a frame saves (one for many records) is read here. */
  searches = 0;

  constructor(keys: readonly string[]) {
    this.keys = keys;
    this.#keySet = new Set(keys);
    this.#needles = keys.map((key) => Buffer.from(JSON.stringify(key).slice(1, -1)));
    // Bits 1 to 15 fit the table. A needle of one byte (or none) begins a byte before any pair's second.
    this.#stride = Math.max(1, Math.min(15, Math.min(...this.#needles.map((n) => n.length)) - 1));
    for (const needle of this.#needles) {
      if (needle.length < 2) {
        for (let next = 0; next < 256; next++) this.#starts[pair(needle[0] ?? QUOTE, next)]! |= 2;
        continue;
      }
      for (let j = 1; j <= this.#stride; j++) this.#starts[pair(needle[j - 1]!, needle[j]!)]! |= 1 << j;
    }
  }

  /**
   * Fills `into[i]` with the verdict for `keys[i]` on the payload `bytes[start..]`; `into` must hold
   * at least as many entries as there are keys. Returns how many keys are present. `frame`: bytes
   * that hold `bytes` and that nothing writes again while the records in them are checked, in order
   * (`SourceRecord.frame`); the search for escapes then reads ahead in them once for many records.
   */
  check(bytes: Uint8Array | null, start: number, into: Uint8Array, frame?: RecordFrame): number {
    const keys = this.#needles.length;
    // Stryker disable next-line ConditionalExpression: with no keys the rest finds none either; this spares the scan
    if (keys === 0) return 0;
    // Loops rather than `fill`: for a handful of keys a call into the runtime costs more.
    if (bytes === null || !looksLikeJson(bytes, start)) {
      for (let k = 0; k < keys; k++) into[k] = UNKNOWN;
      return 0;
    }
    for (let k = 0; k < keys; k++) into[k] = ABSENT;
    let present = this.#search(bytes, start, into);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,UnaryOperator: decoding the escaped keys of every payload gives the same verdicts; the gate spares the pass
    if (present < keys && this.#holdsBackslash(bytes, start, frame))
      present += this.#escapedKeys(bytes, start, into);
    return present;
  }

  /**
   * Whether `bytes[start..]` holds a backslash. Without a frame, one native search of the payload (a
   * call costs 30–50 ns, the larger part of the check on a short record). In a frame, the search
   * reads on past the payload to the next backslash, and what it read answers the payloads after it:
   * in a batch without an escape, one search for the whole batch. Records checked in order have each
   * search begin where the last one's answer ran out, so a frame is read once in all; the first
   * record of a frame, or one before the last searched, reads at most `WINDOW` bytes past its end.
   */
  // Where this says true of a payload without a backslash, its escaped keys are decoded and none is
  // found: the same verdicts, more slowly. Only a false for a payload with one could change a verdict.
  #holdsBackslash(bytes: Uint8Array, start: number, frame: RecordFrame | undefined): boolean {
    if (frame === undefined) return this.#searchAlone(bytes, start);
    const within = frame.bytes;
    // Stryker disable next-line ArithmeticOperator: from before the wire prefix, a search reads more and may say true: the same verdicts
    const from = bytes.byteOffset + start - within.byteOffset;
    const end = bytes.byteOffset + bytes.length - within.byteOffset;
    // A payload that does not lie within its frame (no source gives one) is searched alone.
    if (from < 0 || end > within.length) return this.#searchAlone(bytes, start);
    const inOrder = frame.id === this.#frame && from >= this.#clearFrom;
    if (inOrder) {
      // Stryker disable next-line ArithmeticOperator,EqualityOperator,BooleanLiteral: a payload cannot end in a backslash (it ends in a bracket), so one more byte reads the same; true, see above
      if (end <= this.#clearTo) return false;
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: true, see above; a payload's first byte is a bracket, never the backslash
      if (this.#backslashAtClearTo && from <= this.#clearTo) return true;
    }
    this.searches++;
    const limit = inOrder ? within.length : Math.min(within.length, Math.max(end, from + WINDOW));
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a view up to the frame's end reads what the frame does
    const found = (limit < within.length ? within.subarray(0, limit) : within).indexOf(BACKSLASH, from);
    this.#frame = frame.id;
    this.#clearFrom = from;
    this.#clearTo = found === -1 ? limit : found;
    // Stryker disable next-line ConditionalExpression,UnaryOperator: a backslash said to lie where the search stopped makes a later payload true, see above
    this.#backslashAtClearTo = found !== -1;
    // The search read at least to the payload's end.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,UnaryOperator,EqualityOperator: true, see above; a backslash right after the payload is in none of its keys
    return found !== -1 && found < end;
  }

  /** One native search of the payload alone: what a record without a frame costs. */
  #searchAlone(bytes: Uint8Array, start: number): boolean {
    this.searches++;
    // Stryker disable next-line UnaryOperator,ConditionalExpression: true decodes no key that is not there; a backslash at index 1 follows the opening bracket, in no key
    return indexOfByte(bytes, BACKSLASH, start) !== -1;
  }

  /**
   * The plain search: names written without escapes, marked present; returns how many. A needle
   * spans at least `stride + 1` bytes (a shorter one is tabled by its first byte), so it holds one of
   * the byte pairs that end every `stride` bytes from `start`: only those pairs are read, and needles
   * are compared only where the table says one could begin. No read waits on another (a skip search's do).
   */
  #search(bytes: Uint8Array, start: number, into: Uint8Array): number {
    const starts = this.#starts;
    const stride = this.#stride;
    const end = bytes.length;
    let present = 0;
    // Stryker disable next-line ArithmeticOperator,EqualityOperator: a stride earlier, or one pair past the end, reads undefined bytes: no place
    for (let at = start + stride; at < end; at += stride) {
      const places = starts[pair(bytes[at - 1]!, bytes[at]!)]!;
      // Stryker disable next-line ConditionalExpression: no place, no comparison; the test spares a call
      if (places !== 0 && (present += this.#compare(bytes, at, places, into)) === this.#needles.length)
        return present;
    }
    return present;
  }

  /**
   * Compares the needles at each place `places` names before `at`, where a key's name may begin (after
   * a quote, a brace, a comma or whitespace) and end (a colon follows); returns how many it found.
   */
  #compare(bytes: Uint8Array, at: number, places: number, into: Uint8Array): number {
    const needles = this.#needles;
    let present = 0;
    for (let rest = places >>> 1, pos = at - 1; rest !== 0; rest >>>= 1, pos--) {
      // Stryker disable next-line ConditionalExpression: comparing at every place before `at` finds the same keys, more slowly
      if ((rest & 1) === 0 || !KEY_BEFORE[bytes[pos - 1]!]) continue;
      for (let k = 0; k < needles.length; k++) {
        if (into[k] === PRESENT) continue;
        const needle = needles[k]!;
        const length = needle.length;
        // Past the payload's end a byte reads undefined: no match, no bounds check needed.
        let j = 0;
        // Stryker disable next-line ConditionalExpression,EqualityOperator: past the needle's end needle[j] is undefined, which no byte equals
        while (j < length && bytes[pos + j] === needle[j]) j++;
        if (j === length && keyEnds(bytes, pos + length)) {
          into[k] = PRESENT;
          present++;
        }
      }
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
    // Stryker disable next-line EqualityOperator: bytes[end] is undefined, not a quote: the loop ends alike
    while (i < end) {
      if (bytes[i] !== QUOTE) {
        // A backslash outside a string: not JSON, and its keys may be written in any escape.
        if (bytes[i] === BACKSLASH) return present + unknownRest(into, this.keys.length);
        i++;
        continue;
      }
      const open = i;
      // Stryker disable next-line BooleanLiteral: decoding a key without escapes too finds no key the plain search missed
      let escaped = false;
      i++;
      // Stryker disable next-line EqualityOperator: bytes[end] is undefined, not a quote, and the string is left open alike
      while (i < end && bytes[i] !== QUOTE) {
        if (bytes[i] === BACKSLASH) {
          escaped = true;
          i++;
        }
        i++;
      }
      const close = i;
      i++;
      // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: an unescaped key decodes to what the plain search saw; an open string has no colon after it
      if (!escaped || close >= end || !followedByColon(bytes, i)) continue;
      let key: unknown;
      try {
        key = JSON.parse(
          Buffer.from(bytes.buffer, bytes.byteOffset + open, close - open + 1).toString("utf8"),
        );
      } catch {
        // A key whose escapes do not decode: what it names cannot be known.
        return present + unknownRest(into, this.keys.length);
      }
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a quoted string decodes to a string, and the loop below compares every key anyway
      if (typeof key !== "string" || !this.#keySet.has(key)) continue;
      // Stryker disable next-line EqualityOperator: keys[keys.length] is undefined, which no decoded key equals
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

/**
 * A byte pair's entry in the table of needle starts: 12 bits, so pairs share entries and a shared
 * entry only adds comparisons. This mix keeps JSON's pairs (ASCII) about as apart as all 16 bits do.
 */
// Stryker disable next-line ArrowFunction: every pair at the entry `undefined` (a typed array keeps it as a property) compares at every place: the same keys, more slowly
const pair = (first: number, second: number): number => ((first << 5) ^ second) & 0xfff;

/** The bytes a key's name may follow: a quote (either kind), a brace, a comma, whitespace. */
const KEY_BEFORE: readonly boolean[] = Array.from(
  { length: 256 },
  (_, byte) => [QUOTE, APOSTROPHE, 0x7b, 0x2c].includes(byte) || isSpace(byte),
);

/** Whether a key's name may end at `at`: an optional closing quote (either kind), whitespace, a colon. */
function keyEnds(bytes: Uint8Array, at: number): boolean {
  const byte = bytes[at];
  return followedByColon(bytes, byte === QUOTE || byte === APOSTROPHE ? at + 1 : at);
}

/** Marks the keys still absent unknown; returns 0 (none found). */
function unknownRest(into: Uint8Array, keys: number): number {
  for (let k = 0; k < keys; k++) if (into[k] === ABSENT) into[k] = UNKNOWN;
  return 0;
}

/** Whether the next byte past whitespace from `at` is a colon: the string before it is a key. */
function followedByColon(bytes: Uint8Array, at: number): boolean {
  let i = at;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end a byte reads undefined, which is no space
  while (i < bytes.length && isSpace(bytes[i]!)) i++;
  return bytes[i] === COLON;
}

/** Begins with `{` or `[` and ends with `}` or `]`, past whitespace: a JSON document, as far as bytes tell. */
function looksLikeJson(bytes: Uint8Array, start: number): boolean {
  let first = start;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: past the end a byte reads undefined, which is no space
  while (first < bytes.length && isSpace(bytes[first]!)) first++;
  let last = bytes.length - 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: moving below `first` only over spaces leaves no document either way
  while (last > first && isSpace(bytes[last]!)) last--;
  const open = bytes[first];
  const close = bytes[last];
  return (open === 0x7b && close === 0x7d) || (open === 0x5b && close === 0x5d);
}

/** Buffer's native search for one byte (a Uint8Array is searched as a Buffer view of the same bytes). */
// Stryker disable next-line BlockStatement: it only gates the decoding of escaped keys (see `check`)
function indexOfByte(bytes: Uint8Array, byte: number, from: number): number {
  const buffer = bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  return buffer.indexOf(byte, from);
}

/** The first pass's verdicts for `keys` on one payload, by name (`present`: maybe), for tests. */
export function presenceOf(payload: string | Uint8Array | null, keys: readonly string[]): PresenceName[] {
  const bytes = typeof payload === "string" ? Buffer.from(payload) : payload;
  const into = new Uint8Array(keys.length);
  new PresenceCheck(keys).check(bytes, 0, into);
  return [...into].map((p) => PRESENCE_NAMES[p]!);
}
