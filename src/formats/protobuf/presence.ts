import type { ProtoSchema } from "./parse.js";
import { EGROUP, I32, I64, LEN, SGROUP, VARINT } from "./wire.js";

/** A record's verdict for one field, the values of fields/presence.ts (`ABSENT`, `PRESENT`, `UNKNOWN`). */
const ABSENT = 0;
const PRESENT = 1;
const UNKNOWN = 2;

/** A number path deeper than this is not scanned: its field counts as present whenever its parent is. */
export const MAX_PATH = 16;

/**
 * Whether each record carries each of a set of fields, named by number path (`[2, 5]`: field 5 of
 * the message in field 2), read from the record's bytes without decoding them: a skip-scan over the
 * tags that descends only into the fields on a path and allocates nothing, cheap enough for every
 * record.
 *
 * The rule, erring only towards present: a field is present when a tag of its number is on the wire
 * at its place, whatever its wire type (one the writer did not mean still carries a value); a list
 * field is present when any element is; a field under a list or map is present when any element
 * holds it. A field whose parent's bytes are not a message (or a group: not descended) counts as
 * present. Bytes that end early, hold a bad tag or a length past their end make every field not
 * found yet `UNKNOWN`. A record whose framing names another message than the file's first (its
 * fields are not these), or that the framing cannot be read for, is `UNKNOWN` throughout.
 *
 * proto3 does not write a field at its default (0, "", false, an empty list): such a record lacks it,
 * and is `ABSENT` for it (docs/fields.md says what drained means for Protobuf).
 */
export class ProtoPresence {
  readonly paths: readonly (readonly number[])[];
  /** The trie of paths: per node, its field numbers, each one's child node (-1: none) and key (-1: none). */
  readonly #numbers: Int32Array[] = [];
  readonly #children: Int32Array[] = [];
  readonly #keys: Int32Array[] = [];
  /** Per node, the keys at or under it: what an unsure descent marks present. */
  readonly #under: Int32Array[] = [];
  /** Apicurio's `Ref` naming the file's first message, as its bytes are written. */
  readonly #ref: Uint8Array;

  constructor(schema: ProtoSchema, paths: readonly (readonly number[])[]) {
    this.paths = paths;
    const nodes: { numbers: number[]; children: number[]; keys: number[]; under: number[] }[] = [];
    const node = () => nodes.push({ numbers: [], children: [], keys: [], under: [] }) - 1;
    node();
    paths.forEach((path, key) => {
      let at = 0;
      const steps = path.slice(0, MAX_PATH);
      steps.forEach((number, depth) => {
        const n = nodes[at]!;
        let i = n.numbers.indexOf(number);
        if (i < 0) {
          i = n.numbers.push(number) - 1;
          n.children.push(-1);
          n.keys.push(-1);
        }
        if (depth === steps.length - 1) n.keys[i] = key;
        else {
          if (n.children[i] === -1) n.children[i] = node();
          at = n.children[i]!;
          nodes[at]!.under.push(key);
        }
      });
    });
    for (const n of nodes) {
      this.#numbers.push(Int32Array.from(n.numbers));
      this.#children.push(Int32Array.from(n.children));
      this.#keys.push(Int32Array.from(n.keys));
      this.#under.push(Int32Array.from(n.under));
    }
    const name = new TextEncoder().encode(schema.messages[0]!.name);
    this.#ref = Uint8Array.from([name.length + 2, 0x0a, name.length, ...name]);
  }

  /**
   * Fills `into[i]` with the verdict for `paths[i]` on the body `bytes[start..]` (past the 5-byte wire
   * prefix: the framing, then the message); returns how many are present.
   */
  check(bytes: Uint8Array | null, start: number, into: Uint8Array): number {
    const keys = this.paths.length;
    if (keys === 0) return 0;
    const from = bytes === null ? -1 : this.#messageStart(bytes, start);
    if (from < 0) {
      for (let k = 0; k < keys; k++) into[k] = UNKNOWN;
      return 0;
    }
    for (let k = 0; k < keys; k++) into[k] = ABSENT;
    if (this.#scan(bytes!, from, bytes!.length, 0, into, false) < 0)
      for (let k = 0; k < keys; k++) if (into[k] === ABSENT) into[k] = UNKNOWN;
    let present = 0;
    for (let k = 0; k < keys; k++) if (into[k] === PRESENT) present++;
    return present;
  }

  /** Where the file's first message begins past the framing; -1 when the framing names another or cannot be read. */
  #messageStart(bytes: Uint8Array, start: number): number {
    let pos = start;
    // Confluent's [0]: one 0 byte, or written out as a count of 1 and an index of 0.
    if (bytes[pos] === 0) pos += 1;
    else if (bytes[pos] === 2 && bytes[pos + 1] === 0) pos += 2;
    else if (this.#refAt(bytes, pos)) return pos + this.#ref.length;
    else return -1;
    // Apicurio may write its Ref after the indexes.
    return this.#refAt(bytes, pos) ? pos + this.#ref.length : pos;
  }

  #refAt(bytes: Uint8Array, pos: number): boolean {
    const ref = this.#ref;
    if (pos + ref.length > bytes.length) return false;
    for (let i = 0; i < ref.length; i++) if (bytes[pos + i] !== ref[i]) return false;
    return true;
  }

