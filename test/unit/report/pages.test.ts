import { describe, expect, it } from "vitest";
import { Health } from "../../../src/health/health.js";
import { buildStatus } from "../../../src/report/status.js";
import type { AttentionItem } from "../../../src/report/attention.js";
import { textOf, type Block, type ReportDocument, type Section } from "../../../src/report/document.js";
import { buildReport, type Report } from "../../../src/report/model.js";
import type { PageContext } from "../../../src/report/page-context.js";
import {
  INDEX_ATTENTION_ITEMS,
  indexDocument,
  subjectDocument,
  unknownSubjectDocument,
} from "../../../src/report/pages.js";
import { renderHtml } from "../../../src/report/render-html.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

/** The bundled event subject with a few records, and a second subject with an odd name on two topics. */
async function twoSubjects(): Promise<Report> {
  const { pipeline, catalog } = await eventPipeline();
  pipeline.process(record({ id: 1, event: "view" }, { producer: "web", "schema-version": "1.0" }));
  pipeline.process(record({ id: 2, event: "buy", amount: 1 }, { producer: "web", "schema-version": "1.1" }));
  const report = buildReport(buildStatus(catalog, pipeline, new Health()), pipeline.tallies, undefined);
  const odd = { ...report.subjects[0]!, subject: "odd/name ü", topics: ["events", "events-eu"] };
  return { ...report, subjects: [...report.subjects, odd] };
}

const context = (root: string, samples?: Record<string, string[]>): PageContext => ({
  root,
  flows: new Map([
    ["events", { topic: "events", perSecond: 1.5, lag: 12, lagMeasuredAt: "2026-12-01T08:00:00.000Z" }],
    ["events-eu", { topic: "events-eu", perSecond: 250, lag: null, lagMeasuredAt: null }],
  ]),
  rateNote: "records/s over the last 60 s",
  ...(samples ? { samples: (subject: string) => new Set(samples[subject] ?? []) } : {}),
});

function sectionOf(document: ReportDocument, id: string): Section {
  const find = (sections: readonly Section[]): Section | undefined =>
    sections.map((s) => (s.id === id ? s : find(s.sections ?? []))).find((s) => s !== undefined);
  const found = find(document.sections);
  if (!found) throw new Error(`no section ${id}`);
  return found;
}

const rowsOf = (section: Section) =>
  section.blocks
    .filter((b): b is Extract<Block, { kind: "table" }> => b.kind === "table")
    .flatMap((b) => b.rows.map((row) => row.map(textOf).join(" | ")));

