// Numbers and strings the witness search tries for one place (src/diff/witness/scalars.ts): inside
// every view of the scope, near its own edges and the other version's, in a fixed order of interest
// (the other version's edges first). Both are deterministic: each case lists the exact candidates.
import { describe, expect, it } from "vitest";
import { SchemaCompiler } from "../../../../src/catalog/compiler.js";
import { FRACTION, INTEGER, NUMBER } from "../../../../src/diff/typeset.js";
import { numbers, strings } from "../../../../src/diff/witness/scalars.js";
import { assertingViews, views } from "./load.js";

const D7 = "http://json-schema.org/draft-07/schema#";
/** The plain string candidates that come last, after the empty, short and format-made ones. */
const LAST_STRINGS = ["A", "0", " ", "-", "a b"];
const PLAIN = [0, 1, -1, 2, 10, 0.5, 1.5, -0.5, 100, -100, 2147483648, 9007199254740992];

describe("numbers", () => {
  it("without bounds: 0 and 1, then plain numbers up to 2^53, of the types the mask allows", () => {
    expect(numbers(views({}), [], NUMBER)).toEqual(PLAIN);
    expect(numbers(views({}), [], INTEGER)).toEqual([
      0, 1, -1, 2, 10, 100, -100, 2147483648, 9007199254740992,
    ]);
    expect(numbers(views({}), [], FRACTION)).toEqual([0.5, 1.5, -0.5]);
  });

  it("each bound gives the values 0, 1, ½ and 2 on its inner side; nothing outside passes", () => {
    expect(numbers(views({ minimum: 5, maximum: 7 }), [], NUMBER)).toEqual([7, 6, 6.5, 5, 5.5]);
    expect(numbers(views({ minimum: -1, maximum: 0 }), [], NUMBER)).toEqual([0, -1, -0.5]);
  });

  it("an exclusive bound excludes itself; the other version's edges come first, when inside", () => {
    expect(numbers(views({ exclusiveMaximum: 3 }), views({ minimum: 10 }), NUMBER)).toEqual([
      0, 1, 2, 2.5, -1, 0.5, 1.5, -0.5, -100,
    ]);
    expect(numbers(views({ minimum: 0 }), views({ maximum: 4 }), NUMBER)).toEqual([
      0, 1, 4, 5, 3, 4.5, 3.5, 6, 2, 0.5, 10, 1.5, 100, 2147483648, 9007199254740992,
    ]);
    expect(numbers(views({ minimum: 2, exclusiveMinimum: 2 }), [], INTEGER)).toEqual([
      3, 4, 10, 100, 2147483648, 9007199254740992,
    ]);
  });

  it("the other version's enum and const values are tried, when this scope accepts them", () => {
    expect(numbers(views({ minimum: 0, maximum: 1 }), views({ const: 0.25 }), NUMBER)).toEqual([
      0, 1, 0.25, 0.5,
    ]);
    expect(numbers(views({ minimum: 0, maximum: 10 }), views({ enum: [7, "7", 3.5] }), NUMBER)).toEqual([
      0, 1, 7, 3.5, 10, 9, 9.5, 8, 0.5, 2, 1.5,
    ]);
  });

  it("a scope's own enum values are candidates like any other seed", () => {
    expect(numbers(views({ enum: [7, "a", 9] }), [], NUMBER)).toEqual([
      0, 1, 7, 9, -1, 2, 10, 0.5, 1.5, -0.5, 100, -100, 2147483648, 9007199254740992,
    ]);
  });

  it("multipleOf keeps only multiples: of the step, and anchors rounded down and to the nearest", () => {
    expect(numbers(views({ multipleOf: 3 }), [], NUMBER)).toEqual([0, 3, 6, 9, -3]);
    expect(numbers(views({ multipleOf: 3, maximum: 0 }), [], NUMBER)).toEqual([0, -3]);
    expect(numbers(views({ multipleOf: 0.5 }), [], FRACTION)).toEqual([0.5, 1.5, -0.5]);
    // 55 and its neighbours, rounded to a multiple: 60 (the multiples k × 10 are all below 55).
    expect(numbers(views({ multipleOf: 10, minimum: 55 }), [], INTEGER)).toEqual([60, 100]);
    expect(numbers(views({ multipleOf: 4, minimum: 7 }), [], INTEGER)).toEqual([
      8, 12, 100, 2147483648, 9007199254740992,
    ]);
  });

  it("several steps in sight give their product and three times it", () => {
    expect(numbers(views({ multipleOf: 3, minimum: 4 }), views({ multipleOf: 5 }), INTEGER)).toEqual([
      6, 9, 15, 45,
    ]);
    expect(numbers(views({ multipleOf: 7, minimum: 1 }), views({ multipleOf: 7 }), INTEGER)).toEqual([
      7, 14, 21,
    ]);
  });
});

