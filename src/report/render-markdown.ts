import { chartFallback } from "./charts.js";
import type { Block, Cell, ReportDocument, Section } from "./document.js";
import { escapeHtml } from "./render-html.js";

/** Text that markdown shows as it is: producer names come from traffic and may hold markup. */
const escapeMarkdown = (text: string) =>
  text.replace(/[\\`*_[\]<>|#&]/g, (c) => `\\${c}`).replace(/\s+/g, " ");

function inline(cell: Cell): string {
  if (typeof cell === "string") return escapeMarkdown(cell);
  if ("bars" in cell) return escapeMarkdown(cell.text);
  if (cell.text === "") return "";
  if (cell.code) {
    // A code span shows its content literally; only a backtick in it, and | inside a table, need care.
    const fence = cell.text.includes("`") ? "``" : "`";
    const body = cell.text.replace(/\|/g, "\\|").replace(/\s+/g, " ");
    return `${fence}${fence.length > 1 ? " " : ""}${body}${fence.length > 1 ? " " : ""}${fence}`;
  }
  const text = escapeMarkdown(cell.text);
  return cell.tone === "bad" ? `**${text}**` : text;
}

function block(b: Block): string[] {
  switch (b.kind) {
    case "text":
      return [inline(b.text), ""];
    case "list":
      return [...b.items.map((item) => `- ${inline(item)}`), ""];
    case "facts":
      return [...b.facts.map(([label, value]) => `- **${escapeMarkdown(label)}**: ${inline(value)}`), ""];
    case "table":
      if (b.rows.length === 0) return [`_${escapeMarkdown(b.empty)}_`, ""];
      return [
        `| ${b.columns.map((c) => escapeMarkdown(c.title)).join(" | ")} |`,
        `| ${b.columns.map((c) => (c.numeric ? "---:" : "---")).join(" | ")} |`,
        ...b.rows.map((row) => `| ${row.map(inline).join(" | ")} |`),
        "",
        // A table cell holds one line: a row's folded members follow the table, folded in turn.
        ...b.rows.flatMap((row) =>
          row.flatMap((c) =>
            typeof c !== "string" && "fold" in c
              ? block({ kind: "details", summary: c.text, blocks: c.fold })
              : [],
          ),
        ),
      ];
    case "chart":
      return block(chartFallback(b.chart));
    case "details":
      // GitHub and most markdown viewers fold <details>; the blocks inside stay markdown.
      return [
        "<details>",
        `<summary>${escapeHtml(b.summary)}</summary>`,
        "",
        ...b.blocks.flatMap(block),
        "</details>",
        "",
      ];
  }
}

function section(s: Section, level: number, out: string[]): void {
  const badge = s.badge ? ` (${inline(s.badge)})` : "";
  out.push(`${"#".repeat(Math.min(level, 6))} ${escapeMarkdown(s.title)}${badge}`, "");
  for (const b of s.blocks) out.push(...block(b));
  for (const child of s.sections ?? []) section(child, level + 1, out);
}

/** The report for a pull request, a ticket or a wiki page. */
export function renderMarkdown(document: ReportDocument): string {
  const out = [`# ${escapeMarkdown(document.title)}, ${escapeMarkdown(document.generatedAt)}`, ""];
  for (const notice of document.notices) out.push(`> ${inline(notice)}`, "");
  for (const s of document.sections) section(s, 2, out);
  return out.join("\n").trimEnd() + "\n";
}
