import { DIRECTIONS } from "../engine/direction.js";
import type { MonitorStatus, RateSummary } from "./status.js";

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function cellOf(summary: RateSummary | undefined): string {
  if (!summary || summary.validations === 0) return "-";
  return `${percent(summary.wouldFailRate ?? 0)} (${summary.failed}/${summary.validations})`;
}

function table(
  rows: readonly (readonly string[])[],
  rightAligned: ReadonlySet<number> = new Set(),
): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
  return rows.map((row) =>
    row
      .map((text, c) => (rightAligned.has(c) ? text.padStart(widths[c]!) : text.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd(),
  );
}

/** The status as people read it: version mix, producers, would-fail rates, decode errors. */
export function formatStatusText(status: MonitorStatus): string {
  const out: string[] = [];
  for (const subject of status.subjects) {
    out.push(
      `subject ${subject.subject} (topics: ${subject.topics.join(", ")}): ${subject.records} records, sample ratio ${subject.sampleRatio.toFixed(2)}`,
      "",
    );
    out.push(
      ...table(
        [
          ["  version", "status", "records", "share", "last seen"],
          ...subject.versions.map((v) => [
            `  ${v.version}`,
            v.status,
            String(v.records),
            percent(v.share),
            v.lastSeen ?? "never",
          ]),
          [
            "  none",
            "undeclared",
            String(subject.undeclared),
            percent(subject.records ? subject.undeclared / subject.records : 0),
            "",
          ],
        ],
        new Set([2, 3]),
      ),
      "",
    );
    const writers = [...subject.versions.map((v) => v.version), "none"];
    out.push(
      ...table(
        [
          ["  producer", "records", ...writers.map((w) => `writer ${w}`)],
          ...subject.producers.map((p) => [
            `  ${p.producer}`,
            String(p.records),
            ...writers.map((w) => String(p.byWriter[w] ?? 0)),
          ]),
        ],
        new Set(writers.map((_, i) => i + 2).concat(1)),
      ),
      "",
    );
    out.push("  would-fail rate: the share of sampled records each reader version rejects, by direction");
    out.push(
      ...table([
        ["  reader", "status", ...DIRECTIONS],
        ...subject.versions
          .filter((v) => v.status !== "retired")
          .map((v) => [`  ${v.version}`, v.status, ...DIRECTIONS.map((d) => cellOf(v.wouldFail[d]))]),
      ]),
      "",
    );
  }
  const decode = Object.entries(status.decodeErrors).flatMap(([topic, reasons]) =>
    Object.entries(reasons).map(([reason, count]) => `  ${topic}  ${reason}  ${count}`),
  );
  out.push(decode.length ? `decode errors (skipped records):\n${decode.join("\n")}` : "decode errors: none");
  if ((status.labelOverflow["producer"] ?? 0) > 0) {
    out.push(`label overflow: ${status.labelOverflow["producer"]} records counted as producer 'other'`);
  }
  return out.join("\n") + "\n";
}
