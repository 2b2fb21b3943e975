import type { Direction } from "../engine/direction.js";
import type { Lifecycle } from "../lifecycle/lifecycle.js";
import { retiredRecords, type RetiredRecords } from "../lifecycle/retired.js";
import type { LifecycleView } from "../lifecycle/view.js";
import type { RenameProgress } from "../fields/rename-progress.js";
import type { FieldVerdict } from "../lifecycle/field-verdicts.js";
import type { Verdict } from "../lifecycle/verdicts.js";
import type { Finding } from "../stats/findings.js";
import type {
  MonitorStatus,
  ProducerStatus,
  RateSummary,
  SubjectRegistryEntry,
  SubjectStatus,
} from "./status.js";
import type { Tallies } from "../pipeline/tallies.js";
import { attentionItems, type AttentionItem } from "./attention.js";
import { groupAttention, type AttentionGroup } from "./attention-groups.js";
import { wouldFailMatrices } from "./matrix.js";

/**
 * The report: everything the monitor knows, as data. `/api/report` serves it as JSON and every other
 * rendering (text, markdown, the HTML status page) is built from it by `sections.ts`, so a field added
 * here and given a section there appears in every format. To add a per-subject section (as the
 * registry's compatibility level, or records whose version could not be read, were added): add the
 * field to `ReportSubject`, fill it in `buildReport`, and add one function to `SUBJECT_SECTIONS`.
 */
export interface Report {
  generatedAt: string;
  /**
   * What needs an operator, ranked, each with the one next action (attention.ts). No `act` or
   * `watch` item means nothing needs anyone.
   */
  attention: AttentionItem[];
  /**
   * The same items as the summary reads them (attention-groups.ts): one line per level, kind and
   * cause that repeats across subjects, its members listed; every other item a line of its own.
   * Always set by `buildReport`; optional for a report assembled from parts.
   */
  attentionGroups?: AttentionGroup[];
  /** The monitor's readiness, as `/readyz` says it. */
  ready: boolean;
  notReadyReason: string | null;
  stateProblem: string | null;
  /** Conditions that leave the monitor running (an undecodable batch, a missing topic). */
  problems: MonitorStatus["problems"];
  subjects: ReportSubject[];
  /** Skipped records per topic and reason. */
  decodeErrors: Record<string, Record<string, number>>;
  /** Records whose label value was replaced by `other`, per label. */
  labelOverflow: Record<string, number>;
  /** The series budget and what the last scrape folded to keep to it (the live monitor only). */
  seriesBudget?: MonitorStatus["seriesBudget"];
}

export interface ReportSubject {
  subject: string;
  /** Its schema language (`json`, `avro`, `protobuf`). Absent from reports of monitors before it. */
  format?: SubjectStatus["format"];
  topics: string[];
  records: number;
  /** Records that declared no writer version. */
  undeclared: number;
  /** Records whose writer version could not be read, counted as writer version `unknown`. */
  unreadable: number;
  /** Where and why, since the evidence began: what keeps the deprecated versions from draining. */
  unknownUse: ReportUnknownUse[];
  /** Records of retired versions, per version and producer: traffic that should have stopped. */
  retiredTraffic: ReportRetiredTraffic[];
  sampleRatio: number;
  versions: ReportVersion[];
  /** The version mix per producer: records per writer version (`none` for undeclared). */
  producers: ProducerStatus[];
  /** Writer × reader × direction, with the failing keywords and where they failed. */
  wouldFail: WouldFailEntry[];
  coverage: ReportCoverage[];
  /** Partitions of the subject's topics with a transaction open: unknown use until it ends. */
  openTransactions: ReportOpenTransaction[];
  recentGaps: ReportGap[];
  /**
   * The registry subject its registered versions come from, with the registry's own verdict (the
   * compatibility level it enforces on registration) beside what the traffic shows; null for a
   * subject of schema files only.
   */
  registry: SubjectRegistryEntry | null;
  /**
   * Each tracked field's verdict (issue 28): a deprecated field drained, an optional one of the newest
   * active version ready to require, with the reasons and each producer's records over the window.
   * Absent from reports of monitors before it.
   */
  fields?: FieldVerdict[];
  /**
   * Each rename's progress (config `fields.replaces`, issue 28): per producer, its records with the
   * old field only, both, the new one only, neither or unreadable, and the step of the expand-and-
   * contract procedure it is at. Absent from reports of monitors before it and of subjects without one.
   */
  renames?: RenameProgress[];
  /**
   * What the field statistics found (issue 29, docs/stats.md): a producer's values that changed scale
   * against its own past or its peers, a new value, a value's share jumping, with their quartiles or
   * shares; `since` is the start of the bucket the change began in (ISO 8601, as every time in the
   * report). Absent from reports of monitors before it, and with `stats.enabled: false`.
   */
  findings?: ReportFinding[];
}

/** A finding as the report holds it: the same, with its bucket's start as an ISO 8601 time. */
export type ReportFinding = Finding extends infer F
  ? F extends Finding
    ? Omit<F, "since"> & { since: string }
    : never
  : never;

export interface ReportVersion {
  version: string;
  status: string;
  records: number;
  share: number;
  lastSeen: string | null;
  /** Records and share of this version's traffic per producer. */
  producers: Record<string, { records: number; share: number }>;
  /** As a reader, per direction, over all writers and producers. */
  wouldFail: Partial<Record<Direction, RateSummary>>;
  /** Drained (deprecated versions) or ready (candidates); null for the others. */
  verdict: Verdict | null;
}

