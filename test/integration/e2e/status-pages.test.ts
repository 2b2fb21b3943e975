import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { createLogger } from "../../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import { openBrowser } from "../../helpers/browser.js";
import { writeManySubjects, type ManySubjectsOptions } from "../../helpers/many-subjects.js";

/** A monitor replaying a generated capture over many subjects (test/helpers/many-subjects.ts). */
async function manyMonitor(options: ManySubjectsOptions): Promise<RunningMonitor> {
  const many = await writeManySubjects(options);
  const monitor = await startMonitor({
    configPath: many.config,
    source: { file: many.capture },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-test",
    logger: createLogger("silent"),
  });
  monitors.push(monitor);
  expect((await monitor.replayed).records).toBe(many.records);
  return monitor;
}

/**
 * Each row of a section's first table, as a person reads it: cells joined by " | ". Its own rows
 * only: a folded line of the attention summary holds a table of its members, shown when opened.
 */
function rows(page: Page, section: string): Promise<string[]> {
  return page
    .locator(`#${section} > .scroll > table`)
    .first()
    .evaluate((table) =>
      [...table.querySelectorAll("tr")]
        .filter((tr) => tr.closest("table") === table && tr.parentElement?.tagName === "TBODY")
        .map((tr) =>
          [...tr.querySelectorAll("td")]
            .filter((td) => td.closest("tr") === tr)
            .map((td) => td.innerText.trim())
            .join(" | "),
        ),
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

describe("the status pages of a monitor with 200 subjects", () => {
  it("serve a small index that lists them all and leads to each subject's page and schemas", async () => {
    const monitor = await manyMonitor({ subjects: 200, records: 3000 });
    // Server-side figures, printed for the docs and the report (a timing is never asserted).
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const response = await monitor.server.inject("/");
      times.push(performance.now() - started);
      bytes = Buffer.byteLength(response.body);
    }
    const subjectPage = await monitor.server.inject("/subjects/s008");
    console.log(
      `status index, 200 subjects, 3000 records: ${bytes} bytes, rendered in ${times.map((t) => t.toFixed(0)).join(", ")} ms; a subject's page: ${Buffer.byteLength(subjectPage.body)} bytes`,
    );
    // 2 MB before the index; about 70 KB with it (3 lines of the attention summary, 200 rows).
    expect(bytes).toBeLessThan(500_000);
    expect(Buffer.byteLength(subjectPage.body)).toBeLessThan(50_000);

    const page = await browser.context.newPage();
    await page.goto(`${monitor.address}/`);
    expect(await page.locator("#subjects h2").innerText()).toBe("subjects (200)");
    const index = await rows(page, "subjects");
    expect(index).toHaveLength(200);
    // 3000 records over 200 subjects: 15 each; every fourth subject gets traffic that breaks 1.0 readers.
    expect(index.slice(7, 9)).toEqual([
      "s007 | t-s007 | 15 | — | — | 1.0.0 deprecated not drained, 1.1.0 active, 2.0.0 candidate not ready | none",
      "s008 | t-s008 | 15 | — | — | 1.0.0 deprecated not drained, 1.1.0 active, 2.0.0 candidate not ready | 2 act",
    ]);
    // The attention summary stays first and short: what repeats across subjects is one line, its
    // subjects and producers a click away (issue 28), where it was 500 lines of which 100 to act on.
    expect(await page.locator("#attention h2").innerText()).toBe("what needs you 1 thing");
    expect(await page.locator("#attention > p").first().innerText()).toBe(
      "1 thing needs you (100 items), most urgent first:",
    );
    expect(await rows(page, "attention")).toEqual([
      "act | 50 subjects | 2 producers in 50 subjects send records that consumers one version behind reject | Upgrade the consumers one version behind before they read the listed producers' records, or keep each of those producers on a version its consumers accept until they are.",
      "info | 200 subjects | 200 candidates in 200 subjects are not ready | Keep 2.0.0 a candidate until the producers named send what it requires.",
      "info | 200 subjects | the windows of 200 subjects are still being observed | Nothing to do: the verdicts come once the windows are observed whole.",
    ]);
    // For the docs: the index as it opens, then the monitor and the first subjects.
    await page.screenshot({
      path: "docs/status-index.png",
      fullPage: true,
      clip: { x: 0, y: 0, width: 1280, height: 1100 },
    });
    // A click on the line opens its members: each subject linked to its page, each producer's share.
    const folded = page.locator("#attention > .scroll > table > tbody > tr").first().locator("details");
    const members = folded.locator("table tbody tr");
    expect(await members.first().isVisible()).toBe(false);
    await folded.locator("summary").click();
    expect(await members.first().isVisible()).toBe(true);
    expect(await members.count()).toBe(20);
    expect((await members.allInnerTexts()).slice(0, 3).map((row) => row.split("\t").join(" | "))).toEqual([
      "s000 | producer batch: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "s000 | producer mobile: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "s004 | producer batch: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0 (additionalProperties at the root)",
    ]);
    expect(await folded.locator("p").innerText()).toBe(
      "… and 80 more: the JSON report (/api/report, report --format json) lists them all.",
    );
    // /api/status keeps the flat items for tools and adds the lines, with every member.
    const status = (await (await fetch(`${monitor.address}/api/status`)).json()) as {
      attention: unknown[];
      attentionGroups: Array<{ what: string; subjects: string[]; members: unknown[] }>;
    };
    expect(status.attention).toHaveLength(500);
    expect(status.attentionGroups.map((g) => [g.what, g.subjects.length, g.members.length])).toEqual([
      ["2 producers in 50 subjects send records that consumers one version behind reject", 50, 100],
      ["200 candidates in 200 subjects are not ready", 200, 200],
      ["the windows of 200 subjects are still being observed", 200, 200],
    ]);
    // For the docs: the attention summary with its first line opened.
    await page.screenshot({
      path: "docs/status-attention.png",
      clip: { x: 0, y: 0, width: 1280, height: 760 },
    });
    await Promise.all([page.waitForNavigation(), members.first().locator("a").click()]);
    expect(page.url()).toBe(`${monitor.address}/subjects/s000`);
    await page.goBack();

    await Promise.all([page.waitForNavigation(), page.locator("#subjects a", { hasText: "s008" }).click()]);
    expect(page.url()).toBe(`${monitor.address}/subjects/s008`);
    expect(await page.title()).toBe("schemawatch: s008");
    expect(await rows(page, "subject-s008-versions")).toEqual([
      "1.0.0 | deprecated | 3 | 20.0% | 2026-12-01T08:03:34.400Z | not drained | schema",
      "1.1.0 | active | 12 | 80.0% | 2026-12-01T08:04:54.400Z |  | schema",
      "2.0.0 | candidate | 0 | 0.0% | never | not ready | schema",
      "none | undeclared | 0 | 0.0% |  |  | ",
    ]);
    expect(await rows(page, "subject-s008-topics")).toEqual(["t-s008 | — | — | not measured"]);
    // Only this subject's attention items.
    expect((await rows(page, "attention")).map((row) => row.split(" | ").slice(0, 2).join(" | "))).toEqual([
      "act | producer batch: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "act | producer mobile: 100% of its sampled 1.1.0 records (4 of 4) would break consumers still on 1.0.0 (additionalProperties at the root)",
      "info | candidate 2.0.0 of s008 is not ready: producer batch: 1 of 5 samples fail 2.0.0 (required at root), last one 3m6s ago (and 3 more reasons)",
      "info | the windows of s008 are still being observed; the last completes at 2026-12-08T08:00Z",
    ]);
    await page.screenshot({ path: "docs/status-subject.png", fullPage: true });

    const [schema] = await Promise.all([
      page.waitForNavigation(),
      page.locator("#subject-s008-versions a", { hasText: "schema" }).nth(2).click(),
    ]);
    expect(page.url()).toBe(`${monitor.address}/subjects/s008/versions/2.0.0/schema`);
    expect(schema!.headers()["content-type"]).toBe("application/json; charset=utf-8");
    expect(await schema!.json()).toMatchObject({ title: "2.0", required: ["id", "amount"] });
    await page.goBack();
    await Promise.all([page.waitForNavigation(), page.locator("nav a", { hasText: "all subjects" }).click()]);
    expect(page.url()).toBe(`${monitor.address}/`);
  });
});

describe("a subject's page", () => {
  it("links an example of each version from the corpus when it is served", async () => {
    const monitor = await manyMonitor({ subjects: 2, records: 40, corpus: { enabled: true, serve: true } });
    const page = await browser.context.newPage();
    await page.goto(`${monitor.address}/subjects/s001`);
    expect(await rows(page, "subject-s001-versions")).toEqual([
      "1.0.0 | deprecated | 4 | 20.0% | 2026-12-01T08:00:03.100Z | not drained | schema | sample",
      "1.1.0 | active | 16 | 80.0% | 2026-12-01T08:00:03.900Z |  | schema | sample",
      "2.0.0 | candidate | 0 | 0.0% | never | not ready | schema | none kept",
      "none | undeclared | 0 | 0.0% |  |  |  | ",
    ]);
    const [sample] = await Promise.all([
      page.waitForNavigation(),
      page.locator("#subject-s001-versions a", { hasText: "sample" }).first().click(),
    ]);
    expect(page.url()).toBe(`${monitor.address}/subjects/s001/versions/1.0.0/sample`);
    expect(await sample!.json()).toMatchObject({
      subject: "s001",
      writer: "1.0.0",
      conforms: true,
      document: { kind: "a" },
    });
  });

  it("never links or serves corpus examples unless the corpus is served", async () => {
    const monitor = await manyMonitor({ subjects: 2, records: 40, corpus: { enabled: true, serve: false } });
    const page = await monitor.server.inject("/subjects/s001");
    expect(page.body).not.toContain("/sample");
    expect(page.body).not.toContain("corpus example");
    const sample = await monitor.server.inject("/subjects/s001/versions/1.0.0/sample");
    expect([sample.statusCode, sample.json().message]).toEqual([
      404,
      "the corpus is not served: set corpus.serve in the config",
    ]);
  });

  it("answers 404 with what it does watch for an unknown subject or version", async () => {
    const monitor = await manyMonitor({ subjects: 2, records: 10 });
    const page = await browser.context.newPage();
    const response = await page.goto(`${monitor.address}/subjects/${encodeURIComponent("no/such")}`);
    expect(response?.status()).toBe(404);
    expect(await page.locator(".notice").innerText()).toBe(
      'The monitor watches no subject "no/such": it watches 2 (listed on the index).',
    );
    const version = await monitor.server.inject("/subjects/s000/versions/9.9.9/schema");
    expect([version.statusCode, version.json().message]).toEqual([
      404,
      'subject s000 has no version "9.9.9": it has 1.0.0, 1.1.0, 2.0.0',
    ]);
    const post = await monitor.server.inject({ method: "POST", url: "/subjects/s000" });
    expect([post.statusCode, post.headers["allow"], post.json().message]).toEqual([
      405,
      "GET, HEAD",
      "POST /subjects/s000: this path answers GET, HEAD",
    ]);
    const subject = await monitor.server.inject("/subjects/nope/versions/1.0.0/schema");
    expect([subject.statusCode, subject.json().message]).toEqual([
      404,
      'the monitor watches no subject "nope"',
    ]);
  });
});
