import { Buffer } from "node:buffer";
import { describe, expect, it } from "vitest";
import { pathOf } from "../../../src/fields/exact.js";
import { FieldScan } from "../../../src/fields/scan.js";

// The exact read's one pass over a record's bytes, against what `JSON.parse` of strict UTF-8 says and a
// walk of the parsed document: the same records are JSON, the same fields carried and lacked.

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const parse = (bytes: Uint8Array): { ok: boolean; document?: unknown } => {
  try {
    return { ok: true, document: JSON.parse(utf8.decode(bytes)) as unknown };
  } catch {
    return { ok: false };
  }
};

const POINTERS = ["/sku", "/items/*/sku", "/order/currency", "/items/*/tags/*/id", "/*/sku", "/a~1b"];
/** The first three read as a deprecated field (a literal `*` key reads too), the rest as optional ones. */
const ANY = 0b000111;
const PATHS = POINTERS.map(pathOf);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function carried(node: unknown, path: readonly string[], at: number, literal: boolean): boolean {
  const name = path[at]!;
  if (Array.isArray(node))
    return name === "*" && node.some((item) => at + 1 < path.length && carried(item, path, at + 1, literal));
  if (!isObject(node) || (name === "*" && !literal) || !Object.hasOwn(node, name)) return false;
  return at === path.length - 1 || carried(node[name], path, at + 1, literal);
}

function lacked(node: unknown, path: readonly string[], at: number): boolean {
  const name = path[at]!;
  if (name === "*")
    return !Array.isArray(node) || node.length === 0 || node.some((item) => lacked(item, path, at + 1));
  if (!isObject(node) || !Object.hasOwn(node, name)) return true;
  return at < path.length - 1 && lacked(node[name], path, at + 1);
}

/** What the scan says of each field, as the walk would say it. */
function scanned(scan: FieldScan): string[] {
  return POINTERS.map((_, f) => `${(scan.carried >> f) & 1}${(scan.lacked >> f) & 1}`);
}

function walked(document: unknown): string[] {
  return PATHS.map(
    (path, f) =>
      `${carried(document, path, 0, ((ANY >> f) & 1) === 1) ? 1 : 0}${lacked(document, path, 0) ? 1 : 0}`,
  );
}

describe("the exact read's scan", () => {
  it("reads what JSON.parse of strict UTF-8 reads, and refuses the rest", () => {
    const scan = new FieldScan(PATHS, ANY);
    const valid = [
      '{"a":1}',
      ' [ 1 , -0.5e+3 , true , false , null , "\\u00e9\\n" ] ',
      '"x"',
      "0",
      "-12.50E-1",
      '{"":{"":[]}}',
      '{"é":"ü"}',
    ];
    const invalid = [
      "",
      " ",
      "{",
      '{"a":1,}',
      '{"a":}',
      '{"a" 1}',
      "{'a':1}",
      "{a:1}",
      '{"a":1}{"b":2}',
      "[1,]",
      "[,1]",
      "01",
      "1.",
      ".5",
      "-",
      "1e",
      "+1",
      "tru",
      "nul",
      '"\\x"',
      '"\\u12g4"',
      '"a\tb"',
      '{"a":1}]',
      "[1}",
      "\ufeff{}",
    ];
    for (const text of valid) expect(scan.scan(Buffer.from(text), 0), text).toBe(true);
    for (const text of invalid) expect(scan.scan(Buffer.from(text), 0), text).toBe(false);
    // Invalid UTF-8 inside a string, and a byte past ASCII outside one.
    expect(scan.scan(Buffer.from([0x22, 0xc3, 0x28, 0x22]), 0)).toBe(false);
    expect(scan.scan(Buffer.from([0x22, 0xc3, 0xa9, 0x22]), 0)).toBe(true);
    expect(scan.scan(Buffer.from([0x5b, 0xc3, 0xa9, 0x5d]), 0)).toBe(false);
    // From a start past a wire prefix.
    expect(scan.scan(Buffer.from("\u0000\u0000{}"), 2)).toBe(true);
  });

  it("follows each pointer as a walk of the parsed document does", () => {
    const scan = new FieldScan(PATHS, ANY);
    const cases: Array<[string, string[]]> = [
      ['{"sku":1}', ["10", "01", "01", "01", "01", "01"]],
      ['{"items":[{"sku":1},{"sku":2,"tags":[{"id":1}]}]}', ["01", "10", "01", "11", "01", "01"]],
      ['{"items":[],"order":{"currency":null},"*":1,"a/b":0}', ["01", "01", "10", "01", "01", "10"]],
      ['[{"sku":1}]', ["01", "01", "01", "01", "10", "01"]],
    ];
    for (const [text, expected] of cases) {
      expect(scan.scan(Buffer.from(text), 0), text).toBe(true);
      expect(scanned(scan), text).toEqual(expected);
      expect(walked(JSON.parse(text)), text).toEqual(expected);
    }
  });

  it("agrees with JSON.parse and the walk on thousands of generated and mutated records", () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const names = ["sku", "items", "order", "currency", "tags", "id", "*", "a/b", "é"];
    const value = (depth: number): unknown => {
      const r = random();
      if (depth > 3 || r < 0.3) return pick([1, -2.5e-3, "sku", 'say "hi"\n', null, true, false, "ü"]);
      if (r < 0.55) return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (let i = Math.floor(random() * 4); i > 0; i--) object[pick(names)] = value(depth + 1);
      return object;
    };
    const scan = new FieldScan(PATHS, ANY);
    const noise = [..."{}[],:\"'\\ 0e.-+tfnu"].map((c) => c.charCodeAt(0)).concat([0xff, 0xc3, 0x09]);
    let valid = 0;
    for (let n = 0; n < 4000; n++) {
      let text = JSON.stringify(value(0), null, random() < 0.3 ? 1 : undefined);
      // Keys written with escapes, as a producer may.
      if (random() < 0.3) text = text.replaceAll('"sku":', '"\\u0073ku":');
      let bytes = Buffer.from(text);
      if (n % 2 === 1) {
        const at = Math.floor(random() * (bytes.length + 1));
        const op = random();
        const byte = Buffer.from([pick(noise)]);
        bytes =
          op < 0.4
            ? Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)])
            : op < 0.7
              ? Buffer.concat([bytes.subarray(0, at), byte, bytes.subarray(at)])
              : Buffer.concat([bytes.subarray(0, at), byte, bytes.subarray(at + 1)]);
      }
      const reference = parse(bytes);
      const ok = scan.scan(bytes, 0);
      expect(ok, bytes.toString("latin1")).toBe(reference.ok);
      if (!ok) continue;
      valid++;
      expect(scanned(scan), bytes.toString("latin1")).toEqual(walked(reference.document));
    }
    // Both kinds were read in number.
    expect(valid).toBeGreaterThan(2500);
  });
});
