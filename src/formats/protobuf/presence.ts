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
 * present. Bytes that end early, hold a bad tag (field number 0, wire type 6 or 7), a varint of more
 * than 10 bytes, a length past their end, or a group that another field's tag ends (groups nest 32
 * deep at most) make every field not found yet `UNKNOWN`: no Protobuf reader reads such a record. A
 * record whose framing names another message than the file's first (its fields are not these), or
 * that the framing cannot be read for, is `UNKNOWN` throughout.
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
    // Stryker disable next-line ConditionalExpression: a shortcut; with no paths the rest finds nothing too
    if (keys === 0) return 0;
    const from = bytes === null ? -1 : this.#messageStart(bytes, start);
    // Loops, not `fill`: a call into the runtime costs more than the few verdicts of a record.
    if (from === -1) {
      // Stryker disable next-line EqualityOperator: into[keys] is past a verdict array of `keys`
      for (let k = 0; k < keys; k++) into[k] = UNKNOWN;
      return 0;
    }
    // Stryker disable next-line EqualityOperator: into[keys] is past a verdict array of `keys`
    for (let k = 0; k < keys; k++) into[k] = ABSENT;
    const broken = scan(bytes!, from, bytes!.length, this.#nodes[0]!, into) === BROKEN;
    let present = 0;
    // Stryker disable next-line EqualityOperator: into[keys] is past a verdict array of `keys`
    for (let k = 0; k < keys; k++) {
      if (into[k] === PRESENT) present++;
      else if (broken) into[k] = UNKNOWN;
    }
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
    // Past the end of `bytes` reads undefined, which no byte of the Ref is.
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
  // Stryker disable next-line ArrayDeclaration: a key that is no number marks nothing in a Uint8Array
  readonly under: number[] = [];
  /** By field number below `DENSE`: 0 when not on a path, else the entry's index + 1. */
  slots = new Int32Array(0);
  /** Per entry: its key (-1: none) and its child (null: none). */
  entryKeys = new Int32Array(0);
  // Stryker disable next-line ArrayDeclaration: seal() sets it before any scan
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
    // Stryker disable next-line EqualityOperator: far[far.length] is undefined, never a number
    for (let i = 0; i < this.far.length; i++) if (this.far[i] === number) return this.farEntries[i]!;
    return -1;
  }
}

/**
 * Scans a message from `pos` to `end` at `node`, marking what it finds; returns where it stopped, or
 * BROKEN for bytes that are no message. The common cases (a one-byte tag, a one-byte length) are read
 * inline.
 */
function scan(bytes: Uint8Array, pos: number, end: number, node: PathNode, into: Uint8Array): number {
  while (pos < end) {
    let tag = bytes[pos++]!;
    if (tag >= 0x80) {
      tag &= 0x7f;
      let shift = 7;
      let byte = 0x80;
      while (byte >= 0x80) {
        if (pos >= end || shift > 28) return BROKEN;
        byte = bytes[pos++]!;
        tag |= (byte & 0x7f) << shift;
        shift += 7;
      }
      tag >>>= 0;
    }
    const wire = tag & 7;
    const number = tag >>> 3;
    if (number === 0) return BROKEN;
    const entry = node.entry(number);
    if (entry >= 0) {
      const key = node.entryKeys[entry]!;
      // Stryker disable next-line ConditionalExpression: -1 (no key) indexes nothing in a Uint8Array
      if (key >= 0) into[key] = PRESENT;
      const child = node.entryChildren[entry]!;
      if (child !== null) {
        if (wire === LEN) {
          const length = lengthAt(bytes, pos, end);
          if (length < 0) return BROKEN;
          const inner = pos + lengthBytes(bytes, pos);
          if (scan(bytes, inner, inner + length, child, into) === BROKEN) markUnder(child, into);
          pos = inner + length;
          continue;
        }
        markUnder(child, into);
      }
    }
    switch (wire) {
      case VARINT: {
        // varintEnd, read inline: the commonest value.
        // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: a varint read past `end` leaves pos past it, refused below
        const last = end - pos > MAX_VARINT ? pos + MAX_VARINT : end;
        while (pos < last && bytes[pos]! >= 0x80) pos++;
        if (pos === last) return BROKEN;
        pos++;
        break;
      }
      case I64:
        pos += 8;
        break;
      case I32:
        pos += 4;
        break;
      // Stryker disable next-line ConditionalExpression,BlockStatement: the inline read; skip() reads a length-delimited value alike
      case LEN: {
        // Past the end, `first` is undefined and lenEnd says BROKEN.
        const first = bytes[pos]!;
        // Stryker disable next-line ConditionalExpression: the one-byte length read inline; lenEnd reads it alike
        if (first < 0x80) pos += 1 + first;
        else pos = lenEnd(bytes, pos, end);
        break;
      }
      default:
        // A group to skip; an end tag outside one, or wire type 6 or 7, is BROKEN.
        pos = skip(bytes, pos, end, wire, MAX_GROUPS, number);
    }
    // Stryker disable next-line ConditionalExpression: at -1 the next tag reads as field 0, BROKEN too; said here
    if (pos === BROKEN) return BROKEN;
  }
  // A value cut short by the end moved `pos` past it.
  return pos > end ? BROKEN : pos;
}

