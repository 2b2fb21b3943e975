import { describe, expect, it } from "vitest";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import { fieldItems } from "../../../src/report/field-attention.js";
import { fieldsSection, nextMajor } from "../../../src/report/fields-section.js";
import type { ReportSubject } from "../../../src/report/model.js";
import { renderReport } from "../../../src/report/render.js";
import type { Report } from "../../../src/report/model.js";

// The field verdicts in the attention summary (one action each) and in the report's fields section.

const share = (producer: string, records: number, present: number, absent: number) => ({
  producer,
  records,
  present,
  absent,
  unknown: 0,
  writers: ["1.1.0"],
  lastPresent: null,
  lastAbsent: null,
  lastUnknown: null,
  over: "7d",
  exact: true,
  inWindow: { present: present > 0, absent: absent > 0, unknown: false },
});

function verdict(over: Partial<FieldVerdict>): FieldVerdict {
  return {
    kind: "drained",
    yes: false,
    reasons: [],
    evidence: { window: "7d" },
    field: "/amount",
    fieldKind: "deprecated",
    version: "1.1.0",
    producers: [],
    ...over,
  };
}

function subject(fields: FieldVerdict[]): ReportSubject {
  return {
    subject: "pay",
    topics: ["payments"],
    records: 0,
    undeclared: 0,
    unreadable: 0,
    unknownUse: [],
    retiredTraffic: [],
    sampleRatio: 1,
    versions: [
      { version: "1.0.0", status: "deprecated" },
      { version: "1.1.0", status: "active" },
    ] as ReportSubject["versions"],
    producers: [],
    wouldFail: [],
    coverage: [],
    openTransactions: [],
    recentGaps: [],
    registry: null,
    fields,
  };
}

const amountInUse = verdict({
  reasons: [
    "billing still sends /amount in 12% of its records (12 of 100 in the last 7d; writer 1.1.0), the last one 1m ago",
  ],
  producers: [share("billing", 100, 12, 88), share("web", 50, 0, 50)],
});
const currencyReady = verdict({
  kind: "ready",
  yes: true,
  field: "/currency",
  fieldKind: "optional",
  producers: [share("billing", 100, 100, 0), share("web", 50, 50, 0)],
});

describe("field verdicts in the attention summary", () => {
  it("one item per field, with its one action, in the next major", () => {
    const drained = verdict({ yes: true, field: "/legacy" });
    const totalPending = verdict({
      kind: "ready",
      field: "/total",
      fieldKind: "optional",
      producers: [share("billing", 100, 100, 0), share("web", 50, 45, 5)],
    });
    const nobody = verdict({
      kind: "ready",
      field: "/note",
      fieldKind: "optional",
      producers: [share("web", 50, 0, 50)],
    });
    expect(fieldItems(subject([amountInUse, currencyReady, drained, totalPending, nobody]))).toEqual([
      {
        level: "watch",
        kind: "field-in-use",
        subject: "pay",
        what: "billing still sends /amount in 12% of its records over the last 7d",
        action: "Stop sending /amount from billing before removing it in 2.0.0.",
      },
      {
        level: "act",
        kind: "field-ready",
        subject: "pay",
        what: "every producer sends /currency of pay in every record",
        action: "It can be added to required in 2.0.0.",
      },
      {
        level: "act",
        kind: "field-drained",
        subject: "pay",
        what: "/legacy of pay is drained: no record carried it for the whole drain window, with every partition observed",
        action: "Remove /legacy in 2.0.0.",
      },
    ]);
  });

  it("the release is the candidate of the next major when there is one, else the major after the newest", () => {
    expect(
      nextMajor([
        { version: "1.1.0", status: "active" },
        { version: "2.0.0", status: "candidate" },
      ]),
    ).toBe("2.0.0");
    expect(
      nextMajor([
        { version: "1.1.0", status: "active" },
        { version: "1.2.0", status: "candidate" },
      ]),
    ).toBe("2.0.0");
    expect(nextMajor([{ version: "3", status: "active" }])).toBe("4.0.0");
  });
});

describe("the fields section", () => {
  it("a row per field with each producer's share over the window, and the reasons", () => {
    const section = fieldsSection(subject([amountInUse, currencyReady]), "subject-pay")!;
    expect(section.badge).toEqual({ text: "1 of 2 not yet", tone: "muted" });
    expect(section.blocks[0]).toEqual({
      kind: "table",
      columns: [{ title: "field" }, { title: "kind" }, { title: "verdict" }, { title: "producers (window)" }],
      rows: [
        [
          { text: "/amount", code: true },
          "deprecated in 1.1.0",
          { text: "in use", tone: "warn" },
          "billing sends it in 12.0% over the last 7d; web sends it in 0% over the last 7d",
        ],
        [
          { text: "/currency", code: true },
          "optional in 1.1.0",
          { text: "ready to require", tone: "good" },
          "billing omits it in 0% over the last 7d; web omits it in 0% over the last 7d",
        ],
      ],
      empty: "no field tracked",
    });
    expect(fieldsSection(subject([]), "subject-pay")).toBeUndefined();
  });

  it("appears in every rendering of the report", () => {
    const report: Report = {
      generatedAt: "2026-12-01T08:00:00.000Z",
      attention: [],
      ready: true,
      notReadyReason: null,
      stateProblem: null,
      problems: [],
      subjects: [subject([amountInUse])],
      decodeErrors: {},
      labelOverflow: {},
    };
    for (const format of ["text", "markdown", "html"] as const)
      expect(renderReport(report, format)).toContain("billing still sends /amount in 12% of its records");
  });
});
