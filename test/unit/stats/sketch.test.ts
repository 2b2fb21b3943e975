import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  SMALLEST,
  addValue,
  mergeSketch,
  newSketch,
  quantile,
  sketchFromJSON,
  sketchToJSON,
} from "../../../src/stats/sketch.js";

const filled = (values: readonly number[]) => {
  const sketch = newSketch();
  for (const v of values) sketch.accept(v);
  return sketch;
};

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("the sketch", () => {
  it("is @datadog/sketches-js pinned to exactly 2.1.1 (the negative-store fix below depends on it)", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string> };
    const installed = JSON.parse(readFileSync("node_modules/@datadog/sketches-js/package.json", "utf8")) as {
      version: string;
    };
    expect(pkg.dependencies["@datadog/sketches-js"]).toBe("2.1.1");
    expect(installed.version).toBe("2.1.1");
  });

  it("answers quantiles within 1% of the value at their rank", () => {
    const sketch = filled(range(1, 1000));
    for (const [q, truth] of [
      [0.25, 250],
      [0.5, 500],
      [0.75, 750],
    ] as const) {
      expect(Math.abs(quantile(sketch, q) / truth - 1)).toBeLessThan(0.01);
    }
    expect(quantile(newSketch(), 0.5)).toBeNaN();
  });

  it("merges negative values too (the library's merge alone forgets them)", () => {
    const a = filled([-100, -100, -100, 5]);
    const b = filled([-100, -100, -100, -100]);
    mergeSketch(a, b);
    expect(a.count).toBe(8);
    expect(a.negativeStore.count).toBe(7);
    // 7 of 8 values are -100: the median is -100 within 1%, not the ranks run off the stores.
    expect(Math.abs(quantile(a, 0.5) / -100 - 1)).toBeLessThan(0.01);
    expect(quantile(a, 1)).toBeCloseTo(5, 0);
  });

  it("merges into an empty sketch as a copy", () => {
    const a = newSketch();
    mergeSketch(a, filled([-3, 0, 7]));
    expect([a.count, a.negativeStore.count, a.zeroCount, a.store.count]).toEqual([3, 1, 1, 1]);
  });

  it("round-trips through JSON with its summary and every bin", () => {
    const sketch = filled([-2.5, 0, 0, 1, 10, 100, 1000]);
    const json = JSON.parse(JSON.stringify(sketchToJSON(sketch))) as ReturnType<typeof sketchToJSON>;
    expect([json.n, json.sum, json.min, json.max, json.zero]).toEqual([7, 1108.5, -2.5, 1000, 2]);
    const back = sketchFromJSON(json);
    expect(sketchToJSON(back)).toEqual(json);
    for (const q of [0, 0.25, 0.5, 0.75, 1]) expect(quantile(back, q)).toBe(quantile(sketch, q));
  });

  it("writes an empty sketch without Infinity and reads it back empty", () => {
    const json = sketchToJSON(newSketch());
    expect(json).toEqual({ n: 0, sum: 0, min: 0, max: 0, zero: 0, pos: [], neg: [] });
    expect(sketchFromJSON(json).count).toBe(0);
  });

  it("refuses a saved form whose counts do not add up", () => {
    const json = { ...sketchToJSON(filled([1, 2, 3])), n: 4 };
    expect(() => sketchFromJSON(json)).toThrow("a saved sketch's counts do not add up (n 4)");
    expect(() => sketchFromJSON({ ...json, n: 3, pos: [1.5, 1] })).toThrow("lowest key is not an integer");
  });

  it("keeps magnitudes within [1e-9, 1e18], so a store holds at most 3,110 bins whatever it is fed", () => {
    const sketch = newSketch();
    for (const v of [1e-300, 5e-10, 1, 1e18, 1e300, -1e300]) addValue(sketch, v);
    expect([sketch.min, sketch.max, sketch.count]).toEqual([-1e18, 1e18, 6]);
    expect(quantile(sketch, 0)).toBeCloseTo(-1e18, -16);
    expect(Math.abs(quantile(sketch, 0.2) / SMALLEST - 1)).toBeLessThan(0.01);
    expect(Math.abs(quantile(sketch, 0.6) / 1 - 1)).toBeLessThan(0.01);
    expect(sketch.store.maxKey - sketch.store.minKey + 1).toBe(3110);
    expect(sketch.store.bins.length).toBe(3200);
  });

  it("refuses a saved store outside that range", () => {
    const json = sketchToJSON(filled([1]));
    expect(() => sketchFromJSON({ ...json, pos: [-5000, 1] })).toThrow("outside the range a sketch keeps");
  });
});
