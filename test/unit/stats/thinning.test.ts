import { describe, expect, it } from "vitest";
import { ProducerThinning, seededRandom, thinningFor } from "../../../src/stats/thinning.js";

const T0 = Date.UTC(2026, 11, 7, 16);

/** A random source cycling 0, 0.1, …, 0.9: a chance of 0.1 takes exactly one record in ten. */
function cycling(): () => number {
  let i = 0;
  return () => (i++ % 10) / 10;
}

/** How many of `n` records spread over the second starting at `start` are drawn. */
function taken(thinning: ProducerThinning, start: number, n: number): number {
  return weights(thinning, start, n).filter((w) => w > 0).length;
}

/** What each of `n` records spread over the second starting at `start` weighs (0: not drawn). */
function weights(thinning: ProducerThinning, start: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => thinning.draw(start + Math.floor((i * 1000) / n)));
}

const sum = (list: readonly number[]) => list.reduce((a, b) => a + b, 0);

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

describe("what a record drawn weighs", () => {
  it("is 1 while every record is taken, the last second's rate over max past it, and nothing when not drawn", () => {
    const thinning = new ProducerThinning(10, cycling());
    expect(weights(thinning, T0, 10)).toEqual(new Array<number>(10).fill(1));
    // 100 a second (after 10): every record while the last second was at max.
    expect(sum(weights(thinning, T0 + 1000, 100))).toBe(20);
    // A chance of 10 / 100: each record drawn stands for 10, the draws of 0 in each ten.
    const tenfold = weights(thinning, T0 + 2000, 100);
    expect(tenfold.filter((w) => w > 0)).toEqual(new Array<number>(10).fill(10));
    expect(sum(tenfold)).toBe(100);
    expect(tenfold.slice(0, 11)).toEqual([10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10]);
  });

  it("rounds a weight that is not whole down or up at random, right on average", () => {
    // 25 a second over max 10: a chance of 0.4 and a weight of 2.5, 2 or 3 by a second number.
    const numbers = [0.3, 0.9, 0.1, 0.2, 0.5, 0.45, 0.2, 0.5];
    let i = 0;
    const thinning = new ProducerThinning(10, () => numbers[i++ % numbers.length]!);
    weights(thinning, T0, 25);
    i = 0;
    // Drawn at 0.3 (under 0.4), then 0.9 (not under 0.5): 2. Drawn at 0.1, then 0.2: 3. Not drawn at
    // 0.5, nor at 0.45. Drawn at 0.2, then 0.5 (not under 0.5): 2.
    expect(weights(thinning, T0 + 1000, 5)).toEqual([2, 3, 0, 0, 2]);
    // Over many records the weights add up to the records, within a few percent.
    const seeded = new ProducerThinning(1000, seededRandom(7));
    weights(seeded, T0, 2500);
    let drawn = 0;
    let total = 0;
    for (let second = 1; second <= 20; second++) {
      const list = weights(seeded, T0 + second * 1000, 2500);
      drawn += list.filter((w) => w > 0).length;
      total += sum(list);
    }
    expect(Math.abs(total / 50_000 - 1)).toBeLessThan(0.03);
    expect(Math.abs(drawn / 20_000 - 1)).toBeLessThan(0.03);
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
      return Array.from({ length: 100 }, (_, i) => (thinning.draw(T0 + 1000 + i * 10) > 0 ? 1 : 0)).join("");
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
