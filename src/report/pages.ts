import type { AttentionItem } from "./attention.js";
import { attentionSection } from "./attention-section.js";
import type { Block, Cell, ReportDocument, Section, Span } from "./document.js";
import type { Report, ReportSubject, ReportVersion } from "./model.js";
import { historySection } from "./history-section.js";
import { rateText, lagText, subjectHref, type PageContext } from "./page-context.js";
import { decodeErrorsSection, monitorSection, subjectId, subjectSection } from "./sections.js";

/** Up to this many subjects, the index shows each subject whole below its row (today's single page). */
export const INLINE_SUBJECTS = 1;
/**
 * The index lists this many lines of the attention summary at most (the most urgent first) and says
 * how many more there are: the page stays small whatever the number of subjects; each subject's page
 * lists its own.
 */
export const INDEX_ATTENTION_ITEMS = 20;

const notices = (report: Report): Span[] =>
  report.stateProblem
    ? [{ text: `State problem: ${report.stateProblem} (treated as a coverage gap)`, tone: "bad" }]
    : [];

/**
 * The monitor's `/`: what needs you, the monitor, then one row per subject (its topics' rates and lag,
 * its versions in a word, its attention items) linking to the subject's own page. With one subject
 * the subject follows whole, as on a single page.
 */
export function indexDocument(report: Report, page: PageContext): ReportDocument {
  const inline = report.subjects.length <= INLINE_SUBJECTS;
  return {
    title: "schemawatch report",
    generatedAt: report.generatedAt,
    notices: notices(report),
    sections: [
      indexAttention(report.attention, inline ? undefined : page),
      monitorSection(report),
      subjectsSection(report, page),
      ...(inline ? report.subjects.map((s) => subjectSection(s, page)) : []),
      decodeErrorsSection(report),
    ],
  };
}

/**
 * The attention summary of every item (its count and badge), listing the most urgent lines only. With
 * `page` (many subjects) each line names its subject, linked to its page, or how many it spans.
 */
function indexAttention(items: readonly AttentionItem[], page: PageContext | undefined): Section {
  const section = attentionSection(
    items,
    page ? { subjects: true, href: (subject) => subjectHref(page, subject) } : {},
  );
  return {
    ...section,
    blocks: section.blocks.flatMap((b): Block[] => {
      if (b.kind !== "table") return [b];
      const more = b.rows.length - INDEX_ATTENTION_ITEMS;
      const table = { ...b, rows: b.rows.slice(0, INDEX_ATTENTION_ITEMS) };
      if (more <= 0) return [table];
      return [
        table,
        {
          kind: "text",
          text: {
            text: `… and ${more} more, less urgent: each subject's page lists its own, /api/report all of them.`,
            tone: "muted",
          },
        },
      ];
    }),
  };
}

/**
 * A subject's own page: its attention items, its progress over time (when the monitor keeps it), then
 * every section of the subject with links.
 */
export function subjectDocument(report: Report, subject: ReportSubject, page: PageContext): ReportDocument {
  const charts = page.charts?.(subject.subject);
  const overTime = charts
    ? historySection(
        subjectId(subject.subject),
        charts,
        subject.versions.map((v) => v.version),
        `${subjectHref(page, subject.subject)}/history`,
      )
    : undefined;
  return {
    title: `schemawatch: ${subject.subject}`,
    generatedAt: report.generatedAt,
    notices: notices(report),
    sections: [
      attentionSection(report.attention.filter((i) => i.subject === subject.subject)),
      ...(overTime ? [overTime] : []),
      subjectSection(subject, page),
    ],
  };
}

/** The page for a subject the monitor does not watch: what it does watch, and the way back. */
export function unknownSubjectDocument(report: Report, name: string, page: PageContext): ReportDocument {
  return {
    title: "schemawatch: no such subject",
    generatedAt: report.generatedAt,
    notices: [
      {
        text: `The monitor watches no subject ${JSON.stringify(name)}: it watches ${report.subjects.length} (listed on the index).`,
        tone: "bad",
      },
    ],
    sections: [
      {
        id: "back",
        title: "subjects",
        blocks: [{ kind: "text", text: { text: "all subjects", href: page.root } }],
      },
    ],
  };
}

function verdictWord(v: ReportVersion): string {
  if (!v.verdict) return "";
  return v.verdict.yes ? ` ${v.verdict.kind}` : ` not ${v.verdict.kind}`;
}

function subjectsSection(report: Report, page: PageContext): Section {
  const counts = new Map<string, { act: number; watch: number }>();
  for (const item of report.attention) {
    if (item.subject === null || item.level === "info") continue;
    const entry = counts.get(item.subject) ?? { act: 0, watch: 0 };
    entry[item.level]++;
    counts.set(item.subject, entry);
  }
  const rows = report.subjects.map((s): Cell[] => {
    const flows = s.topics.map((t) => page.flows.get(t));
    const sum = (values: Array<number | null | undefined>) =>
      values.some((v) => v === null || v === undefined) ? null : values.reduce<number>((a, b) => a + b!, 0);
    // One topic (the usual case): its figure; several: the sum, then each topic's.
    const perTopic = (text: (flow: (typeof flows)[number]) => string, total: string) =>
      s.topics.length === 1
        ? total
        : `${total} (${s.topics.map((t, i) => `${t} ${text(flows[i])}`).join(", ")})`;
    const c = counts.get(s.subject) ?? { act: 0, watch: 0 };
    return [
      { text: s.subject, href: subjectHref(page, s.subject) },
      s.topics.join(", "),
      String(s.records),
      perTopic((f) => rateText(f?.perSecond), rateText(sum(flows.map((f) => f?.perSecond)))),
      perTopic((f) => lagText(f?.lag), lagText(sum(flows.map((f) => f?.lag)))),
      s.versions.map((v) => `${v.version} ${v.status}${verdictWord(v)}`).join(", "),
      c.act > 0
        ? { text: `${c.act} act${c.watch > 0 ? `, ${c.watch} watch` : ""}`, tone: "bad" }
        : c.watch > 0
          ? { text: `${c.watch} watch`, tone: "warn" }
          : { text: "none", tone: "good" },
    ];
  });
  return {
    id: "subjects",
    title: `subjects (${report.subjects.length})`,
    blocks: [
      { kind: "text", text: { text: page.rateNote, tone: "muted" } },
      {
        kind: "table",
        columns: [
          { title: "subject" },
          { title: "topics" },
          { title: "records", numeric: true },
          { title: "records/s", numeric: true },
          { title: "lag", numeric: true },
          { title: "versions" },
          { title: "needs you" },
        ],
        rows,
        empty: "no subjects",
      },
    ],
  };
}
