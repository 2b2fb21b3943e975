import type { Block, Cell } from "./document.js";
import { escapeHtml } from "./html-escape.js";

/**
 * Small line charts drawn as inline SVG by the server: no script and nothing fetched, so the page
 * works offline and in a ticket. Pure: the same chart gives the same markup, byte for byte.
 */

/** One line: a value per bucket, oldest first; null where it has none (a gap in the line). */
export interface ChartSeries {
  readonly name: string;
  readonly values: readonly (number | null)[];
  /** What the text fallback says per bucket instead of the bare value, e.g. "25.0% (3 of 12)". */
  readonly texts?: readonly (string | null)[];
}

export interface LineChart {
  /** What the chart shows: its accessible name and its heading. */
  readonly title: string;
  /** The first bucket's start, ms since the epoch; bucket i starts at from + i × bucketMs. */
  readonly from: number;
  readonly bucketMs: number;
  /** `share`: 0 to 100%. `value`: logarithmic when every value is positive (cents and dollars apart), else linear. */
  readonly scale: "share" | "value";
  readonly series: readonly ChartSeries[];
}

/** The page's series colours (page-style.ts's .s0 to .s7), one per line in order. */
export const PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#e15759",
  "#b07aa1",
  "#76b7b2",
  "#edc948",
  "#9c755f",
];

const WIDTH = 480;
const HEIGHT = 150;
const LEFT = 44;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 22;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;

/** A coordinate with one decimal, as short as it can be written. */
const num = (v: number): string => String(Math.round(v * 10) / 10);

/** A bucket boundary as the axis labels it: month-day hour:minute, UTC. */
export const utcLabel = (ms: number): string => new Date(ms).toISOString().slice(5, 16).replace("T", " ");

