import { describe, expect, it } from "vitest";
import type { ShiftOptions } from "../../../src/stats/findings.js";
import { detectPeerShift } from "../../../src/stats/peers.js";
import { FieldStats } from "../../../src/stats/stats.js";
import { StatsStore } from "../../../src/stats/store.js";
import { eventPipeline } from "../../helpers/monitor.js";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 4, 8);
const shift: ShiftOptions = { factor: 10, minSamples: 50, bucketMs: HOUR };
const cents = (i: number) => 1000 + ((i * 7919) % 9000);

/** Producers' /amount series of version 1.1.0, each fed `perHour` values an hour from `firstHour` on. */
function feed(
  store: StatsStore,
  producers: Record<
    string,
    { firstHour?: number; perHour?: number; value: (h: number, i: number) => number }
  >,
  hours: number,
) {
  for (const [producer, { firstHour = 0, perHour = 60, value }] of Object.entries(producers)) {
    const series = store.series("payment", "/amount", "number", producer, "1.1.0")!;
    for (let h = firstHour; h < hours; h++)
      for (let i = 0; i < perHour; i++) store.addNumber(series, START + h * HOUR + i, value(h, i));
  }
}

const newStore = () =>
  new StatsStore({ bucketMs: HOUR, buckets: 48, maxSeries: 20, maxValues: 20, maxBytes: 1e9 });
const bucketsOf = (store: StatsStore, producer: string) =>
  [...store.all()].find((s) => s.producer === producer)!.buckets();
const peersOf = (store: StatsStore, producer: string) =>
  [...store.all()].filter((s) => s.producer !== producer).map((s) => s.buckets());
const key = (producer: string) => ({ subject: "payment", field: "/amount", producer, writer: "1.1.0" });

describe("detectPeerShift", () => {
  it("finds a new producer in dollars among producers in cents, though it has no past of its own", () => {
    const store = newStore();
    feed(
      store,
      {
        web: { value: (_h, i) => cents(i) },
        shop: { value: (_h, i) => cents(i) },
        billing: { firstHour: 5, value: (_h, i) => cents(i) / 100 },
      },
      7,
    );
    const finding = detectPeerShift(
      key("billing"),
      bucketsOf(store, "billing"),
      peersOf(store, "billing"),
      shift,
    );
    expect(finding).toMatchObject({
      kind: "peers",
      producer: "billing",
      since: START + 5 * HOUR,
      samplesOwn: 120,
      samplesPeers: 240,
      message:
        "billing's /amount (payment, version 1.1.0) is 100 times smaller than the other producers' of that version since 2026-12-04 13:00 UTC: check its unit",
    });
    // The producers in cents are not odd: the others of each are half in cents, half in dollars.
    expect(
      detectPeerShift(key("web"), bucketsOf(store, "web"), peersOf(store, "web"), shift),
    ).toBeUndefined();
  });

  it("finds nothing with one other producer, with few values, or among producers alike", () => {
    const two = newStore();
    feed(two, { web: { value: (_h, i) => cents(i) }, billing: { value: (_h, i) => cents(i) / 100 } }, 3);
    expect(
      detectPeerShift(key("billing"), bucketsOf(two, "billing"), peersOf(two, "billing"), shift),
    ).toBeUndefined();
    const few = newStore();
    feed(
      few,
      {
        web: { value: (_h, i) => cents(i) },
        shop: { value: (_h, i) => cents(i) },
        billing: { firstHour: 2, perHour: 20, value: (_h, i) => cents(i) / 100 },
      },
      3,
    );
    expect(
      detectPeerShift(key("billing"), bucketsOf(few, "billing"), peersOf(few, "billing"), shift),
    ).toBeUndefined();
    const alike = newStore();
    const normal = { value: (_h: number, i: number) => cents(i) };
    feed(alike, { web: normal, shop: normal, billing: { value: (_h, i) => cents(i) * 3 } }, 3);
    expect(
      detectPeerShift(key("billing"), bucketsOf(alike, "billing"), peersOf(alike, "billing"), shift),
    ).toBeUndefined();
  });
});