export interface WouldFailEntry {
  /** The declared writer version, or `none`. */
  writer: string;
  reader: string;
  direction: Direction;
  validations: number;
  failed: number;
  wouldFailRate: number;
  /** Failing keywords, most frequent first, with the JSON Pointer of a latest failure of each. */
  failures: Array<{ keyword: string; count: number; pointer: string }>;
  /**
   * Sampled records the reader reads but that lose data the writer sent (`lossy`: a field dropped or
   * defaulted, an unknown enum value read as its default). Counted among the passes, never the
   * failures; always 0 for JSON Schema, which has no lossy read.
   */
  lossy: number;
  /** The lossy rules (`field_dropped`, `default_read`, …), most frequent first, with a latest location of each. */
  losses: Array<{ rule: string; count: number; pointer: string }>;
  /**
   * Validations and failures per producer, for the producers that sent this writer version; `lossy`
   * only where some of its reads were.
   */
  producers: Record<string, { validations: number; failed: number; lossy?: number }>;
}

export interface ReportCoverage {
  topic: string;
  partition: number;
  coveredSince: string;
  observedUntil: string;
  /** Whether this member reads the partition now (another replica may). */
  assigned: boolean;
}

/** A transaction open on a partition: its records are not readable yet, so their versions are unknown. */
export interface ReportOpenTransaction {
  topic: string;
  partition: number;
  /** When a measurement first found it open. */
  since: string;
  /** Records between the last stable offset and the log end at the last measurement. */
  records: number;
}

/** A producer still sending a version after it was retired (lifecycle/retired.ts). */
export interface ReportRetiredTraffic {
  version: string;
  producer: string;
  /** Records counted while the version was retired. */
  records: number;
  /** When the last of them was observed. */
  last: string;
  /**
   * When this monitor saw the version become retired (a registry poll, a reload); null when it was
   * retired already when the monitor started.
   */
  retiredAt: string | null;
}

export interface ReportUnknownUse {
  topic: string;
  partition: number;
  /** The decode reason: too_large, not_json, unknown_schema_id, undecodable_batch, … */
  reason: string;
  records: number;
  first: string;
  last: string;
}

export interface ReportGap {
  topic: string;
  partition: number;
  reason: string;
  at: string;
  detail: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const reportFinding = (f: Finding) => ({ ...f, since: iso(f.since) }) as ReportFinding;

/** The report of a monitor: its status, its tallies (for the matrix) and its lifecycle, when it has one. */
export function buildReport(
  status: MonitorStatus,
  tallies: Tallies,
  runtime: LifecycleView | undefined,
  /** The field statistics' findings (FieldStats.findings), when the monitor keeps statistics. */
  findings?: readonly Finding[],
  /**
   * Each subject's renames (fields/rename-progress.ts), by subject name: read after the judgement
   * below, so that a rename's steps come from the snapshot its field's verdict comes from.
   */
  renamesOf?: () => ReadonlyMap<string, RenameProgress[]>,
): Report {
  const verdicts = runtime?.verdicts();
  const fieldVerdicts = runtime?.fieldVerdicts?.();
  const renames = renamesOf?.();
  const lifecycle = runtime?.lifecycle;
  const retired = retiredRecords(tallies.allSeries);
  const matrices = wouldFailMatrices(
    tallies,
    new Map(status.subjects.map((s) => [s.subject, s.versions.map((v) => v.version)])),
  );
  const report: Omit<Report, "attention" | "attentionGroups"> = {
    generatedAt: iso(lifecycle?.now() ?? Date.now()),
    ready: status.ready,
    notReadyReason: status.notReadyReason,
    stateProblem: runtime?.stateProblem ?? null,
    problems: status.problems,
    subjects: status.subjects.map((s) => ({
      subject: s.subject,
      format: s.format,
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
      retiredTraffic: retiredTrafficOf(s, retired, lifecycle),
      sampleRatio: s.sampleRatio,
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
      producers: s.producers,
      wouldFail: matrices.get(s.subject) ?? [],
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
      openTransactions: lifecycle
        ? [...lifecycle.coverage.openTransactions]
            .filter((t) => s.topics.includes(t.topic))
            .sort((a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition)
            .map((t) => ({ topic: t.topic, partition: t.partition, since: iso(t.since), records: t.records }))
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
      registry: s.registry,
      fields: [...(fieldVerdicts ?? [])]
        .filter(([id]) => id.startsWith(`${s.subject}\u0000`))
        .map(([, v]) => v),
      ...(renames?.has(s.subject) ? { renames: renames.get(s.subject)! } : {}),
      ...(findings ? { findings: findings.filter((f) => f.subject === s.subject).map(reportFinding) } : {}),
    })),
    decodeErrors: status.decodeErrors,
    labelOverflow: status.labelOverflow,
    ...(status.seriesBudget ? { seriesBudget: status.seriesBudget } : {}),
  };
  // generatedAt first, then what needs attention, then the rest: the order a reader of the JSON wants.
  const { generatedAt, ...rest } = report;
  const attention = attentionItems(report);
  return { generatedAt, attention, attentionGroups: groupAttention(attention), ...rest };
}

/** A subject's retired versions that got records while retired, in version order, then by producer. */
function retiredTrafficOf(
  s: SubjectStatus,
  retired: readonly RetiredRecords[],
  lifecycle: Lifecycle | undefined,
): ReportRetiredTraffic[] {
  const order = new Map(s.versions.filter((v) => v.status === "retired").map((v, i) => [v.version, i]));
  return retired
    .filter((r) => r.subject === s.subject && r.records > 0 && order.has(r.version))
    .sort((a, b) => order.get(a.version)! - order.get(b.version)! || a.producer.localeCompare(b.producer))
    .map((r) => {
      const since = lifecycle?.retired.since(r.subject, r.version);
      return {
        version: r.version,
        producer: r.producer,
        records: r.records,
        last: iso(r.lastAt),
        retiredAt: since === undefined ? null : iso(since),
      };
    });
}
