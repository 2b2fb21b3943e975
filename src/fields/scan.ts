import { Buffer, isUtf8 } from "node:buffer";

// The exact read of a record's fields, without building its document: one pass over its bytes that
// checks it is JSON as `JSON.parse` of strict UTF-8 would (RFC 8259: one value, whitespace around it)
// and follows each field's pointer through it. A parse cost about three times as much (a string, then
// every object of the document) on the ~100-byte records a field is most often read in.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OBJECT = 0;
const ARRAY = 1;

/** After a value, what may follow; before one, what it may be. */
const VALUE = 0;
const AFTER = 1;
const KEY_OR_CLOSE = 2;
const KEY = 3;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
/** The bytes an escape may name after its backslash, but `u`: `" \ / b f n r t`. */
const ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const LITERALS = [Buffer.from("true"), Buffer.from("false"), Buffer.from("null")];

/**
 * Where a subject's fields lie in a record (at most 31 fields, each a pointer's property names, `*`
 * any array item). After `scan`, bit `f` of `carried` is set when an object at field `f`'s parent
 * place has its key, and of `lacked` when a place its pointer reaches does not lead to the key: an
 * object without the next name, an empty array, a value that is not the object or array the pointer
 * goes through. A deprecated field is in use where it is carried; an optional one is sent where it is
 * carried and nowhere lacked.
 */
export class FieldScan {
  readonly #names: string[][];
  readonly #bytes: Buffer[][];
  /** Per level, the fields whose name there is `*`. */
  readonly #star: number[] = [];
  /** Per level, the fields whose pointer ends there (with the name at that level). */
  readonly #ends: number[] = [];
  /** The fields a pointer names a property of (not `''`, not ending in `*`): all of them, in practice. */
  readonly #all: number;
  /** Fields whose name `*` is also read as a key of that name, where an object stands (a field in use). */
  readonly #keepStar: number;
  carried = 0;
  lacked = 0;
  // The open containers, by level: kind, the fields still on their pointer, the ones whose name was
  // seen as a key (objects), and items so far (arrays).
  #kind: number[] = [];
  #mask: number[] = [];
  #seen: number[] = [];
  #items: number[] = [];

  constructor(paths: readonly (readonly string[])[], literalStar = 0) {
    this.#keepStar = literalStar;
    this.#names = paths.map((p) => [...p]);
    this.#bytes = paths.map((p) => p.map((name) => Buffer.from(name)));
    let all = 0;
    paths.forEach((path, f) => {
      if (path.length === 0 || path[path.length - 1] === "*") return;
      all |= 1 << f;
      path.forEach((name, level) => {
        this.#star[level] = (this.#star[level] ?? 0) | (name === "*" ? 1 << f : 0);
        this.#ends[level] = (this.#ends[level] ?? 0) | (level === path.length - 1 ? 1 << f : 0);
      });
    });
    this.#all = all;
  }

  /** Reads `bytes[start..]`; false when it is not JSON (then `carried` and `lacked` mean nothing). */
  scan(bytes: Uint8Array, start: number): boolean {
    const end = bytes.length;
    this.carried = 0;
    this.lacked = 0;
    let depth = -1;
    let state = VALUE;
    let mask = this.#all;
    let high = false;
    let i = start;
    for (;;) {
      while (i < end && isSpace(bytes[i]!)) i++;
      if (i >= end) return state === AFTER && depth === -1 && (!high || isUtf8(bytes.subarray(start)));
      const c = bytes[i]!;
      if (state === AFTER) {
        if (depth === -1) return false;
        const kind = this.#kind[depth];
        if (c === 0x2c) {
          i++;
          if (kind === OBJECT) state = KEY;
          else {
            this.#items[depth]!++;
            mask = this.#mask[depth]!;
            state = VALUE;
          }
        } else if ((c === 0x7d && kind === OBJECT) || (c === 0x5d && kind === ARRAY)) {
          i++;
          this.#close(depth--);
        } else return false;
        continue;
      }
      if (state === KEY_OR_CLOSE && c === 0x7d) {
        i++;
        this.#close(depth--);
        state = AFTER;
        continue;
      }
      if (state === KEY_OR_CLOSE || state === KEY) {
        if (c !== QUOTE) return false;
        const close = stringEnd(bytes, i);
        if (close < 0) return false;
        high ||= stringHigh;
        let j = close + 1;
        while (j < end && isSpace(bytes[j]!)) j++;
        if (bytes[j] !== 0x3a) return false;
        mask = this.#key(depth, bytes, i + 1, close);
        i = j + 1;
        state = VALUE;
        continue;
      }
      // A value, at level depth + 1, on the pointers of the fields in `mask`.
      const level = depth + 1;
      if (c === 0x7b || c === 0x5b) {
        const star = this.#star[level] ?? 0;
        depth = level;
        this.#kind[depth] = c === 0x7b ? OBJECT : ARRAY;
        // Wrong kind of container for a field's pointer: lacked there (a literal `*` key still reads).
        this.lacked |= c === 0x7b ? mask & star & ~this.#keepStar : mask & ~star;
        this.#mask[depth] = c === 0x7b ? mask & ~(star & ~this.#keepStar) : mask & star;
        this.#seen[depth] = 0;
        this.#items[depth] = 0;
        i++;
        if (c === 0x7b) state = KEY_OR_CLOSE;
        else {
          while (i < end && isSpace(bytes[i]!)) i++;
          if (bytes[i] === 0x5d) {
            i++;
            this.#close(depth--);
            state = AFTER;
          } else {
            this.#items[depth] = 1;
            mask = this.#mask[depth]!;
            state = VALUE;
          }
        }
        continue;
      }
      // A scalar where a pointer goes on: lacked there.
      this.lacked |= mask;
      if (c === QUOTE) {
        const close = stringEnd(bytes, i);
        if (close < 0) return false;
        high ||= stringHigh;
        i = close + 1;
      } else if (c === 0x2d || isDigit(c)) {
        i = numberEnd(bytes, i);
        if (i < 0) return false;
      } else {
        const literal = LITERALS.find((l) => l[0] === c);
        if (literal === undefined) return false;
        for (let k = 0; k < literal.length; k++) if (bytes[i + k] !== literal[k]) return false;
        i += literal.length;
      }
      state = AFTER;
    }
  }

