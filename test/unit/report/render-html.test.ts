import { describe, expect, it } from "vitest";
import { Health } from "../../../src/health/health.js";
import { buildStatus } from "../../../src/report/status.js";
import type { ReportDocument } from "../../../src/report/document.js";
import { buildReport } from "../../../src/report/model.js";
import { escapeHtml, renderHtml } from "../../../src/report/render-html.js";
import { renderReport } from "../../../src/report/render.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

// Printable ASCII without spaces passes the producer resolver: a name like this can come from traffic.
const EVIL = `<img/src=x/onerror="alert('x')">&amp;`;
const EVIL_HTML = "&lt;img/src=x/onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;amp;";

async function reportOfOneRecord() {
  const { pipeline, catalog } = await eventPipeline();
  pipeline.process(record({ id: 1, event: "view", x: 1 }, { producer: EVIL, "schema-version": "1.0" }));
  return buildReport(buildStatus(catalog, pipeline, new Health()), pipeline.tallies, undefined);
}

describe("the HTML rendering", () => {
  it("escapes the five characters that could start markup or leave an attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;",
    );
  });

  it("shows a producer name from traffic as text, in every table it appears in", async () => {
    const html = renderReport(await reportOfOneRecord(), "html");
    expect(html).not.toContain("<img");
    expect(html).toContain(
      `<tr><td>${EVIL_HTML}</td><td class="num">1</td><td class="num">1</td><td class="num">0</td><td class="num">0</td><td class="num">0</td><td><span class="bar"><span class="seg s0" style="width:100.0%" title="1.0.0 100.0%"></span></span> <span class="bar-text">1.0.0 100.0%</span></td></tr>`,
    );
    expect(html).toContain(
      `<tr><td><code>1.0.0</code></td><td><code>1.0.0</code></td><td>conformance</td><td class="num"><span class="t-bad">100.0%</span></td><td class="num">1 / 1</td><td><code>additionalProperties</code></td><td><code>(root)</code></td><td>${EVIL_HTML} 1/1</td></tr>`,
    );
  });

  it("draws every kind of block, and refreshes and links only when asked", () => {
    const document: ReportDocument = {
      title: "t<",
      generatedAt: "2026-12-01T00:00:00.000Z",
      notices: [{ text: "state <lost>", tone: "bad" }],
      sections: [
        {
          id: 's"1',
          title: "subject <e>",
          badge: { text: "not drained", tone: "warn" },
          blocks: [
            { kind: "text", text: "a & b" },
            { kind: "facts", facts: [["records", "3"]] },
            { kind: "list", items: [{ text: "/a'b", code: true }] },
            {
              kind: "table",
              columns: [
                { title: "v", series: 0 },
                { title: "n", numeric: true },
              ],
              rows: [[{ bars: [{ label: "1.0.0", share: 1.5, series: -1 }], text: "150%" }, "2"]],
              empty: "none",
            },
            { kind: "table", columns: [{ title: "x" }], rows: [], empty: "nothing <yet>" },
          ],
        },
      ],
    };
    const html = renderHtml(document, { refreshSeconds: 5, monitorUrl: "http://127.0.0.1:9464/" });
    const body = html.slice(html.indexOf("<body>"));
    expect(body).toBe(
      [
        "<body>",
        "<header>",
        "<h1>t&lt;</h1>",
        '<p class="meta">generated <time>2026-12-01T00:00:00.000Z</time>, refreshes every 5 s</p>',
        '<nav><a href="http://127.0.0.1:9464/metrics">/metrics</a> <a href="http://127.0.0.1:9464/api/report">/api/report</a> <a href="http://127.0.0.1:9464/api/status">/api/status</a></nav>',
        "</header>",
        "<main>",
        '<p class="notice"><span class="t-bad">state &lt;lost&gt;</span></p>',
        '<section id="s&quot;1" class="card">',
        '<h2>subject &lt;e&gt; <span class="badge b-warn">not drained</span></h2>',
        "<p>a &amp; b</p>",
        '<dl class="facts"><div><dt>records</dt><dd>3</dd></div></dl>',
        '<ul class="reasons"><li><code>/a&#39;b</code></li></ul>',
        '<div class="scroll"><table><thead><tr><th><span class="swatch s0"></span>v</th><th class="num">n</th></tr></thead><tbody>',
        '<tr><td><span class="bar"><span class="seg sn" style="width:100.0%" title="1.0.0 100.0%"></span></span> <span class="bar-text">150%</span></td><td class="num">2</td></tr>',
        "</tbody></table></div>",
        '<p class="t-muted">nothing &lt;yet&gt;</p>',
        "</section>",
        "</main>",
        "</body>",
        "</html>",
        "",
      ].join("\n"),
    );
    expect(html).toContain('<meta http-equiv="refresh" content="5">');
    const file = renderHtml(document);
    expect([file.includes("http-equiv"), file.includes("<nav>"), file.includes("refreshes")]).toEqual([
      false,
      false,
      false,
    ]);
    // Self-contained: nothing is fetched from anywhere, so the page works offline and in a ticket.
    expect(file).not.toMatch(/<script|<link|src=|url\(/);
  });
});
