import type { PartitionCoverage } from "../lifecycle/coverage.js";
import type { FieldUse } from "../lifecycle/field-evidence.js";
import { isSharedUse } from "../lifecycle/field-merge.js";
import type {
  CandidateEvidence,
  CandidateProducer,
  UnreadableEvidence,
  VersionEvidence,
} from "../lifecycle/evidence.js";

// The records of the shared state topic: their keys, what a readable value looks like, and how the
// views of several replicas merge. No I/O here; state-topic.ts reads and writes them.

const num = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const str = (v: unknown): v is string => typeof v === "string";
const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** A record key: `kind/part/part…`, each part URI-encoded so that names may hold slashes. */
export function stateKey(
  kind:
    | "coverage"
    | "version"
    | "candidate"
    | "unreadable"
    | "meta"
    | "field"
    | "retired"
    | "stats"
    | "rename"
    | "history",
  ...parts: Array<string | number>
): string {
  return [kind, ...parts.map((p) => encodeURIComponent(String(p)))].join("/");
}

/** The value of `coverage/<topic>/<partition>`, or undefined when it is not a readable one for that key. */
export function readCoverageRecord(
  value: unknown,
  topic: string,
  partition: number,
): { owner: string; live: boolean; coverage: PartitionCoverage } | undefined {
  if (!obj(value) || !str(value["owner"]) || !isCoverageEntry(value["coverage"])) return undefined;
  // Both absent from a record of a version before them: the owner read the partition up to now.
  const { released = false, catchingUp = false } = value;
  if (typeof released !== "boolean" || typeof catchingUp !== "boolean") return undefined;
  const entry = value["coverage"];
  const readable = entry.topic === topic && entry.partition === partition;
  return readable ? { owner: value["owner"], live: !released && !catchingUp, coverage: entry } : undefined;
}

/** One partition's coverage, as saved in the state file and the state topic. */
export function isCoverageEntry(entry: unknown): entry is PartitionCoverage {
  return (
    obj(entry) &&
    str(entry["topic"]) &&
    num(entry["partition"]) &&
    num(entry["coveredSince"]) &&
    num(entry["observedUntil"]) &&
    (entry["lastOffset"] === null || (str(entry["lastOffset"]) && /^\d+$/.test(entry["lastOffset"])))
  );
}

/** Another replica's view of a version, merged by max: a record any replica saw keeps it in use. */
export function mergeVersionEvidence(local: VersionEvidence, remote: VersionEvidence): void {
  if (remote.lastDeclaredAt > local.lastDeclaredAt) {
    local.lastDeclaredAt = remote.lastDeclaredAt;
    local.lastDeclaredBy = remote.lastDeclaredBy;
  }
  local.lastUndeclaredAt = Math.max(local.lastUndeclaredAt, remote.lastUndeclaredAt);
  local.undeclaredDependents = Math.max(local.undeclaredDependents, remote.undeclaredDependents);
}

/**
 * The candidate evidence of several replicas judged as one. Samples and failures add up. Samples
 * since the last failure: a replica's samples cannot be ordered against another replica's failure,
 * so after a failure only the failing replica's own later samples count (the fewest, conservatively).
 */
export function mergeCandidates(views: readonly CandidateEvidence[]): CandidateEvidence {
  const producers = new Map<string, CandidateProducer[]>();
  for (const view of views)
    for (const [name, p] of Object.entries(view.producers)) {
      const list = producers.get(name) ?? [];
      list.push(p);
      producers.set(name, list);
    }
  const merged = mergeCounts(views);
  return {
    ...merged,
    producers: Object.fromEntries(
      [...producers].map(([name, list]) => {
        const latest = list.reduce((x, y) => (y.lastFailureAt > x.lastFailureAt ? y : x));
        return [name, { ...mergeCounts(list), keyword: latest.keyword, instancePath: latest.instancePath }];
      }),
    ),
  };
}

function mergeCounts(
  views: ReadonlyArray<Omit<CandidateProducer, "keyword" | "instancePath">>,
): Omit<CandidateProducer, "keyword" | "instancePath"> {
  const lastFailureAt = Math.max(0, ...views.map((v) => v.lastFailureAt));
  const sinceFailure =
    lastFailureAt === 0 && views.every((v) => v.failures === 0)
      ? views.reduce((s, v) => s + v.samplesSinceFailure, 0)
      : Math.min(...views.filter((v) => v.lastFailureAt === lastFailureAt).map((v) => v.samplesSinceFailure));
  return {
    samples: views.reduce((s, v) => s + v.samples, 0),
    failures: views.reduce((s, v) => s + v.failures, 0),
    samplesSinceFailure: sinceFailure,
    lastFailureAt,
  };
}

export function isVersionEvidence(v: unknown): v is VersionEvidence {
  return (
    obj(v) &&
    num(v["lastDeclaredAt"]) &&
    (v["lastDeclaredBy"] === null || str(v["lastDeclaredBy"])) &&
    num(v["undeclaredDependents"]) &&
    num(v["lastUndeclaredAt"])
  );
}

export function isCandidateEvidence(v: unknown): v is CandidateEvidence {
  if (!obj(v) || !num(v["samples"]) || !num(v["failures"]) || !num(v["samplesSinceFailure"])) return false;
  if (!num(v["lastFailureAt"]) || !obj(v["producers"])) return false;
  return Object.values(v["producers"]).every(
    (p) =>
      obj(p) &&
      num(p["samples"]) &&
      num(p["failures"]) &&
      num(p["samplesSinceFailure"]) &&
      num(p["lastFailureAt"]) &&
      strOrNull(p["keyword"]) &&
      strOrNull(p["instancePath"]),
  );
}

/** A failure's keyword or pointer: a string, or null before any failure (never absent). */
function strOrNull(v: unknown): v is string | null {
  return v === null || str(v);
}

/** A list of unreadable-record evidence, as saved in the state file and the state topic. */
export function isUnreadableList(v: unknown): v is UnreadableEvidence[] {
  return (
    Array.isArray(v) &&
    v.every(
      (e) =>
        obj(e) &&
        str(e["topic"]) &&
        num(e["partition"]) &&
        str(e["reason"]) &&
        num(e["records"]) &&
        num(e["firstAt"]) &&
        num(e["lastAt"]),
    )
  );
}

/** The value of `field/<subject>/<pointer>/<replica>`: one replica's uses of one field. */
export interface FieldRecord {
  readonly uses: FieldUse[];
  /** When the replica began to track the field, when later than its evidence (a reload). */
  readonly trackedSince?: number;
}

export function fieldRecordOf(uses: FieldUse[], trackedSince: number | undefined): FieldRecord {
  return trackedSince === undefined ? { uses } : { uses, trackedSince };
}

/** A field record, or undefined when the value is not a readable one (a use of the wrong shape). */
export function readFieldRecord(value: unknown): FieldRecord | undefined {
  if (!obj(value) || !Array.isArray(value["uses"]) || !value["uses"].every(isSharedUse)) return undefined;
  const trackedSince = value["trackedSince"];
  if (trackedSince !== undefined && !num(trackedSince)) return undefined;
  return fieldRecordOf(value["uses"], trackedSince);
}

/** The value of `retired/<subject>/<version>`: when a replica saw the version turn retired (ms). */
export function isRetiredRecord(value: unknown): value is { at: number } {
  return obj(value) && num(value["at"]);
}
