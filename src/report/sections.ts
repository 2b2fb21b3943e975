import type { Block, Cell, ReportDocument, Section, Span } from "./document.js";
import { attentionSection } from "./attention-section.js";
import { evidenceBlocks } from "./evidence.js";
import { fieldsSection } from "./fields-section.js";
import { lossySection } from "./lossy-section.js";
import { findingsSection } from "./findings-section.js";
import { plainReasons, plainYes } from "./plain.js";
import { registrySection } from "./registry-section.js";
import type { Report, ReportSubject, WouldFailEntry } from "./model.js";
import type { PageContext } from "./page-context.js";
import { topicsSection } from "./topics-section.js";
import { producersSection, versionsSection } from "./traffic-sections.js";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const code = (text: string): Span => ({ text, code: true });
const muted = (text: string): Span => ({ text, tone: "muted" });
const pointerText = (pointer: string) => (pointer === "" ? "(root)" : pointer);
/** A schema language as people name it: the word a subject's "format" fact shows. */
const FORMAT_WORDS: Readonly<Record<NonNullable<ReportSubject["format"]>, string>> = {
  json: "JSON Schema",
  avro: "Avro",
  protobuf: "Protobuf",
};
const slug = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, "-");

/**
 * Sections of one subject, in the order they are shown. Each returns undefined when it has nothing to
 * say; adding a section to the report in every format is adding a function here. `page` is given on
 * the monitor's status pages only (links, rates).
 */
export const SUBJECT_SECTIONS: ReadonlyArray<
  (s: ReportSubject, id: string, page?: PageContext) => Section | undefined
> = [
  versionsSection,
  producersSection,
  wouldFailSection,
  lossySection,
  verdictsSection,
  fieldsSection,
  findingsSection,
  unknownUseSection,
  registrySection,
  coverageSection,
];

/** The report as sections of generic blocks, for the text, markdown and HTML renderers. */
export function reportDocument(report: Report): ReportDocument {
  return {
    title: "schemawatch report",
    generatedAt: report.generatedAt,
    notices: report.stateProblem
      ? [{ text: `State problem: ${report.stateProblem} (treated as a coverage gap)`, tone: "bad" }]
      : [],
    sections: [
      // Several subjects: each line says which, as on the status index.
      attentionSection(report.attention, { subjects: report.subjects.length > 1 }),
      monitorSection(report),
      ...report.subjects.map((s) => subjectSection(s)),
      decodeErrorsSection(report),
    ],
  };
}

export function monitorSection(report: Report): Section {
  const overflow = report.labelOverflow["producer"] ?? 0;
  return {
    id: "monitor",
    title: "monitor",
    blocks: [
      ...(report.problems.length === 0
        ? []
        : [
            { kind: "text" as const, text: "Problems (the monitor keeps counting everything else):" },
            {
              kind: "list" as const,
              items: report.problems.map((p) => `${p.problem} (${p.count}×, last ${p.last})`),
            },
          ]),
      {
        kind: "facts",
        facts: [
          [
            "ready",
            report.ready
              ? { text: "yes", tone: "good" }
              : { text: `no: ${report.notReadyReason ?? "unknown"}`, tone: "warn" },
          ],
          ["state", report.stateProblem ? { text: report.stateProblem, tone: "bad" } : "ok"],
          [
            "label overflow",
            overflow > 0 ? { text: `${overflow} records counted as producer 'other'`, tone: "warn" } : "none",
          ],
          ...(report.seriesBudget ? [["series budget", seriesBudgetFact(report.seriesBudget)] as const] : []),
          ["subjects", String(report.subjects.length)],
        ],
      },
    ],
  };
}

