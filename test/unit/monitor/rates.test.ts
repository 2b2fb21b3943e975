import { describe, expect, it } from "vitest";
import { TopicRates, recordsPerTopic } from "../../../src/monitor/rates.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

/** Rates over a clock and counts the test moves by hand. */
function fakeRates() {
  let now = 1_000_000;
  const totals = new Map<string, number>();
  const rates = new TopicRates(() => totals, { now: () => now });
  return {
    rates,
    totals,
    advance: (ms: number) => void (now += ms),
  };
}

describe("records per second per topic", () => {
  it("are the counts since the oldest sample of the last minute, over the seconds since", () => {
    const { rates, totals, advance } = fakeRates();
    totals.set("a", 100);
    rates.sample();
    // Not a second yet: no rate rather than a wild one.
    advance(500);
    expect(rates.current()).toBeUndefined();
    for (let i = 0; i < 6; i++) {
      advance(10_000);
      totals.set("a", totals.get("a")! + 200);
      rates.sample();
    }
    // At +60.5 s the sample at 0 is out of the window; the one at +10.5 s is the oldest kept.
    totals.set("b", 30);
    const window = rates.current()!;
    expect(window.seconds).toBe(50);
    expect(Object.fromEntries(window.perSecond)).toEqual({ a: 1000 / 50, b: 30 / 50 });
  });

  it("keep the newest sample when the timer stalled, and say over how long they are", () => {
    const { rates, totals, advance } = fakeRates();
    totals.set("a", 0);
    rates.sample();
    advance(120_000);
    totals.set("a", 240);
    expect(rates.current()).toMatchObject({ seconds: 120, perSecond: new Map([["a", 2]]) });
  });

  it("are measured from the record counters, per topic", async () => {
    const { pipeline } = await eventPipeline();
    pipeline.process(record({ id: 1, event: "view" }, { producer: "web", "schema-version": "1.0" }));
    pipeline.process(record({ id: 2, event: "view" }, { producer: "web", "schema-version": "1.1" }));
    pipeline.process(record({ id: 3, event: "view" }, { producer: "mobile" }));
    expect(Object.fromEntries(recordsPerTopic(pipeline.tallies))).toEqual({ events: 3 });
  });
});
