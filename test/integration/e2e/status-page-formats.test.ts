import { rm } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import { avroPayCapture } from "../../helpers/avro-capture.js";
import { openBrowser } from "../../helpers/browser.js";

// An Avro subject on the status page as a JSON one is shown (issue 36), with its format named in its
// facts, its lossy reads beside the would-fail matrix, and its undecodable body as unknown use: a
// monitor replays test/helpers/avro-capture.ts's Confluent-framed records, read in Chromium.

/** What a person reads in each row of a section's first table: cells joined by " | ". */
function rows(page: Page, section: string): Promise<string[]> {
  return page
    .locator(`#${section} > .scroll`)
    .first()
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.innerText.trim()).join(" | ")),
    );
}

let browser: Awaited<ReturnType<typeof openBrowser>>;
let monitor: RunningMonitor | undefined;
let scratch = "";
beforeAll(async () => {
  const pay = await avroPayCapture();
  scratch = pay.dir;
  monitor = await startMonitor({
    configPath: pay.config,
    source: { file: pay.capture },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-test",
    logger: createLogger("silent"),
  });
  await monitor.replayed;
  browser = await openBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await monitor?.stop();
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

describe("an Avro subject on the status page, in Chromium", () => {
  it("lists it on the index as a JSON subject is listed", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${monitor!.address}/`);
    expect(await rows(page, "subjects")).toEqual([
      "pay | pay | 5 | — | — | 1.0.0 active, 2.0.0 active | none",
    ]);
  });

  it("names its format on its page, with its would-fail matrix, lossy reads and unknown use", async () => {
    const page = await browser.context.newPage();
    const response = await page.goto(`${monitor!.address}/subjects/pay`);
    expect(response?.status()).toBe(200);
    expect(await page.locator("#subject-pay > .facts").innerText()).toBe(
      "topics\npay\nformat\nAvro\nrecords\n5\nundeclared\n0 (0.0%)\nversion unknown\n0\nsample ratio\n1.00",
    );
    // Counted from the Confluent prefix, every record: the cut body too.
    expect(await rows(page, "subject-pay-versions")).toEqual([
      "1.0.0 | active | 1 | 20.0% | 2026-12-01T08:00:00.000Z |  | schema",
      "2.0.0 | active | 4 | 80.0% | 2026-12-01T08:00:04.000Z |  | schema",
      "none | undeclared | 0 | 0.0% |  |  | ",
    ]);
    expect(await rows(page, "subject-pay-producers")).toEqual([
      "app | 4 | 0 | 4 | 0 | 2.0.0 100.0%",
      "web | 1 | 1 | 0 | 0 | 1.0.0 100.0%",
    ]);
    // Nothing fails Avro's resolution either way; every read of the other version loses /note.
    expect(await rows(page, "subject-pay-would-fail")).toEqual([
      "1.0.0 | 1.0.0 | conformance | 0.0% | 0 / 1 |  |  | ",
      "1.0.0 | 2.0.0 | backward | 0.0% | 0 / 1 |  |  | ",
      "2.0.0 | 1.0.0 | forward | 0.0% | 0 / 3 |  |  | ",
      "2.0.0 | 2.0.0 | conformance | 0.0% | 0 / 3 |  |  | ",
    ]);
    expect(await rows(page, "subject-pay-lossy")).toEqual([
      "1.0.0 | 2.0.0 | backward | 100.0% | 1 / 1 | field_defaulted | /note | web 1/1",
      "2.0.0 | 1.0.0 | forward | 100.0% | 3 / 3 | field_dropped | /note | app 3/3",
    ]);
    // The body its writer cannot decode: unknown use with its reason, from its first record.
    expect(await rows(page, "subject-pay-unknown-use")).toEqual([
      "pay/0 | avro_decode | 1 | 2026-12-01T08:00:04.000Z | 2026-12-01T08:00:04.000Z",
    ]);
  });
});