describe("strings", () => {
  it("without limits: the empty string, then plain strings", () => {
    expect(strings(views({}), [])).toEqual(["", "a", "ab", "abc", "A", "0", " ", "-", "a b"]);
  });

  it("lengths at this scope's limits, and the other version's, fill with a letter", () => {
    expect(strings(views({ minLength: 3 }), [])).toEqual(["aaa", "aaaa", "abc", "a b"]);
    expect(strings(views({ maxLength: 2 }), views({ maxLength: 1 }))).toEqual([
      "",
      "a",
      "aa",
      "ab",
      "A",
      "0",
      " ",
      "-",
    ]);
    expect(strings(views({ minLength: 2, maxLength: 4 }), views({ minLength: 3 }))).toEqual([
      "aa",
      "aaa",
      "aaaa",
      "ab",
      "abc",
      "a b",
    ]);
  });

  it("several views: the largest minLength and the smallest maxLength hold", () => {
    expect(strings(views({ minLength: 2 }, { minLength: 4, maxLength: 6 }), [])).toEqual([
      "aaaa",
      "aaaaa",
      "aaaaaa",
    ]);
    expect(strings(views({ maxLength: 5 }, { maxLength: 3, minLength: 1 }), [])).toEqual([
      "a",
      "aa",
      "aaa",
      "ab",
      "abc",
      ...LAST_STRINGS,
    ]);
  });

  it("no string is built past 256 characters", () => {
    expect(strings(views({ minLength: 300 }), [])).toEqual([]);
    expect(strings(views({ minLength: 256 }), [])).toEqual(["a".repeat(256)]);
    expect(strings(views({ maxLength: 300 }), [])).toEqual(["", "a", "ab", "abc", "A", "0", " ", "-", "a b"]);
  });

  it("a pattern's samples come first and are cut or grown to the lengths that matter", () => {
    expect(strings(views({ pattern: "^[a-c]+$" }), [])).toEqual([
      "ac",
      "cba",
      "b",
      "c",
      "ba",
      "acb",
      "a",
      "cb",
      "ab",
      "abc",
    ]);
    expect(strings(views({ pattern: "^x", minLength: 4 }), [])).toEqual(["xxxx", "xxxxx"]);
    expect(strings(views({ pattern: "^(ab|c)$" }), views({ minLength: 2 }))).toEqual(["ab", "c"]);
    expect(strings(views({ pattern: "^😀+$", maxLength: 2 }), [])).toEqual(["😀", "😀😀"]);
    expect(strings(views({ pattern: "^a", maxLength: 0 }), [])).toEqual([]);
  });

  it("the words a pattern of the other version names are probes outside it, alone and inside others", () => {
    // pre-commit-config: `^(?!.*(local|meta)).*$` became `^(?!(?:meta|local)$).*$`.
    const old = "^(?!.*(local|meta)).*$";
    expect(strings(views({ pattern: "^(?!(?:meta|local)$).*$" }), views({ pattern: old }))).toEqual([
      "ax",
      "",
      "0",
      "a",
      // "local" and "meta" alone fail this scope too; inside a longer string they pass it.
      "alocal",
      "locala",
      "x0",
      "-",
      "x",
      "0-",
      "ab",
      "abc",
      "A",
      " ",
      "a b",
    ]);
  });

  it("the other version's own pattern, enum and const give candidates this scope may accept", () => {
    // After its samples, strings outside it: a dropped pattern is broken by one it never matched.
    expect(strings(views({}), views({ pattern: "^z+$" }))).toEqual([
      "",
      "zz",
      "zzz",
      "z",
      "!",
      "#",
      "é",
      "a\n",
      "a",
      "ab",
      "abc",
      ...LAST_STRINGS,
    ]);
    expect(strings(views({ pattern: "^ab" }), views({ pattern: "^ab" }))).toEqual(["ab", "abc"]);
    expect(strings(views({}), views({ enum: ["q", 1], const: "r" }))).toEqual([
      "",
      "q",
      "r",
      "a",
      "ab",
      "abc",
      ...LAST_STRINGS,
    ]);
    expect(strings(views({}), views({ const: 1 }))).toEqual(["", "a", "ab", "abc", ...LAST_STRINGS]);
  });

  it("a format gives a valid example and a malformed one; an unknown format only the malformed", () => {
    expect(strings(views({}), views({ format: "date" }))).toEqual([
      "",
      "2020-01-01",
      "a",
      "2020-13-45",
      "ab",
      "abc",
      ...LAST_STRINGS,
    ]);
    expect(strings(views({}), views({ format: "nope" }))).toEqual([
      "",
      "a",
      "2020-13-45",
      "ab",
      "abc",
      ...LAST_STRINGS,
    ]);
  });

  it("each format ajv-formats knows has an example the engine accepts, tried right after the empty string", () => {
    const examples: Record<string, string> = {
      date: "2020-01-01",
      time: "12:00:00Z",
      "date-time": "2020-01-01T12:00:00Z",
      "iso-time": "12:00:00Z",
      "iso-date-time": "2020-01-01T12:00:00Z",
      duration: "P1D",
      uri: "https://example.com/a",
      "uri-reference": "a/b",
      "uri-template": "https://example.com/{id}",
      url: "https://example.com/a",
      email: "a@example.com",
      "idn-email": "a@example.com",
      hostname: "example.com",
      "idn-hostname": "example.com",
      ipv4: "127.0.0.1",
      ipv6: "::1",
      regex: "^a",
      uuid: "123e4567-e89b-12d3-a456-426614174000",
      "json-pointer": "/a",
      "json-pointer-uri-fragment": "#/a",
      "relative-json-pointer": "0/a",
      byte: "YQ==",
      password: "secret",
    };
    const compiler = new SchemaCompiler({ assertFormats: true });
    for (const [format, example] of Object.entries(examples)) {
      expect(strings(views({}), views({ format })).slice(0, 3), format).toEqual(["", example, "a"]);
      const json = { $schema: D7, type: "string", format };
      const valid = compiler.compileVersion({ uri: "https://schemawatch.invalid/f", json, name: format });
      expect(valid(example), `${format}: ${example}`).toBe(true);
    }
  });

  it("content either side names gives encoded JSON, plain JSON and strings that are neither", () => {
    const content = ["", "e30=", "{}", "YQ==", "!", "not json", "a", "ab", "abc", "A", "0", " ", "-", "a b"];
    expect(strings(views({}), views({ contentEncoding: "base64" }))).toEqual(content);
    expect(strings(views({}), views({ contentMediaType: "application/json" }))).toEqual(content);
    // 2020-12 and an engine that does not assert formats: content is an annotation, all pass.
    expect(strings(views({ contentEncoding: "base64", contentMediaType: "application/json" }), [])).toEqual(
      content,
    );
    expect(strings(assertingViews({ contentMediaType: "application/json" }), [])).toEqual(content);
  });

  it("where the engine asserts content (draft-07, assertFormats), only what decodes and parses passes", () => {
    const both = { $schema: D7, contentEncoding: "base64", contentMediaType: "application/json" };
    expect(strings(assertingViews(both), [])).toEqual(["e30="]);
    expect(strings(assertingViews({ $schema: D7, contentEncoding: "base64" }), [])).toEqual([
      "",
      "e30=",
      "YQ==",
    ]);
    expect(strings(assertingViews({ $schema: D7, contentMediaType: "application/json" }), [])).toEqual([
      "{}",
      "0",
    ]);
  });
});
