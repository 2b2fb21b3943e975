import { describe, expect, it } from "vitest";
import { Health } from "../../../src/health/health.js";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { feedStats } from "../../../src/stats/listener.js";
import { FieldStats } from "../../../src/stats/stats.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

const HOUR = 3_600_000;

describe("the field statistics' metrics", () => {
  it("publish the current bucket's quartiles per field and producer, the findings, and no value as sent", async () => {
    const { config, catalog } = await eventPipeline("", "stats:\n  exclude: { event: [/id] }\n");
    const stats = new FieldStats(config.stats, config.corpus.redact);
    const { pipeline } = await eventPipeline("", "stats:\n  exclude: { event: [/id] }\n", {
      validated: [feedStats(stats)],
    });
    const now = Date.now();
    const start = (Math.floor(now / HOUR) - 3) * HOUR;
    // Three hours of amounts in cents, then the current hour in dollars; a new event value in it too.
    for (let h = 0; h < 4; h++) {
      for (let i = 0; i < 60; i++) {
        const cents = 1000 + ((i * 7919) % 9000);
        const event = h === 3 && i === 0 ? "click" : "buy";
        pipeline.process(
          record(
            { id: i, event, amount: h < 3 ? cents : cents / 100 },
            { producer: "billing" },
            { timestamp: start + h * HOUR + i },
          ),
        );
      }
    }
    // A producer with nothing to find: its findings are 0, not missing.
    for (const amount of [7, 8, 9]) {
      pipeline.process(
        record({ id: 1, event: "view", amount }, { producer: "web" }, { timestamp: start + 3 * HOUR }),
      );
    }
    const text = await createRegistry({
      pipeline,
      health: new Health(),
      catalog: () => catalog,
      version: "test",
      stats,
    }).metrics();
    const lines = text.split("\n").filter((l) => /^schemawatch_field_/.test(l));
    // The quartiles within 1% of 31.37, 56.01 and 77.88 dollars (the amounts at their ranks).
    expect(
      lines.map((l) =>
        l.replace(
          /(quantile=.*) ([0-9.]+)$/,
          (_, head: string, v: string) => `${head} ${Math.round(Number(v))}`,
        ),
      ),
    ).toEqual([
      // The quartiles and findings, which the series budget can fold, come after the others.
      "schemawatch_field_stats_dropped_total 0",
      'schemawatch_field_stats_folded_total{reason="outside_enum"} 0',
      'schemawatch_field_stats_folded_total{reason="past_max_values"} 0',
      'schemawatch_field_stats_folded_total{reason="memory"} 0',
      'schemawatch_field_stats_folded_total{reason="cut"} 0',
      "schemawatch_field_stats_unshared_total 0",
      // 4 series (400 + 8 × 48 slots each), 5 amount buckets of 128 bins (700 + 12 × 128 each), 5 event
      // buckets of 1, 1, 1, 2 and 1 values (700 + 80 + 2 a character each: buy ×4, click, view).
      "schemawatch_field_stats_bytes 18338",
      'schemawatch_field_quantile{subject="event",field="/amount",producer="billing",measure="value",quantile="0.25"} 32',
      'schemawatch_field_quantile{subject="event",field="/amount",producer="billing",measure="value",quantile="0.5"} 56',
      'schemawatch_field_quantile{subject="event",field="/amount",producer="billing",measure="value",quantile="0.75"} 77',
      // 7, 8, 9: the value at each rank (0.5 and 1.5 read the lower one), within 1%.
      'schemawatch_field_quantile{subject="event",field="/amount",producer="web",measure="value",quantile="0.25"} 7',
      'schemawatch_field_quantile{subject="event",field="/amount",producer="web",measure="value",quantile="0.5"} 8',
      'schemawatch_field_quantile{subject="event",field="/amount",producer="web",measure="value",quantile="0.75"} 8',
      'schemawatch_field_findings{subject="event",field="/event",producer="billing",kind="new_value"} 1',
      'schemawatch_field_findings{subject="event",field="/event",producer="billing",kind="share"} 0',
      'schemawatch_field_findings{subject="event",field="/event",producer="web",kind="new_value"} 0',
      'schemawatch_field_findings{subject="event",field="/event",producer="web",kind="share"} 0',
      'schemawatch_field_findings{subject="event",field="/amount",producer="billing",kind="scale"} 1',
      'schemawatch_field_findings{subject="event",field="/amount",producer="billing",kind="peers"} 0',
      'schemawatch_field_findings{subject="event",field="/amount",producer="web",kind="scale"} 0',
      'schemawatch_field_findings{subject="event",field="/amount",producer="web",kind="peers"} 0',
    ]);
  });
});
