import type { Quartiles } from "../stats/findings.js";
import { clock, quote } from "../stats/findings.js";
import type { Cell, Section } from "./document.js";
import type { ReportFinding, ReportSubject } from "./model.js";

/** A statistic as people read it: three significant digits, thousands grouped. */
const num = (x: number) => Number(x.toPrecision(3)).toLocaleString("en-US");
const quartiles = (q: Quartiles) => q.map(num).join(" / ");
const share = (x: number) => `${Number((x * 100).toPrecision(2))}%`;
const version = (writer: string) => (writer === "none" ? "none declared" : writer);

/** What a finding is, in a word or two. */
export function findingKindText(f: ReportFinding): string {
  switch (f.kind) {
    case "scale":
      return "scale changed";
    case "peers":
      return "differs from its peers";
    case "new-value":
      return "new value";
    case "share":
      return "share jumped";
  }
}

/** The evidence of a finding: its quartiles (q1 / median / q3) or shares, with the samples behind them. */
export function findingEvidence(f: ReportFinding): string {
  switch (f.kind) {
    case "scale":
      return `quartiles ${quartiles(f.before)} before (${f.samplesBefore} values), ${quartiles(f.after)} since (${f.samplesAfter})`;
    case "peers":
      return `quartiles ${quartiles(f.own)} (${f.samplesOwn} values) against the other producers' ${quartiles(f.peers)} (${f.samplesPeers})`;
    case "new-value":
      return `${quote(f.value)} ${f.count === 1 ? "once" : `${f.count} times`}, never in the ${f.samplesBefore} values before`;
    case "share":
      return `${quote(f.value)} in ${share(f.shareAfter)} of ${f.samplesAfter} values since, ${share(f.shareBefore)} of ${f.samplesBefore} before`;
  }
}

/**
 * A subject's field-statistics findings (docs/stats.md): per field and producer what changed while
 * the schema did not, since which bucket, and the quartiles or shares that show it. Only statistics
 * are shown: values never leave the sketches.
 */
export function findingsSection(s: ReportSubject, id: string): Section | undefined {
  const findings = s.findings ?? [];
  if (findings.length === 0) return undefined;
  const rows: Cell[][] = findings.map((f) => [
    { text: f.field, code: true },
    f.producer,
    { text: version(f.writer), code: true },
    { text: findingKindText(f), tone: "warn" },
    clock(Date.parse(f.since)),
    findingEvidence(f),
  ]);
  return {
    id: `${id}-findings`,
    title: "field statistics: meaning may have changed",
    badge: { text: `${findings.length} finding${findings.length === 1 ? "" : "s"}`, tone: "warn" },
    blocks: [
      {
        kind: "text",
        text: "Values whose scale or mix changed while the schema did not (quartiles are q1 / median / q3; since is the bucket the change began in).",
      },
      {
        kind: "table",
        columns: [
          { title: "field" },
          { title: "producer" },
          { title: "version" },
          { title: "finding" },
          { title: "since" },
          { title: "evidence" },
        ],
        rows,
        empty: "",
      },
    ],
  };
}
