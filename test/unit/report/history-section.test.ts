import { describe, expect, it } from "vitest";
import type { HistoryView } from "../../../src/history/history.js";
import type { LineChart } from "../../../src/report/charts.js";
import type { Block, Section } from "../../../src/report/document.js";
import { MAX_QUARTILE_CHARTS, historySection } from "../../../src/report/history-section.js";
import type { QuartileHistory, QuartileLine } from "../../../src/stats/over-time.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 1, 8);

const TRAFFIC: HistoryView = {
  subject: "pay",
  bucketMs: HOUR,
  from: T0,
  buckets: 3,
  versions: [
    { producer: "web", version: "1.1.0", records: [0, 1, 3] },
    { producer: "billing", version: "1.1.0", records: [0, 2, 2] },
    { producer: "web", version: "1.0.0", records: [4, 3, 1] },
    { producer: "billing", version: "1.0.0", records: [2, 0, 0] },
  ],
  fields: [
    { field: "/amount", producer: "web", records: [4, 4, 4], present: [4, 3, 1] },
    { field: "/amount", producer: "billing", records: [2, 2, 0], present: [2, 0, 0] },
  ],
};

/** Each chart of a section as `title: series = values (texts)`. */
function charts(section: Section | undefined): string[] {
  return (section?.blocks ?? [])
    .filter((b): b is Extract<Block, { kind: "chart" }> => b.kind === "chart")
    .map((b) => b.chart)
    .map(
      (c: LineChart) =>
        `${c.title}: ${c.series.map((s) => `${s.name} = ${s.values.join(",")} (${(s.texts ?? []).join(", ")})`).join("; ")}`,
    );
}

describe("a subject's section over time", () => {
  it("draws a chart per version, in the catalog's order, of each producer's share of its records", () => {
    const section = historySection("subject-pay", { traffic: TRAFFIC }, ["1.0.0", "1.1.0", "none"])!;
    expect(section.sections!.map((s) => s.id)).toEqual([
      "subject-pay-versions-over-time",
      "subject-pay-fields-over-time",
    ]);
    expect(charts(section.sections![0])).toEqual([
      "share of each producer's records on 1.0.0: billing = 1,0,0 (100% (2 of 2), 0% (0 of 2), 0% (0 of 2)); web = 1,0.75,0.25 (100% (4 of 4), 75% (3 of 4), 25% (1 of 4))",
      "share of each producer's records on 1.1.0: billing = 0,1,1 (0% (0 of 2), 100% (2 of 2), 100% (2 of 2)); web = 0,0.25,0.75 (0% (0 of 4), 25% (1 of 4), 75% (3 of 4))",
    ]);
    // billing sent nothing in the last bucket: no share, a gap in its line.
    expect(charts(section.sections![1])).toEqual([
      "share of each producer's records carrying /amount: billing = 1,0, (100% (2 of 2), 0% (0 of 2), ); web = 1,0.75,0.25 (100% (4 of 4), 75% (3 of 4), 25% (1 of 4))",
    ]);
  });

  it("says what the charts of undeclared and unreadable records are of", () => {
    const traffic = {
      ...TRAFFIC,
      versions: [
        { producer: "web", version: "unknown", records: [0, 0, 1] },
        { producer: "web", version: "none", records: [0, 0, 1] },
      ],
      fields: [],
    };
    const section = historySection("subject-pay", { traffic }, ["1.0.0", "none"])!;
    expect(charts(section.sections![0])).toEqual([
      "share of each producer's records that declared no version: web = ,,0.5 (, , 50% (1 of 2))",
      "share of each producer's records whose version could not be read: web = ,,0.5 (, , 50% (1 of 2))",
    ]);
  });

  it("draws at most 12 quartile charts and names the others", () => {
    const line = (i: number): QuartileLine => ({
      field: `/f${String(i).padStart(2, "0")}`,
      producer: "web",
      measure: "value",
      count: [0, 2, 1],
      p25: [null, 1, 2],
      p50: [null, 2, 3],
      p75: [null, 3, 4],
    });
    const quartiles: QuartileHistory = {
      subject: "pay",
      bucketMs: HOUR,
      from: T0,
      buckets: 3,
      lines: Array.from({ length: MAX_QUARTILE_CHARTS + 2 }, (_, i) => line(i)),
    };
    const section = historySection("subject-pay", { quartiles }, [])!.sections![0]!;
    expect(section.id).toBe("subject-pay-quartiles");
    const drawn = charts(section);
    expect(drawn).toHaveLength(12);
    expect(drawn[0]).toBe(
      "/f00 from web: quartiles: p25 = ,1,2 (, 1 (of 2), 2 (of 1)); p50 = ,2,3 (, 2 (of 2), 3 (of 1)); p75 = ,3,4 (, 3 (of 2), 4 (of 1))",
    );
    expect(section.blocks.at(-1)).toEqual({
      kind: "text",
      text: { text: "… and 2 more (/f12 from web, /f13 from web): /api/status has them all.", tone: "muted" },
    });
  });

  it("says how many records the history's bound left out, and links the buckets as JSON", () => {
    const bound = { lines: 2000, maxLines: 2000, dropped: 17 };
    expect(
      historySection("subject-pay", { traffic: TRAFFIC, bound }, [], "../subjects/pay/history")!.blocks,
    ).toEqual([
      { kind: "text", text: { text: "these buckets as JSON", href: "../subjects/pay/history" } },
      {
        kind: "text",
        text: {
          text: "17 records (or field checks) are drawn nowhere: the monitor keeps 2000 of at most 2000 lines over all subjects, or they were observed before the oldest bucket.",
          tone: "warn",
        },
      },
    ]);
    expect(
      historySection("subject-pay", { traffic: TRAFFIC, bound: { ...bound, dropped: 0 } }, [])!.blocks,
    ).toEqual([]);
  });

  it("is absent when nothing was counted", () => {
    expect(
      historySection("subject-pay", { traffic: { ...TRAFFIC, versions: [], fields: [] } }, []),
    ).toBeUndefined();
    expect(historySection("subject-pay", {}, [])).toBeUndefined();
  });
});
