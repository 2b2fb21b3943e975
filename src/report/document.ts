import type { LineChart } from "./charts.js";

/**
 * What the text, markdown and HTML renderers draw: sections of a few generic blocks. Sections are
 * built from the report model once (`sections.ts`); a renderer knows blocks, never report fields, so
 * a new section needs no renderer change.
 */

/** How a value reads: fine, a problem, worth a look, or secondary. Renderers show it by colour. */
export type Tone = "good" | "bad" | "warn" | "muted";

/** Text with an optional tone; `code` for identifiers such as keywords and JSON Pointers. */
export interface Span {
  readonly text: string;
  readonly tone?: Tone;
  readonly code?: boolean;
  /**
   * A link, relative to the page (the status pages link subjects, schemas and samples); renderers
   * without links show the text.
   */
  readonly href?: string;
}

/**
 * Shares of a whole drawn as one bar (stacked when there are several parts); `text` is what the
 * renderers without bars show. `series` picks the colour: a version's index in its subject, -1 for
 * `none`.
 */
export interface Bars {
  readonly bars: ReadonlyArray<{ readonly label: string; readonly share: number; readonly series: number }>;
  readonly text: string;
}

/**
 * A line that folds its members away (the attention summary's groups): on the page a <details> in its
 * cell, opened by a click; in text, the members indented below its row; in markdown, folded below the
 * table. Renderers that know no folds show the text.
 */
export interface Fold extends Span {
  readonly fold: readonly Block[];
}

export type Cell = string | Span | Bars | Fold;

export interface Column {
  readonly title: string;
  /** Right-aligned. */
  readonly numeric?: boolean;
  /** A colour swatch for the column's series (a legend for the bars in the same table). */
  readonly series?: number;
}

export type Block =
  | { readonly kind: "text"; readonly text: Cell }
  | { readonly kind: "facts"; readonly facts: ReadonlyArray<readonly [label: string, value: Cell]> }
  | { readonly kind: "list"; readonly items: readonly Cell[] }
  | {
      readonly kind: "table";
      readonly columns: readonly Column[];
      readonly rows: ReadonlyArray<readonly Cell[]>;
      /** Said instead of an empty table. */
      readonly empty: string;
    }
  /** A small line chart over time; renderers without charts show its values as a table (charts.ts). */
  | { readonly kind: "chart"; readonly chart: LineChart }
  /** What a reader needs only to check a conclusion: folded away on the page, indented in text. */
  | { readonly kind: "details"; readonly summary: string; readonly blocks: readonly Block[] };

export interface Section {
  /** Unique in the document, for anchors. */
  readonly id: string;
  readonly title: string;
  /** A short verdict beside the title, e.g. "not drained". */
  readonly badge?: Span;
  readonly blocks: readonly Block[];
  readonly sections?: readonly Section[];
}

export interface ReportDocument {
  readonly title: string;
  readonly generatedAt: string;
  /** Said first and prominently (a state problem). */
  readonly notices: readonly Span[];
  readonly sections: readonly Section[];
}

export const textOf = (cell: Cell): string => (typeof cell === "string" ? cell : cell.text);
