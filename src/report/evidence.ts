import type { Block, Cell } from "./document.js";

/** How the verdicts' evidence keys read; a key not listed here is shown with its words split. */
const LABELS: Readonly<Record<string, string>> = {
  window: "window",
  coveredSince: "covered since",
  partitions: "partitions",
  lastDeclared: "last declared",
  lastDeclaredBy: "last declared by",
  undeclaredDependents: "records without a version that only it accepts",
  samples: "samples",
  failures: "failures",
  samplesSinceFailure: "samples since the last failure",
  upperBound95: "at most this share would fail (95% confidence)",
  keyword: "keyword",
  instancePath: "at",
  lastFailure: "last failure",
  // A field's verdict (issue 28)
  // Each producer's over its own span (FieldProducerShare.over): the window, or whole buckets begun before it.
  records: "records counted (each producer's over its span)",
  lastCarried: "last carried",
  lastCarriedBy: "last carried by",
  unknownRecords: "records that could not be read",
  recordsSinceMissing: "records carrying it since the last that lacked it",
  lackingBound95: "at most this share of records lacks it (95% confidence)",
};

const labelOf = (key: string) => LABELS[key] ?? key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();

function valueOf(key: string, value: unknown): Cell {
  if (value === null || value === undefined)
    return { text: key === "coveredSince" ? "not yet" : "never", tone: "muted" };
  if ((key === "upperBound95" || key === "lackingBound95") && typeof value === "number")
    return `${(value * 100).toFixed(2)}%`;
  if (key === "instancePath" && typeof value === "string") return { text: value || "(root)", code: true };
  if (key === "keyword" && typeof value === "string") return { text: value, code: true };
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

const isRecordOfRecords = (value: unknown): value is Record<string, Record<string, unknown>> =>
  typeof value === "object" &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === "object" && v !== null && !Array.isArray(v));

/** A verdict's evidence: its plain values as facts, a nested object per name (producers) as a table. */
export function evidenceBlocks(evidence: Readonly<Record<string, unknown>>): Block[] {
  const facts: Array<readonly [string, Cell]> = [];
  const tables: Block[] = [];
  for (const [key, value] of Object.entries(evidence)) {
    if (isRecordOfRecords(value)) {
      const columns = [...new Set(Object.values(value).flatMap((row) => Object.keys(row)))];
      tables.push({
        kind: "table",
        columns: [{ title: key.replace(/s$/, "") }, ...columns.map((c) => ({ title: labelOf(c) }))],
        rows: Object.entries(value).map(([name, row]) => [
          name,
          ...columns.map((c) => (c in row ? valueOf(c, row[c]) : "")),
        ]),
        empty: `no ${labelOf(key)} yet`,
      });
    } else {
      facts.push([labelOf(key), valueOf(key, value)]);
    }
  }
  return [{ kind: "facts", facts }, ...tables];
}
