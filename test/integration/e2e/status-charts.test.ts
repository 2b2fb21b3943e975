import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Locator, Page } from "playwright-core";
import { createLogger } from "../../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import { openBrowser } from "../../helpers/browser.js";
import { writeTree } from "../../helpers/files.js";

const MINUTE = 60_000;
/** The capture's first minute: 8 hours of it fill the 48 buckets of 10 minutes of an 8h drain window. */
const T0 = Date.UTC(2026, 11, 1, 0);
const MINUTES = 480;

const V10 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { id: { type: "integer" }, amount: { type: "number", deprecated: true } },
  required: ["id"],
};
const V11 = {
  ...V10,
  properties: { ...V10.properties, total: { type: "number" } },
};

/**
 * Two producers over 8 hours, a record each a minute: billing sends 1.0 with `amount` for 4 hours,
 * then 1.1 with `total` instead; web sends 1.0 with `amount` all along, in cents, then in dollars
 * for the last 2 hours (its amounts 100 times smaller).
 */
function capture(): string {
  const lines: string[] = [];
  for (let m = 0; m < MINUTES; m++) {
    // 1000 to 5000, twice in each bucket of 10 minutes: the same quartiles in every bucket.
    const cents = ((m % 5) + 1) * 1000;
    const billing =
      m < 240
        ? { v: "1.0", doc: { id: m, amount: cents } }
        : { v: "1.1", doc: { id: m, total: cents / 100 } };
    const web = { id: m, amount: m < 360 ? cents : cents / 100 };
    for (const [i, producer, version, doc] of [
      [0, "billing", billing.v, billing.doc],
      [1, "web", "1.0", web],
    ] as const)
      lines.push(
        JSON.stringify({
          topic: "payments",
          partition: 0,
          offset: 2 * m + i,
          timestamp: T0 + m * MINUTE + i * 30_000,
          headers: { producer, "schema-version": version },
          value: doc,
        }),
      );
  }
  return lines.join("\n") + "\n";
}

const CONFIG = `http: { host: 127.0.0.1, port: 0 }
stats: { bucket: 10m, exclude: { pay: [/id] } }
subjects:
  - name: pay
    topics: [payments]
    schemas: catalog
    drainWindow: 8h
    writer: { sources: [header], header: schema-version }
    producer: { header: producer }
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
`;

/** Per chart of a section: its title, its legend, and each line's series and value in the last bucket. */
function charts(page: Page, section: string) {
  return page.locator(`#subject-pay-${section} figure.chart`).evaluateAll((figures) =>
    figures.map((f) => ({
      title: f.querySelector("figcaption strong")!.textContent,
      legend: [...f.querySelectorAll("figcaption .key")].map((k) => k.textContent),
      lines: [...f.querySelectorAll("svg path")].map(
        (p) => `${p.getAttribute("data-series")} ${p.getAttribute("data-last")}`,
      ),
    })),
  );
}

/** The rows of a chart's text alternative (its folded table), cells joined by " | ". */
async function fallback(box: Locator): Promise<string[]> {
  await box.locator("summary").click();
  return box
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.innerText.trim()).join(" | ")),
    );
}

let browser: Awaited<ReturnType<typeof openBrowser>>;
let monitor: RunningMonitor;
beforeAll(async () => {
  const dir = await writeTree({
    "catalog/1.0.json": V10,
    "catalog/1.1.json": V11,
    "config.yaml": CONFIG,
    "capture.ndjson": capture(),
  });
  monitor = await startMonitor({
    configPath: `${dir}/config.yaml`,
    source: { file: `${dir}/capture.ndjson` },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-test",
    logger: createLogger("silent"),
  });
  expect((await monitor.replayed).records).toBe(2 * MINUTES);
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  await monitor?.stop();
});

