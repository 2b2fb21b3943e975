import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { ABSENT, PRESENT, PresenceCheck, presenceOf } from "../../../src/fields/presence.js";
import type { RecordFrame as Frame } from "../../../src/pipeline/record.js";

// Records that lie one after another in a frame (a Kafka batch's records) share one search for
// escapes: what the search read ahead must answer every later record exactly as a search of the
// record alone would, in whatever order the records come and however frames alternate.

const KEYS = ["amount", "currency", "legacy_id"];

let frames = 0;

/** Payloads laid out in one frame, with `gap` bytes (headers, lengths) before each. */
function frameOf(payloads: readonly string[], gap: (i: number) => string) {
  const parts: Buffer[] = [];
  const at: Array<[number, number]> = [];
  let offset = 0;
  payloads.forEach((payload, i) => {
    const before = Buffer.from(gap(i));
    const bytes = Buffer.from(payload);
    parts.push(before, bytes);
    at.push([offset + before.length, bytes.length]);
    offset += before.length + bytes.length;
  });
  // A frame as the decoder makes it: a view 12 bytes into a buffer of its own, a backslash after it.
  const whole = Buffer.alloc(12 + offset + 12);
  Buffer.concat([Buffer.from("batch header"), ...parts, Buffer.from("next batch \\")]).copy(whole);
  const bytes = whole.subarray(12, 12 + offset);
  const values = at.map(([start, length]) => bytes.subarray(start, start + length));
  const frame: Frame = { bytes, id: ++frames };
  return { frame, values };
}

const verdicts = (check: PresenceCheck, value: Buffer, frame: Frame | undefined) => {
  const into = new Uint8Array(KEYS.length);
  check.check(value, 0, into, frame);
  return [...into];
};

