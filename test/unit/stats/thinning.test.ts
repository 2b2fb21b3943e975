import { describe, expect, it } from "vitest";
import { ProducerThinning, seededRandom, thinningFor } from "../../../src/stats/thinning.js";

const T0 = Date.UTC(2026, 11, 7, 16);

/** A random source cycling 0, 0.1, …, 0.9: a chance of 0.1 takes exactly one record in ten. */
function cycling(): () => number {
  let i = 0;
  return () => (i++ % 10) / 10;
}

/** How many of `n` records spread over the second starting at `start` are taken. */
function taken(thinning: ProducerThinning, start: number, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) if (thinning.take(start + Math.floor((i * 1000) / n))) count++;
  return count;
}

describe("ProducerThinning", () => {
  it("takes every record of a producer sending at most max a second, and never asks for a random number", () => {
    const thinning = new ProducerThinning(10, () => {
      throw new Error("no random number is needed below max");
    });
    expect([taken(thinning, T0, 10), taken(thinning, T0 + 1000, 10), taken(thinning, T0 + 2000, 3)]).toEqual([
      10, 10, 3,
    ]);
  });

  it("takes max over the last second's rate as each record's chance, and at most twice max a second", () => {
    // Every second below draws a multiple of ten numbers, so each starts the cycle at 0.
    const thinning = new ProducerThinning(10, cycling());
    // The first second knows no rate: everything up to twice max, the second's first records.
    expect(taken(thinning, T0, 100)).toBe(20);
    // 100 a second: a chance of 10 / 100 each.
    expect(taken(thinning, T0 + 1000, 100)).toBe(10);
    // The rate halved: the last second's chance still, then 10 / 50.
    expect(taken(thinning, T0 + 2000, 50)).toBe(5);
    expect(taken(thinning, T0 + 3000, 50)).toBe(10);
    // The rate quadrupled: the chance of 0.2 would take 40, the ceiling stops it at 20.
    expect(taken(thinning, T0 + 4000, 200)).toBe(20);
    // 200 a second: a chance of 0.05 takes the draws of 0 alone.
    expect(taken(thinning, T0 + 5000, 10)).toBe(1);
    // The rate fell to max: every record again.
    expect(taken(thinning, T0 + 6000, 10)).toBe(10);
  });

  it("takes the chance of the last second with records after a pause, and a clock that went back starts a second too", () => {
    const thinning = new ProducerThinning(10, cycling());
    taken(thinning, T0, 100);
    // Ten seconds later the chance is still 10 / 100: one in ten of 30 records.
    expect(taken(thinning, T0 + 10_000, 30)).toBe(3);
    // A replay's clock went back: a new second, with the chance of 30 a second (10 / 30, which
    // 0, 0.1, 0.2 and 0.3 of each ten draws are under).
    expect(taken(thinning, T0, 30)).toBe(12);
  });
});

describe("seededRandom", () => {
  it("gives the same numbers for the same seed, in [0, 1), evenly spread", () => {
    const a = seededRandom();
    const b = seededRandom();
    const numbers = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(numbers);
    expect(numbers.every((n) => n >= 0 && n < 1)).toBe(true);
    // Each tenth of [0, 1) holds 1,000 ± 10% of them.
    const tenths = new Array<number>(10).fill(0);
    for (const n of numbers) tenths[Math.floor(n * 10)]!++;
    expect(tenths.every((t) => t > 900 && t < 1100)).toBe(true);
    expect(seededRandom(1)()).not.toBe(seededRandom(2)());
  });
});

describe("thinningFor", () => {
  it("draws by the subject's and the producer's names: the same names, the same records", () => {
    const draws = (subject: string, producer: string) => {
      const thinning = thinningFor(subject, producer, 10);
      taken(thinning, T0, 100);
      return Array.from({ length: 100 }, (_, i) => (thinning.take(T0 + 1000 + i * 10) ? 1 : 0)).join("");
    };
    const billing = draws("payment", "billing");
    expect(billing.split("").filter((d) => d === "1").length).toBeGreaterThan(0);
    expect(draws("payment", "billing")).toBe(billing);
    expect(draws("payment", "web")).not.toBe(billing);
    expect(draws("payments", "billing")).not.toBe(billing);
    // The separator keeps ("a", "bc") and ("ab", "c") apart.
    expect(draws("a", "bc")).not.toBe(draws("ab", "c"));
  });
});
