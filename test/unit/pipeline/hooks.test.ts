import { describe, expect, it } from "vitest";
import { inOrder } from "../../../src/pipeline/hooks.js";

type Six = (a: number, b: string, c: null, d: undefined, e: boolean, f: number) => void;

describe("inOrder", () => {
  it.each([1, 2, 3])("calls each of %i listeners in order with all six arguments", (count) => {
    const heard: string[] = [];
    const listeners = Array.from(
      { length: count },
      (_, i): Six =>
        (...args) =>
          void heard.push(`${i}: ${JSON.stringify(args)}`),
    );
    inOrder(listeners)!(1, "b", null, undefined, true, 6);
    expect(heard).toEqual(listeners.map((_, i) => `${i}: [1,"b",null,null,true,6]`));
  });

  it("gives none for no listener, and the one listener itself", () => {
    const one: Six = () => {};
    expect([inOrder<Six>([]), inOrder([one])]).toEqual([undefined, one]);
  });
});
