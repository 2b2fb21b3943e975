import { describe, expect, it } from "vitest";
import {
  chartFallback,
  chartHtml,
  formatValue,
  pathData,
  type LineChart,
} from "../../../src/report/charts.js";
import { renderText } from "../../../src/report/render-text.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 11, 1, 8);

/** billing moves off 1.0.0 (a bucket without records between), web stays on it. */
const SHARES: LineChart = {
  title: "share on 1.0.0",
  from: T0,
  bucketMs: HOUR,
  scale: "share",
  series: [
    { name: "billing", values: [1, 0.5, null, 0] },
    { name: "web", values: [null, 1, 1, 1] },
  ],
};

describe("a line chart", () => {
  it("draws each series through its buckets' middles, on a 0-100% grid with the boundaries in UTC", () => {
    // 428 px of plot in 4 buckets of 107: middles at 97.5, 204.5, 311.5, 418.5; 100% at y 8, 0% at 128.
    expect(chartHtml(SHARES).split("\n")).toEqual([
      '<figure class="chart"><figcaption><strong>share on 1.0.0</strong> <span class="key"><span class="swatch" style="background:#4e79a7"></span>billing</span> <span class="key"><span class="swatch" style="background:#f28e2b"></span>web</span></figcaption>',
      '<svg viewBox="0 0 480 150" width="480" height="150" role="img" aria-label="share on 1.0.0, 2026-12-01 08:00 UTC to 2026-12-01 12:00 UTC in 4 buckets; last bucket: billing 0%, web 100%">',
      "<title>share on 1.0.0</title>",
      '<line class="grid" x1="44" x2="472" y1="128" y2="128"/><text x="40" y="128" dy="3" text-anchor="end">0%</text>',
      '<line class="grid" x1="44" x2="472" y1="68" y2="68"/><text x="40" y="68" dy="3" text-anchor="end">50%</text>',
      '<line class="grid" x1="44" x2="472" y1="8" y2="8"/><text x="40" y="8" dy="3" text-anchor="end">100%</text>',
      '<line class="tick" x1="44" x2="44" y1="8" y2="128"/><text x="44" y="144" text-anchor="start">12-01 08:00</text>',
      '<line class="tick" x1="151" x2="151" y1="8" y2="128"/><text x="151" y="144" text-anchor="middle">12-01 09:00</text>',
      '<line class="tick" x1="258" x2="258" y1="8" y2="128"/><text x="258" y="144" text-anchor="middle">12-01 10:00</text>',
      '<line class="tick" x1="365" x2="365" y1="8" y2="128"/><text x="365" y="144" text-anchor="middle">12-01 11:00</text>',
      '<line class="tick" x1="472" x2="472" y1="8" y2="128"/><text x="472" y="144" text-anchor="end">12-01 12:00</text>',
      // A gap breaks billing's line; its lone last point is a dot (a zero-length segment, round caps).
      '<path d="M97.5,8L204.5,68M418.5,128h0" stroke="#4e79a7" data-series="billing" data-last="0"><title>billing</title></path>',
      '<path d="M204.5,8L311.5,8L418.5,8" stroke="#f28e2b" data-series="web" data-last="1"><title>web</title></path>',
      "</svg></figure>",
    ]);
  });

  it("puts positive values on a logarithmic scale of whole decades, labelled shortly", () => {
    const html = chartHtml({
      title: "amount",
      from: T0,
      bucketMs: HOUR,
      scale: "value",
      series: [{ name: "p50", values: [100, 1000, null, 10000] }],
    });
    expect(html).toContain(
      '<path d="M97.5,128L204.5,68M418.5,8h0" stroke="#4e79a7" data-series="p50" data-last="10000">',
    );
    expect([...html.matchAll(/text-anchor="end">([^<]+)</g)].map((m) => m[1])).toEqual([
      "100",
      "1k",
      "10k",
      "12-01 12:00",
    ]);
    // A zero cannot go on a logarithmic scale: the chart is linear from 0 then.
    const linear = chartHtml({
      ...SHARES,
      scale: "value",
      series: [{ name: "p25", values: [0, 5, 10, null] }],
    });
    expect(linear).toContain(
      '<path d="M97.5,128L204.5,68L311.5,8" stroke="#4e79a7" data-series="p25" data-last="">',
    );
  });

  it("labels the x axis at five boundaries of a long window", () => {
    const values = Array.from({ length: 48 }, (_, i) => i / 47);
    const html = chartHtml({ ...SHARES, bucketMs: 12_600_000, series: [{ name: "web", values }] });
    expect(
      [...html.matchAll(/<text x="([\d.]+)" y="144" text-anchor="\w+">([^<]+)</g)].map(
        (m) => `${m[1]} ${m[2]}`,
      ),
    ).toEqual(["44 12-01 08:00", "151 12-03 02:00", "258 12-04 20:00", "365 12-06 14:00", "472 12-08 08:00"]);
    expect(pathData(values, (v) => 128 - v * 120).split("L")).toHaveLength(48);
  });

  it("shows names from traffic as text", () => {
    const html = chartHtml({ ...SHARES, series: [{ name: `<b a="x">`, values: [1, 1, 1, 1] }] });
    expect(html).not.toContain("<b ");
    expect(html).toContain('data-series="&lt;b a=&quot;x&quot;&gt;"');
    expect(html).toContain("</span>&lt;b a=&quot;x&quot;&gt;</span>");
  });
});

describe("a chart's text fallback", () => {
  it("lists every bucket that holds a value, with the series' own words where given", () => {
    const chart = {
      ...SHARES,
      series: [
        SHARES.series[0]!,
        { ...SHARES.series[1]!, texts: [null, "100% (2 of 2)", "100% (1 of 1)", "100% (4 of 4)"] },
      ],
    };
    expect(chartFallback(chart)).toEqual({
      kind: "details",
      summary: "share on 1.0.0: the values",
      blocks: [
        {
          kind: "table",
          columns: [
            { title: "bucket from" },
            { title: "billing", numeric: true },
            { title: "web", numeric: true },
          ],
          rows: [
            ["2026-12-01 08:00 UTC", "100%", ""],
            ["2026-12-01 09:00 UTC", "50%", "100% (2 of 2)"],
            ["2026-12-01 10:00 UTC", "", "100% (1 of 1)"],
            ["2026-12-01 11:00 UTC", "0%", "100% (4 of 4)"],
          ],
          empty: "no values in the window",
        },
      ],
    });
  });

  it("is what the text rendering shows of a chart", () => {
    const text = renderText({
      title: "t",
      generatedAt: "now",
      notices: [],
      sections: [{ id: "s", title: "s", blocks: [{ kind: "chart", chart: SHARES }] }],
    });
    expect(text.split("\n").slice(4)).toEqual([
      "  share on 1.0.0: the values:",
      "    bucket from           billing   web",
      "    2026-12-01 08:00 UTC     100%",
      "    2026-12-01 09:00 UTC      50%  100%",
      "    2026-12-01 10:00 UTC           100%",
      "    2026-12-01 11:00 UTC       0%  100%",
      "",
    ]);
  });
});

describe("a value's label", () => {
  it.each([
    [0.125, "share", "12.5%"],
    [1, "share", "100%"],
    [0.01, "value", "0.01"],
    [123.456, "value", "123"],
    [1999, "value", "2k"],
    [1234567, "value", "1.23M"],
  ] as const)("%s as a %s is %s", (value, scale, text) => {
    expect(formatValue(value, scale)).toBe(text);
  });
});
