import { describe, expect, it } from "vitest";
import { compileVersion } from "../../../src/catalog/compiler.js";
import { RE2JS } from "re2js";
import { toLinearSyntax } from "../../../src/catalog/linear-regexp.js";
import { LinearRegExp, isLinearPattern, patternMatcher, schemaRegExp } from "../../../src/catalog/regexp.js";
import { isDeterministicSequence } from "../../../src/catalog/safe-regexp.js";

/** The pattern on RE2 whether or not the native engine would run it in linear time anyway. */
function onRe2(pattern: string): LinearRegExp {
  const native = schemaRegExp(pattern)!;
  return new LinearRegExp(RE2JS.compile(toLinearSyntax(pattern, native.unicode)!), native);
}

const HOSTILE = "a".repeat(40) + "!";

/** Patterns schemas use, each with strings that probe where ECMA-262 and RE2 read syntax differently. */
const TABLE: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["^(a+)+$", ["", "a", "aaaa", HOSTILE, "b"]],
  ["^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$", ["ann@example.com", "a@b", "A@example.com", "x@y.io"]],
  [
    "^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
    ["8c3e2f10-0a6b-4c7e-9f2d-1b2c3d4e5f60", "nope"],
  ],
  ["^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-[\\w.]+)?$", ["1.2.3", "01.2.3", "1.2.3-rc.1"]],
  ["^.$", ["a", "\n", "\r", "\u2028", "\u2029", "😀", "\ud800", ""]],
  ["^\\s+$", [" ", "\t", "\v", "\f", "\u00a0", "\ufeff", "\u3000", "\u2028", "x"]],
  ["^\\S+$", ["abc", "a b", "\u00a0"]],
  ["^[\\s-]+$", [" -", "\u00a0", "x"]],
  ["\\bword\\b", ["a word here", "swordfish", "word"]],
  ["^[\\b]$", ["\b", "b"]],
  ["^[]$", ["", "a"]],
  ["^[^]$", ["a", "\n", ""]],
  ["^[a-z\\_]+$", ["snake_case", "kebab-case", "😀"]],
  ["^\\:[a-z]{1,3}$", [":ab", "ab", ":abcd"]],
  // Read without `u`: an astral character is two code units, each matched by `.` or a negated class.
  ["^[^\\_]{2}$", ["😀", "ab", "a", "\ud800"]],
  ["^\\_.$", ["_😀", "_a", "_\udc00"]],
  ["^\\_\\W+\\w$", ["_😀a", "_ a", "_😀"]],
  ["\\_[a-z]", ["😀_a", "😀_😀"]],
  ["^a{2,3}$", ["a", "aa", "aaa", "aaaa"]],
  ["^a{$", ["a{", "a"]],
  ["^\\p{L}+$", ["héllo", "ελλάδα", "abc1", "日本"]],
  ["^\\p{Lu}\\P{Lu}*$", ["Hello", "HeLlo", "hello"]],
  ["^\\p{Script=Greek}+$", ["αβγ", "abc"]],
  ["^\\u{1F600}$", ["😀", "x"]],
  ["^\\uD83D\\uDE00$", ["😀", "\ud83d"]],
  ["^[\\u0041-\\u005A]+$", ["ABC", "abc"]],
  ["^\\x41\\t\\n$", ["A\t\n", "A\t"]],
  ["^[!--]+$", ["!#-", "a"]],
  ["^\\d+(?:\\.\\d+)?$", ["12", "1.5", "1.", "١٢"]],
  ["^\\w+$", ["abc_1", "é"]],
  ["^(?<year>\\d{4})-(?<month>\\d{2})$", ["2024-05", "24-05"]],
  ["^a+?b*?$", ["aab", "b"]],
  ["^(x|y|)z$", ["xz", "z", "yyz"]],
  ["^[^\\d\\s]+$", ["abc", "a1", "a b"]],
  ["^\\cJ$", ["\n", "J"]],
  ["\\/path\\.json$", ["/a/path.json", "path.json"]],
];

