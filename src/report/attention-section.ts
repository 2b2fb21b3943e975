import { needsAttention, type AttentionItem } from "./attention.js";
import { groupAttention, type AttentionGroup } from "./attention-groups.js";
import type { Block, Cell, Section, Tone } from "./document.js";

const LEVEL_TONE: Record<AttentionItem["level"], Tone> = { act: "bad", watch: "warn", info: "muted" };
const LEVEL_WORD: Record<AttentionItem["level"], string> = { act: "act", watch: "watch", info: "info" };

/**
 * A folded line lists this many of its members, the most urgent first, and says how many more: the
 * index stays small whatever the catalog; the JSON (`attentionGroups`) lists them all.
 */
export const FOLD_LISTED = 20;

export interface AttentionOptions {
  /** A subject column: a report or an index of several subjects. */
  readonly subjects?: boolean;
  /** Where a subject's page is (the status pages); subjects are linked to it. */
  readonly href?: (subject: string) => string;
}

function subjectCell(subject: string | null, options: AttentionOptions): Cell {
  if (subject === null) return "monitor";
  return options.href ? { text: subject, href: options.href(subject) } : subject;
}

/** A folded line's members: each subject (linked on the pages) and the member's own words. */
function members(group: AttentionGroup, options: AttentionOptions): Block[] {
  const listed = group.members.slice(0, FOLD_LISTED);
  const more = group.members.length - listed.length;
  // Members of one subject need no column to say so: the line names it.
  const bySubject = group.subjects.length > 1;
  return [
    {
      kind: "table",
      columns: bySubject ? [{ title: "subject" }, { title: "what" }] : [{ title: "what" }],
      rows: listed.map((m) => (bySubject ? [subjectCell(m.subject, options), m.what] : [m.what])),
      empty: "",
    },
    ...(more > 0
      ? [
          {
            kind: "text" as const,
            text: {
              text: `… and ${more} more: the JSON report (/api/report, report --format json) lists them all.`,
              tone: "muted" as const,
            },
          },
        ]
      : []),
  ];
}

function groupSubject(group: AttentionGroup, options: AttentionOptions): Cell {
  if (group.subjects.length > 1) return `${group.subjects.length} subjects`;
  return subjectCell(group.subjects[0] ?? null, options);
}

/**
 * What needs an operator, first on every rendering, with what the colours mean: one row per line of
 * `groupAttention` (a single item in its own words, or items that share a kind, a cause and an action
 * folded into one, their members a click away). The count is of lines, with the items they gather
 * when that is more ("3 things need you (1360 items)").
 */
export function attentionSection(items: readonly AttentionItem[], options: AttentionOptions = {}): Section {
  const groups = groupAttention(items);
  const urgent = groups.filter((g) => g.level !== "info");
  const lines = urgent.length;
  const gathered = urgent.reduce((n, g) => n + g.members.length, 0);
  const itemsNote = gathered > lines ? ` (${gathered} items)` : "";
  return {
    id: "attention",
    title: "what needs you",
    badge: needsAttention(items)
      ? { text: `${lines} ${lines === 1 ? "thing" : "things"}`, tone: "bad" }
      : { text: "nothing", tone: "good" },
    blocks: [
      needsAttention(items)
        ? {
            kind: "text",
            text: {
              text: `${lines} ${lines === 1 ? "thing needs" : "things need"} you${itemsNote}, most urgent first:`,
              tone: "bad",
            },
          }
        : { kind: "text", text: { text: "Nothing needs you.", tone: "good" } },
      ...(groups.length === 0
        ? []
        : [
            {
              kind: "table" as const,
              columns: [
                { title: "" },
                ...(options.subjects ? [{ title: "subject" }] : []),
                { title: "what" },
                { title: "next" },
              ],
              rows: groups.map((g): Cell[] => [
                { text: LEVEL_WORD[g.level], tone: LEVEL_TONE[g.level] },
                ...(options.subjects ? [groupSubject(g, options)] : []),
                g.members.length === 1 ? g.what : { text: g.what, fold: members(g, options) },
                g.action,
              ]),
              empty: "",
            },
          ]),
      {
        kind: "list",
        items: [
          { text: "red: breaks something now, or is ready to be done (act)", tone: "bad" },
          {
            text: "amber: would break a consumer that has not moved yet, or keeps a verdict back (watch)",
            tone: "warn",
          },
          { text: "green: fine", tone: "good" },
          { text: "grey: secondary, or nothing to do yet (info)", tone: "muted" },
        ],
      },
    ],
  };
}
