import { describe, expect, it } from "vitest";
import { findingItems } from "../../../src/report/finding-attention.js";
import { findingsSection } from "../../../src/report/findings-section.js";
import { Health } from "../../../src/health/health.js";
import {
  buildReport,
  type Report,
  type ReportFinding,
  type ReportSubject,
} from "../../../src/report/model.js";
import { renderReport } from "../../../src/report/render.js";
import { buildStatus } from "../../../src/report/status.js";
import { eventPipeline, record } from "../../helpers/monitor.js";
import type { Finding } from "../../../src/stats/findings.js";
import { emptySubject } from "../../helpers/report.js";

// The field statistics' findings in the attention summary (one watch item, one action each) and in
// the report's findings section, in every format.

const T1405 = Date.UTC(2026, 11, 4, 14, 5);
const key = { subject: "payment", field: "/amount", producer: "billing", writer: "1.1" };

const scale: Finding = {
  ...key,
  kind: "scale",
  measure: "value",
  since: T1405,
  before: [1200, 2500, 4000],
  after: [12, 25, 40],
  samplesBefore: 300,
  samplesAfter: 120,
  factor: 0.01,
  message:
    "billing's /amount (payment, version 1.1) is 100 times smaller since 2026-12-04 14:05 UTC while its schema did not change: check its unit",
};
const peers: Finding = {
  ...key,
  producer: "web",
  kind: "peers",
  measure: "value",
  since: T1405,
  peers: [12, 25, 40],
  own: [1200, 2500, 4000],
  samplesPeers: 400,
  samplesOwn: 90,
  factor: 100,
  message:
    "web's /amount (payment, version 1.1) is 100 times larger than the other producers' of that version since 2026-12-04 14:05 UTC: check its unit",
};
const note: Finding = {
  ...key,
  field: "/customer/note",
  kind: "scale",
  measure: "length",
  since: Date.UTC(2026, 11, 3, 9, 0),
  before: [10, 20, 30],
  after: [200, 400, 600],
  samplesBefore: 80,
  samplesAfter: 60,
  factor: 20,
  message:
    "billing's /customer/note (payment, version 1.1) is 20 times longer since 2026-12-03 09:00 UTC while its schema did not change: check what it carries",
};
const currency: Finding = {
  ...key,
  field: "/currency",
  kind: "new-value",
  since: T1405,
  value: "XBT",
  count: 7,
  samplesBefore: 500,
  message: "",
};
const share: Finding = {
  ...key,
  field: "/currency",
  kind: "share",
  since: T1405,
  value: "CHF",
  shareBefore: 0.002,
  shareAfter: 0.4,
  samplesBefore: 500,
  samplesAfter: 100,
  message: "",
};

/** A finding as the report holds it: its bucket's start in ISO 8601. */
const inReport = (f: Finding): ReportFinding =>
  ({ ...f, since: new Date(f.since).toISOString() }) as ReportFinding;

function subject(findings?: Finding[]): ReportSubject {
  return emptySubject("payment", findings ? { findings: findings.map(inReport) } : {});
}

const NOW = "2026-12-04T16:00:00.000Z";

describe("findings in the attention summary", () => {
  it("one watch item per finding, with its one action, in plain words", () => {
    expect(findingItems(subject([scale, peers, note, currency, share]), NOW)).toEqual([
      {
        level: "watch",
        kind: "field-scale-changed",
        subject: "payment",
        what: "billing's amount is 100 times smaller since 14:05 while its schema did not change",
        action:
          "Check the unit of amount in billing's records: a schema cannot see this, consumers that compute with it can.",
      },
      {
        level: "watch",
        kind: "field-differs-from-peers",
        subject: "payment",
        what: "web's amount is 100 times larger than the other producers' of version 1.1 since 14:05, with the same schema",
        action:
          "Check the unit of amount in web's records: a schema cannot see this, consumers that compute with it can.",
      },
      {
        level: "watch",
        kind: "field-scale-changed",
        subject: "payment",
        what: "billing's /customer/note is 20 times longer since 2026-12-03 09:00 UTC while its schema did not change",
        action:
          "Check what /customer/note carries in billing's records: a schema cannot see this, consumers that compute with it can.",
      },
      {
        level: "watch",
        kind: "field-new-value",
        subject: "payment",
        what: 'billing\'s currency sent a value never seen before, "XBT", since 14:05',
        action: 'Check that the consumers of payment handle "XBT" in currency.',
      },
      {
        level: "watch",
        kind: "field-share-jumped",
        subject: "payment",
        what: 'billing\'s currency is "CHF" far more often since 14:05',
        action: 'Check why billing sends "CHF" in currency so much more often.',
      },
    ]);
  });

  it("no finding, or a report before them, is no item", () => {
    expect(findingItems(subject([]), NOW)).toEqual([]);
    expect(findingItems(subject(), NOW)).toEqual([]);
  });
});

