import type { Report } from "./model.js";
import { renderHtml, type HtmlOptions } from "./render-html.js";
import { renderMarkdown } from "./render-markdown.js";
import { renderText } from "./render-text.js";
import { reportDocument } from "./sections.js";

export const REPORT_FORMATS = ["text", "json", "markdown", "html"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** One report, four renderings: JSON is the model itself; the others draw the same sections. */
export function renderReport(report: Report, format: ReportFormat, html: HtmlOptions = {}): string {
  switch (format) {
    case "json":
      return JSON.stringify(report, null, 2) + "\n";
    case "markdown":
      return renderMarkdown(reportDocument(report));
    case "html":
      return renderHtml(reportDocument(report), html);
    case "text":
      return renderText(reportDocument(report));
  }
}
