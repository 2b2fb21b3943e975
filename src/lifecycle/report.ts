import { DIRECTIONS } from "../engine/direction.js";
import type { MonitorStatus, RateSummary } from "../monitor/status.js";
import type { LifecycleRuntime } from "./runtime.js";
import type { Verdict } from "./verdicts.js";

export interface ReportVersion {
  version: string;
  status: string;
  records: number;
  share: number;
  lastSeen: string | null;
  /** Records and share of this version's traffic per producer. */
  producers: Record<string, { records: number; share: number }>;
  wouldFail: MonitorStatus["subjects"][number]["versions"][number]["wouldFail"];
  verdict: Verdict | null;
}

export interface Report {
  generatedAt: string;
  stateProblem: string | null;
  /** Conditions that leave the monitor running (an undecodable batch, a missing topic). */
  problems: MonitorStatus["problems"];
  subjects: Array<{
    subject: string;
    topics: string[];
    records: number;
    undeclared: number;
    /** Records whose writer version could not be read, counted as writer version `unknown`. */
    unreadable: number;
    /** Where and why, since the evidence began: what keeps the deprecated versions from draining. */
    unknownUse: Array<{
      topic: string;
      partition: number;
      reason: string;
      records: number;
      first: string;
      last: string;
    }>;
    versions: ReportVersion[];
    coverage: Array<{
      topic: string;
      partition: number;
      coveredSince: string;
      observedUntil: string;
      assigned: boolean;
    }>;
    recentGaps: Array<{ topic: string; partition: number; reason: string; at: string; detail: string }>;
  }>;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `GET /api/report`: per subject and version, traffic, would-fail rates, verdicts with evidence, coverage. */
export function buildReport(status: MonitorStatus, runtime: LifecycleRuntime | undefined): Report {
  const verdicts = runtime?.verdicts();
  const lifecycle = runtime?.lifecycle;
  return {
    generatedAt: iso(lifecycle?.now() ?? Date.now()),
    stateProblem: runtime?.stateProblem ?? null,
    problems: status.problems,
    subjects: status.subjects.map((s) => ({
      subject: s.subject,
      topics: s.topics,
      records: s.records,
      undeclared: s.undeclared,
      unreadable: s.unreadable,
      unknownUse: (lifecycle?.unreadableOf(s.subject) ?? []).map((e) => ({
        topic: e.topic,
        partition: e.partition,
        reason: e.reason,
        records: e.records,
        first: iso(e.firstAt),
        last: iso(e.lastAt),
      })),
      versions: s.versions.map((v) => {
        const producers: ReportVersion["producers"] = {};
        for (const p of s.producers) {
          const records = p.byWriter[v.version] ?? 0;
          if (records > 0) producers[p.producer] = { records, share: v.records ? records / v.records : 0 };
        }
        return {
          version: v.version,
          status: v.status,
          records: v.records,
          share: v.share,
          lastSeen: v.lastSeen,
          producers,
          wouldFail: v.wouldFail,
          verdict: verdicts?.get(`${s.subject}\u0000${v.version}`) ?? null,
        };
      }),
      coverage: lifecycle
        ? [...lifecycle.coverage.partitions]
            .filter((p) => s.topics.includes(p.topic))
            .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
            .map((p) => ({
              topic: p.topic,
              partition: p.partition,
              coveredSince: iso(p.coveredSince),
              observedUntil: iso(p.observedUntil),
              assigned: lifecycle.coverage.isAssigned(p.topic, p.partition),
            }))
        : [],
      recentGaps: lifecycle
        ? lifecycle.coverage.gaps
            .filter((g) => s.topics.includes(g.topic))
            .slice(-10)
            .map((g) => ({
              topic: g.topic,
              partition: g.partition,
              reason: g.reason,
              at: iso(g.at),
              detail: g.detail,
            }))
        : [],
    })),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const rateText = (r: RateSummary | undefined) =>
  r && r.validations > 0 ? `${pct(r.wouldFailRate ?? 0)} of ${r.validations}` : "-";

function verdictText(verdict: Verdict | null): string[] {
  if (!verdict) return [];
  if (verdict.yes) {
    const e = verdict.evidence;
    const bound =
      typeof e["upperBound95"] === "number" ? `, failure rate below ${pct(e["upperBound95"])} at 95%` : "";
    return [
      `${verdict.kind.toUpperCase()} (window ${String(e["window"])}, covered since ${String(e["coveredSince"])}${bound})`,
    ];
  }
  return [`not ${verdict.kind}:`, ...verdict.reasons.map((r) => `  - ${r}`)];
}

export function formatReportText(report: Report): string {
  const out: string[] = [];
  if (report.stateProblem) out.push(`state problem: ${report.stateProblem} (treated as a coverage gap)`, "");
  for (const s of report.subjects) {
    out.push(
      `subject ${s.subject} (topics: ${s.topics.join(", ")}): ${s.records} records, ${s.undeclared} undeclared`,
    );
    for (const v of s.versions) {
      out.push(
        `  ${v.version} ${v.status}: ${v.records} records (${pct(v.share)}), last seen ${v.lastSeen ?? "never"}`,
      );
      const producers = Object.entries(v.producers).map(([p, x]) => `${p} ${x.records} (${pct(x.share)})`);
      if (producers.length) out.push(`    producers: ${producers.join(", ")}`);
      const rates = DIRECTIONS.filter((d) => v.wouldFail[d]).map((d) => `${d} ${rateText(v.wouldFail[d])}`);
      if (rates.length) out.push(`    would fail as reader: ${rates.join("; ")}`);
      for (const line of verdictText(v.verdict)) out.push(`    ${line}`);
    }
    const stale = s.coverage.filter((c) => !c.assigned);
    out.push(
      `  coverage: ${s.coverage.length} partitions observed${stale.length ? `, ${stale.length} not assigned here` : ""}`,
    );
    for (const gap of s.recentGaps.slice(-3))
      out.push(`    gap ${gap.topic}/${gap.partition} at ${gap.at}: ${gap.reason} (${gap.detail})`);
    out.push("");
  }
  return out.join("\n");
}

export function formatReportMarkdown(report: Report): string {
  const out: string[] = [`# schemawatch report, ${report.generatedAt}`, ""];
  if (report.stateProblem)
    out.push(`> State problem: ${report.stateProblem} (treated as a coverage gap)`, "");
  for (const s of report.subjects) {
    out.push(
      `## ${s.subject}`,
      "",
      `${s.records} records on ${s.topics.join(", ")}; ${s.undeclared} declare no version.`,
      "",
    );
    out.push(
      "| version | status | records | share | last seen | backward | forward | conformance | undeclared | verdict |",
    );
    out.push("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- |");
    for (const v of s.versions) {
      const verdict = v.verdict
        ? v.verdict.yes
          ? `**${v.verdict.kind}**`
          : `not ${v.verdict.kind}: ${v.verdict.reasons.join("; ")}`
        : "";
      out.push(
        `| ${v.version} | ${v.status} | ${v.records} | ${pct(v.share)} | ${v.lastSeen ?? "never"} | ${DIRECTIONS.map((d) => rateText(v.wouldFail[d])).join(" | ")} | ${verdict.replace(/\|/g, "\\|")} |`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}
