import { describe, expect, it } from "vitest";
import { feedStats } from "../../../src/stats/listener.js";
import { FieldStats } from "../../../src/stats/stats.js";
import { quantile } from "../../../src/stats/sketch.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 4, 14);

async function fed(topExtra = "") {
  const { config } = await eventPipeline("", topExtra);
  const stats = new FieldStats(config.stats, config.corpus.redact);
  // A listener that throws is the pipeline's internal error: none is expected of these records.
  const errors: unknown[] = [];
  const { pipeline } = await eventPipeline("", topExtra, {
    validated: [feedStats(stats)],
    internalError: (error) => errors.push(error),
  });
  return { stats, pipeline, errors };
}

const summary = (stats: FieldStats) =>
  [...stats.store.all()].map((s) => {
    const bucket = s.buckets()[0]!;
    const detail = bucket.sketch
      ? `median ${quantile(bucket.sketch, 0.5).toFixed(1)}`
      : JSON.stringify(Object.fromEntries(bucket.values!));
    return `${s.subject} ${s.field} ${s.producer} ${s.writer} @${bucket.index * HOUR - T0} n=${bucket.count} ${detail}`;
  });

describe("feedStats", () => {
  it("profiles every number and enum of the newest active version, per producer and writer, in the bucket of the record's time", async () => {
    const { stats, pipeline } = await fed();
    expect(stats.fieldsOf(pipeline.subjects.get("event")!.subject).fields.map((f) => f.pointer)).toEqual([
      "/id",
      "/event",
      "/amount",
    ]);
    const headers = { "schema-version": "1.1", producer: "billing" };
    pipeline.process(record({ id: 1, event: "buy", amount: 500 }, headers, { timestamp: T0 + 10 }));
    pipeline.process(record({ id: 2, event: "buy", amount: 700 }, headers, { timestamp: T0 + 20 }));
    pipeline.process(record({ id: 3, event: "view" }, headers, { timestamp: T0 + 30 }));
    // Invalid for every version, yet validated: its string amount is no statistic.
    pipeline.process(
      record({ id: 4, event: "buy", amount: "9" }, { producer: "web" }, { timestamp: T0 + HOUR }),
    );
    expect(summary(stats)).toEqual([
      "event /id billing 1.1.0 @0 n=3 median 2.0",
      "event /id web none @3600000 n=1 median 4.0",
      'event /event billing 1.1.0 @0 n=3 {"buy":2,"view":1}',
      'event /event web none @3600000 n=1 {"buy":1}',
      // Within the sketch's 1% of 500, the lower of the two middle values.
      "event /amount billing 1.1.0 @0 n=2 median 497.8",
    ]);
  });

  it("never profiles a corpus.redact pointer, and leaves out what stats.exclude names", async () => {
    const { stats, pipeline } = await fed(
      "corpus:\n  redact: [/amount]\nstats:\n  exclude: { event: [/id] }\n",
    );
    pipeline.process(
      record({ id: 1, event: "buy", amount: 500 }, { producer: "billing" }, { timestamp: T0 }),
    );
    expect(summary(stats)).toEqual(['event /event billing none @0 n=1 {"buy":1}']);
    expect(stats.fieldsOf(pipeline.subjects.get("event")!.subject).redacted).toBe(1);
  });

  it("publishes only the quartiles of the current bucket, writer versions merged", async () => {
    const { stats, pipeline } = await fed("stats:\n  exclude: { event: [/id, /event] }\n");
    for (const [amount, version] of [
      [100, "1.1"],
      [200, "1.0"],
      [300, "1.1"],
      [400, "1.1"],
    ] as const) {
      pipeline.process(
        record(
          { id: 1, event: "buy", amount },
          { producer: "billing", "schema-version": version },
          { timestamp: T0 },
        ),
      );
    }
    const samples = [...stats.quantiles(T0 + 60_000)].map(
      (s) =>
        `${s.labels.field} ${s.labels.producer} ${s.labels.measure} q${s.labels.quantile}=${Math.round(s.value)}`,
    );
    expect(samples).toEqual([
      "/amount billing value q0.25=100",
      "/amount billing value q0.5=198",
      "/amount billing value q0.75=302",
    ]);
    expect([...stats.quantiles(T0 + HOUR)]).toEqual([]);
  });

  it("profiles the numbers of about stats.maxPerSecond records a second of a busy producer, every record of a quiet one, and the same records in a replay; counts every record's enum values", async () => {
    // `web`: its records after billing's, before them in each second, or none: billing's draws
    // are its own (seeded by the subject's and the producer's names), whatever else is read.
    const feed = async (web: "after" | "first" | "none") => {
      const { stats, pipeline, errors } = await fed(
        "stats:\n  maxPerSecond: 5\n  exclude: { event: [/id] }\n",
      );
      const quiet = (at: number, i: number) =>
        pipeline.process(record({ id: i, event: "buy", amount: 7 }, { producer: "web" }, { timestamp: at }));
      for (let second = 0; second < 4; second++) {
        if (web === "first") for (let i = 0; i < 40; i += 10) quiet(T0 + second * 1000 + i * 20, i);
        for (let i = 0; i < 40; i++) {
          const version = i % 4 === 0 ? "1.0" : "1.1";
          const at = T0 + second * 1000 + i * 20;
          const event = i % 8 === 1 ? "view" : "buy";
          pipeline.process(
            record(
              { id: i, event, amount: 100 + i },
              { producer: "billing", "schema-version": version },
              { timestamp: at },
            ),
          );
          if (web === "after" && i % 10 === 0) quiet(at, i);
        }
      }
      expect(errors).toEqual([]);
      return summary(stats);
    };
    const billing = [
      'event /event billing 1.0.0 @0 n=40 {"buy":40}',
      'event /event billing 1.1.0 @0 n=120 {"view":20,"buy":100}',
      "event /amount billing 1.0.0 @0 n=27 median 127.8",
      "event /amount billing 1.1.0 @0 n=111 median 117.9",
    ];
    // web sends 4 a second, under the ceiling: all 16. billing sends 40 a second: its first second up
    // to twice the ceiling (10, each as 1), then each record with a chance of 5 / 40 (the seeded draws
    // took 6, 3 and 7), one chance for both its writer versions, each drawn record counted as the 8 it
    // stands for: 10 + 16 × 8 = 138. Counted as 1 each, the first second's first ten (amounts 100 to
    // 109) pulled the medians down to 104.6 and 108.9. Its events are counted from all 160: "view" is
    // one in eight, and a value that rare drawn in one bucket and not the one before would read as new.
    expect(await feed("after")).toEqual([
      ...billing.slice(0, 2),
      'event /event web none @0 n=16 {"buy":16}',
      ...billing.slice(2),
      "event /amount web none @0 n=16 median 7.0",
    ]);
    expect((await feed("first")).filter((line) => line.includes(" billing "))).toEqual(billing);
    expect(await feed("none")).toEqual(billing);
  });

  it("keeps a producer's rate and draws across a reloaded catalog (a new subject object of the same name)", async () => {
    const extra = "stats:\n  maxPerSecond: 5\n  exclude: { event: [/id, /event] }\n";
    const { config } = await eventPipeline("", extra);
    const stats = new FieldStats(config.stats, config.corpus.redact);
    const hook = feedStats(stats);
    const before = (await eventPipeline("", extra, { validated: [hook] })).pipeline;
    const after = (await eventPipeline("", extra, { validated: [hook] })).pipeline;
    expect(after.subjects.get("event")!.subject).not.toBe(before.subjects.get("event")!.subject);
    const send = (pipeline: typeof before, second: number) => {
      for (let i = 0; i < 40; i++)
        pipeline.process(
          record(
            { id: i, event: "buy", amount: 100 + i },
            { producer: "billing" },
            { timestamp: T0 + second * 1000 + i * 20 },
          ),
        );
    };
    send(before, 0);
    for (const second of [1, 2, 3]) send(after, second);
    // As one catalog throughout (the test above: 10, then 6, 3 and 7 of 40 a second, each as 8), where
    // a thinning made anew would take twice the ceiling again in the reload's first second, each as 1.
    expect(summary(stats)).toEqual(["event /amount billing none @0 n=138 median 117.9"]);
  });
});
