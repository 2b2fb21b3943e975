import type { FormatName } from "../formats/format.js";
import type { Catalog } from "../catalog/types.js";
import { DIRECTIONS, type Direction } from "../engine/direction.js";
import type { LookupResult, RegistryStatus, SubjectRegistryStatus } from "../registry/types.js";
import { describeProblems, type Health, type ProblemStatus, type RegistrySource } from "../health/health.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { NO_VERSION, UNKNOWN_VERSION, type RecordSeries } from "../pipeline/tallies.js";

export interface RateSummary {
  validations: number;
  failed: number;
  /** failed / validations, or null when nothing was validated. */
  wouldFailRate: number | null;
}

export interface ProducerStatus {
  producer: string;
  records: number;
  /** Records per declared writer version (`none` for undeclared). */
  byWriter: Record<string, number>;
  /** Per reader version and direction. */
  readers: Record<string, Partial<Record<Direction, RateSummary>>>;
}

export interface VersionStatusEntry {
  version: string;
  status: string;
  records: number;
  share: number;
  lastSeen: string | null;
  /** Per direction, over all producers: what share of sampled records this reader would reject. */
  wouldFail: Partial<Record<Direction, RateSummary>>;
}

/** A registry the catalog follows, as JSON. */
export interface RegistryStatusEntry {
  name: string;
  url: string;
  up: boolean;
  /** Since when it has not answered; null while it does. */
  downSince: string | null;
  lastSuccess: string | null;
  lastError: string | null;
  /** Lookups of wire ids and GUIDs the catalog did not know, by how they ended (requests, not records). */
  lookups: Record<LookupResult, number>;
}

/** The registry subject a subject's versions come from: the registry's own verdict beside the traffic. */
export interface SubjectRegistryEntry extends RegistryStatusEntry {
  subject: string;
  /** The subject's compatibility level, its own or the registry's global one; null when unknown. */
  compatibility: { level: string; source: "subject" | "global" } | null;
  /** When the snapshot in use was read; null when there is none. */
  snapshotAt: string | null;
  /** Registered versions the catalog leaves out, and why. */
  leftOut: string[];
}

const isoOrNull = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

export function registryEntry(status: RegistryStatus): RegistryStatusEntry {
  return {
    name: status.name,
    url: status.url,
    up: status.up,
    downSince: isoOrNull(status.downSince),
    lastSuccess: isoOrNull(status.lastSuccess),
    lastError: status.lastError ?? null,
    lookups: { ...status.lookups },
  };
}

function subjectRegistryEntry(status: SubjectRegistryStatus): SubjectRegistryEntry {
  return {
    ...registryEntry(status.registry),
    subject: status.subject,
    compatibility: status.compatibility ? { ...status.compatibility } : null,
    snapshotAt: isoOrNull(status.snapshotAt),
    leftOut: [...status.leftOut],
  };
}

export interface SubjectStatus {
  subject: string;
  /** Its schema language (`json`, `avro`, `protobuf`): every version of a subject is in one. */
  format: FormatName;
  topics: string[];
  records: number;
  undeclared: number;
  /** Records whose writer version could not be read (writer version `unknown`). */
  unreadable: number;
  sampleRatio: number;
  versions: VersionStatusEntry[];
  producers: ProducerStatus[];
  /** Where its registered versions come from; null for a subject of schema files only. */
  registry: SubjectRegistryEntry | null;
}

export interface SeriesBudgetStatus {
  limit: number;
  folded: number;
  /** Whether the last scrape folded deeper than producers (writers, topics, zeros): metrics.md. */
  deep?: boolean;
}

export interface MonitorStatus {
  ready: boolean;
  notReadyReason: string | null;
  /** Conditions that leave the monitor running but that an operator should know (see Health.problems). */
  problems: ProblemStatus[];
  subjects: SubjectStatus[];
  /** The registries the catalog follows. */
  registries: RegistryStatusEntry[];
  decodeErrors: Record<string, Record<string, number>>;
  labelOverflow: Record<string, number>;
  /** Config `metrics.seriesBudget` and how many series the last scrape summed over producers to keep to it. */
  seriesBudget?: SeriesBudgetStatus;
  /**
   * Partitions whose log end was past their last stable offset at the last lag measurement: a
   * transaction is open there, and its records are not readable yet.
   */
  openTransactions: { topic: string; partition: number; records: number }[];
}

function rate(validations: number, failed: number): RateSummary {
  return { validations, failed, wouldFailRate: validations === 0 ? null : failed / validations };
}

/** Adds counts into a per-reader, per-direction summary, creating entries on first use. */
function accumulate(
  into: Partial<Record<Direction, { validations: number; failed: number }>>,
  direction: Direction,
  validations: number,
  failed: number,
): void {
  const entry = (into[direction] ??= { validations: 0, failed: 0 });
  entry.validations += validations;
  entry.failed += failed;
}

function finish(raw: Partial<Record<Direction, { validations: number; failed: number }>>) {
  const out: Partial<Record<Direction, RateSummary>> = {};
  for (const direction of DIRECTIONS) {
    const entry = raw[direction];
    if (entry) out[direction] = rate(entry.validations, entry.failed);
  }
  return out;
}

/** Items grouped by their subject, in one pass. */
function bySubject<T>(items: readonly T[], subjectOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const subject = subjectOf(item);
    let group = groups.get(subject);
    if (!group) groups.set(subject, (group = []));
    group.push(item);
  }
  return groups;
}

