import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createLogger } from "../../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import { openBrowser } from "../../helpers/browser.js";
import { writeTree } from "../../helpers/files.js";

/** The monitor replaying a capture, as `schemawatch run --config examples/config.yaml --source file:...`. */
async function monitorOf(capture: string): Promise<RunningMonitor> {
  const monitor = await startMonitor({
    configPath: "examples/config.yaml",
    source: { file: capture },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-test",
    logger: createLogger("silent"),
  });
  await monitor.replayed;
  return monitor;
}

/** What a person reads in each row of a table (the first, by default) of a section: cells joined by " | ". */
function rows(page: Page, section: string, table = 0): Promise<string[]> {
  return page
    .locator(`#${section} > .scroll`)
    .nth(table)
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.innerText.trim()).join(" | ")),
    );
}

let browser: Awaited<ReturnType<typeof openBrowser>>;
const monitors: RunningMonitor[] = [];
beforeAll(async () => {
  browser = await openBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const monitor of monitors) await monitor.stop();
});

describe("the status page in Chromium", () => {
  it("shows the bundled traffic's story as a person reads it, and saves a screenshot for the docs", async () => {
    const monitor = await monitorOf("examples/traffic/events.ndjson");
    monitors.push(monitor);
    const page = await browser.context.newPage();
    const response = await page.goto(`${monitor.address}/`);
    expect([response?.status(), response?.headers()["content-type"]]).toEqual([
      200,
      "text/html; charset=utf-8",
    ]);
    expect(await page.title()).toBe("schemawatch report");
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute("content")).toBe("10");
    expect(await page.locator("header .meta").innerText()).toBe(
      "generated 2026-12-01T08:03:23.000Z, refreshes every 10 s",
    );

    // First on the page: what needs an operator, most urgent first, and what the colours mean.
    expect(await page.locator("#attention h2").innerText()).toBe("what needs you 5 things");
    expect((await rows(page, "attention")).map((row) => row.split(" | ").slice(0, 2).join(" | "))).toEqual([
      "act | producer billing: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "act | producer mobile: 100% of its sampled 1.1.0 records (40 of 40) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "act | producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "act | producer partner-feed: 100% of its sampled 1.1.0 records (20 of 20) fail 1.1.0 itself, the version they declare (additionalProperties at the root)",
      "watch | 2 records of event whose version could not be read (truncated_wire_prefix, unknown_schema_id), from producer billing (2)",
      "info | candidate 2.0.0 of event is not ready: producer legacy-batch: 20 of 20 samples fail 2.0.0 (required at root), last one 4s ago (and 3 more reasons)",
      "info | the windows of event are still being observed; the last completes at 2026-12-08T08:00Z",
    ]);
    expect(await page.locator("#attention li").allInnerTexts()).toEqual([
      "red: breaks something now, or is ready to be done (act)",
      "amber: would break a consumer that has not moved yet, or keeps a verdict back (watch)",
      "green: fine",
      "grey: secondary, or nothing to do yet (info)",
    ]);
    // the legend's colours are the colours of the page
    const colour = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((e) => e.ownerDocument.defaultView!.getComputedStyle(e).color);
    expect(await colour("#attention li .t-bad")).toBe(await colour("#attention td .t-bad"));

    // One row per subject, linking to its own page; with one subject, the subject follows whole below.
    // A replayed capture has no rates and no lag: they are a live monitor's.
    expect(await rows(page, "subjects")).toEqual([
      "event | events | 204 | — | — | 1.0.0 deprecated not drained, 1.1.0 active, 2.0.0 candidate not ready | 4 act, 1 watch",
    ]);
    expect(await page.locator("#subjects td a").getAttribute("href")).toBe("subjects/event");
    expect(await rows(page, "subject-event-topics")).toEqual(["events | — | — | not measured"]);

    expect(await page.locator("#subject-event > .facts").innerText()).toBe(
      "topics\nevents\nformat\nJSON Schema\nrecords\n204\nundeclared\n21 (10.3%)\nversion unknown\n2 (1.0%): their version could not be read\nsample ratio\n1.00",
    );
    expect(await rows(page, "subject-event-versions")).toEqual([
      "1.0.0 | deprecated | 81 | 39.7% | 2026-12-01T08:03:20.000Z | not drained | schema",
      "1.1.0 | active | 100 | 49.0% | 2026-12-01T08:03:18.000Z |  | schema",
      "2.0.0 | candidate | 0 | 0.0% | never | not ready | schema",
      "none | undeclared | 21 | 10.3% |  |  | ",
      "unknown | could not be read | 2 | 1.0% |  |  | ",
    ]);
    // The bar is drawn to scale: 81 of 204 records on a 120 px bar.
    const bar = await page.locator("#subject-event-versions tbody tr").first().locator(".seg").boundingBox();
    expect(Math.round(bar!.width)).toBe(48);
    expect(await rows(page, "subject-event-producers")).toEqual([
      "billing | 42 | 0 | 40 | 0 | 0 | 2 | 1.1.0 95.2%, unknown 4.8%",
      "legacy-batch | 21 | 0 | 0 | 0 | 21 | 0 | none 100.0%",
      "mobile | 40 | 0 | 40 | 0 | 0 | 0 | 1.1.0 100.0%",
      "partner-feed | 20 | 0 | 20 | 0 | 0 | 0 | 1.1.0 100.0%",
      "web | 81 | 81 | 0 | 0 | 0 | 0 | 1.0.0 100.0%",
    ]);
    const wouldFail = await rows(page, "subject-event-would-fail");
    expect(wouldFail).toHaveLength(9);
    // An old consumer on 1.0 rejects every 1.1 record: the unknown key amount (and buy, and x) is closed out.
    expect(wouldFail[3]).toBe(
      "1.1.0 | 1.0.0 | forward | 100.0% | 100 / 100 | additionalProperties | (root) | billing 40/40, mobile 40/40, partner-feed 20/20",
    );
    expect(wouldFail[4]).toBe(
      "1.1.0 | 1.1.0 | conformance | 20.0% | 20 / 100 | additionalProperties | (root) | partner-feed 20/20",
    );

    const drained = page.locator("#subject-event-verdict-1-0-0");
    expect(await drained.locator("h4").innerText()).toBe("1.0.0 deprecated not drained");
    // In plain words first: the window still being observed is one line, not one per partition.
    expect(await drained.locator(":scope > .reasons li").allInnerTexts()).toEqual([
      "last seen 3s ago from producer web",
      "the window (7d) is still being observed: it is complete at 2026-12-08T08:00Z (on all 3 partitions)",
      "1 record on events/0 could not be read (truncated_wire_prefix) since 2026-12-01T08:03Z, the last one 2s ago: their version is unknown, so 1.0.0 may still be in use",
      "1 record on events/1 could not be read (unknown_schema_id) since 2026-12-01T08:03Z, the last one 1s ago: their version is unknown, so 1.0.0 may still be in use",
    ]);
    // The statistics and the reasons as given are one click away.
    const evidence = drained.locator("details");
    expect(await evidence.locator("summary").innerText()).toBe("the evidence");
    expect(await evidence.locator(".facts").isVisible()).toBe(false);
    await evidence.locator("summary").click();
    expect(await evidence.locator(".reasons li").allInnerTexts()).toEqual([
      "last seen 3s ago from producer web",
      "coverage gap on events/0 until 2026-12-08T08:00Z",
      "coverage gap on events/1 until 2026-12-08T08:00Z",
      "coverage gap on events/2 until 2026-12-08T08:00Z",
      "1 record on events/0 could not be read (truncated_wire_prefix) since 2026-12-01T08:03Z, the last one 2s ago: their version is unknown, so 1.0.0 may still be in use",
      "1 record on events/1 could not be read (unknown_schema_id) since 2026-12-01T08:03Z, the last one 1s ago: their version is unknown, so 1.0.0 may still be in use",
    ]);
    expect(await evidence.locator(".facts").isVisible()).toBe(true);
    const ready = page.locator("#subject-event-verdict-2-0-0");
    expect(await ready.locator(":scope > .reasons li").last().innerText()).toBe(
      "0 sampled records in a row passed it so far; 300 are needed before it can be called ready",
    );
    expect(await rows(page, "subject-event-coverage")).toEqual([
      "events | 0 | 2026-12-01T08:00:00.000Z | 2026-12-01T08:03:21.000Z | yes",
      "events | 1 | 2026-12-01T08:00:01.000Z | 2026-12-01T08:03:22.000Z | yes",
      "events | 2 | 2026-12-01T08:00:02.000Z | 2026-12-01T08:03:23.000Z | yes",
    ]);
    expect(await rows(page, "decode-errors")).toEqual([
      "events | not_json | 1",
      "events | not_utf8 | 1",
      "events | unknown_schema_id | 1",
      "events | truncated_wire_prefix | 1",
    ]);
    await page.screenshot({ path: "docs/status-page.png", fullPage: true });

    // A version's schema is a click away, as the catalog has it.
    const [schema] = await Promise.all([
      page.waitForNavigation(),
      page.locator("#subject-event-versions a", { hasText: "schema" }).first().click(),
    ]);
    expect(page.url()).toBe(`${monitor.address}/subjects/event/versions/1.0.0/schema`);
    expect((await schema!.json()).title).toBe("event 1.0: the original, closed contract");
    await page.goBack();

    // The links lead to the same data as JSON, and to the metrics.
    const [report] = await Promise.all([
      page.waitForNavigation(),
      page.locator("nav a", { hasText: "/api/report" }).click(),
    ]);
    expect((await report!.json()).subjects[0].records).toBe(204);
    await page.goBack();
    const [metrics] = await Promise.all([
      page.waitForNavigation(),
      page.locator("nav a", { hasText: "/metrics" }).click(),
    ]);
    expect(await metrics!.text()).toContain(
      'schemawatch_records_total{topic="events",subject="event",producer="web",writer_version="1.0.0"} 81',
    );
  });

  it('says "Nothing needs you" first when the traffic is healthy', async () => {
    const dir = await writeTree({
      "capture.ndjson":
        Array.from({ length: 10 }, (_, i) =>
          JSON.stringify({
            topic: "events",
            partition: 0,
            offset: i,
            timestamp: 1796112000000 + i * 1000,
            headers: { producer: "web", "schema-version": "event/1.1" },
            value: { id: i, event: "view" },
          }),
        ).join("\n") + "\n",
    });
    const monitor = await monitorOf(`${dir}/capture.ndjson`);
    monitors.push(monitor);
    const page = await browser.context.newPage();
    await page.goto(`${monitor.address}/`);
    expect(await page.locator("#attention h2").innerText()).toBe("what needs you nothing");
    expect(await page.locator("#attention > p").first().innerText()).toBe("Nothing needs you.");
    // what needs nobody yet is still listed, in grey
    expect((await rows(page, "attention")).map((row) => row.split(" | ")[0])).toEqual(["info", "info"]);
  });

  it("shows a producer name from traffic as text, never as markup", async () => {
    const name = "<img/src=x/onerror=document.title=1>";
    const dir = await writeTree({
      "capture.ndjson": `${JSON.stringify({
        topic: "events",
        partition: 0,
        offset: 0,
        timestamp: 1796112000000,
        headers: { producer: name, "schema-version": "event/1.0" },
        value: { id: 1, event: "view" },
      })}\n`,
    });
    const monitor = await monitorOf(`${dir}/capture.ndjson`);
    monitors.push(monitor);
    const page = await browser.context.newPage();
    await page.goto(`${monitor.address}/`);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.title()).toBe("schemawatch report");
    expect(await rows(page, "subject-event-producers")).toEqual([
      `${name} | 1 | 1 | 0 | 0 | 0 | 1.0.0 100.0%`,
    ]);
  });
});
