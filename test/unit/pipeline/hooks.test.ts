import { describe, expect, it } from "vitest";
import { inOrder } from "../../../src/pipeline/hooks.js";

type Seven = (a: number, b: string, c: null, d: undefined, e: boolean, f: number, g: string) => void;

describe("inOrder", () => {
  it.each([1, 2, 3])("calls each of %i listeners in order with all seven arguments", (count) => {
    const heard: string[] = [];
    const listeners = Array.from(
      { length: count },
      (_, i): Seven =>
        (...args) =>
          void heard.push(`${i}: ${JSON.stringify(args)}`),
    );
    inOrder(listeners)!(1, "b", null, undefined, true, 6, "g");
    expect(heard).toEqual(listeners.map((_, i) => `${i}: [1,"b",null,null,true,6,"g"]`));
  });

  it("gives none for no listener, and the one listener itself", () => {
    const one: Seven = () => {};
    expect([inOrder<Seven>([]), inOrder([one])]).toEqual([undefined, one]);
  });
});
