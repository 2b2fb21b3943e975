/** Evidence about one version, gathered from traffic: what removal and release verdicts rest on. */
export interface VersionEvidence {
  /** When a record last declared this version, by the monitor's clock (ms); 0 when never. */
  lastDeclaredAt: number;
  lastDeclaredBy: string | null;
  /**
   * Undeclared records that pass this version and fail every newer active one: removing the version
   * would break them. Count since start, and when the last one was seen (ms).
   */
  undeclaredDependents: number;
  lastUndeclaredAt: number;
}

/** Per producer, what a candidate's validations found. */
export interface CandidateProducer {
  samples: number;
  failures: number;
  /** Samples since this producer's last failure. */
  samplesSinceFailure: number;
  lastFailureAt: number;
  keyword: string | null;
  instancePath: string | null;
}

export interface CandidateEvidence {
  samples: number;
  failures: number;
  /** Samples since the last failure of any producer. */
  samplesSinceFailure: number;
  lastFailureAt: number;
  producers: Record<string, CandidateProducer>;
}

export function emptyVersionEvidence(): VersionEvidence {
  return { lastDeclaredAt: 0, lastDeclaredBy: null, undeclaredDependents: 0, lastUndeclaredAt: 0 };
}

export function emptyCandidateEvidence(): CandidateEvidence {
  return { samples: 0, failures: 0, samplesSinceFailure: 0, lastFailureAt: 0, producers: {} };
}

/**
 * The 95% upper bound of a failure rate after `samples` trials without a failure (exact binomial,
 * 1 − 0.05^(1/n); about 3/n, the rule of three).
 */
export function zeroFailureUpperBound(samples: number): number {
  return samples === 0 ? 1 : 1 - Math.pow(0.05, 1 / samples);
}

/**
 * Records of one partition whose writer version could not be read, for one reason: evidence of
 * unknown use. While any arrived within the drain window, no deprecated version of the subject is
 * drained, since any of them may be what those records carry.
 */
export interface UnreadableEvidence {
  readonly topic: string;
  readonly partition: number;
  /** The decode reason (too_large, not_json, unknown_schema_id, undecodable_batch, …). */
  readonly reason: string;
  records: number;
  /** The first and last such record, by the monitor's clock (ms). */
  firstAt: number;
  lastAt: number;
}

/** The unreadable records of several views (replicas) as one: counts add up, times widen. */
export function mergeUnreadable(views: ReadonlyArray<readonly UnreadableEvidence[]>): UnreadableEvidence[] {
  const merged = new Map<string, UnreadableEvidence>();
  for (const view of views)
    for (const entry of view) {
      const key = `${entry.topic}\u0000${entry.partition}\u0000${entry.reason}`;
      const existing = merged.get(key);
      if (!existing) merged.set(key, { ...entry });
      else {
        existing.records += entry.records;
        existing.firstAt = Math.min(existing.firstAt, entry.firstAt);
        existing.lastAt = Math.max(existing.lastAt, entry.lastAt);
      }
    }
  return [...merged.values()].sort(
    (a, b) => a.topic.localeCompare(b.topic) || a.partition - b.partition || a.reason.localeCompare(b.reason),
  );
}