/** The JSON behind `/api/status` and the report printed by `run --exit-at-end`. */
export function buildStatus(
  catalog: Catalog,
  pipeline: Pipeline,
  health: Health,
  /** The registries the catalog follows; none for a catalog of files. */
  registries?: RegistrySource,
): MonitorStatus {
  const tallies = pipeline.tallies;
  const subjects: SubjectStatus[] = [];
  // Grouped once: a monitor of hundreds of subjects must not read every counter once per subject.
  const records = bySubject(tallies.records, (cell) => cell.labels.subject);
  const validations = bySubject(tallies.validations, (cell) => cell.labels.subject);
  const series = bySubject(tallies.allSeries, (s) => s.count.labels.subject);
  for (const [name, subjectPipeline] of pipeline.subjects) {
    const subject = catalog.subjects.get(name) ?? subjectPipeline.subject;
    const producers = new Map<string, ProducerStatus>();
    const producerOf = (producer: string) => {
      let entry = producers.get(producer);
      if (!entry) {
        entry = { producer, records: 0, byWriter: {}, readers: {} };
        producers.set(producer, entry);
      }
      return entry;
    };
    const byVersion = new Map<string, number>();
    let total = 0;
    for (const cell of records.get(name) ?? []) {
      if (cell.value === 0) continue;
      const entry = producerOf(cell.labels.producer);
      entry.records += cell.value;
      entry.byWriter[cell.labels.writer_version] =
        (entry.byWriter[cell.labels.writer_version] ?? 0) + cell.value;
      byVersion.set(
        cell.labels.writer_version,
        (byVersion.get(cell.labels.writer_version) ?? 0) + cell.value,
      );
      total += cell.value;
    }
    const perReader = new Map<string, Partial<Record<Direction, { validations: number; failed: number }>>>();
    const perProducerReader = new Map<
      string,
      Partial<Record<Direction, { validations: number; failed: number }>>
    >();
    for (const cell of validations.get(name) ?? []) {
      const labels = cell.labels;
      if (cell.value === 0) continue;
      const failed = labels.result === "fail" ? cell.value : 0;
      let reader = perReader.get(labels.reader_version);
      if (!reader) perReader.set(labels.reader_version, (reader = {}));
      accumulate(reader, labels.direction, cell.value, failed);
      const key = `${labels.producer}\u0000${labels.reader_version}`;
      let producerReader = perProducerReader.get(key);
      if (!producerReader) perProducerReader.set(key, (producerReader = {}));
      accumulate(producerReader, labels.direction, cell.value, failed);
    }
    for (const [key, raw] of perProducerReader) {
      const [producer, reader] = key.split("\u0000") as [string, string];
      producerOf(producer).readers[reader] = finish(raw);
    }
    const seen = lastSeen(series.get(name) ?? []);
    subjects.push({
      subject: name,
      format: subject.format.name,
      topics: [...subject.topics],
      records: total,
      undeclared: byVersion.get(NO_VERSION) ?? 0,
      unreadable: byVersion.get(UNKNOWN_VERSION) ?? 0,
      sampleRatio: subjectPipeline.sampler.effectiveRatio(),
      versions: subject.versions.map((v) => {
        const records = byVersion.get(v.version.text) ?? 0;
        const last = seen.get(v.version.text);
        return {
          version: v.version.text,
          status: v.status,
          records,
          share: total === 0 ? 0 : records / total,
          lastSeen: last ? new Date(last * 1000).toISOString() : null,
          wouldFail: finish(perReader.get(v.version.text) ?? {}),
        };
      }),
      producers: [...producers.values()].sort((a, b) => a.producer.localeCompare(b.producer)),
      registry: registryOf(registries, name),
    });
  }
  const decodeErrors: Record<string, Record<string, number>> = {};
  for (const cell of tallies.decodeErrors) {
    if (cell.value === 0) continue;
    (decodeErrors[cell.labels.topic] ??= {})[cell.labels.reason] = cell.value;
  }
  let overflow = 0;
  for (const subject of pipeline.subjects.values()) overflow += subject.producer.overflow;
  return {
    ready: health.ready,
    notReadyReason: health.reasonNotReady() ?? null,
    problems: describeProblems(health),
    subjects,
    registries: (registries?.status() ?? []).map(registryEntry),
    decodeErrors,
    labelOverflow: { producer: overflow },
    openTransactions: [...health.ends].flatMap(([topic, partitions]) =>
      [...partitions]
        .filter(([, ends]) => ends.logEnd > ends.stable)
        .map(([partition, ends]) => ({ topic, partition, records: Number(ends.logEnd - ends.stable) })),
    ),
  };
}

/** When the monitor last observed each writer version of a subject's series, in s (Tallies.lastSeen). */
function lastSeen(series: readonly RecordSeries[]): Map<string, number> {
  const seen = new Map<string, number>();
  for (const s of series) {
    if (s.lastObservedMs === 0) continue;
    const version = s.count.labels.writer_version;
    if ((seen.get(version) ?? 0) < s.lastObservedMs / 1000) seen.set(version, s.lastObservedMs / 1000);
  }
  return seen;
}

function registryOf(registries: RegistrySource | undefined, subject: string): SubjectRegistryEntry | null {
  const status = registries?.subject(subject);
  return status ? subjectRegistryEntry(status) : null;
}
