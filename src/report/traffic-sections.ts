import { NO_VERSION, UNKNOWN_VERSION } from "../pipeline/tallies.js";
import type { Cell, Section, Span } from "./document.js";
import type { ReportSubject } from "./model.js";
import { sampleHref, schemaHref, type PageContext } from "./page-context.js";

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const code = (text: string): Span => ({ text, code: true });
const muted = (text: string): Span => ({ text, tone: "muted" });
/** The colour of a version in its subject: its index; `none` and `unknown` are -1. */
const seriesOf = (s: ReportSubject, version: string) =>
  version === NO_VERSION || version === UNKNOWN_VERSION
    ? -1
    : s.versions.findIndex((v) => v.version === version);

/** A subject's versions: records, share, last seen, verdict; on the live pages, links to schemas and examples. */
export function versionsSection(s: ReportSubject, id: string, page?: PageContext): Section {
  const samples = page?.samples?.(s.subject);
  const share = (records: number, version: string) => ({
    bars: [{ label: version, share: s.records ? records / s.records : 0, series: seriesOf(s, version) }],
    text: pct(s.records ? records / s.records : 0),
  });
  const rows: Cell[][] = s.versions.map((v) => [
    code(v.version),
    v.status,
    String(v.records),
    share(v.records, v.version),
    v.lastSeen ?? muted("never"),
    v.verdict
      ? v.verdict.yes
        ? { text: v.verdict.kind, tone: "good" }
        : { text: `not ${v.verdict.kind}`, tone: "warn" }
      : "",
    ...(page ? [{ text: "schema", href: schemaHref(page, s.subject, v.version) }] : []),
    ...(samples
      ? [
          samples.has(v.version)
            ? { text: "sample", href: sampleHref(page!, s.subject, v.version) }
            : muted("none kept"),
        ]
      : []),
  ]);
  const links = (page ? 1 : 0) + (samples ? 1 : 0);
  rows.push([
    code(NO_VERSION),
    muted("undeclared"),
    String(s.undeclared),
    share(s.undeclared, NO_VERSION),
    "",
    "",
    ...Array<string>(links).fill(""),
  ]);
  if (s.unreadable > 0)
    rows.push([
      code(UNKNOWN_VERSION),
      { text: "could not be read", tone: "warn" },
      String(s.unreadable),
      share(s.unreadable, UNKNOWN_VERSION),
      "",
      "",
      ...Array<string>(links).fill(""),
    ]);
  return {
    id: `${id}-versions`,
    title: "versions",
    blocks: [
      {
        kind: "table",
        columns: [
          { title: "version" },
          { title: "status" },
          { title: "records", numeric: true },
          { title: "share" },
          { title: "last seen" },
          { title: "verdict" },
          ...(page ? [{ title: "schema" }] : []),
          ...(samples ? [{ title: "corpus example" }] : []),
        ],
        rows,
        empty: "no versions",
      },
    ],
  };
}

/** The version mix per producer, with a bar per producer. */
export function producersSection(s: ReportSubject, id: string): Section {
  const writers = [
    ...s.versions.map((v) => v.version),
    NO_VERSION,
    ...(s.unreadable > 0 ? [UNKNOWN_VERSION] : []),
  ];
  return {
    id: `${id}-producers`,
    title: "version mix per producer",
    blocks: [
      {
        kind: "table",
        columns: [
          { title: "producer" },
          { title: "records", numeric: true },
          ...writers.map((w) => ({ title: w, numeric: true, series: seriesOf(s, w) })),
          { title: "mix" },
        ],
        rows: s.producers.map((p) => [
          p.producer,
          String(p.records),
          ...writers.map((w) => String(p.byWriter[w] ?? 0)),
          {
            bars: writers
              .filter((w) => (p.byWriter[w] ?? 0) > 0)
              .map((w) => ({ label: w, share: p.byWriter[w]! / p.records, series: seriesOf(s, w) })),
            text: writers
              .filter((w) => (p.byWriter[w] ?? 0) > 0)
              .map((w) => `${w} ${pct(p.byWriter[w]! / p.records)}`)
              .join(", "),
          },
        ]),
        empty: "no records yet",
      },
    ],
  };
}
