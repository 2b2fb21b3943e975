/** The status page's stylesheet, inlined so that the page needs nothing else (offline, in a ticket). */
export const PAGE_STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #656d76; --line: #d8dee4; --bg: #f6f8fa; --card: #fff;
  --good: #1a7f37; --bad: #cf222e; --warn: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Liberation Sans", sans-serif;
  color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 16px; padding: 14px 24px;
  background: #24292f; color: #f6f8fa; }
header h1 { margin: 0; font-size: 20px; }
header .meta { margin: 0; color: #b6bec8; }
header nav { margin-left: auto; display: flex; gap: 14px; }
header a { color: #9ecbff; }
main { max-width: 1180px; margin: 0 auto; padding: 16px 24px 40px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 4px 20px 16px;
  margin: 16px 0; }
h2 { font-size: 18px; margin: 14px 0 8px; }
h3 { font-size: 15px; margin: 20px 0 6px; padding-top: 10px; border-top: 1px solid var(--line); }
h4 { font-size: 14px; margin: 14px 0 4px; }
p { margin: 6px 0; }
.notice { padding: 10px 14px; border: 1px solid var(--bad); border-radius: 6px; background: #ffebe9; }
.facts { display: flex; flex-wrap: wrap; gap: 4px 28px; margin: 6px 0; }
.facts div { display: flex; gap: 8px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; font-weight: 600; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 6px 0; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 12px 4px 0; text-align: left; vertical-align: top; border-bottom: 1px solid #eaeef2; }
th { font-weight: 600; color: var(--muted); white-space: nowrap; }
td.num, th.num { text-align: right; }
tbody tr:hover { background: #f6f8fa; }
code { font: 12.5px/1.4 ui-monospace, "DejaVu Sans Mono", "Liberation Mono", monospace;
  background: #eff2f5; padding: 1px 4px; border-radius: 4px; }
.t-good { color: var(--good); }
.t-bad { color: var(--bad); font-weight: 600; }
.t-warn { color: var(--warn); }
.t-muted { color: var(--muted); }
.badge { display: inline-block; margin-left: 6px; padding: 0 8px; border-radius: 10px; font-size: 12px;
  font-weight: 600; vertical-align: 1px; }
.b-good { background: #dafbe1; color: var(--good); }
.b-warn { background: #fff8c5; color: var(--warn); }
.b-bad { background: #ffebe9; color: var(--bad); }
.b-muted { background: #eaeef2; color: var(--muted); }
.reasons { margin: 4px 0 8px; padding-left: 20px; }
summary { cursor: pointer; }
td details table { font-size: 13px; }
.bar { display: inline-flex; width: 120px; height: 10px; vertical-align: middle; background: #eaeef2;
  border-radius: 3px; overflow: hidden; }
.seg { display: block; height: 100%; }
.bar-text { color: var(--muted); font-size: 12.5px; }
.swatch { display: inline-block; width: 9px; height: 9px; margin-right: 5px; border-radius: 2px; }
.s0 { background: #4e79a7; } .s1 { background: #f28e2b; } .s2 { background: #59a14f; }
.s3 { background: #e15759; } .s4 { background: #b07aa1; } .s5 { background: #76b7b2; }
.s6 { background: #edc948; } .s7 { background: #9c755f; } .sn { background: #9aa0a6; }
.chart-box { display: inline-block; vertical-align: top; width: 480px; max-width: 100%; margin: 0 36px 6px 0; }
.chart { margin: 10px 0 2px; }
.chart figcaption { display: flex; flex-wrap: wrap; gap: 2px 14px; font-size: 12.5px; }
.chart .key { color: var(--muted); white-space: nowrap; }
.chart svg { display: block; max-width: 100%; height: auto; }
.chart text { font-size: 10px; fill: var(--muted); }
.chart line.grid { stroke: #d8dee4; }
.chart line.tick { stroke: #eaeef2; }
.chart path { fill: none; stroke-width: 2; stroke-linejoin: round; stroke-linecap: round; }
`;