/** What the last scrape folded to keep to `metrics.seriesBudget` (docs/metrics.md, "The budget"). */
function seriesBudgetFact(budget: NonNullable<Report["seriesBudget"]>): Cell {
  if (budget.folded === 0) return `under ${budget.limit.toLocaleString("en-US")} series: every producer's`;
  if (budget.deep === true)
    return {
      text:
        `${budget.folded.toLocaleString("en-US")} series summed over producers, writers and topics, or left ` +
        `out at 0, to keep to ${budget.limit.toLocaleString("en-US")}; producers stay named for retired ` +
        "versions, producers failing their own version and deprecated fields, and in the record counts " +
        "(schemawatch_series_folded)",
      tone: "warn",
    };
  return {
    text:
      `${budget.folded.toLocaleString("en-US")} series summed over producers to keep to ` +
      `${budget.limit.toLocaleString("en-US")}; producers stay named for deprecated and retired versions, ` +
      "pairs that would fail and deprecated fields (schemawatch_series_folded)",
    tone: "warn",
  };
}

/** The id of a subject's section, unique in a document: what its page's anchors start with. */
export const subjectId = (subject: string) => `subject-${slug(subject)}`;

/** A subject's facts and sections; with `page` (the live pages), its topics' rates and lag, and links. */
export function subjectSection(s: ReportSubject, page?: PageContext): Section {
  const id = subjectId(s.subject);
  return {
    id,
    title: `subject ${s.subject}`,
    blocks: [
      {
        kind: "facts",
        facts: [
          ["topics", s.topics.join(", ")],
          ...(s.format ? [["format", FORMAT_WORDS[s.format]] as [string, string]] : []),
          ["records", String(s.records)],
          ["undeclared", `${s.undeclared} (${pct(s.records ? s.undeclared / s.records : 0)})`],
          [
            "version unknown",
            s.unreadable > 0
              ? {
                  text: `${s.unreadable} (${pct(s.unreadable / s.records)}): their version could not be read`,
                  tone: "warn",
                }
              : "0",
          ],
          ["sample ratio", s.sampleRatio.toFixed(2)],
        ],
      },
    ],
    sections: [
      ...(page ? [topicsSection(s, id, page)] : []),
      ...SUBJECT_SECTIONS.flatMap((build) => build(s, id, page) ?? []),
    ],
  };
}

function rateCell(entry: WouldFailEntry): Span {
  const text = pct(entry.wouldFailRate);
  if (entry.failed === 0) return { text, tone: "good" };
  // A backward or conformance failure breaks a consumer that upgraded, or the producer's own contract.
  return { text, tone: entry.direction === "backward" || entry.direction === "conformance" ? "bad" : "warn" };
}

function wouldFailSection(s: ReportSubject, id: string): Section {
  return {
    id: `${id}-would-fail`,
    title: "would fail: writer × reader",
    blocks: [
      {
        kind: "text",
        text: "The share of sampled records declaring each writer version that a consumer validating with each reader version would reject.",
      },
      {
        kind: "table",
        columns: [
          { title: "writer" },
          { title: "reader" },
          { title: "direction" },
          { title: "would fail", numeric: true },
          { title: "failed / sampled", numeric: true },
          { title: "failing keyword" },
          { title: "at (JSON Pointer)" },
          { title: "producers failing" },
        ],
        rows: s.wouldFail.map((e) => [
          code(e.writer),
          code(e.reader),
          e.direction,
          rateCell(e),
          `${e.failed} / ${e.validations}`,
          code(
            e.failures.map((f) => (e.failures.length > 1 ? `${f.keyword} ${f.count}` : f.keyword)).join(", "),
          ),
          code(e.failures.map((f) => pointerText(f.pointer)).join(", ")),
          Object.entries(e.producers)
            .filter(([, p]) => p.failed > 0)
            .map(([name, p]) => `${name} ${p.failed}/${p.validations}`)
            .join(", "),
        ]),
        empty: "nothing sampled yet",
      },
    ],
  };
}