  /**
   * Scans a message from `pos` to `end` (a group: to its end tag) at trie node `node`, marking what it
   * finds; returns where it stopped, or -1 for bytes that are no message.
   */
  #scan(bytes: Uint8Array, pos: number, end: number, node: number, into: Uint8Array, group: boolean): number {
    const numbers = this.#numbers[node]!;
    while (pos < end) {
      // The tag: at most 5 bytes, below 2^32.
      let tag = 0;
      let shift = 0;
      let byte = 0x80;
      while (byte >= 0x80) {
        if (pos >= end || shift > 28) return -1;
        byte = bytes[pos++]!;
        tag += (byte & 0x7f) * 2 ** shift;
        shift += 7;
      }
      const wire = tag & 7;
      const number = Math.floor(tag / 8);
      if (number === 0) return -1;
      if (wire === EGROUP) return group ? pos : -1;
      let i = numbers.length - 1;
      while (i >= 0 && numbers[i] !== number) i--;
      if (i >= 0) {
        const key = this.#keys[node]![i]!;
        if (key >= 0) into[key] = PRESENT;
        const child = this.#children[node]![i]!;
        if (child >= 0 && wire === LEN) {
          const length = lengthAt(bytes, pos, end);
          if (length < 0) return -1;
          const inner = pos + lengthBytes(bytes, pos);
          if (this.#scan(bytes, inner, inner + length, child, into, false) < 0) this.#markUnder(child, into);
          pos = inner + length;
          continue;
        }
        if (child >= 0) this.#markUnder(child, into);
      }
      pos = skip(bytes, pos, end, wire, 32);
      if (pos < 0) return -1;
    }
    return group ? -1 : pos;
  }

  #markUnder(node: number, into: Uint8Array): void {
    const under = this.#under[node]!;
    for (let k = 0; k < under.length; k++) into[under[k]!] = PRESENT;
  }
}

/** The length varint at `pos` (at most 5 bytes), or -1 when it is malformed or runs past `end`. */
function lengthAt(bytes: Uint8Array, pos: number, end: number): number {
  let value = 0;
  for (let shift = 0; shift <= 28; shift += 7) {
    if (pos >= end) return -1;
    const byte = bytes[pos++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value <= end - pos ? value : -1;
  }
  return -1;
}

/** How many bytes the (well-formed) varint at `pos` takes. */
function lengthBytes(bytes: Uint8Array, pos: number): number {
  let n = 1;
  while (bytes[pos + n - 1]! >= 0x80) n++;
  return n;
}

/** Past one value of `wire` at `pos`, within `end`; -1 when malformed. */
function skip(bytes: Uint8Array, pos: number, end: number, wire: number, depth: number): number {
  switch (wire) {
    case VARINT:
      for (let n = 0; n < 10; n++) {
        if (pos >= end) return -1;
        if (bytes[pos++]! < 0x80) return pos;
      }
      return -1;
    case I64:
      return pos + 8 <= end ? pos + 8 : -1;
    case I32:
      return pos + 4 <= end ? pos + 4 : -1;
    case LEN: {
      const length = lengthAt(bytes, pos, end);
      return length < 0 ? -1 : pos + lengthBytes(bytes, pos) + length;
    }
    case SGROUP:
      if (depth <= 0) return -1;
      for (;;) {
        if (pos >= end) return -1;
        let tag = 0;
        let shift = 0;
        let byte = 0x80;
        while (byte >= 0x80) {
          if (pos >= end || shift > 28) return -1;
          byte = bytes[pos++]!;
          tag += (byte & 0x7f) * 2 ** shift;
          shift += 7;
        }
        if ((tag & 7) === EGROUP) return pos;
        pos = skip(bytes, pos, end, tag & 7, depth - 1);
        if (pos < 0) return -1;
      }
    default:
      return -1;
  }
}