function markUnder(node: PathNode, into: Uint8Array): void {
  const under = node.under;
  // Stryker disable next-line EqualityOperator: under[under.length] marks nothing in a Uint8Array
  for (let k = 0; k < under.length; k++) into[under[k]!] = PRESENT;
}

/** What the readers below return for bytes that are no Protobuf value. */
const BROKEN = -1;
/** The longest varint a Protobuf reader takes (a 64-bit value). */
const MAX_VARINT = 10;
/** Groups nested deeper than this are not skipped: the record's fields not found yet are unknown. */
const MAX_GROUPS = 32;

/** The length varint at `pos` (at most 5 bytes), or BROKEN when it is malformed or runs past `end`. */
function lengthAt(bytes: Uint8Array, pos: number, end: number): number {
  let value = 0;
  for (let shift = 0; shift <= 28; shift += 7) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a length read past `end` is past it too
    if (pos >= end) return BROKEN;
    const byte = bytes[pos++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value <= end - pos ? value : BROKEN;
  }
  return BROKEN;
}

/** How many bytes the (well-formed) varint at `pos` takes. */
function lengthBytes(bytes: Uint8Array, pos: number): number {
  let n = 1;
  while (bytes[pos + n - 1]! >= 0x80) n++;
  return n;
}

/** Past a varint of at most MAX_VARINT bytes before `end`, or BROKEN. */
function varintEnd(bytes: Uint8Array, pos: number, end: number): number {
  const last = Math.min(end, pos + MAX_VARINT);
  while (pos < last) if (bytes[pos++]! < 0x80) return pos;
  return BROKEN;
}

/** Past a length-delimited value, or BROKEN. */
function lenEnd(bytes: Uint8Array, pos: number, end: number): number {
  const length = lengthAt(bytes, pos, end);
  return length === BROKEN ? BROKEN : pos + lengthBytes(bytes, pos) + length;
}

/**
 * Past one value of `wire` at `pos`, of field `number`, or BROKEN. A fixed-size value cut short by
 * `end` leaves the position past it, which the caller's bound check refuses.
 */
function skip(
  bytes: Uint8Array,
  pos: number,
  end: number,
  wire: number,
  depth: number,
  number: number,
): number {
  switch (wire) {
    case VARINT:
      return varintEnd(bytes, pos, end);
    case I64:
      return pos + 8;
    case I32:
      return pos + 4;
    case LEN:
      return lenEnd(bytes, pos, end);
    case SGROUP:
      return groupEnd(bytes, pos, end, depth, number);
    default:
      return BROKEN;
  }
}

/**
 * Past the group of field `number` whose fields start at `pos`: its end tag must carry the same
 * number, as Protobuf's readers require, and it nests at most `depth` groups deep. BROKEN otherwise.
 */
function groupEnd(bytes: Uint8Array, pos: number, end: number, depth: number, number: number): number {
  if (depth === 0) return BROKEN;
  // Stryker disable next-line EqualityOperator: at `end` the tag's read refuses at once
  while (pos < end) {
    let tag = 0;
    for (let shift = 0; ; shift += 7) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: past `end` a byte is undefined, and the tag reads as field 0
      if (shift > 28 || pos >= end) return BROKEN;
      const byte = bytes[pos++]!;
      tag += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) break;
    }
    // Field number 0 is no field; the number is the tag's low 32 bits shifted, as readers read it.
    const inner = (tag % 0x1_0000_0000) >>> 3;
    if (inner === 0) return BROKEN;
    if ((tag & 7) === EGROUP) return inner === number ? pos : BROKEN;
    pos = skip(bytes, pos, end, tag & 7, depth - 1, inner);
    // Stryker disable next-line ConditionalExpression: at -1 the next tag reads as field 0, BROKEN too; said here
    if (pos === BROKEN) return BROKEN;
  }
  return BROKEN;
}