describe("a subject's page over time, in Chromium", () => {
  it("draws each version's and field's share per producer over the drain window, and who moved off 1.0.0", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${monitor.address}/subjects/pay`);
    expect(await charts(page, "versions-over-time")).toEqual([
      {
        title: "share of each producer's records on 1.0.0",
        legend: ["billing", "web"],
        lines: ["billing 0", "web 1"],
      },
      {
        title: "share of each producer's records on 1.1.0",
        legend: ["billing", "web"],
        lines: ["billing 1", "web 0"],
      },
    ]);
    expect(await charts(page, "fields-over-time")).toEqual([
      {
        title: "share of each producer's records carrying /amount",
        legend: ["billing", "web"],
        lines: ["billing 0", "web 1"],
      },
      {
        title: "share of each producer's records carrying /total",
        legend: ["billing", "web"],
        lines: ["billing 1", "web 0"],
      },
    ]);
    const first = page.locator("#subject-pay-versions-over-time svg").first();
    expect(await first.getAttribute("role")).toBe("img");
    expect(await first.getAttribute("aria-label")).toBe(
      "share of each producer's records on 1.0.0, 2026-12-01 00:00 UTC to 2026-12-01 08:00 UTC in 48 buckets; last bucket: billing 0%, web 100%",
    );
    // Chromium laid the lines out: billing's runs the whole window (4 hours at 100%, a drop, 4 at 0%).
    const box = (await first.boundingBox())!;
    expect([box.width, box.height]).toEqual([480, 150]);
    const length = await first
      .locator("path")
      .first()
      .evaluate((p) => (p as unknown as { getTotalLength(): number }).getTotalLength());
    expect(length).toBeGreaterThan(428 - 428 / 48);
    expect(await first.locator("text").allTextContents()).toEqual([
      "0%",
      "50%",
      "100%",
      "12-01 00:00",
      "12-01 02:00",
      "12-01 04:00",
      "12-01 06:00",
      "12-01 08:00",
    ]);
    // For the docs (docs/lifecycle.md): the charts as they are drawn, their values folded.
    await page.locator("#subject-pay-over-time").screenshot({ path: "docs/status-charts.png" });
    // The text alternative: every bucket, billing's 10 records a bucket on 1.0.0 until 04:00, then none.
    const rows = await fallback(page.locator("#subject-pay-versions-over-time .chart-box").first());
    expect(rows).toHaveLength(48);
    expect([rows[0], rows[23], rows[24], rows[47]]).toEqual([
      "2026-12-01 00:00 UTC | 100% (10 of 10) | 100% (10 of 10)",
      "2026-12-01 03:50 UTC | 100% (10 of 10) | 100% (10 of 10)",
      "2026-12-01 04:00 UTC | 0% (0 of 10) | 100% (10 of 10)",
      "2026-12-01 07:50 UTC | 0% (0 of 10) | 100% (10 of 10)",
    ]);
  });

  it("draws each profiled field's quartiles per producer on a logarithmic scale, and web's amounts in dollars", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${monitor.address}/subjects/pay`);
    const quartiles = await charts(page, "quartiles");
    expect(quartiles.map((c) => `${c.title}: ${c.legend.join(" ")}`)).toEqual([
      "/amount from billing: quartiles: p25 p50 p75",
      "/amount from web: quartiles: p25 p50 p75",
      "/total from billing: quartiles: p25 p50 p75",
    ]);
    // Billing's amounts stopped at 04:00: no value in the last bucket. web's median: 20 dollars (1%).
    expect(quartiles[0]!.lines).toEqual(["p25 ", "p50 ", "p75 "]);
    const [p25, p50, p75] = quartiles[1]!.lines.map((l) => Number(l.split(" ")[1]));
    expect([p25, p50, p75].map((v) => Math.round(v!))).toEqual([20, 30, 40]);
    const web = page.locator("#subject-pay-quartiles .chart-box").nth(1);
    expect(await web.locator("svg text").allTextContents()).toEqual([
      "10",
      "100",
      "1k",
      "10k",
      "12-01 00:00",
      "12-01 02:00",
      "12-01 04:00",
      "12-01 06:00",
      "12-01 08:00",
    ]);
    const rows = await fallback(web);
    // Every bucket has 10 of web's amounts; the sketch's quartiles are within 1% of 2000, 3000 and
    // 4000 cents, then of 20, 30 and 40 dollars from 06:00.
    expect(rows).toHaveLength(48);
    expect([rows[0], rows[35], rows[36], rows[47]]).toEqual([
      "2026-12-01 00:00 UTC | 2.02k (of 10) | 3.01k (of 10) | 3.98k (of 10)",
      "2026-12-01 05:50 UTC | 2.02k (of 10) | 3.01k (of 10) | 3.98k (of 10)",
      "2026-12-01 06:00 UTC | 19.9 (of 10) | 30.3 (of 10) | 40 (of 10)",
      "2026-12-01 07:50 UTC | 19.9 (of 10) | 30.3 (of 10) | 40 (of 10)",
    ]);
  });

  it("serves the same buckets as JSON, linked from the page", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${monitor.address}/subjects/pay`);
    const [response] = await Promise.all([
      page.waitForNavigation(),
      page.locator("#subject-pay-over-time > p a", { hasText: "these buckets as JSON" }).click(),
    ]);
    expect(page.url()).toBe(`${monitor.address}/subjects/pay/history`);
    const history = (await response!.json()) as {
      traffic: {
        from: number;
        buckets: number;
        versions: { producer: string; version: string; records: number[] }[];
      };
      quartiles: { lines: { field: string; producer: string; p50: (number | null)[] }[] };
    };
    expect([history.traffic.from, history.traffic.buckets]).toEqual([T0, 48]);
    expect(
      history.traffic.versions.map((l) => `${l.producer} ${l.version} ${l.records.slice(22, 26).join(",")}`),
    ).toEqual(["billing 1.0.0 10,10,0,0", "web 1.0.0 10,10,10,10", "billing 1.1.0 0,0,10,10"]);
    // Quartiles in four significant digits: all that a sketch of 1% knows.
    expect(
      history.quartiles.lines.map((l) => `${l.field} ${l.producer} ${l.p50.slice(35, 37).join(",")}`),
    ).toEqual(["/amount billing ,", "/amount web 3012,30.27", "/total billing 30.27,30.27"]);
    expect((await fetch(`${monitor.address}/subjects/nope/history`)).status).toBe(404);
  });
});
