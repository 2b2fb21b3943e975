import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { ABSENT, PRESENT, PresenceCheck, UNKNOWN, presenceOf } from "../../../src/fields/presence.js";

const KEYS = ["amount", "currency", "legacy_id"];

describe("the presence check", () => {
  it("finds keys written plainly, at the top level or nested, and only keys", () => {
    expect(presenceOf('{"id":1,"amount":5}', KEYS)).toEqual(["present", "absent", "absent"]);
    expect(presenceOf('{ "currency" :\t"EUR", "legacy_id"\n: null }', KEYS)).toEqual([
      "absent",
      "present",
      "present",
    ]);
    // Nested in an object or an array item: present (the key's place is not checked).
    expect(presenceOf('{"order":{"lines":[{"sku":"a","amount":2}]}}', KEYS)).toEqual([
      "present",
      "absent",
      "absent",
    ]);
    // As a string value, inside a string, or as a longer or shorter key: absent.
    expect(
      presenceOf(
        '{"field":"amount","note":"the \\"amount\\": was 5","amounts":1,"mount":2,"x":["currency"]}',
        KEYS,
      ),
    ).toEqual(["absent", "absent", "absent"]);
    expect(presenceOf('{"id":1}', KEYS)).toEqual(["absent", "absent", "absent"]);
    expect(presenceOf("[]", KEYS)).toEqual(["absent", "absent", "absent"]);
  });

  it("counts a key written with escapes as present", () => {
    expect(presenceOf('{"\\u0061mount":5}', KEYS)).toEqual(["present", "absent", "absent"]);
    expect(presenceOf('{"id":"a\\nb","curr\\u0065ncy":"EUR","legacy\\u005Fid":1}', KEYS)).toEqual([
      "absent",
      "present",
      "present",
    ]);
    // An escaped string that is a value, not a key, stays absent; so does an escaped other key.
    expect(presenceOf('{"note":"\\u0061mount","\\u0069d":1}', KEYS)).toEqual(["absent", "absent", "absent"]);
    // Keys that need escapes themselves match however they are written.
    expect(presenceOf('{"a\\/b":1,"q\\"":2}', ["a/b", 'q"', "é"])).toEqual(["present", "present", "absent"]);
    expect(presenceOf('{"\\u00e9":1}', ["é"])).toEqual(["present"]);
    expect(presenceOf('{"é":1}', ["é"])).toEqual(["present"]);
  });

  it("says maybe for a name where a key of a dialect would be, so the exact read sees the record", () => {
    expect(presenceOf("{'amount':1, currency :2}", KEYS)).toEqual(["present", "present", "absent"]);
    // After an escaped quote: maybe (the exact read says it is another key).
    expect(presenceOf('{"x\\"amount":1}', KEYS)).toEqual(["present", "absent", "absent"]);
    // A backslash outside any string is no JSON: what its keys name cannot be known.
    expect(presenceOf("{\\u0061mount:1}", KEYS)).toEqual(["unknown", "unknown", "unknown"]);
  });

  it("is unknown for a payload that cannot be read", () => {
    for (const payload of [null, "", "   ", "not json", '"amount"', "42", '{"amount":1', "\u0000\u0001{}x"])
      expect(presenceOf(payload, KEYS), String(payload)).toEqual(["unknown", "unknown", "unknown"]);
    // A key whose escape does not decode: what it names is unknown; found keys stay present.
    expect(presenceOf('{"amount":1,"\\u00zz":2}', KEYS)).toEqual(["present", "unknown", "unknown"]);
  });

  it("reads from a start past a wire prefix, in a slice of a larger buffer", () => {
    const prefix = Buffer.from([0, 0, 0, 0, 7]);
    const whole = Buffer.concat([
      Buffer.from("xxxx"),
      prefix,
      Buffer.from('{"legacy_id":1}'),
      Buffer.from("yy"),
    ]);
    const value = whole.subarray(4, whole.length - 2);
    const into = new Uint8Array(3).fill(9);
    expect(new PresenceCheck(KEYS).check(value, 5, into)).toBe(1);
    expect([...into]).toEqual([ABSENT, ABSENT, PRESENT]);
    // The same bytes from 0 begin with the prefix: not JSON.
    new PresenceCheck(KEYS).check(value, 0, into);
    expect([...into]).toEqual([UNKNOWN, UNKNOWN, UNKNOWN]);
  });

  it("finds keys of any length, one byte to longer than its skip window", () => {
    const long = "k".repeat(300);
    expect(presenceOf(`{"a":1,"${long}":2}`, ["a", long, "b"])).toEqual(["present", "present", "absent"]);
    expect(presenceOf('{"":1}', [""])).toEqual(["present"]);
    // A key at the very end, and one whose needle would run past the end.
    expect(presenceOf('{"x":{"amount":{}}}', ["amount"])).toEqual(["present"]);
    expect(presenceOf('{"x":"amoun"}', ["amount"])).toEqual(["absent"]);
  });

  it("finds a key wherever it lies against the sampled byte pairs, and no longer or shorter one", () => {
    // The search reads the byte pairs ending every (shortest needle - 1) bytes: each padding puts the
    // keys at another place against them, the first one right after the opening brace.
    const check = new PresenceCheck(["coupon", "legacy_id", "referrer"]);
    const into = new Uint8Array(3);
    for (let pad = 0; pad < 20; pad++) {
      const fill = "x".repeat(pad);
      const prefix = Buffer.from([0, 0, 0, 0, 1]);
      const payload = (text: string) => Buffer.concat([prefix, Buffer.from(text)]);
      expect(check.check(payload(`{"coupon":1,"${fill}":2,"referrer":3}`), 5, into), `pad ${pad}`).toBe(2);
      expect([...into], `pad ${pad}`).toEqual([PRESENT, ABSENT, PRESENT]);
      expect(check.check(payload(`{"${fill}":{"legacy_id":[]}}`), 5, into), `pad ${pad}`).toBe(1);
      expect([...into], `pad ${pad}`).toEqual([ABSENT, PRESENT, ABSENT]);
      // A name inside a longer key, either end, and a name as the last value: absent.
      expect(
        check.check(payload(`{"${fill}":0,"_coupon":1,"legacy_id_":2,"x":"referrer"}`), 5, into),
        `pad ${pad}`,
      ).toBe(0);
      expect([...into], `pad ${pad}`).toEqual([ABSENT, ABSENT, ABSENT]);
    }
  });

  it("counts each key once however often it is written", () => {
    const into = new Uint8Array(2);
    const twice = Buffer.from('{"coupon":1,"a":{"coupon":2},"b":[{"coupon":3}],"referrer":4,"referrer":5}');
    expect(new PresenceCheck(["coupon", "referrer"]).check(twice, 0, into)).toBe(2);
    expect([...into]).toEqual([PRESENT, PRESENT]);
    expect(new PresenceCheck(["coupon", "id"]).check(twice, 0, into)).toBe(1);
    expect([...into]).toEqual([PRESENT, ABSENT]);
  });

  it("finds a key longer than the widest stride, at every place", () => {
    const long = "a_rather_long_property_name";
    for (let pad = 0; pad < 20; pad++) {
      const fill = "y".repeat(pad);
      expect(presenceOf(`{"${fill}":1,"${long}":2}`, [long]), `pad ${pad}`).toEqual(["present"]);
      expect(presenceOf(`{"${fill}":1,"${long}x":2}`, [long]), `pad ${pad}`).toEqual(["absent"]);
    }
  });

  it("reads a key at the payload's very start and one that ends it", () => {
    // An empty key is a needle of two bytes: every pair is read.
    expect(presenceOf('{"":1}', ["", "a"])).toEqual(["present", "absent"]);
    expect(presenceOf('{"a":""}', [""])).toEqual(["absent"]);
    expect(presenceOf('{"coupon":{}}', ["coupon"])).toEqual(["present"]);
    // The payload ends with the name and its quote, or inside it: no colon can follow.
    expect(presenceOf('["x","coupon"]', ["coupon"])).toEqual(["absent"]);
    expect(presenceOf('{"a":"coupo"}', ["coupon"])).toEqual(["absent"]);
    expect(presenceOf('{"coupon"\n :\t1}', ["coupon"])).toEqual(["present"]);
  });

  it("finds a key of multi-byte UTF-8 however it is written", () => {
    const keys = ["größe", "prix_€"];
    expect(presenceOf('{"id":1,"größe":"XL"}', keys)).toEqual(["present", "absent"]);
    expect(presenceOf('{"gr\\u00f6\\u00dfe":"XL","prix_\\u20ac":2}', keys)).toEqual(["present", "present"]);
    // The same letters in other bytes, or a name that only starts alike: absent.
    expect(presenceOf('{"grosse":"XL","prix_$":2,"größer":1}', keys)).toEqual(["absent", "absent"]);
  });

  it("reads a payload whose only backslash is in a string value as the plain search does", () => {
    const keys = ["coupon", "referrer"];
    expect(presenceOf('{"note":"say \\"hi\\"\\n","referrer":"a\\\\b"}', keys)).toEqual(["absent", "present"]);
    // A value that spells a name with escapes is still a value.
    expect(presenceOf('{"note":"\\u0063oupon","n":1}', keys)).toEqual(["absent", "absent"]);
  });

  it("reads whitespace of every kind around a document and between a key and its colon", () => {
    const keys = ["amount", "currency", "legacy_id", "id"];
    expect(presenceOf('\t\r\n {"amount"\t:1,"currency"\r\n:2,"legacy_id" :3} \r\n\t', keys)).toEqual([
      "present",
      "present",
      "present",
      "absent",
    ]);
    // Ends that do not pair, whatever lies between: not a document.
    for (const payload of ['{"amount":1]', '["amount",{"id":1}}', " [ {} } ", "{"])
      expect(presenceOf(payload, keys), payload).toEqual(["unknown", "unknown", "unknown", "unknown"]);
  });

  it("counts what it found, escaped keys included, and writes no verdict past the keys", () => {
    const check = new PresenceCheck(["amount", "currency"]);
    // Zeros past the keys read as ABSENT: a verdict written there would show.
    const into = new Uint8Array(4);
    expect(check.check(Buffer.from('{"amount":1,"\\u0061mount":2,"curr\\u0065ncy":3}'), 0, into)).toBe(2);
    expect([...into]).toEqual([PRESENT, PRESENT, 0, 0]);
    into.fill(0);
    expect(check.check(Buffer.from('{"\\u0061mount":1,"id":2}'), 0, into)).toBe(1);
    expect([...into]).toEqual([PRESENT, ABSENT, 0, 0]);
    into.fill(9);
    expect(check.check(Buffer.from('{"id":1}'), 0, into)).toBe(0);
    expect([...into]).toEqual([ABSENT, ABSENT, 9, 9]);
    into.fill(0);
    expect(check.check(Buffer.from('{"id":1,"\\u00zz":2}'), 0, into)).toBe(0);
    expect([...into]).toEqual([UNKNOWN, UNKNOWN, 0, 0]);
    into.fill(0);
    expect(check.check(Buffer.from("not json"), 0, into)).toBe(0);
    expect([...into]).toEqual([UNKNOWN, UNKNOWN, 0, 0]);
    // A string left open at the end, a backslash in it: the tokenizer stops at the payload's end.
    into.fill(0);
    expect(check.check(Buffer.from('{"a":"x\\"}'), 0, into)).toBe(0);
    expect([...into]).toEqual([ABSENT, ABSENT, 0, 0]);
  });

  it("agrees with a parse on the keys of a thousand generated documents", () => {
    const names = ["amount", "currency", "legacy_id", "mount", "amounts", "a", "id"];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 2 || r < 0.4) return pick([1, "amount", '"currency": 1', null, true, "é\n"]);
      if (r < 0.6) return [value(depth + 1), value(depth + 1)];
      const object: Record<string, unknown> = {};
      for (let i = 0; i < 3; i++) object[pick(names)] = value(depth + 1);
      return object;
    };
    const keysOf = (node: unknown, into: Set<string>): Set<string> => {
      if (Array.isArray(node)) for (const item of node) keysOf(item, into);
      else if (typeof node === "object" && node !== null)
        for (const [key, child] of Object.entries(node)) keysOf(child, into.add(key));
      return into;
    };
    for (let n = 0; n < 1000; n++) {
      const document = { top: value(0) };
      const keys = keysOf(document, new Set());
      expect(presenceOf(JSON.stringify(document), KEYS)).toEqual(
        KEYS.map((k) => (keys.has(k) ? "present" : "absent")),
      );
    }
  });
});
