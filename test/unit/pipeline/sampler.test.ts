import { describe, expect, it } from "vitest";
import { Sampler } from "../../../src/pipeline/sampler.js";

describe("the sampler", () => {
  it("caps validations by its clock from the first record on, and a clock behind its start refills nothing", () => {
    // Made at the replay's wall-clock time; the records come on a capture's clock, days earlier.
    const times = [10_000_000, 1_000, 1_000, 1_400, 1_500, 1_500];
    const sampler = new Sampler({ ratio: 1, maxPerSecond: 2 }, () => times.shift()!);
    // Two tokens at 1.0 s; none left for the third, nor 0.4 s later; one 0.5 s later, then none.
    expect([sampler.sample(), sampler.sample(), sampler.sample()]).toEqual([true, true, false]);
    expect([sampler.sample(), sampler.sample()]).toEqual([false, true]);
    expect(times).toEqual([1_500]);
  });
});
