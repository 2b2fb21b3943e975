import protobuf from "protobufjs";
import type { Outcome, ReaderCheck } from "../format.js";
import { MAX_DEPTH, type ProtoDecoded } from "./decode.js";
import type { FieldInfo, Msg } from "./model.js";
import { primaryOf, type ProtoSchema } from "./parse.js";
import { compareValue } from "./values.js";
import { Cursor, EGROUP, LEN, SGROUP, readVarint, skipValue } from "./wire.js";

/**
 * The rules a reader's outcome names, a bounded set (they may become label values). Lossy: the
 * reader loses only what it has no field for: it drops a field it does not know, reads a default
 * where the writer's message has no such field, or gets an enum number it has no name for. Fails: a
 * field it knows reads otherwise than written: as another type, a compatible type whose value does
 * not fit (truncated, sign), a string that is not UTF-8, one of several values or oneof members kept
 * and the others lost, no value for a required field; or it has no such message.
 */
export const PROTO_RULES = [
  "unknown_field",
  "default_read",
  "values_dropped",
  "oneof_overwritten",
  "unknown_enum_value",
  "type_reinterpreted",
  "value_changed",
  "not_utf8",
  "missing_required",
  "message_unknown",
] as const;
export type ProtoRule = (typeof PROTO_RULES)[number];

const RANK: Readonly<Record<Outcome, number>> = { ok: 0, lossy: 1, fails: 2 };

/**
 * What a reader version does with the records of a writer version, field number by field number,
 * as Protobuf's parsers read them: one per (writer, reader) pair, asked for each sampled record.
 */
export class ProtoReadPlan {
  readonly #reader: ProtoSchema;
  /** The reader's message for each writer message by full name, found once. */
  readonly #messages = new Map<string, Msg | undefined>();
  /** Undefined for a file of enums only, which writes no record. */
  readonly #writerPrimary: string | undefined;
  readonly #writerPackage: string | undefined;
  /** One walk, reused record after record (a plan checks one record at a time). */
  readonly #walk = new Walk();

  constructor(writer: ProtoSchema, reader: ProtoSchema) {
    this.#reader = reader;
    this.#writerPackage = writer.package;
    this.#writerPrimary = writer.messages.length > 0 ? primaryOf(writer).fullName : undefined;
  }

  /**
   * Fills `out` with what the reader makes of `record`, decoded with the writer's schema: the worst
   * outcome, with the rule and location of its first case, a JSON Pointer by the writer's field names
   * (`/lines/0/sku`; a map's entries as `*`, since a key is payload).
   */
  check(record: ProtoDecoded, out: ReaderCheck): void {
    out.outcome = "ok";
    out.rule = null;
    out.location = null;
    const walk = this.#walk;
    walk.start(record.bytes, record.start, out);
    const reader = this.#readerOf(record.message);
    if (reader === undefined) return walk.note("fails", "message_unknown");
    if (!walk.message(record.end, record.message, reader, 0, false)) {
      walk.start(record.bytes, record.start, out);
      walk.note("fails", "type_reinterpreted");
    }
  }

  /** The writer message's name in the reader's package (a package renamed keeps the messages' own names). */
  #inReader(message: Msg): string {
    const pkg = this.#writerPackage;
    const local =
      pkg !== undefined && message.fullName.startsWith(`${pkg}.`)
        ? message.fullName.slice(pkg.length + 1)
        : message.fullName;
    return this.#reader.package === undefined ? local : `${this.#reader.package}.${local}`;
  }

  /**
   * The reader's message of the writer message's full name (or of its name in the reader's package); the writer file's first message, renamed,
   * is read as the reader file's first. A reader file of enums only (`diff` against a shared enum's
   * file) has no first message: the writer's is unknown to it.
   */
  #readerOf(message: Msg): Msg | undefined {
    if (this.#messages.has(message.fullName)) return this.#messages.get(message.fullName);
    const found =
      this.#reader.root.lookup(message.fullName) ?? this.#reader.root.lookup(this.#inReader(message));
    const reader =
      found instanceof protobuf.Type
        ? this.#reader.models.of(found)
        : message.fullName === this.#writerPrimary && this.#reader.messages.length > 0
          ? primaryOf(this.#reader)
          : undefined;
    this.#messages.set(message.fullName, reader);
    return reader;
  }
}