describe("the status pages", () => {
  it("list one row per subject on the index, with rates and lag per topic, linking to each subject's page", async () => {
    const report = await twoSubjects();
    const index = indexDocument(report, context(""));
    expect(index.sections.map((s) => s.id)).toEqual(["attention", "monitor", "subjects", "decode-errors"]);
    expect(sectionOf(index, "subjects").title).toBe("subjects (2)");
    expect(rowsOf(sectionOf(index, "subjects"))).toEqual([
      "event | events | 2 | 1.50 | 12 | 1.0.0 deprecated, 1.1.0 active, 2.0.0 candidate | 1 act",
      "odd/name ü | events, events-eu | 2 | 252 (events 1.50, events-eu 250) | — (events 12, events-eu —) | 1.0.0 deprecated, 1.1.0 active, 2.0.0 candidate | none",
    ]);
    const html = renderHtml(index);
    expect(html).toContain('<td><a href="subjects/event">event</a></td>');
    expect(html).toContain('<td><a href="subjects/odd%2Fname%20%C3%BC">odd/name ü</a></td>');
  });

  it("show one subject whole below its row on the index, as a single page did", async () => {
    const report = await twoSubjects();
    const one = { ...report, subjects: report.subjects.slice(0, 1) };
    const index = indexDocument(one, context(""));
    expect(index.sections.map((s) => s.id)).toEqual([
      "attention",
      "monitor",
      "subjects",
      "subject-event",
      "decode-errors",
    ]);
    expect(rowsOf(sectionOf(index, "subject-event-topics"))).toEqual([
      "events | 1.50 | 12 | 2026-12-01T08:00:00.000Z",
    ]);
    expect(renderHtml(index)).toContain('<a href="subjects/event/versions/1.0.0/schema">schema</a>');
  });

  it("give a subject its own page: its attention items, its sections, links to schemas and corpus examples", async () => {
    const report = await twoSubjects();
    const page = subjectDocument(report, report.subjects[0]!, context("../", { event: ["1.1.0"] }));
    expect(page.title).toBe("schemawatch: event");
    expect(rowsOf(sectionOf(page, "attention")).map((row) => row.split(" | ")[0])).toEqual(
      report.attention.filter((i) => i.subject === "event").map((i) => i.level),
    );
    expect(rowsOf(sectionOf(page, "subject-event-versions"))).toEqual([
      "1.0.0 | deprecated | 1 | 50.0% | 2026-12-01T08:00:00.000Z |  | schema | none kept",
      "1.1.0 | active | 1 | 50.0% | 2026-12-01T08:00:00.000Z |  | schema | sample",
      "2.0.0 | candidate | 0 | 0.0% | never |  | schema | none kept",
      "none | undeclared | 0 | 0.0% |  |  |  | ",
    ]);
    const html = renderHtml(page, { home: "../", monitorUrl: "" });
    expect(html).toContain('<a href="../subjects/event/versions/1.1.0/sample">sample</a>');
    expect(html).toContain('<a href="../subjects/event/versions/2.0.0/schema">schema</a>');
    expect(html).toContain('<nav><a href="../">all subjects</a> <a href="/metrics">/metrics</a>');
    // Without a served corpus there is no example column at all.
    const plain = subjectDocument(report, report.subjects[0]!, context("../"));
    expect(rowsOf(sectionOf(plain, "subject-event-versions"))[0]).toBe(
      "1.0.0 | deprecated | 1 | 50.0% | 2026-12-01T08:00:00.000Z |  | schema",
    );
  });

  it("list the most urgent attention items on the index and say how many more there are", async () => {
    const report = await twoSubjects();
    // Kinds of their own: none shares a line with another.
    const item = (i: number): AttentionItem => ({
      level: i < 5 ? "act" : "watch",
      kind: `kind-${i}`,
      subject: "event",
      what: `item ${i}`,
      action: "look",
    });
    const many = {
      ...report,
      attention: Array.from({ length: INDEX_ATTENTION_ITEMS + 7 }, (_, i) => item(i)),
    };
    const attention = sectionOf(indexDocument(many, context("")), "attention");
    expect(rowsOf(attention)).toHaveLength(INDEX_ATTENTION_ITEMS);
    // The count is of them all.
    expect(attention.badge?.text).toBe(`${INDEX_ATTENTION_ITEMS + 7} things`);
    expect(attention.blocks.map((b) => (b.kind === "text" ? textOf(b.text) : b.kind))).toEqual([
      `${INDEX_ATTENTION_ITEMS + 7} things need you, most urgent first:`,
      "table",
      "… and 7 more, less urgent: each subject's page lists its own, /api/report all of them.",
      "list",
    ]);
    expect(rowsOf(attention)[0]).toBe("act | event | item 0 | look");
    expect(rowsOf(sectionOf(indexDocument(many, context("")), "subjects"))[0]).toMatch(
      / \| 5 act, 22 watch$/,
    );
  });

  it("say which subject is unknown, and lead back to the index", async () => {
    const report = await twoSubjects();
    const page = unknownSubjectDocument(report, "nope", context("../"));
    expect(page.notices.map((n) => n.text)).toEqual([
      'The monitor watches no subject "nope": it watches 2 (listed on the index).',
    ]);
    expect(renderHtml(page)).toContain('<a href="../">all subjects</a>');
  });
});
