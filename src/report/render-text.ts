import { chartFallback } from "./charts.js";
import { textOf, type Block, type Cell, type ReportDocument, type Section } from "./document.js";

function table(block: Extract<Block, { kind: "table" }>, indent: string): string[] {
  if (block.rows.length === 0) return [`${indent}${block.empty}`];
  const rows = [block.columns.map((c) => c.title), ...block.rows.map((r) => r.map(textOf))];
  const widths = block.columns.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  const lines = rows.map(
    (row) =>
      indent +
      row
        .map((text, c) => (block.columns[c]?.numeric ? text.padStart(widths[c]!) : text.padEnd(widths[c]!)))
        .join("  ")
        .trimEnd(),
  );
  // A row's folded members follow it, indented: the header is line 0.
  return lines.flatMap((line, r) => [line, ...(r === 0 ? [] : folds(block.rows[r - 1]!, `${indent}    `))]);
}

const folds = (row: readonly Cell[], indent: string): string[] =>
  row.flatMap((c) => (typeof c !== "string" && "fold" in c ? c.fold.flatMap((b) => block(b, indent)) : []));

function block(b: Block, indent: string): string[] {
  switch (b.kind) {
    case "text":
      return [indent + textOf(b.text)];
    case "list":
      return b.items.map((item) => `${indent}- ${textOf(item)}`);
    case "facts": {
      const width = Math.max(0, ...b.facts.map(([label]) => label.length));
      return b.facts.map(([label, value]) => `${indent}${label.padEnd(width)}  ${textOf(value)}`.trimEnd());
    }
    case "table":
      return table(b, indent);
    case "chart":
      return block(chartFallback(b.chart), indent);
    case "details":
      return [`${indent}${b.summary}:`, ...b.blocks.flatMap((inner) => block(inner, `${indent}  `))];
  }
}

function section(s: Section, depth: number, out: string[]): void {
  const indent = "  ".repeat(depth);
  const title = s.badge ? `${s.title}: ${s.badge.text}` : s.title;
  out.push("", indent + title);
  if (depth < 2) out.push(indent + (depth === 0 ? "=" : "-").repeat(title.length));
  for (const b of s.blocks) out.push(...block(b, indent + "  "));
  for (const child of s.sections ?? []) section(child, depth + 1, out);
}

/** The report for a terminal: headings, aligned tables, no colour (it may go to a file). */
export function renderText(document: ReportDocument): string {
  const out = [`${document.title}, ${document.generatedAt}`];
  for (const notice of document.notices) out.push(`! ${notice.text}`);
  for (const s of document.sections) section(s, 0, out);
  return out.join("\n") + "\n";
}
