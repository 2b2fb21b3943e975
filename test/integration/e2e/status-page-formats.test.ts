import { rm } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import {
  avroPayCapture,
  PAY_PROTO_V1,
  PAY_V2,
  protobufPayCapture,
  replayPay,
  type PayCapture,
} from "../../helpers/binary-capture.js";
import { openBrowser } from "../../helpers/browser.js";

// An Avro and a Protobuf subject on the status page as a JSON one is shown (issue 36), with its format
// named in its facts, its lossy reads beside the would-fail matrix, and its undecodable body as
// unknown use: a monitor per format replays test/helpers/binary-capture.ts's Confluent-framed
// records, read in Chromium.

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

/** A monitor that has replayed a capture; stopped after all the tests. */
async function replay(pay: PayCapture): Promise<RunningMonitor> {
  scratch.push(pay.dir);
  const monitor = await replayPay(pay);
  monitors.push(monitor);
  return monitor;
}

let browser: Awaited<ReturnType<typeof openBrowser>>;
let avro: RunningMonitor;
let protobuf: RunningMonitor;
const monitors: RunningMonitor[] = [];
const scratch: string[] = [];
beforeAll(async () => {
  avro = await replay(await avroPayCapture());
  protobuf = await replay(await protobufPayCapture());
  browser = await openBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(monitors.map((m) => m.stop()));
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("an Avro subject on the status page, in Chromium", () => {
  it("lists it on the index as a JSON subject is listed", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${avro.address}/`);
    expect(await rows(page, "subjects")).toEqual([
      "pay | pay | 5 | — | — | 1.0.0 active, 2.0.0 active | none",
    ]);
  });

  it("names its format on its page, with its would-fail matrix, lossy reads and unknown use", async () => {
    const page = await browser.context.newPage();
    const response = await page.goto(`${avro.address}/subjects/pay`);
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
    // An Avro version's schema is its JSON, as written.
    const schema = await fetch(`${avro.address}/subjects/pay/versions/2.0.0/schema`);
    expect(await schema.json()).toEqual(PAY_V2);
    // The body its writer cannot decode: unknown use with its reason, from its first record.
    expect(await rows(page, "subject-pay-unknown-use")).toEqual([
      "pay/0 | avro_decode | 1 | 2026-12-01T08:00:04.000Z | 2026-12-01T08:00:04.000Z",
    ]);
  });
});

describe("a Protobuf subject on the status page, in Chromium", () => {
  it("shows its lossy reads field by field beside its failures, and its undecodable body as unknown use", async () => {
    const page = await browser.context.newPage();
    const response = await page.goto(`${protobuf.address}/subjects/pay`);
    expect(response?.status()).toBe(200);
    expect(await page.locator("#subject-pay > .facts").innerText()).toBe(
      "topics\npay\nformat\nProtobuf\nrecords\n7\nundeclared\n0 (0.0%)\nversion unknown\n0\nsample ratio\n1.00",
    );
    expect(await rows(page, "subject-pay-versions")).toEqual([
      "1.0.0 | active | 3 | 42.9% | 2026-12-01T08:00:02.000Z |  | schema",
      "2.0.0 | active | 4 | 57.1% | 2026-12-01T08:00:06.000Z |  | schema",
      "none | undeclared | 0 | 0.0% |  |  | ",
    ]);
    // The zigzag delta -1 that an int32 reader of 2.0 misreads fails; the rest are read.
    expect(await rows(page, "subject-pay-would-fail")).toEqual([
      "1.0.0 | 1.0.0 | conformance | 0.0% | 0 / 3 |  |  | ",
      "1.0.0 | 2.0.0 | backward | 33.3% | 1 / 3 | type_reinterpreted | /delta | web 1/3",
      "2.0.0 | 1.0.0 | forward | 0.0% | 0 / 3 |  |  | ",
      "2.0.0 | 2.0.0 | conformance | 0.0% | 0 / 3 |  |  | ",
    ]);
    // Read, but not whole: a field number the reader does not know is dropped, record by record.
    expect(await rows(page, "subject-pay-lossy")).toEqual([
      "1.0.0 | 2.0.0 | backward | 66.7% | 2 / 3 | unknown_field | /note | web 2/3",
      "2.0.0 | 1.0.0 | forward | 100.0% | 3 / 3 | unknown_field | /currency | app 3/3",
    ]);
    expect(await rows(page, "subject-pay-unknown-use")).toEqual([
      "pay/0 | protobuf_decode | 1 | 2026-12-01T08:00:06.000Z | 2026-12-01T08:00:06.000Z",
    ]);
    // A version's schema is a click away, as it was written: a .proto is text, not JSON.
    const [schema] = await Promise.all([
      page.waitForNavigation(),
      page.locator("#subject-pay-versions a", { hasText: "schema" }).first().click(),
    ]);
    expect(page.url()).toBe(`${protobuf.address}/subjects/pay/versions/1.0.0/schema`);
    expect(schema!.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect(await schema!.text()).toBe(PAY_PROTO_V1);

    // The index's attention summary: the failure acts; each lossy read is told below it, with what to
    // check for what that reader loses (an upgraded reader drops web's note: not a default).
    const index = await browser.context.newPage();
    await index.goto(`${protobuf.address}/`);
    expect(await rows(index, "attention")).toEqual([
      "act | producer web: 33.3% of its sampled 1.0.0 records (1 of 3) would break consumers upgraded to 2.0.0 (type_reinterpreted at /delta) | Move web to 2.0.0 (or a version 2.0.0 accepts) before consumers upgrade.",
      "info | producer app: consumers still on 1.0.0 read 100% of its sampled 2.0.0 records (3 of 3) with data dropped or defaulted (unknown_field at /currency) | Nothing breaks: check that the consumers still on 1.0.0 do not need what they drop, or upgrade them.",
      "info | producer web: consumers upgraded to 2.0.0 read 66.7% of its sampled 1.0.0 records (2 of 3) with data dropped or defaulted (unknown_field at /note) | Nothing breaks: check that the consumers upgraded to 2.0.0 do not need what they drop, or move web to 2.0.0.",
    ]);
  });
});