describe("the findings section", () => {
  it("a row per finding with its quartiles or shares and the bucket it began in", () => {
    const section = findingsSection(subject([scale, peers, currency, share]), "subject-payment")!;
    expect(section.badge).toEqual({ text: "4 findings", tone: "warn" });
    expect(section.blocks[1]).toMatchObject({
      kind: "table",
      rows: [
        [
          { text: "/amount", code: true },
          "billing",
          { text: "1.1", code: true },
          { text: "scale changed", tone: "warn" },
          "2026-12-04 14:05 UTC",
          "quartiles 1,200 / 2,500 / 4,000 before (300 values), 12 / 25 / 40 since (120)",
        ],
        [
          { text: "/amount", code: true },
          "web",
          { text: "1.1", code: true },
          { text: "differs from its peers", tone: "warn" },
          "2026-12-04 14:05 UTC",
          "quartiles 1,200 / 2,500 / 4,000 (90 values) against the other producers' 12 / 25 / 40 (400)",
        ],
        [
          { text: "/currency", code: true },
          "billing",
          { text: "1.1", code: true },
          { text: "new value", tone: "warn" },
          "2026-12-04 14:05 UTC",
          '"XBT" 7 times, never in the 500 values before',
        ],
        [
          { text: "/currency", code: true },
          "billing",
          { text: "1.1", code: true },
          { text: "share jumped", tone: "warn" },
          "2026-12-04 14:05 UTC",
          '"CHF" in 40% of 100 values since, 0.2% of 500 before',
        ],
      ],
    });
  });

  it("is absent without findings", () => {
    expect(findingsSection(subject([]), "subject-payment")).toBeUndefined();
    expect(findingsSection(subject(), "subject-payment")).toBeUndefined();
  });

  it("appears in every format", () => {
    const report: Report = {
      generatedAt: NOW,
      attention: findingItems(subject([scale]), NOW),
      ready: true,
      notReadyReason: null,
      stateProblem: null,
      problems: [],
      subjects: [subject([scale])],
      decodeErrors: {},
      labelOverflow: {},
    };
    const evidence = "quartiles 1,200 / 2,500 / 4,000 before (300 values), 12 / 25 / 40 since (120)";
    for (const format of ["text", "markdown", "html"] as const) {
      const out = renderReport(report, format);
      expect(out, format).toContain("field statistics: meaning may have changed");
      expect(out, format).toContain(evidence);
      // The attention item, in every format (the page escapes the apostrophe).
      expect(out, format).toContain(
        "amount is 100 times smaller since 14:05 while its schema did not change",
      );
    }
    // Every time in the report is ISO 8601, the bucket a finding began in too.
    expect(JSON.parse(renderReport(report, "json")).subjects[0].findings).toEqual([
      { ...scale, since: "2026-12-04T14:05:00.000Z" },
    ]);
  });
});

describe("the report's findings", () => {
  it("go to their subject and give attention items; other subjects' and a monitor without statistics none", async () => {
    const { pipeline, catalog } = await eventPipeline();
    pipeline.process(record({ id: 1, event: "view" }, { producer: "web", "schema-version": "1.0" }));
    const status = buildStatus(catalog, pipeline, new Health());
    // A day long past: the item names its date, whatever day the test runs.
    const ours: Finding = { ...scale, subject: "event", field: "/x", since: Date.UTC(2025, 0, 2, 14, 5) };
    const report = buildReport(status, pipeline.tallies, undefined, [ours, scale]);
    expect(report.subjects.map((s) => [s.subject, s.findings])).toEqual([
      ["event", [{ ...ours, since: "2025-01-02T14:05:00.000Z" }]],
    ]);
    expect(report.attention.filter((i) => i.kind.startsWith("field-"))).toEqual([
      {
        level: "watch",
        kind: "field-scale-changed",
        subject: "event",
        what: "billing's x is 100 times smaller since 2025-01-02 14:05 UTC while its schema did not change",
        action:
          "Check the unit of x in billing's records: a schema cannot see this, consumers that compute with it can.",
      },
    ]);
    const without = buildReport(status, pipeline.tallies, undefined);
    expect(without.subjects.map((s) => "findings" in s)).toEqual([false]);
  });
});
