import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { feedStats } from "../../../src/stats/listener.js";
import { FieldStats } from "../../../src/stats/stats.js";
import { writeTree } from "../../helpers/files.js";
import { record } from "../../helpers/monitor.js";

const HOUR = 3_600_000;
const START = Date.UTC(2026, 11, 4, 8);

/** A `note` subject whose one version declares a free string `/text`. */
async function notes() {
  const dir = await writeTree({
    "schemas/1.0.json": { type: "object", properties: { text: { type: "string" } } },
  });
  const config = parseConfig(
    `subjects:\n  - name: note\n    topics: [events]\n    schemas: ${dir}/schemas\n    versions:\n      "1.0.0": { status: active }\n`,
    `${dir}/config.yaml`,
  );
  const stats = new FieldStats(config.stats, [], { now: () => START + 2 * HOUR + 60_000 });
  const pipeline = new Pipeline(await loadCatalog(config), config, { validated: [feedStats(stats)] });
  return { stats, pipeline };
}

describe("a string field's lengths", () => {
  it("are profiled by default, published as measure length, and a tenfold change is found", async () => {
    const { stats, pipeline } = await notes();
    const text = (h: number, i: number) => "x".repeat(h < 2 ? 10 + (i % 20) : 200 + (i % 400));
    for (let h = 0; h < 3; h++)
      for (let i = 0; i < 60; i++)
        pipeline.process(
          record(
            { text: text(h, i) },
            { producer: "app", "schema-version": "1.0" },
            { timestamp: START + h * HOUR + i },
          ),
        );
    // The current hour's 60 lengths, 200 to 259: 214, 229 and 244 at their ranks, within 1%.
    expect(
      [...stats.quantiles()].map(
        (s) => `${s.labels.field} ${s.labels.measure} q${s.labels.quantile}=${Math.round(s.value)}`,
      ),
    ).toEqual(["/text length q0.25=215", "/text length q0.5=228", "/text length q0.75=242"]);
    // The median length went from 19 (10 to 29) to 229 (200 to 259).
    expect(stats.findings().map((f) => f.message)).toEqual([
      "app's /text (note, version 1.0.0) is 12 times longer since 2026-12-04 10:00 UTC while its schema did not change: check what it carries",
    ]);
  });
});
