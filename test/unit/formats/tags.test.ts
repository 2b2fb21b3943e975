import { describe, expect, it } from "vitest";
import { matchesName, taggedDeprecated } from "../../../src/formats/tags.js";

describe("metadata tag patterns, matched as Confluent's WildcardMatcher matches them", () => {
  it("gives the answers its documentation lists", () => {
    const cases: [string, string, boolean][] = [
      ["eve", "eve*", true],
      ["alice.bob.eve", "a*.bob.eve", true],
      ["alice.bob.eve", "a*.bob.e*", true],
      ["alice.bob.eve", "a*", false],
      ["alice.bob.eve", "a**", true],
      ["alice.bob.eve", "alice.bob*", false],
      ["alice.bob.eve", "alice.bob**", true],
    ];
    expect(cases.map(([name, pattern]) => matchesName(name, pattern))).toEqual(
      cases.map(([, , want]) => want),
    );
  });

  it("reads ? as one character within a name, ** across names (**.* as **), \\ as a literal, and covers the whole name", () => {
    expect(matchesName("shop.Order.amount", "shop.Order.amoun?")).toBe(true);
    expect(matchesName("shop.Order.amount", "shop?Order.amount")).toBe(false);
    expect(matchesName("shop.Order.amount", "**.*")).toBe(true);
    expect(matchesName("shop.Order.amount", "**.amount")).toBe(true);
    expect(matchesName("shop.Order.amount", "*.amount")).toBe(false);
    expect(matchesName("shop.Order.amount", "shop.Order")).toBe(false);
    expect(matchesName("shop.Order.a*", "shop.Order.a\\*")).toBe(true);
    expect(matchesName("shop.Order.ab", "shop.Order.a\\*")).toBe(false);
    expect(matchesName("", "*")).toBe(true);
  });

  it("deprecates a field whose name some pattern tagged DEPRECATED, in any case", () => {
    const tags = { "shop.Order.amount": ["PII"], "shop.*.amount": ["Deprecated"], "x.Y.z": ["DEPRECATED"] };
    expect(taggedDeprecated(tags, "shop.Order.amount")).toBe(true);
    expect(taggedDeprecated(tags, "shop.Order.total")).toBe(false);
    expect(taggedDeprecated({ "shop.Order.amount": ["PII"] }, "shop.Order.amount")).toBe(false);
    expect(taggedDeprecated(undefined, "shop.Order.amount")).toBe(false);
  });

  it("takes time in proportion to pattern × name, whatever the pattern", () => {
    const started = performance.now();
    expect(matchesName("a".repeat(200), `${"*a".repeat(100)}b`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