/**
 * One record's walk: the writer's message and the reader's side by side, by field number. The
 * location is kept as a stack of segments and made into a string only when an outcome is noted, and
 * each depth's counts are kept in maps reused from record to record: a record read whole allocates
 * next to nothing.
 */
class Walk {
  readonly c = new Cursor();
  bytes: Uint8Array = new Uint8Array(0);
  out: ReaderCheck = { outcome: "ok", rule: null, location: null };
  readonly #path: string[] = [];
  /** Per depth, how many times each field number came in the message being walked there. */
  readonly #seen: FieldCounts[] = [];

  start(bytes: Uint8Array, pos: number, out: ReaderCheck): void {
    this.bytes = bytes;
    this.c.pos = pos;
    this.out = out;
    this.#path.length = 0;
    out.outcome = "ok";
    out.rule = null;
    out.location = null;
  }

  /** Notes an outcome at the current location, when it is worse than the one noted so far. */
  note(outcome: Outcome, rule: ProtoRule): void {
    const out = this.out;
    if (RANK[outcome] <= RANK[out.outcome]) return;
    out.outcome = outcome;
    out.rule = rule;
    out.location = this.#path.length === 0 ? "" : `/${this.#path.join("/")}`;
  }

  /**
   * Walks a message from `c.pos` to `end` (or its end tag, for a group) with the writer's `w` and
   * the reader's `r`; false when the bytes are no message of `r` (a writer's bytes or string read
   * as a message).
   */
  message(end: number, w: Msg, r: Msg, depth: number, group: boolean): boolean {
    if (depth > MAX_DEPTH) return false;
    const { bytes, c } = this;
    const path = this.#path;
    const seen = (this.#seen[depth] ??= new FieldCounts());
    seen.reset();
    // Which member of each oneof the record set: made only for a message whose oneofs it uses.
    let oneofs: Map<string, number> | undefined;
    const base = path.length;
    while (c.pos < end) {
      // Pops, not a write to length, which V8 takes through the runtime.
      while (path.length > base) path.pop();
      if (!readVarint(bytes, c, end) || c.hi !== 0) return false;
      const wire = c.lo & 7;
      const number = c.lo >>> 3;
      if (number === 0) return false;
      if (wire === EGROUP) return group;
      const rf = r.fields.get(number);
      const wf = w.fields.get(number);
      const count = seen.add(number);
      // A map entry's key and value are named by the map's own place.
      if (r.mapEntry !== true) path.push(wf?.name ?? rf?.name ?? String(number));
      if (rf === undefined) {
        this.note("lossy", "unknown_field");
        if (!skipValue(bytes, c, end, wire, MAX_DEPTH - depth, number)) return false;
        continue;
      }
      if (rf.oneof !== null) {
        oneofs ??= new Map();
        const set = oneofs.get(rf.oneof);
        if (set !== undefined && set !== number) this.note("fails", "oneof_overwritten");
        oneofs.set(rf.oneof, number);
      }
      if (!rf.repeated && count > 0) this.note("fails", "values_dropped");
      if (rf.map) path.push("*");
      else if (rf.repeated) path.push(String(count));
      if (!this.#value(end, wire, wf, rf, depth)) return false;
    }
    while (path.length > base) path.pop();
    if (group) return false;
    this.#unwritten(w, r, seen, oneofs);
    return true;
  }

  /** One value of the reader's field `rf` at `c.pos`, written as `wf` (or as `rf` when the writer lacks it). */
  #value(end: number, wire: number, wf: FieldInfo | undefined, rf: FieldInfo, depth: number): boolean {
    const { bytes, c } = this;
    if (rf.packable && wire === LEN) {
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return false;
      const runEnd = c.pos + c.value;
      for (let i = 0; c.pos < runEnd; i++) {
        const verdict = compareValue(bytes, c, runEnd, wf, rf);
        if (verdict === null) return false;
        if (verdict === "ok") continue;
        // A packed run is one field on the wire: its elements are numbered from its start.
        this.#path[this.#path.length - 1] = String(i);
        this.note(verdict.outcome, verdict.rule);
      }
      return true;
    }
    if (wire !== rf.wire) {
      this.note("fails", "type_reinterpreted");
      return skipValue(bytes, c, end, wire, MAX_DEPTH - depth, rf.number);
    }
    if (rf.message !== undefined) {
      // A writer's message is walked with its own fields; bytes or a string the reader reads as a
      // message are walked as the reader's, and must be one.
      const w = wf?.message ?? rf.message;
      if (wire === SGROUP) return this.message(end, w, rf.message, depth + 1, true);
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return false;
      const innerEnd = c.pos + c.value;
      const at = this.#path.length;
      const whole = this.message(innerEnd, w, rf.message, depth + 1, false);
      if (!whole && wf?.message !== undefined) return false;
      if (!whole) {
        // Not a message of the reader's: whatever the walk noted inside it, the field is misread.
        while (this.#path.length > at) this.#path.pop();
        this.out.outcome = "ok";
        this.note("fails", "type_reinterpreted");
      }
      c.pos = innerEnd;
      return true;
    }
    const verdict = compareValue(bytes, c, end, wf, rf);
    if (verdict === null) return false;
    if (verdict !== "ok") this.note(verdict.outcome, verdict.rule);
    return true;
  }

  /** The reader's fields the record did not write: a required one missing, or a default read for one the writer lacks. */
  #unwritten(w: Msg, r: Msg, seen: FieldCounts, oneofs: ReadonlyMap<string, number> | undefined): void {
    const path = this.#path;
    for (const rf of r.fields.values()) {
      if (seen.count(rf.number) > 0 || (rf.oneof !== null && oneofs?.has(rf.oneof) === true)) continue;
      // A message or oneof member unset is seen as unset by the reader; a scalar or list it reads as its default.
      const defaulted =
        !rf.required &&
        (rf.message === undefined || rf.repeated) &&
        rf.oneof === null &&
        (w.fields.get(rf.number) === undefined ||
          (!rf.repeated && w.fields.get(rf.number)!.explicitDefault !== rf.explicitDefault));
      if (!rf.required && !defaulted) continue;
      path.push(rf.name);
      if (rf.required) this.note("fails", "missing_required");
      else this.note("lossy", "default_read");
      path.pop();
    }
  }
}

/** Field numbers below this are counted in arrays; others (rare) in a map. */
const DENSE = 256;

/**
 * How many times each field number came in one message: arrays stamped with the message's
 * generation, so that starting the next message costs one increment rather than a clear.
 */
class FieldCounts {
  readonly #counts = new Int32Array(DENSE);
  readonly #stamps = new Int32Array(DENSE);
  #generation = 0;
  #far: Map<number, number> | undefined;

  reset(): void {
    // The stamps hold 32 bits: start them again before the generation would pass that.
    if (++this.#generation === 0x7fffffff) {
      this.#generation = 1;
      this.#stamps.fill(0);
    }
    this.#far?.clear();
  }

  /** Counts one more of `number`; returns how many came before. */
  add(number: number): number {
    if (number >= DENSE) {
      this.#far ??= new Map();
      const before = this.#far.get(number) ?? 0;
      this.#far.set(number, before + 1);
      return before;
    }
    const before = this.count(number);
    this.#stamps[number] = this.#generation;
    this.#counts[number] = before + 1;
    return before;
  }

  count(number: number): number {
    if (number >= DENSE) return this.#far?.get(number) ?? 0;
    return this.#stamps[number] === this.#generation ? this.#counts[number]! : 0;
  }
}
