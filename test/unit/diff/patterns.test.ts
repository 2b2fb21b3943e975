// When a `pattern` matches every string (src/diff/patterns.ts): a pattern that does is no constraint
// at all, so adding, removing or changing it cannot break anything. The answer must never be yes for a
// pattern some string fails; a no where it could be yes only costs precision.
import { describe, expect, it } from "vitest";
import { matchesEverything } from "../../../src/diff/patterns.js";

describe("matchesEverything", () => {
  it("a pattern that can match the empty string and asserts nothing matches every string", () => {
    for (const pattern of ["", ".*", "[a-z]*", "(x)?", "a?", "(?:ab)*", "x{0,3}", "[^a]*"])
      expect([pattern, matchesEverything(pattern)]).toEqual([pattern, true]);
  });

  it("a pattern that needs a character does not", () => {
    for (const pattern of ["a", ".", ".+", "[a-z]", "x{1,}", "(a|b)"])
      expect([pattern, matchesEverything(pattern)]).toEqual([pattern, false]);
  });

  it("a pattern no engine can compile matches nothing we can vouch for", () => {
    for (const pattern of ["(", "[", "*", "a{2,1}"])
      expect([pattern, matchesEverything(pattern)]).toEqual([pattern, false]);
  });

  it("compiles without the u flag when only the older syntax reads it", () => {
    // `\_` and `\:` are identity escapes only without `u`.
    expect(matchesEverything("[a-z\\_]*")).toBe(true);
    expect(matchesEverything("\\:*")).toBe(true);
    expect(matchesEverything("\\:")).toBe(false);
  });

  it("a leading ^ or a trailing $ alone still lets the empty match through", () => {
    for (const pattern of ["^.*", "^", "\\s*$", "$", "^(x)?", "a*$"])
      expect([pattern, matchesEverything(pattern)]).toEqual([pattern, true]);
  });

  it("both anchors together, or an anchor elsewhere, confine the match", () => {
    // `^.*$` fails "a\nb": `.` stops at the line break and `$` needs the end.
    expect(new RegExp("^.*$").test("a\nb")).toBe(false);
    for (const pattern of ["^.*$", "^$", "a*^", "$x*", "x*^y*", "^^", "$$", "(^)", "(?:$)"])
      expect([pattern, matchesEverything(pattern)]).toEqual([pattern, false]);
  });

  it("a $ that is escaped is a character, not an anchor", () => {
    expect(matchesEverything("a*\\$")).toBe(false);
    expect(matchesEverything("^\\$")).toBe(false);
    expect(matchesEverything("\\$?")).toBe(true);
  });

  it("a non-boundary and lookarounds are assertions", () => {
    // Each matches the empty string but not "a": `\B` at no position of it, `^(?!a)` nowhere but its
    // start, `(?<!a)$` nowhere but its end.
    for (const pattern of ["\\B", "x*\\B", "^(?!a)", "^x*(?!a)", "(?<!a)$", "^\\B", "\\B$"]) {
      expect([pattern, new RegExp(pattern).test(""), new RegExp(pattern).test("a")]).toEqual([
        pattern,
        true,
        false,
      ]);
      expect([pattern, matchesEverything(pattern)]).toEqual([pattern, false]);
    }
  });

  it("^, $ and the lookaround syntax inside a character class are characters", () => {
    for (const pattern of ["[$^]*", "[\\]$]*", "[(?=]*", "[\\\\]*", "^[$]*", "[a]*[$]?$"])
      expect([pattern, matchesEverything(pattern)]).toEqual([pattern, true]);
    // After the class closes, a `$` is an anchor again.
    expect(matchesEverything("[a]*$x*")).toBe(false);
  });

  it("an escaped ( or [ opens nothing: the tokens after it are read outside any group or class", () => {
    expect(matchesEverything("\\[?$x*")).toBe(false);
    expect(matchesEverything("^\\(|x*")).toBe(false);
    expect(matchesEverything("\\[?[$]*")).toBe(true);
  });

  it("an alternation at the top level is not read as anchored by its first or last branch", () => {
    // `^` and `$` bind to one branch only; the answer stays no (sound, if not as precise as it could be).
    expect(matchesEverything("^a|b*")).toBe(false);
    expect(matchesEverything("a|b*$")).toBe(false);
    // After a group closes, an alternation is at the top level again.
    expect(matchesEverything("^(a)|b*")).toBe(false);
    expect(matchesEverything("^(a)(b)|c*")).toBe(false);
    // Inside a group the alternation is not at the top level.
    expect(matchesEverything("^(a|b)*")).toBe(true);
    expect(matchesEverything("(a|b)?$")).toBe(true);
    // Nor inside a class.
    expect(matchesEverything("^[a|b]*")).toBe(true);
  });
});
