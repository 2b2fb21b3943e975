import { describe, expect, it } from "vitest";
import {
  CaptureClock,
  type CaptureTimestamp,
  type TimestampDoubt,
} from "../../../src/source/capture-clock.js";

const T0 = Date.parse("2026-12-01T08:00:00Z");
const REPLAYED_AT = Date.parse("2026-12-04T12:00:00Z");
const MIN = 60_000;
const DAY = 86_400_000;

/** Each record's observation time, in the capture's order, and the doubts by line. */
function observe(timestamps: readonly CaptureTimestamp[]): {
  observed: number[];
  order: number[];
  doubts: Array<[TimestampDoubt, number]>;
} {
  const observed: number[] = [];
  const order: number[] = [];
  const doubts: Array<[TimestampDoubt, number]> = [];
  const clock = new CaptureClock<number>(
    REPLAYED_AT,
    (line, at) => {
      order.push(line);
      observed.push(at);
    },
    (reason, line) => doubts.push([reason, line]),
  );
  timestamps.forEach((t, i) => clock.push(i + 1, t, i + 1));
  clock.end();
  return { observed, order, doubts };
}

/** A seeded generator, so that a failing sequence can be found again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Traffic as a capture holds it: a few seconds apart, out of order by up to a minute, some gaps. */
function traffic(next: () => number, length: number): number[] {
  const out: number[] = [];
  let t = T0;
  for (let i = 0; i < length; i++) {
    t += next() < 0.05 ? Math.floor(next() * 3 * 3_600_000) : Math.floor(next() * 5000);
    out.push(t - Math.floor(next() * MIN));
  }
  return out;
}