function verdictsSection(s: ReportSubject, id: string): Section {
  const judged = s.versions.filter((v) => v.verdict);
  return {
    id: `${id}-verdicts`,
    title: "drained and ready",
    blocks: judged.length === 0 ? [{ kind: "text", text: "No deprecated or candidate version." }] : [],
    sections: judged.map((v) => {
      const verdict = v.verdict!;
      const plain = plainReasons(verdict);
      const blocks: Block[] = verdict.yes
        ? [{ kind: "text", text: plainYes(verdict, v.version) }]
        : [{ kind: "list", items: plain }];
      // The statistics and the reasons as the lifecycle gave them: one click away on the page.
      const asGiven = plain.join("\n") === verdict.reasons.join("\n") ? [] : verdict.reasons;
      blocks.push({
        kind: "details",
        summary: "the evidence",
        blocks: [
          ...(asGiven.length > 0 ? [{ kind: "list" as const, items: asGiven }] : []),
          ...evidenceBlocks(verdict.evidence),
        ],
      });
      return {
        id: `${id}-verdict-${slug(v.version)}`,
        title: `${v.version} ${v.status}`,
        badge: verdict.yes
          ? { text: verdict.kind, tone: "good" }
          : { text: `not ${verdict.kind}`, tone: "warn" },
        blocks,
      };
    }),
  };
}

function unknownUseSection(s: ReportSubject, id: string): Section | undefined {
  if (s.unknownUse.length === 0) return undefined;
  return {
    id: `${id}-unknown-use`,
    title: "records whose version could not be read",
    blocks: [
      {
        kind: "text",
        text: "Evidence of unknown use: while any arrived within the drain window, no deprecated version of the subject is drained.",
      },
      {
        kind: "table",
        columns: [
          { title: "partition" },
          { title: "reason" },
          { title: "records", numeric: true },
          { title: "first" },
          { title: "last" },
        ],
        rows: s.unknownUse.map((u) => [
          `${u.topic}/${u.partition}`,
          code(u.reason),
          String(u.records),
          u.first,
          u.last,
        ]),
        empty: "",
      },
    ],
  };
}

function coverageSection(s: ReportSubject, id: string): Section {
  const blocks: Block[] = [
    {
      kind: "table",
      columns: [
        { title: "topic" },
        { title: "partition", numeric: true },
        { title: "covered since" },
        { title: "observed until" },
        { title: "read here" },
      ],
      rows: s.coverage.map((c) => [
        c.topic,
        String(c.partition),
        c.coveredSince,
        c.observedUntil,
        c.assigned ? { text: "yes", tone: "good" } : muted("no (another member, or revoked)"),
      ]),
      empty: "no partition observed yet",
    },
  ];
  if (s.openTransactions.length > 0) {
    blocks.push(
      {
        kind: "text",
        text: "Open transactions (their records are not readable yet: unknown use until they commit, when they count, or abort):",
      },
      {
        kind: "table",
        columns: [
          { title: "partition" },
          { title: "open since" },
          { title: "records not yet readable", numeric: true },
        ],
        rows: s.openTransactions.map((t) => [`${t.topic}/${t.partition}`, t.since, String(t.records)]),
        empty: "",
      },
    );
  }
  if (s.recentGaps.length > 0) {
    blocks.push(
      { kind: "text", text: "Recent coverage gaps (each restarts the drain and ready windows):" },
      {
        kind: "table",
        columns: [{ title: "partition" }, { title: "at" }, { title: "reason" }, { title: "detail" }],
        rows: s.recentGaps.map((g) => [`${g.topic}/${g.partition}`, g.at, g.reason, muted(g.detail)]),
        empty: "",
      },
    );
  }
  return { id: `${id}-coverage`, title: "coverage per partition", blocks };
}

export function decodeErrorsSection(report: Report): Section {
  const rows = Object.entries(report.decodeErrors).flatMap(([topic, reasons]) =>
    Object.entries(reasons).map(([reason, count]) => [topic, code(reason), String(count)]),
  );
  return {
    id: "decode-errors",
    title: "decode errors",
    blocks: [
      { kind: "text", text: "Records that could not be read, counted by reason and skipped." },
      {
        kind: "table",
        columns: [{ title: "topic" }, { title: "reason" }, { title: "records", numeric: true }],
        rows,
        empty: "none",
      },
    ],
  };
}