describe("the presence check in a frame", () => {
  it("finds an escaped key after records with no backslash, and none in a record after it", () => {
    const { frame, values } = frameOf(
      ['{"id":1}', '{"id":2,"amount":3}', '{"\\u0063urrency":"EUR"}', '{"id":4}', '{"legacy\\u005fid":5}'],
      () => "\x00\x02",
    );
    const check = new PresenceCheck(KEYS);
    expect(values.map((value) => verdicts(check, value, frame))).toEqual([
      [ABSENT, ABSENT, ABSENT],
      [PRESENT, ABSENT, ABSENT],
      [ABSENT, PRESENT, ABSENT],
      [ABSENT, ABSENT, ABSENT],
      [ABSENT, ABSENT, PRESENT],
    ]);
  });

  it("searches a batch without escapes once, and again only past each backslash", () => {
    const plain = Array.from({ length: 100 }, (_, i) => `{"id":${i}}`);
    // The first at the frame's very start.
    const once = frameOf(plain, (i) => (i === 0 ? "" : "\x00\x02"));
    const check = new PresenceCheck(KEYS);
    for (const value of once.values)
      expect(verdicts(check, value, once.frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    expect(check.searches).toBe(1);
    // The first record once more: what its own search read still answers it.
    expect(verdicts(check, once.values[0]!, once.frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    expect(check.searches).toBe(1);

    const { frame, values } = frameOf(
      ['{"id":0}', '{"id":1}', '{"note":"a\\nb"}', '{"id":3}', '{"id":4}', '{"\\u0061mount":5}', '{"id":6}'],
      () => "..",
    );
    const seen = values.map((value) => verdicts(check, value, frame)[0]);
    expect(seen).toEqual([ABSENT, ABSENT, ABSENT, ABSENT, ABSENT, PRESENT, ABSENT]);
    // From records 0, 3 and 6: each search reads on to the next backslash, which answers until it.
    expect(check.searches).toBe(1 + 3);
    // The same bytes under another number are another frame: what a check remembers is the number.
    expect(verdicts(check, values[6]!, { bytes: frame.bytes, id: ++frames })[0]).toBe(ABSENT);
    expect(check.searches).toBe(1 + 3 + 1);
    // An earlier record again, then one of another frame: each searched anew.
    expect(verdicts(check, values[5]!, frame)[0]).toBe(PRESENT);
    expect(verdicts(check, once.values[0]!, once.frame)[0]).toBe(ABSENT);
    expect(check.searches).toBe(1 + 3 + 1 + 2);
  });

  it("reads past a wire prefix, whose schema id may hold the byte of a backslash", () => {
    // Schema id 92 is written 00 00 00 5c: every record's prefix holds a backslash, no payload does.
    const prefix = "\x00\x00\x00\x00\x5c";
    const payloads = ['{"id":1}', '{"\\u0061mount":2}', '{"id":3}', '{"id":4}'].map((p) => prefix + p);
    const { frame, values } = frameOf(payloads, () => "");
    const check = new PresenceCheck(KEYS);
    const into = new Uint8Array(KEYS.length);
    const seen = values.map((value) => (check.check(value, 5, into, frame), into[0]));
    expect(seen).toEqual([ABSENT, PRESENT, ABSENT, ABSENT]);
    // Each search stops at the next record's prefix: one a record, as without a frame.
    expect(check.searches).toBe(4);
  });

  it("reads a backslash between two payloads as in neither", () => {
    const { frame, values } = frameOf(['{"id":1}', '{"curr\\u0065ncy":2}'], (i) => (i === 1 ? "\\\\" : ""));
    const check = new PresenceCheck(KEYS);
    expect(verdicts(check, values[0]!, frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    expect(verdicts(check, values[1]!, frame)).toEqual([ABSENT, PRESENT, ABSENT]);
  });

  it("finds an escaped key past a window's worth of records without one", () => {
    const plain = Array.from({ length: 20_000 }, (_, i) => `{"id":${i}}`);
    const { frame, values } = frameOf([...plain, '{"\\u0061mount":1}'], () => "..");
    // Several windows of 64 KiB: records straddle their ends, and the key lies past the last.
    expect(frame.bytes.length).toBe(268_909);
    const check = new PresenceCheck(KEYS);
    const present = values.flatMap((value, i) => (verdicts(check, value, frame)[0] === PRESENT ? [i] : []));
    expect(present).toEqual([20_000]);
    // The first record's search read 64 KiB; the record it ran out in read on to the end.
    expect(check.searches).toBe(2);
    // Back to the start of the frame: searched again from there, 64 KiB (about 4,900 records) on.
    expect(verdicts(check, values[1]!, frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    expect(verdicts(check, values[3_000]!, frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    expect(check.searches).toBe(3);
    expect(verdicts(check, values[6_000]!, frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    expect(verdicts(check, values[20_000]!, frame)).toEqual([PRESENT, ABSENT, ABSENT]);
    expect(check.searches).toBe(4);
  });

  it("searches a payload that does not lie in the frame it was given on its own", () => {
    const { frame, values } = frameOf(['{"id":1}', '{"id":2}'], () => "");
    const check = new PresenceCheck(KEYS);
    expect(verdicts(check, values[0]!, frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    // Its own buffer, from offset 0: before the frame's start (the frame begins 12 bytes into its own).
    const elsewhere = Buffer.alloc(17);
    elsewhere.write('{"\\u0061mount":1}');
    expect(verdicts(check, elsewhere, frame)).toEqual([PRESENT, ABSENT, ABSENT]);
    expect(check.searches).toBe(2);
    expect(verdicts(check, values[1]!, frame)).toEqual([ABSENT, ABSENT, ABSENT]);
    // One that begins in the frame and runs past its end.
    const whole = Buffer.from('..{"id":1,"\\u0061mount":2}');
    const short: Frame = { bytes: whole.subarray(0, 8), id: ++frames };
    expect(verdicts(check, whole.subarray(2), short)).toEqual([PRESENT, ABSENT, ABSENT]);
  });

  it("reads a payload longer than the window to its end", () => {
    const long = `{"note":"${"x".repeat(70_000)}","\\u0061mount":1}`;
    const { frame, values } = frameOf(['{"id":1}', long, '{"id":2}'], () => "");
    const check = new PresenceCheck(KEYS);
    expect(values.map((value) => verdicts(check, value, frame)[0])).toEqual([ABSENT, PRESENT, ABSENT]);
  });

  it("agrees with the payload searched alone, over generated frames visited in any order", () => {
    let seed = 28;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const names = ["amount", "currency", "legacy_id", "id", "note"];
    const escaped = (name: string) => {
      const at = Math.floor(random() * name.length);
      return `${name.slice(0, at)}\\u${name.charCodeAt(at).toString(16).padStart(4, "0")}${name.slice(at + 1)}`;
    };
    const payload = () => {
      const members: string[] = [];
      for (let i = Math.floor(random() * 4); i >= 0; i--) {
        const name = pick(names);
        const key = random() < 0.15 ? escaped(name) : name;
        const value = pick(["1", '"a\\nb"', '"x"', '{"amount":1}', '"\\u0061mount"', "null"]);
        members.push(`"${key}":${value}`);
      }
      return `{${members.join(",")}}`;
    };
    const frames = Array.from({ length: 40 }, () =>
      frameOf(Array.from({ length: 1 + Math.floor(random() * 30) }, payload), () =>
        pick(["", "\x00", "\\", "ab"]),
      ),
    );
    const check = new PresenceCheck(KEYS);
    let compared = 0;
    for (let turn = 0; turn < 3_000; turn++) {
      const { frame, values } = pick(frames);
      // Mostly the next records in order, sometimes an earlier one, sometimes another frame.
      const from = Math.floor(random() * values.length);
      for (let i = from; i < Math.min(values.length, from + 5); i++) {
        const value = values[i]!;
        expect(verdicts(check, value, frame), value.toString()).toEqual(
          presenceOf(value, KEYS).map((name) =>
            name === "present" ? PRESENT : name === "absent" ? ABSENT : 2,
          ),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });
});
