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
  /** The trie of the paths; node 0 is the message itself. */
  readonly #nodes: PathNode[];
  /** Apicurio's `Ref` naming the file's first message, as its bytes are written. */
  readonly #ref: Uint8Array;

  constructor(schema: ProtoSchema, paths: readonly (readonly number[])[]) {
    this.paths = paths;
    const nodes = [new PathNode()];
    paths.forEach((path, key) => {
      let at = nodes[0]!;
      const steps = path.slice(0, MAX_PATH);
      steps.forEach((number, depth) => {
        const last = depth === steps.length - 1;
        let child = at.children.get(number);
        if (!last && child === undefined) {
          child = new PathNode();
          nodes.push(child);
          at.children.set(number, child);
        }
        if (last) at.keys.set(number, key);
        else {
          child!.under.push(key);
          at = child!;
        }
      });
    });
    for (const node of nodes) node.seal();
    this.#nodes = nodes;
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
    if (scan(bytes!, from, bytes!.length, this.#nodes[0]!, into, false) < 0)
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
}

/** Field numbers at or above this are looked up by a linear search rather than the node's table. */
const DENSE = 4096;

/** One step of the paths: the field numbers that end a path here (keys) or lead further (children). */
class PathNode {
  readonly keys = new Map<number, number>();
  readonly children = new Map<number, PathNode>();
  /** The keys at or under this node: what an unsure descent marks present. */
  readonly under: number[] = [];
  /** By field number below `DENSE`: 0 when not on a path, else the entry's index + 1. */
  slots = new Int32Array(0);
  /** Per entry: its key (-1: none) and its child (null: none). */
  entryKeys = new Int32Array(0);
  entryChildren: (PathNode | null)[] = [];
  /** Numbers at or past `DENSE`, and their entries. */
  far: number[] = [];
  farEntries: number[] = [];

  seal(): void {
    const numbers = [...new Set([...this.keys.keys(), ...this.children.keys()])];
    this.slots = new Int32Array(Math.min(DENSE, Math.max(0, ...numbers) + 1));
    this.entryKeys = Int32Array.from(numbers, (n) => this.keys.get(n) ?? -1);
    this.entryChildren = numbers.map((n) => this.children.get(n) ?? null);
    numbers.forEach((n, i) => {
      if (n < DENSE) this.slots[n] = i + 1;
      else {
        this.far.push(n);
        this.farEntries.push(i);
      }
    });
  }

  /** The entry of field `number`, or -1 when no path goes through it. */
  entry(number: number): number {
    if (number < this.slots.length) return this.slots[number]! - 1;
    for (let i = 0; i < this.far.length; i++) if (this.far[i] === number) return this.farEntries[i]!;
    return -1;
  }
}

/**
 * Scans a message from `pos` to `end` (a group: to its end tag) at `node`, marking what it finds;
 * returns where it stopped, or -1 for bytes that are no message. The common cases (a one-byte tag,
 * a one-byte length) are read inline.
 */
function scan(
  bytes: Uint8Array,
  pos: number,
  end: number,
  node: PathNode,
  into: Uint8Array,
  group: boolean,
): number {
  while (pos < end) {
    let tag = bytes[pos++]!;
    if (tag >= 0x80) {
      tag &= 0x7f;
      let shift = 7;
      let byte = 0x80;
      while (byte >= 0x80) {
        if (pos >= end || shift > 28) return -1;
        byte = bytes[pos++]!;
        tag |= (byte & 0x7f) << shift;
        shift += 7;
      }
      tag >>>= 0;
    }
    const wire = tag & 7;
    const number = tag >>> 3;
    if (number === 0) return -1;
    const entry = node.entry(number);
    if (entry >= 0) {
      const key = node.entryKeys[entry]!;
      if (key >= 0) into[key] = PRESENT;
      const child = node.entryChildren[entry]!;
      if (child !== null) {
        if (wire === LEN) {
          const length = lengthAt(bytes, pos, end);
          if (length < 0) return -1;
          const inner = pos + lengthBytes(bytes, pos);
          if (scan(bytes, inner, inner + length, child, into, false) < 0) markUnder(child, into);
          pos = inner + length;
          continue;
        }
        markUnder(child, into);
      }
    }
    switch (wire) {
      case VARINT:
        while (true) {
          if (pos >= end) return -1;
          if (bytes[pos++]! < 0x80) break;
        }
        break;
      case I64:
        pos += 8;
        break;
      case I32:
        pos += 4;
        break;
      case LEN: {
        if (pos >= end) return -1;
        const first = bytes[pos]!;
        if (first < 0x80) pos += 1 + first;
        else {
          const length = lengthAt(bytes, pos, end);
          if (length < 0) return -1;
          pos += lengthBytes(bytes, pos) + length;
        }
        break;
      }
      case EGROUP:
        return group ? pos : -1;
      default:
        pos = skip(bytes, pos, end, wire, 32);
        if (pos < 0) return -1;
    }
  }
  return group || pos > end ? -1 : pos;
}

function markUnder(node: PathNode, into: Uint8Array): void {
  const under = node.under;
  for (let k = 0; k < under.length; k++) into[under[k]!] = PRESENT;
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