/** A bucket boundary in full, as the text fallback and the accessible name say it. */
const utcMinute = (ms: number): string => `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** A value as a label says it: a share in percent, a number in at most three significant digits. */
export function formatValue(value: number, scale: LineChart["scale"]): string {
  if (scale === "share") return `${Number((value * 100).toFixed(1))}%`;
  if (Math.abs(value) >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (Math.abs(value) >= 1e3) return `${Number((value / 1e3).toPrecision(3))}k`;
  return String(Number(value.toPrecision(3)));
}

/** Where a value goes up the plot, with the labelled values of its grid. */
interface YAxis {
  readonly y: (value: number) => number;
  readonly ticks: readonly number[];
}

function yAxis(chart: LineChart): YAxis {
  const bottom = TOP + PLOT_H;
  if (chart.scale === "share") return { y: (v) => bottom - v * PLOT_H, ticks: [0, 0.5, 1] };
  const values = chart.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const min = Math.min(...values);
  const max = Math.max(...values);
  if (values.length > 0 && min > 0) {
    const lo = Math.floor(Math.log10(min));
    const hi = Math.max(lo + 1, Math.ceil(Math.log10(max)));
    const every = Math.ceil((hi - lo) / 4);
    const ticks: number[] = [];
    for (let d = lo; d <= hi; d += every) ticks.push(10 ** d);
    return { y: (v) => bottom - ((Math.log10(v) - lo) / (hi - lo)) * PLOT_H, ticks };
  }
  const lo = values.length > 0 ? Math.min(0, min) : 0;
  const hi = values.length > 0 && max > lo ? max : lo + 1;
  return { y: (v) => bottom - ((v - lo) / (hi - lo)) * PLOT_H, ticks: [lo, hi] };
}

/** A line through each bucket's middle; a bucket without a value breaks it, and a lone point is a dot. */
export function pathData(values: readonly (number | null)[], y: (value: number) => number): string {
  const step = PLOT_W / values.length;
  let d = "";
  let drawing = false;
  values.forEach((value, i) => {
    if (value === null) return void (drawing = false);
    const point = `${num(LEFT + (i + 0.5) * step)},${num(y(value))}`;
    const lone = values[i + 1] === null || values[i + 1] === undefined;
    d += drawing ? `L${point}` : lone ? `M${point}h0` : `M${point}`;
    drawing = true;
  });
  return d;
}

/** The labelled boundaries: the first, the last and three between (all of them when there are few). */
function xTicks(buckets: number): number[] {
  if (buckets <= 4) return Array.from({ length: buckets + 1 }, (_, i) => i);
  return [0, 1, 2, 3, 4].map((k) => Math.round((buckets * k) / 4));
}

/** What a screen reader says of the chart: what, when, and each line's newest value. */
export function chartLabel(chart: LineChart): string {
  const buckets = chart.series[0]?.values.length ?? 0;
  const end = chart.from + buckets * chart.bucketMs;
  const last = chart.series.map((s) => {
    const value = s.values[buckets - 1];
    return `${s.name} ${value === null || value === undefined ? "none" : formatValue(value, chart.scale)}`;
  });
  return `${chart.title}, ${utcMinute(chart.from)} to ${utcMinute(end)} in ${buckets} buckets; last bucket: ${last.join(", ") || "no lines"}`;
}

/** The chart as an HTML figure: its title with the legend, then the SVG. */
export function chartHtml(chart: LineChart): string {
  const buckets = chart.series[0]?.values.length ?? 0;
  const axis = yAxis(chart);
  const step = buckets === 0 ? PLOT_W : PLOT_W / buckets;
  const bottom = TOP + PLOT_H;
  const keys = chart.series.map(
    (s, i) =>
      `<span class="key"><span class="swatch" style="background:${PALETTE[i % PALETTE.length]}"></span>${escapeHtml(s.name)}</span>`,
  );
  const parts: string[] = [
    `<figure class="chart"><figcaption><strong>${escapeHtml(chart.title)}</strong> ${keys.join(" ")}</figcaption>`,
    `<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${escapeHtml(chartLabel(chart))}">`,
    `<title>${escapeHtml(chart.title)}</title>`,
  ];
  for (const tick of axis.ticks) {
    const y = num(axis.y(tick));
    parts.push(
      `<line class="grid" x1="${LEFT}" x2="${WIDTH - RIGHT}" y1="${y}" y2="${y}"/><text x="${LEFT - 4}" y="${y}" dy="3" text-anchor="end">${formatValue(tick, chart.scale)}</text>`,
    );
  }
  const ticks = xTicks(buckets);
  for (const b of ticks) {
    const x = num(LEFT + b * step);
    const anchor = b === 0 ? "start" : b === buckets ? "end" : "middle";
    parts.push(
      `<line class="tick" x1="${x}" x2="${x}" y1="${TOP}" y2="${bottom}"/><text x="${x}" y="${HEIGHT - 6}" text-anchor="${anchor}">${utcLabel(chart.from + b * chart.bucketMs)}</text>`,
    );
  }
  chart.series.forEach((s, i) => {
    const last = s.values[buckets - 1];
    parts.push(
      `<path d="${pathData(s.values, axis.y)}" stroke="${PALETTE[i % PALETTE.length]}" data-series="${escapeHtml(s.name)}" data-last="${last === null || last === undefined ? "" : String(last)}"><title>${escapeHtml(s.name)}</title></path>`,
    );
  });
  parts.push("</svg></figure>");
  return parts.join("\n");
}

/**
 * The chart's values as a table in a folded block: what renderers without charts show, and the
 * page's text alternative. One row per bucket that holds any value, so a quiet window stays short.
 */
export function chartFallback(chart: LineChart): Block {
  const buckets = chart.series[0]?.values.length ?? 0;
  const rows: Cell[][] = [];
  for (let i = 0; i < buckets; i++) {
    if (chart.series.every((s) => s.values[i] === null)) continue;
    rows.push([
      utcMinute(chart.from + i * chart.bucketMs),
      ...chart.series.map((s) => {
        const value = s.values[i] ?? null;
        return s.texts?.[i] ?? (value === null ? "" : formatValue(value, chart.scale));
      }),
    ]);
  }
  return {
    kind: "details",
    summary: `${chart.title}: the values`,
    blocks: [
      {
        kind: "table",
        columns: [{ title: "bucket from" }, ...chart.series.map((s) => ({ title: s.name, numeric: true }))],
        rows,
        empty: "no values in the window",
      },
    ],
  };
}