describe("the linear regular-expression engine", () => {
  it("runs the nested quantifier that backtracks exponentially, and finds no match", () => {
    const matcher = patternMatcher("^(a+)+$");
    expect(matcher).toBeInstanceOf(LinearRegExp);
    expect(matcher!.test(HOSTILE)).toBe(false);
    expect(matcher!.test("a".repeat(40))).toBe(true);
  });

  it("agrees with the native RegExp on every pattern and string of the table", () => {
    for (const [pattern, inputs] of TABLE) {
      const native = schemaRegExp(pattern)!;
      expect(isLinearPattern(pattern), pattern).toBe(true);
      const matcher = onRe2(pattern);
      for (const input of inputs) {
        if (native.source === "^(a+)+$" && input === HOSTILE) continue;
        expect([pattern, input, matcher.test(input)]).toEqual([pattern, input, native.test(input)]);
      }
    }
  });

  it("keeps the native engine for anchored sequences that cannot backtrack, and only for them", () => {
    const deterministic = [
      "^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
      "^\\d{4}-\\d{2}-\\d{2}$",
      "^[A-Z]{2}$",
      "^[a-z][a-z0-9_.-]*$",
      "^[A-Z]{3}-\\d{4,8}$",
      "^[^@\\s]+@",
      "^a*b*c$",
      "^\\p{L}[\\p{L} '-]*$",
    ];
    for (const pattern of deterministic) {
      expect(isDeterministicSequence(pattern, true), pattern).toBe(true);
      expect(patternMatcher(pattern), pattern).toBeInstanceOf(RegExp);
      expect(isLinearPattern(pattern), pattern).toBe(true);
    }
    const ambiguous = [
      "^(a+)+$",
      "^\\d+\\d*$",
      "^a*a$",
      "^[a-z.]+\\.com$",
      "^a*b?a$",
      "^.*x$",
      "a+b",
      "^a+?b$",
      "^\\p{L}+\\p{Lu}$",
      "^x|y$",
      "^\\s+\\u00a0$",
    ];
    for (const pattern of ambiguous) {
      expect(isDeterministicSequence(pattern, true), pattern).toBe(false);
      expect(patternMatcher(pattern), pattern).toBeInstanceOf(LinearRegExp);
    }
  });

  it("leaves lookaround and backreferences to the native engine", () => {
    for (const pattern of ["^(?=(a+)+$)", "^(?!x)a$", "(?<=a)b", "^((a+)+)\\1?$", "^(?<x>a)\\k<x>$"]) {
      expect(isLinearPattern(pattern), pattern).toBe(false);
      expect(patternMatcher(pattern), pattern).toBeInstanceOf(RegExp);
    }
  });

  it("leaves to the native engine what RE2 cannot read the same way", () => {
    // A property RE2 has no name for, a repeat count past RE2's limit, an octal escape without `u`.
    for (const pattern of ["^\\p{Alphabetic}+\\p{Alphabetic}$", "^(ab){1001}$", "^\\01$", "^(?:[\\S]x)+$"]) {
      expect(isLinearPattern(pattern), pattern).toBe(false);
    }
    expect(toLinearSyntax("^😀$", false)).toBeUndefined();
  });

  it("is undefined for what is no regular expression in either mode", () => {
    expect(patternMatcher("^(a$")).toBeUndefined();
  });

  it("is what ajv's `pattern` and `patternProperties` run", () => {
    const validate = compileVersion({
      uri: "https://example.com/hostile.json",
      name: "hostile.json",
      json: {
        type: "object",
        properties: { name: { type: "string", pattern: "^(a+)+$" } },
        patternProperties: { "^(b+)+$": { type: "integer" } },
      },
    });
    expect(validate({ name: HOSTILE })).toBe(false);
    expect(validate.errors?.[0]?.keyword).toBe("pattern");
    expect(validate({ name: "aaa", ["b".repeat(40) + "!"]: "not checked" })).toBe(true);
    expect(validate({ name: "aaa", bbb: "x" })).toBe(false);
  });
});
