import type { Validator } from "../catalog/compiler.js";
import { DocumentBudget } from "./budget.js";
import type { SampleDocument } from "./documents.js";

export interface MatrixSchema {
  readonly label: string;
  /** The file the row's schema came from: labels (titles) may repeat, files do not. */
  readonly file: string;
  readonly json: unknown;
  readonly validate: Validator;
}

export interface Matrix {
  readonly schemas: readonly string[];
  readonly files: readonly string[];
  readonly documents: readonly string[];
  /** One row per schema, one cell per document. */
  readonly valid: readonly (readonly boolean[])[];
}

/**
 * The article's table: every document against every schema, each row with its own validator, each
 * validation within the time budget (VALIDATION_TIMEOUT names the document past it).
 */
export function buildMatrix(
  schemas: readonly MatrixSchema[],
  documents: readonly SampleDocument[],
  budget: DocumentBudget = new DocumentBudget(),
): Matrix {
  const judged = budget.judge(
    schemas.flatMap((s) => documents.map((d) => [{ ...s, name: s.file }, d] as const)),
  );
  return {
    schemas: schemas.map((s) => s.label),
    files: schemas.map((s) => s.file),
    documents: documents.map((d) => d.name.replace(/\.json$/i, "")),
    valid: schemas.map((_, row) => documents.map((_, col) => judged[row * documents.length + col]!.passed)),
  };
}

const cell = (valid: boolean) => (valid ? "ok" : "FAIL");

export function formatMatrixText(matrix: Matrix): string {
  const header = ["Schema", ...matrix.documents];
  const rows = matrix.schemas.map((label, i) => [label, ...(matrix.valid[i] ?? []).map(cell)]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((text, c) => text.padEnd(widths[c] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

export function formatMatrixMarkdown(matrix: Matrix): string {
  const escape = (text: string) => text.replace(/\|/g, "\\|");
  const header = `| Schema | ${matrix.documents.map(escape).join(" | ")} |`;
  const rule = `| --- | ${matrix.documents.map(() => "---").join(" | ")} |`;
  const rows = matrix.schemas.map(
    (label, i) => `| ${escape(label)} | ${(matrix.valid[i] ?? []).map(cell).join(" | ")} |`,
  );
  return [header, rule, ...rows].join("\n") + "\n";
}
