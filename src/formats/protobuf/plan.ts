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
  readonly #writerPrimary: string;
  readonly #writerPackage: string | undefined;

  constructor(writer: ProtoSchema, reader: ProtoSchema) {
    this.#reader = reader;
    this.#writerPackage = writer.package;
    this.#writerPrimary = primaryOf(writer).fullName;
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
    const reader = this.#readerOf(record.message);
    if (reader === undefined) return note(out, "fails", "message_unknown", "");
    const walk = new Walk(record.bytes, out);
    walk.c.pos = record.start;
    if (!walk.message(record.end, record.message, reader, "", 0, false))
      note(out, "fails", "type_reinterpreted", "");
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
   * is read as the reader file's first.
   */
  #readerOf(message: Msg): Msg | undefined {
    if (this.#messages.has(message.fullName)) return this.#messages.get(message.fullName);
    const found =
      this.#reader.root.lookup(message.fullName) ?? this.#reader.root.lookup(this.#inReader(message));
    const reader =
      found instanceof protobuf.Type
        ? this.#reader.models.of(found)
        : message.fullName === this.#writerPrimary
          ? primaryOf(this.#reader)
          : undefined;
    this.#messages.set(message.fullName, reader);
    return reader;
  }
}

function note(out: ReaderCheck, outcome: Outcome, rule: ProtoRule, path: string): void {
  if (RANK[outcome] <= RANK[out.outcome]) return;
  out.outcome = outcome;
  out.rule = rule;
  out.location = path;
}

/** One record's walk: the writer's message and the reader's side by side, by field number. */
class Walk {
  readonly c = new Cursor();

  constructor(
    readonly bytes: Uint8Array,
    readonly out: ReaderCheck,
  ) {}

  /**
   * Walks a message from `c.pos` to `end` (or its end tag, for a group) with the writer's `w` and
   * the reader's `r`; false when the bytes are no message of `r` (a writer's bytes or string read
   * as a message).
   */
  message(end: number, w: Msg, r: Msg, path: string, depth: number, group: boolean): boolean {
    if (depth > MAX_DEPTH) return false;
    const { bytes, c, out } = this;
    const seen = new Map<number, number>();
    const oneofs = new Map<string, number>();
    while (c.pos < end) {
      if (!readVarint(bytes, c, end) || c.hi !== 0) return false;
      const wire = c.lo & 7;
      const number = c.lo >>> 3;
      if (number === 0) return false;
      if (wire === EGROUP) return group;
      const rf = r.fields.get(number);
      const wf = w.fields.get(number);
      const count = seen.get(number) ?? 0;
      seen.set(number, count + 1);
      const name = wf?.name ?? rf?.name ?? String(number);
      const at = r.mapEntry === true ? path : `${path}/${name}`;
      if (rf === undefined) {
        note(out, "lossy", "unknown_field", at);
        if (!skipValue(bytes, c, end, wire, MAX_DEPTH - depth)) return false;
        continue;
      }
      if (rf.oneof !== null) {
        const set = oneofs.get(rf.oneof);
        if (set !== undefined && set !== number) note(out, "fails", "oneof_overwritten", at);
        oneofs.set(rf.oneof, number);
      }
      if (!rf.repeated && count > 0) note(out, "fails", "values_dropped", at);
      const element = rf.map ? `${at}/*` : rf.repeated ? `${at}/${count}` : at;
      if (!this.#value(end, wire, wf, rf, element, depth)) return false;
    }
    if (group) return false;
    this.#unwritten(w, r, seen, oneofs, path);
    return true;
  }

  /** One value of the reader's field `rf` at `c.pos`, written as `wf` (or as `rf` when the writer lacks it). */
  #value(
    end: number,
    wire: number,
    wf: FieldInfo | undefined,
    rf: FieldInfo,
    at: string,
    depth: number,
  ): boolean {
    const { bytes, c, out } = this;
    if (rf.packable && wire === LEN) {
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return false;
      const runEnd = c.pos + c.value;
      for (let i = 0; c.pos < runEnd; i++) {
        const verdict = compareValue(bytes, c, runEnd, wf, rf);
        if (verdict === null) return false;
        if (verdict !== "ok") note(out, verdict.outcome, verdict.rule, at.replace(/\/\d+$/, `/${i}`));
      }
      return true;
    }
    if (wire !== rf.wire) {
      note(out, "fails", "type_reinterpreted", at);
      return skipValue(bytes, c, end, wire, MAX_DEPTH - depth);
    }
    if (rf.message !== undefined) {
      // A writer's message is walked with its own fields; bytes or a string the reader reads as a
      // message are walked as the reader's, and must be one.
      const w = wf?.message ?? rf.message;
      if (wire === SGROUP) return this.message(end, w, rf.message, at, depth + 1, true);
      if (!readVarint(bytes, c, end) || c.value > end - c.pos) return false;
      const innerEnd = c.pos + c.value;
      const whole = this.message(innerEnd, w, rf.message, at, depth + 1, false);
      if (!whole && wf?.message !== undefined) return false;
      // Not a message of the reader's: whatever the walk noted inside it, the field is misread.
      if (!whole) Object.assign(out, { outcome: "fails", rule: "type_reinterpreted", location: at });
      c.pos = innerEnd;
      return true;
    }
    const verdict = compareValue(bytes, c, end, wf, rf);
    if (verdict === null) return false;
    if (verdict !== "ok") note(out, verdict.outcome, verdict.rule, at);
    return true;
  }

  /** The reader's fields the record did not write: a required one missing, or a default read for one the writer lacks. */
  #unwritten(
    w: Msg,
    r: Msg,
    seen: ReadonlyMap<number, number>,
    oneofs: ReadonlyMap<string, number>,
    path: string,
  ): void {
    for (const rf of r.fields.values()) {
      if (seen.has(rf.number) || (rf.oneof !== null && oneofs.has(rf.oneof))) continue;
      const at = `${path}/${rf.name}`;
      if (rf.required) {
        note(this.out, "fails", "missing_required", at);
        continue;
      }
      // A message or oneof member unset is seen as unset by the reader; a scalar or list it reads as its default.
      if (rf.message !== undefined && !rf.repeated) continue;
      if (rf.oneof !== null) continue;
      const wf = w.fields.get(rf.number);
      if (wf === undefined) note(this.out, "lossy", "default_read", at);
      else if (!rf.repeated && wf.explicitDefault !== rf.explicitDefault)
        note(this.out, "lossy", "default_read", at);
    }
  }
}