describe("FieldStats.findings", () => {
  it("names a producer whose own past shows the change once, as a scale finding, not again against its peers", async () => {
    const { config } = await eventPipeline();
    const stats = new FieldStats(config.stats, [], { now: () => START + 8 * HOUR });
    feed(
      stats.store,
      {
        web: { value: (_h, i) => cents(i) },
        shop: { value: (_h, i) => cents(i) },
        billing: { value: (h, i) => (h < 6 ? cents(i) : cents(i) / 100) },
        partner: { firstHour: 6, value: (_h, i) => cents(i) * 100 },
      },
      8,
    );
    expect(stats.findings().map((f) => `${f.producer} ${f.kind} ${f.since - START}`)).toEqual([
      `billing scale ${6 * HOUR}`,
      `partner peers ${6 * HOUR}`,
    ]);
  });
});

describe("the peers' majority (issue 42)", () => {
  it("is counted by producer, not by value: an odd producer that sends most values does not make the others odd", async () => {
    const { config } = await eventPipeline();
    const stats = new FieldStats(config.stats, [], { now: () => START + 7 * HOUR });
    feed(
      stats.store,
      {
        web: { value: (_h, i) => cents(i) },
        shop: { value: (_h, i) => cents(i) },
        app: { value: (_h, i) => cents(i) },
        // 20 times the values of each other producer, in dollars from its first record on.
        billing: { firstHour: 5, perHour: 1200, value: (_h, i) => cents(i) / 100 },
      },
      7,
    );
    expect(stats.findings().map((f) => `${f.producer} ${f.kind} ${f.since - START}`)).toEqual([
      `billing peers ${5 * HOUR}`,
    ]);
    const finding = stats.findings()[0]!;
    // Its peers are web, shop and app: 120 values each since 13:00.
    expect(finding).toMatchObject({ samplesOwn: 2400, samplesPeers: 360 });
    expect(finding.kind === "peers" && Math.abs(finding.factor / 0.01 - 1)).toBeLessThan(0.02);
  });
});

describe("stats.factors", () => {
  it("gives a field a factor of its own: kilograms to pounds (2.2×) found at factor 2, not at 10", async () => {
    const { config } = await eventPipeline("", "stats:\n  factors: { payment: { /amount: 2 } }\n");
    expect(config.stats.factors).toEqual({ payment: { "/amount": 2 } });
    const kilograms = (h: number, i: number) => (h < 6 ? cents(i) : cents(i) * 2.2046);
    const own = new FieldStats(config.stats, [], { now: () => START + 8 * HOUR });
    feed(own.store, { billing: { value: kilograms } }, 8);
    expect(own.findings().map((f) => f.message)).toEqual([
      "billing's /amount (payment, version 1.1.0) is 2.2 times larger since 2026-12-04 14:00 UTC while its schema did not change: check its unit",
    ]);
    const { config: plain } = await eventPipeline();
    const byDefault = new FieldStats(plain.stats, [], { now: () => START + 8 * HOUR });
    feed(byDefault.store, { billing: { value: kilograms } }, 8);
    expect(byDefault.findings()).toEqual([]);
  });
});

describe("the recent past", () => {
  it("is the kept buckets' span back from now: a change found two days ago is no finding today", async () => {
    const { config } = await eventPipeline();
    let now = START + 8 * HOUR;
    const stats = new FieldStats(config.stats, [], { now: () => now });
    feed(stats.store, { billing: { value: (h, i) => (h < 6 ? cents(i) : cents(i) / 100) } }, 8);
    expect(stats.findings().map((f) => f.kind)).toEqual(["scale"]);
    // 48 hours later, with nothing sent since, every bucket is past the span.
    now += 48 * HOUR;
    expect(stats.findings()).toEqual([]);
  });
});
