import type { Bars, Block, Cell, Column, ReportDocument, Section, Span } from "./document.js";
import { chartFallback, chartHtml } from "./charts.js";
import { escapeHtml } from "./html-escape.js";
import { PAGE_STYLE } from "./page-style.js";

export { escapeHtml };

export interface HtmlOptions {
  /** Reload the page every this many seconds: the live status page. A file written once has none. */
  readonly refreshSeconds?: number;
  /**
   * Where the monitor's /metrics and /api/report are: `""` on the monitor itself, a URL for a page
   * written from a running monitor; absent (a report of a replayed capture) shows no links.
   */
  readonly monitorUrl?: string;
  /** The index of the monitor's pages relative to this one (`../` on a subject's page), linked first. */
  readonly home?: string;
}

const seriesClass = (series: number) => (series < 0 ? "sn" : `s${series % 8}`);
const percent = (share: number) => `${(Math.min(1, Math.max(0, share)) * 100).toFixed(1)}%`;

function span(s: Span): string {
  const text = escapeHtml(s.text);
  const coded = s.code && s.text !== "" ? `<code>${text}</code>` : text;
  const body = s.href === undefined ? coded : `<a href="${escapeHtml(s.href)}">${coded}</a>`;
  return s.tone ? `<span class="t-${s.tone}">${body}</span>` : body;
}

function bars(b: Bars): string {
  const parts = b.bars
    .map(
      (bar) =>
        `<span class="seg ${seriesClass(bar.series)}" style="width:${percent(bar.share)}" title="${escapeHtml(`${bar.label} ${percent(bar.share)}`)}"></span>`,
    )
    .join("");
  return `<span class="bar">${parts}</span> <span class="bar-text">${escapeHtml(b.text)}</span>`;
}

function cell(c: Cell): string {
  if (typeof c === "string") return escapeHtml(c);
  if ("bars" in c) return bars(c);
  // Folded members stay in their row: a click opens them, with no script.
  if ("fold" in c)
    return `<details><summary>${span(c)}</summary>\n${c.fold.map(block).join("\n")}\n</details>`;
  return span(c);
}

function header(column: Column): string {
  const swatch =
    column.series === undefined ? "" : `<span class="swatch ${seriesClass(column.series)}"></span>`;
  return `<th${column.numeric ? ' class="num"' : ""}>${swatch}${escapeHtml(column.title)}</th>`;
}

function block(b: Block): string {
  switch (b.kind) {
    case "text":
      return `<p>${cell(b.text)}</p>`;
    case "list":
      return `<ul class="reasons">${b.items.map((item) => `<li>${cell(item)}</li>`).join("")}</ul>`;
    case "facts":
      return `<dl class="facts">${b.facts.map(([label, value]) => `<div><dt>${escapeHtml(label)}</dt><dd>${cell(value)}</dd></div>`).join("")}</dl>`;
    case "table":
      if (b.rows.length === 0) return `<p class="t-muted">${escapeHtml(b.empty)}</p>`;
      return [
        `<div class="scroll"><table><thead><tr>${b.columns.map(header).join("")}</tr></thead><tbody>`,
        ...b.rows.map(
          (row) =>
            `<tr>${row.map((c, i) => `<td${b.columns[i]?.numeric ? ' class="num"' : ""}>${cell(c)}</td>`).join("")}</tr>`,
        ),
        `</tbody></table></div>`,
      ].join("\n");
    case "chart":
      // A chart and its values in one box: boxes flow side by side where the page is wide enough.
      return `<div class="chart-box">${chartHtml(b.chart)}\n${block(chartFallback(b.chart))}</div>`;
    case "details":
      return `<details><summary>${escapeHtml(b.summary)}</summary>\n${b.blocks.map(block).join("\n")}\n</details>`;
  }
}

function section(s: Section, level: number): string {
  const badge = s.badge
    ? ` <span class="badge b-${s.badge.tone ?? "muted"}">${escapeHtml(s.badge.text)}</span>`
    : "";
  const tag = `h${Math.min(level, 6)}`;
  return [
    `<section id="${escapeHtml(s.id)}"${level === 2 ? ' class="card"' : ""}>`,
    `<${tag}>${escapeHtml(s.title)}${badge}</${tag}>`,
    ...s.blocks.map(block),
    ...(s.sections ?? []).map((child) => section(child, level + 1)),
    `</section>`,
  ].join("\n");
}

function links(base: string, home: string | undefined): string {
  const link = (path: string) => `<a href="${escapeHtml(base.replace(/\/$/, "") + path)}">${path}</a>`;
  const index = home === undefined ? [] : [`<a href="${escapeHtml(home)}">all subjects</a>`];
  return `<nav>${[...index, ...["/metrics", "/api/report", "/api/status"].map(link)].join(" ")}</nav>`;
}

/**
 * The report as one self-contained HTML page: no script, no external file, so it works offline, from
 * the monitor's `/` or written to a file for a pull request or a ticket.
 */
export function renderHtml(document: ReportDocument, options: HtmlOptions = {}): string {
  const refresh = options.refreshSeconds;
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...(refresh ? [`<meta http-equiv="refresh" content="${Math.max(1, Math.round(refresh))}">`] : []),
    `<title>${escapeHtml(document.title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    "</head>",
    "<body>",
    "<header>",
    `<h1>${escapeHtml(document.title)}</h1>`,
    `<p class="meta">generated <time>${escapeHtml(document.generatedAt)}</time>${refresh ? `, refreshes every ${Math.max(1, Math.round(refresh))} s` : ""}</p>`,
    ...(options.monitorUrl === undefined ? [] : [links(options.monitorUrl, options.home)]),
    "</header>",
    "<main>",
    ...document.notices.map((n) => `<p class="notice">${span(n)}</p>`),
    ...document.sections.map((s) => section(s, 2)),
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
