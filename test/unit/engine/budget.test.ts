import { describe, expect, it } from "vitest";
import { ValidationBudget } from "../../../src/engine/budget.js";

// A backreference keeps this pattern on the backtracking engine: on 40 a's and a '!' it would run for
// longer than the universe is old, so only the budget can end it.
const HOSTILE = /^((a+)+)\1?$/;
const INPUT = "a".repeat(40) + "!";

describe("the validation budget", () => {
  it("stops the item that runs past it from outside the code, and runs every other item", () => {
    const budget = new ValidationBudget(50);
    const done: number[] = [];
    const stopped: number[] = [];
    budget.run(
      5,
      (i) => {
        if (i === 2 || i === 4) HOSTILE.test(INPUT);
        done.push(i);
      },
      (i) => stopped.push(i),
    );
    expect(stopped).toEqual([2, 4]);
    expect(done).toEqual([0, 1, 3]);
  });

  it("leaves the rest of a list unrun, as timed out, once stopped items have cost it too much", async () => {
    // 30 ms a stopped item, at most 60 ms lost: the third stopped item ends the list.
    const budget = new ValidationBudget(30, 60);
    const done: number[] = [];
    const stopped: number[] = [];
    await budget.runYielding(
      8,
      (i) => {
        if (i === 1 || i === 3) HOSTILE.test(INPUT);
        done.push(i);
      },
      (i) => stopped.push(i),
    );
    expect(done).toEqual([0, 2]);
    expect(stopped).toEqual([1, 3, 4, 5, 6, 7]);
  });

  it("lets an error that is no timeout through", () => {
    const budget = new ValidationBudget(50);
    expect(() =>
      budget.run(
        2,
        () => {
          throw new RangeError("boom");
        },
        () => undefined,
      ),
    ).toThrow("boom");
  });

  it("runs many cheap items in few vm runs, and none of them is stopped", () => {
    const budget = new ValidationBudget(1000);
    const stopped: number[] = [];
    let sum = 0;
    budget.run(
      100_000,
      (i) => (sum += i),
      (i) => stopped.push(i),
    );
    expect(sum).toBe((100_000 * 99_999) / 2);
    expect(stopped).toEqual([]);
  });
});