  /** A key of the object at `depth`: marks what it carries; returns the fields its value is on. */
  #key(depth: number, bytes: Uint8Array, from: number, to: number): number {
    const mask = this.#mask[depth]!;
    if (mask === 0) return 0;
    let decoded: string | undefined;
    let match = 0;
    for (let f = 0; f < this.#names.length; f++) {
      if ((mask & (1 << f)) === 0) continue;
      const name = this.#bytes[f]![depth]!;
      if (stringEscaped) {
        decoded ??= JSON.parse(
          Buffer.from(bytes.buffer, bytes.byteOffset + from - 1, to - from + 2).toString(),
        ) as string;
        if (decoded === this.#names[f]![depth]) match |= 1 << f;
        continue;
      }
      if (to - from !== name.length) continue;
      let k = 0;
      while (k < name.length && bytes[from + k] === name[k]) k++;
      if (k === name.length) match |= 1 << f;
    }
    const ends = this.#ends[depth] ?? 0;
    this.carried |= match & ends;
    this.#seen[depth]! |= match;
    return match & ~ends;
  }

  /** Closes the container at `depth`: an object without a pointer's next name, or an empty array, lacks it. */
  #close(depth: number): void {
    const mask = this.#mask[depth]!;
    if (this.#kind[depth] === OBJECT) this.lacked |= mask & ~this.#seen[depth]!;
    else if (this.#items[depth] === 0) this.lacked |= mask;
  }
}

/** Set by `stringEnd`: whether the string held a byte past ASCII (the payload's UTF-8 is checked), an escape. */
let stringHigh = false;
let stringEscaped = false;

/** The index of the closing quote of the string that opens at `at`; -1 when it is not a JSON string. */
function stringEnd(bytes: Uint8Array, at: number): number {
  const end = bytes.length;
  stringHigh = false;
  stringEscaped = false;
  let i = at + 1;
  while (i < end) {
    const c = bytes[i]!;
    if (c === QUOTE) return i;
    if (c === BACKSLASH) {
      stringEscaped = true;
      const e = bytes[i + 1];
      if (e === 0x75) {
        for (let k = 2; k < 6; k++) if (!isHex(bytes[i + k] ?? 0)) return -1;
        i += 6;
      } else if (e !== undefined && ESCAPES.has(e)) i += 2;
      else return -1;
      continue;
    }
    if (c < 0x20) return -1;
    if (c >= 0x80) stringHigh = true;
    i++;
  }
  return -1;
}

/** The index past the number that begins at `at`; -1 when it is not a JSON number. */
function numberEnd(bytes: Uint8Array, at: number): number {
  let i = at;
  if (bytes[i] === 0x2d) i++;
  if (bytes[i] === 0x30) i++;
  else if (isDigit(bytes[i] ?? 0)) while (isDigit(bytes[i] ?? 0)) i++;
  else return -1;
  if (bytes[i] === 0x2e) {
    i++;
    if (!isDigit(bytes[i] ?? 0)) return -1;
    while (isDigit(bytes[i] ?? 0)) i++;
  }
  if (bytes[i] === 0x65 || bytes[i] === 0x45) {
    i++;
    if (bytes[i] === 0x2b || bytes[i] === 0x2d) i++;
    if (!isDigit(bytes[i] ?? 0)) return -1;
    while (isDigit(bytes[i] ?? 0)) i++;
  }
  return i;
}
