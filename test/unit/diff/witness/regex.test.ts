// The strings the witness search draws from a `pattern` (src/diff/witness/regex.ts): several, varied
// (other alternatives, other repetition counts, other characters of a class), and only ones the
// engine's own regular expression accepts. The sampler is deterministic: each case lists the exact
// samples, in the order the search tries them.
import { describe, expect, it } from "vitest";
import { diffSchemas } from "../../../../src/diff/index.js";
import { patternSamples } from "../../../../src/diff/witness/regex.js";

describe("what a pattern gives, at most `count` distinct samples (6 unless told)", () => {
  it("a literal gives itself once, however many are asked for", () => {
    expect(patternSamples("^a$")).toEqual(["a"]);
    expect(patternSamples("^a\\.b$", 10)).toEqual(["a.b"]);
  });

  it("a repeated class gives other lengths and other characters of the class, up to the count", () => {
    expect(patternSamples("^[a-c]+$")).toEqual(["ac", "cba", "b", "c", "ba", "acb"]);
    expect(patternSamples("^[a-c]+$", 2)).toEqual(["ac", "cba"]);
    expect(patternSamples("^[a-c]+$", 1)).toEqual(["ac"]);
    expect(patternSamples("^[a-c]+$", 0)).toEqual([]);
  });

  it("tries three variants per sample asked for before giving up on more", () => {
    // Only 4 distinct strings exist; asking for 2 stops at 2, asking for 10 finds all 4.
    expect(patternSamples("^.$", 2)).toEqual(["a", "x"]);
    expect(patternSamples("^.$", 10)).toEqual(["a", "x", "0", "-"]);
    // `^x{0,2}$` has 3 strings, the empty one reached last, on the third variant.
    expect(patternSamples("^x{0,2}$", 1)).toEqual(["x"]);
    expect(patternSamples("^x{0,2}$")).toEqual(["x", "xx", ""]);
  });

  it("an optional group and a bounded repeat give each alternative and each count", () => {
    expect(patternSamples("^(ab|cd)?x{2,3}$")).toEqual(["abxxx", "cdxx", "xxx", "cdxxx", "abxx"]);
    expect(patternSamples("a|b|c")).toEqual(["a", "b", "c"]);
    expect(patternSamples("^(?:a|b)(?:c|d)$")).toEqual(["ac", "bd"]);
  });
});

describe("quantifiers", () => {
  it("`*` and `+` repeat 0–2 more than their minimum; lazy forms are read the same", () => {
    expect(patternSamples("^a*?b+?c??$")).toEqual(["abbb", "aabc", "bb", "abc", "bbc"]);
    expect(patternSamples("x*")).toEqual(["", "x", "xx"]);
    // The anchor is the first item: the repeat, second, starts one further into the cycle.
    expect(patternSamples("^x*$")).toEqual(["x", "xx", ""]);
  });

  it("`{n}`, `{n,}` and `{n,m}` respect their counts", () => {
    expect(patternSamples("^a{2}$")).toEqual(["aa"]);
    expect(patternSamples("^a{1,}$")).toEqual(["aa", "aaa", "a"]);
    expect(patternSamples("^x{2,}$")).toEqual(["xxx", "xxxx", "xx"]);
    expect(patternSamples("^x{3,4}?$")).toEqual(["xxxx", "xxx"]);
  });

  it("a brace that is not a count is a literal", () => {
    expect(patternSamples("^x{a}$")).toEqual(["x{a}"]);
  });

  it("a large minimum is rendered in full, never fewer", () => {
    expect(patternSamples("^a{12}$")).toEqual(["a".repeat(12)]);
    expect(patternSamples("^a{12,}$", 3)).toEqual(["a".repeat(13), "a".repeat(14), "a".repeat(12)]);
  });
});