describe("the capture's clock", () => {
  it("observes every record once, in the capture's order, never going back", () => {
    const next = random(7);
    for (let run = 0; run < 200; run++) {
      const timestamps: CaptureTimestamp[] = traffic(next, 1 + Math.floor(next() * 60));
      // Anything a capture may hold, anywhere.
      for (let k = 0; k < 3; k++) {
        const odd = ["missing", "unreadable", -1, T0 - 400 * DAY, Date.UTC(2100, 0, 1), T0 + DAY] as const;
        timestamps.splice(Math.floor(next() * timestamps.length), 0, odd[Math.floor(next() * odd.length)]!);
      }
      const { observed, order } = observe(timestamps);
      expect(order).toEqual(timestamps.map((_, i) => i + 1));
      for (let i = 1; i < observed.length; i++)
        expect([run, i, observed[i]! >= observed[i - 1]!]).toEqual([run, i, true]);
      expect(Math.max(...observed)).toBeLessThanOrEqual(REPLAYED_AT + 5 * MIN);
    }
  });

  it("lets no lone timestamp widen the capture's span, or make another record look older, by more than 5 minutes", () => {
    const next = random(11);
    for (let run = 0; run < 300; run++) {
      const base = traffic(next, 3 + Math.floor(next() * 40));
      const { observed: plain } = observe(base);
      const where = Math.floor(next() * (base.length + 1));
      for (const odd of [Date.UTC(2100, 0, 1), T0 + 30 * DAY, T0 - 400 * DAY, 1000, "unreadable"] as const) {
        const timestamps: CaptureTimestamp[] = [...base];
        timestamps.splice(where, 0, odd);
        const { observed } = observe(timestamps);
        const others = observed.filter((_, i) => i !== where);
        const case_ = { run, odd, where };
        expect({ ...case_, end: Math.max(...observed) <= Math.max(...plain) }).toEqual({
          ...case_,
          end: true,
        });
        // Which of two records within 5 minutes starts the clock may change: no more than that.
        expect({ ...case_, start: Math.min(...observed) >= Math.min(...plain) - 5 * MIN }).toEqual({
          ...case_,
          start: true,
        });
        const older = others.flatMap((at, i) => (at < plain[i]! - 5 * MIN ? [i] : []));
        expect({ ...case_, older }).toEqual({ ...case_, older: [] });
      }
    }
  });

  it("changes no other record's time for a lone timestamp once the clock has started", () => {
    const next = random(13);
    for (let run = 0; run < 200; run++) {
      // Traffic that starts with two records a second apart, so that the clock starts on the first.
      const base = [T0, T0 + 1000, ...traffic(next, 2 + Math.floor(next() * 40)).map((t) => t + 2000)];
      const { observed: plain } = observe(base);
      const where = 2 + Math.floor(next() * (base.length - 1));
      for (const odd of [Date.UTC(2100, 0, 1), T0 + 30 * DAY, T0 - 400 * DAY, 1000]) {
        const timestamps = [...base];
        timestamps.splice(where, 0, odd);
        const { observed } = observe(timestamps);
        expect([run, odd, where, observed.filter((_, i) => i !== where)]).toEqual([run, odd, where, plain]);
        // The odd record itself counts as read when the record before it was.
        expect([run, odd, where, observed[where]]).toEqual([run, odd, where, plain[where - 1]]);
      }
    }
  });

  it("believes an hour between records once two records started it, but not the last jump, which nothing follows", () => {
    const hours = [0, 0, 1, 2, 3, 4].map((h, i) => T0 + h * 3_600_000 + i * 1000);
    const { observed, doubts } = observe(hours);
    expect(observed).toEqual([hours[0], hours[1], hours[2], hours[3], hours[4], hours[4]]);
    expect(doubts).toEqual([["unconfirmed", 6]]);
  });

  it("starts only on two records within 5 minutes: one stamped 400 days before the rest does not start it", () => {
    const { observed, doubts } = observe([T0 - 400 * DAY, T0, T0 + 1000, T0 + 2000]);
    expect(observed).toEqual([T0, T0, T0 + 1000, T0 + 2000]);
    expect(doubts).toEqual([["unconfirmed", 1]]);
    // A topic whose records are all an hour apart never starts it: the replay's time, no window.
    expect(observe([T0, T0 + 3_600_000, T0 + 7_200_000]).observed).toEqual([
      REPLAYED_AT,
      REPLAYED_AT,
      REPLAYED_AT,
    ]);
  });

  it("observes records before its first believed timestamp at it, and counts each doubt by reason and line", () => {
    const { observed, doubts } = observe([
      "missing",
      Date.UTC(2100, 0, 1),
      T0 + 1000,
      T0 + 2000,
      -1,
      T0 - 400 * DAY,
      T0 + 3000,
      "unreadable",
      T0 + 2 * DAY,
      T0 + 4000,
    ]);
    expect(observed).toEqual([
      T0 + 1000,
      T0 + 1000,
      T0 + 1000,
      T0 + 2000,
      T0 + 2000,
      T0 + 2000,
      T0 + 3000,
      T0 + 3000,
      T0 + 3000,
      T0 + 4000,
    ]);
    expect(doubts).toEqual([
      ["missing", 1],
      ["in_the_future", 2],
      ["before_2000", 5],
      ["out_of_order", 6],
      ["unreadable", 8],
      ["unconfirmed", 9],
    ]);
  });

  it("starts at the time of the replay when the capture gives it none to believe", () => {
    expect(observe(["missing", "unreadable", -1]).observed).toEqual([REPLAYED_AT, REPLAYED_AT, REPLAYED_AT]);
    expect(observe([]).observed).toEqual([]);
  });

  it("takes a gap the traffic goes on from: two days without records, then records again", () => {
    const timestamps = [T0, T0 + 1000, T0 + 2 * DAY, T0 + 2 * DAY + 1000, T0 + 2 * DAY + 2000];
    expect(observe(timestamps)).toEqual({
      observed: timestamps,
      order: [1, 2, 3, 4, 5],
      doubts: [],
    });
  });
  it("is not started or moved by a run of records with the same false timestamp: a reading read twice vouches for nothing", () => {
    // Three records from a producer whose clock stuck 400 days back, then the capture's traffic.
    const start = observe([T0 - 400 * DAY, T0 - 400 * DAY, T0 - 400 * DAY, T0, T0 + 1000, T0 + 2000]);
    expect(start.observed).toEqual([T0, T0, T0, T0, T0 + 1000, T0 + 2000]);
    expect(start.doubts).toEqual([
      ["unconfirmed", 1],
      ["unconfirmed", 2],
      ["unconfirmed", 3],
    ]);
    // Once started, three records stamped alike 2 days ahead do not move it either.
    const ahead = observe([T0, T0 + 1000, T0 + 2 * DAY, T0 + 2 * DAY, T0 + 2 * DAY, T0 + 2000]);
    expect(ahead.observed).toEqual([T0, T0 + 1000, T0 + 1000, T0 + 1000, T0 + 1000, T0 + 2000]);
    expect(ahead.doubts).toEqual([
      ["unconfirmed", 3],
      ["unconfirmed", 4],
      ["unconfirmed", 5],
    ]);
    // A batch stamped alike (one append time) still starts it when the traffic goes on from it.
    expect(observe([T0, T0, T0, T0 + 1000]).observed).toEqual([T0, T0, T0, T0 + 1000]);
    // Only such a run: the time of the replay, no window.
    expect(observe([T0, T0, T0]).observed).toEqual([REPLAYED_AT, REPLAYED_AT, REPLAYED_AT]);
  });
});