describe("characters", () => {
  it("`.` gives a, x, 0 and -", () => {
    expect(patternSamples("^a.b$")).toEqual(["aab", "axb", "a0b", "a-b"]);
  });

  it("a class gives its own characters, the far end of a range among them, then others it accepts", () => {
    expect(patternSamples("^[a-c]$")).toEqual(["a", "c", "b"]);
    expect(patternSamples("^[xa-c]$")).toEqual(["x", "a", "c", "b"]);
    expect(patternSamples("^[\\d-]$")).toEqual(["-", "0", "9"]);
    expect(patternSamples("^[\\]x]$")).toEqual(["]", "x"]);
  });

  it("the far end of a range comes right after its start, before a literal `-`", () => {
    expect(patternSamples("^[a-c-]$")).toEqual(["a", "c", "-", "b"]);
  });

  it("a negated class gives characters from the pool it does not exclude", () => {
    expect(patternSamples("^[^a]$")).toEqual(["Z", "0", "_", "-", " ", "."]);
  });

  it("`\\d`, `\\w`, `\\s` and their negations give pool characters of their class", () => {
    expect(patternSamples("^\\d$")).toEqual(["0", "9"]);
    expect(patternSamples("^\\s$")).toEqual([" ", "\t", "\n"]);
    expect(patternSamples("^\\D$")).toEqual(["a", "Z", "_", "-", " ", "."]);
    expect(patternSamples("^\\W$")).toEqual(["-", " ", ".", "@", "+", "/"]);
    expect(patternSamples("^\\S$")).toEqual(["a", "Z", "0", "_", "-", "."]);
    expect(patternSamples("^\\w+@\\w+$")).toEqual(["aZ@a", "Z0_@Z0", "0@0", "_x@_x", "x@x9A", "9A@9"]);
  });

  it("a Unicode property gives letters beyond ASCII first", () => {
    expect(patternSamples("^\\p{L}$")).toEqual(["é", "Ω", "a", "Z", "x", "A"]);
    expect(patternSamples("^\\p{Lu}$")).toEqual(["Ω", "Z", "A"]);
    expect(patternSamples("^\\P{L}$")).toEqual(["0", "_", "-", " ", ".", "9"]);
  });

  it("`\\p` or `\\P` without braces is the letter, as the engine's older syntax reads it (it hung the diff)", () => {
    expect(patternSamples("^\\p$")).toEqual(["p"]);
    expect(patternSamples("a\\Pb")).toEqual(["aPb"]);
    expect(patternSamples("^\\p{L")).toEqual(["p{L"]);
    const changes = diffSchemas(
      { type: "string", pattern: "^\\p$" },
      { type: "string", pattern: "^\\p+$" },
    ).changes;
    expect(changes.map((c) => [c.kind, c.backward, c.forward, c.witness])).toEqual([
      ["pattern-changed", "undecided", "breaks", { forward: "pp" }],
    ]);
  });

  it("control escapes and code points give the character they name", () => {
    expect(patternSamples("\\n\\t\\0")).toEqual(["\n\t\0"]);
    expect(patternSamples("^\\f\\v\\r$")).toEqual(["\f\v\r"]);
    expect(patternSamples("^\\u0041\\x42$")).toEqual(["AB"]);
    expect(patternSamples("^\\u00e9$")).toEqual(["é"]);
    expect(patternSamples("^\\u{1F600}$")).toEqual(["😀"]);
  });

  it("an escape that is not a code point is its letter", () => {
    expect(patternSamples("^\\x4$")).toEqual(["x4"]);
    expect(patternSamples("^\\uZZZZ$")).toEqual(["uZZZZ"]);
    expect(patternSamples("^\\xZZ$")).toEqual(["xZZ"]);
    expect(patternSamples("^\\u{61}$")).toEqual(["a"]);
    expect(patternSamples("^\\$\\^$")).toEqual(["$^"]);
    expect(patternSamples("^[\\u0041-\\u0043]$")).toEqual(["A"]);
  });

  it("a class that starts with `]` holds it: `[^]` is any character, `]` first", () => {
    expect(patternSamples("[^]")).toEqual(["]", "a", "Z", "0", "_", "-"]);
    expect(patternSamples("^[]$")).toEqual([]);
  });
});

describe("groups and assertions", () => {
  it("named and non-capturing groups render their content", () => {
    expect(patternSamples("^(?<n>x)y$")).toEqual(["xy"]);
  });

  it("lookarounds render nothing and the regular expression judges the sample", () => {
    expect(patternSamples("(?=a)ab")).toEqual(["ab"]);
    expect(patternSamples("(?<!z)q")).toEqual(["q"]);
    expect(patternSamples("^(?!b)[ab]$")).toEqual(["a"]);
    expect(patternSamples("^(?<=)a$")).toEqual(["a"]);
    // An empty lookahead: what follows it is still read.
    expect(patternSamples("(?=)a")).toEqual(["a"]);
  });

  it("word boundaries render nothing: a sample that breaks one is dropped", () => {
    expect(patternSamples("^a\\bb$")).toEqual([]);
    expect(patternSamples("\\bfoo\\b")).toEqual(["foo"]);
  });
});

describe("what gives no samples: never a string the pattern rejects", () => {
  it("a pattern the engine cannot compile", () => {
    expect(patternSamples("(a")).toEqual([]);
    expect(patternSamples("a)")).toEqual([]);
  });

  it("back-references render empty, so their samples fail the pattern", () => {
    expect(patternSamples("(a)\\1")).toEqual([]);
    expect(patternSamples("^(?<n>a)\\k<n>$")).toEqual([]);
  });

  it("many groups one after the other are not nesting", () => {
    expect(patternSamples(`^${"(a)".repeat(45)}$`)).toEqual(["a".repeat(45)]);
    expect(patternSamples("^(a|)b$")).toEqual(["ab", "b"]);
    expect(patternSamples("^(?:)$")).toEqual([""]);
  });

  it("nesting deeper than 40 groups", () => {
    const deep = (n: number) => `^${"(".repeat(n)}a${")".repeat(n)}$`;
    expect(patternSamples(deep(39))).toEqual(["a"]);
    expect(patternSamples(deep(42))).toEqual([]);
  });
});
