import type { CatalogVersion } from "../catalog/types.js";
import { formatDuration } from "../config/duration.js";
import {
  zeroFailureUpperBound,
  type CandidateEvidence,
  type UnreadableEvidence,
  type VersionEvidence,
} from "./evidence.js";
import type { LifecycleSubject } from "./lifecycle.js";
import type { Observation } from "./observation.js";

/**
 * A partition this member no longer reads counts as observed only up to when it was revoked, plus
 * this much for the clock's granularity. Longer would let another member see traffic this one misses.
 */
export const OBSERVATION_SLACK_MS = 1_000;

export interface Verdict {
  readonly kind: "drained" | "ready";
  /** True when the version is drained (removable) or ready (releasable). */
  readonly yes: boolean;
  /** Why not, in words a person can act on; empty when `yes`. */
  readonly reasons: string[];
  readonly evidence: Record<string, unknown>;
}

// Stryker disable next-line Regex: toISOString always ends in ":ss.sssZ", so the anchor changes nothing
export const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, "Z");
export const ago = (now: number, ms: number) =>
  now - ms < 1000 ? "just now" : `${formatDuration((now - ms) / 1000)} ago`;

/**
 * Whether every partition of the subject's topics was observed without a gap for the window ending
 * now. Returns the reasons it was not, and the time from which observation has been continuous.
 */
export function coverageFor(
  s: LifecycleSubject,
  observed: Observation,
  windowMs: number,
  now: number,
): { reasons: string[]; coveredSince: number | null; partitions: number } {
  const reasons: string[] = [];
  let coveredSince: number | null = null;
  let partitions = 0;
  for (const topic of s.subject.topics) {
    const known = observed.coverage.partitionsOf(topic, observed.knownPartitions.get(topic));
    if (known.length === 0) {
      reasons.push(`no partition of ${topic} observed yet`);
      continue;
    }
    // Only the brokers list every partition (a live monitor learns them with the group's lag): the
    // ones known so far may not be all, and one not known cannot be seen to be unobserved.
    if (!observed.knownPartitions.has(topic))
      reasons.push(`the partitions of ${topic} are not listed yet (the next lag measurement lists them)`);
    const staleAfter = observed.coverage.endsStaleAfterMs;
    const endsAt = observed.coverage.endsMeasuredAt(topic);
    if (staleAfter !== undefined && (endsAt === undefined || now - endsAt > staleAfter)) {
      reasons.push(
        endsAt === undefined
          ? `the partition ends of ${topic} were never measured: an open transaction there would not be seen`
          : `the partition ends of ${topic} were last measured ${ago(now, endsAt)}: an open transaction there would not be seen`,
      );
    }
    const waiting = observed.world.waitingForLookups?.(topic) ?? 0;
    if (waiting > 0)
      reasons.push(
        `${waiting} ${waiting === 1 ? "record" : "records"} on ${topic} wait for the registry to answer about their schema id: their version is not known yet`,
      );
    for (const partition of known) {
      partitions++;
      const entry = observed.coverage.get(topic, partition);
      if (!entry) {
        reasons.push(
          `partition ${topic}/${partition} never observed (no member that shares this state reads it)`,
        );
        continue;
      }
      coveredSince = coveredSince === null ? entry.coveredSince : Math.max(coveredSince, entry.coveredSince);
      const observedThrough = observed.coverage.observedThrough(entry, now);
      if (entry.coveredSince > now - windowMs) {
        reasons.push(`coverage gap on ${topic}/${partition} until ${iso(entry.coveredSince + windowMs)}`);
      } else if (now - observedThrough > OBSERVATION_SLACK_MS) {
        reasons.push(`partition ${topic}/${partition} not observed since ${iso(observedThrough)}`);
      }
      const open = observed.coverage.openTransaction(topic, partition);
      if (open !== undefined) {
        const records = `${open.records} ${open.records === 1 ? "record" : "records"}`;
        reasons.push(
          `an open transaction on ${topic}/${partition} since ${iso(open.since)}: ${records} not yet readable (counted once it commits, never if it aborts)`,
        );
      }
    }
  }
  return { reasons, coveredSince, partitions };
}

/**
 * Drained: no record declared the version (or needed it, undeclared) for the whole window, no record
 * of the subject had a version that could not be read, and every partition was observed throughout.
 */
export function judgeDeprecated(
  s: LifecycleSubject,
  version: CatalogVersion,
  evidence: VersionEvidence,
  unreadable: readonly UnreadableEvidence[],
  observed: Observation,
  now: number,
): Verdict {
  const windowMs = s.drainWindow * 1000;
  const coverage = coverageFor(s, observed, windowMs, now);
  const reasons = [...coverage.reasons];
  // The live clock is coarse (it ticks, rather than being read per record): allow for one tick.
  const since = now - windowMs - 1000;
  if (evidence.lastDeclaredAt >= since) {
    reasons.unshift(
      `last seen ${ago(now, evidence.lastDeclaredAt)} from producer ${evidence.lastDeclaredBy ?? "unknown"}`,
    );
  }
  let unreadableRecords = 0;
  for (const entry of unreadable) {
    if (entry.lastAt < since) continue;
    unreadableRecords += entry.records;
    const records = `${entry.records} ${entry.records === 1 ? "record" : "records"} on ${entry.topic}/${entry.partition}`;
    const when = `since ${iso(entry.firstAt)}, the last one ${ago(now, entry.lastAt)}`;
    reasons.push(
      entry.reason === "not_validated"
        ? `${records} declared no version and were not sampled for validation ${when}: they may need ${version.version.text}`
        : `${records} could not be read (${entry.reason}) ${when}: their version is unknown, so ${version.version.text} may still be in use`,
    );
  }
  const down = observed.world.registryDown?.(s.subject.name);
  if (down) {
    // Not a gap in observation: the window goes on, only the verdict waits for the registry.
    reasons.push(
      `registry ${down.registry} down since ${iso(down.since)}: a version registered meanwhile could be what the records carry`,
    );
  }
  if (evidence.lastUndeclaredAt >= since) {
    reasons.unshift(
      `undeclared records still need it (they pass ${version.version.text} and fail every newer active version): ${evidence.undeclaredDependents} so far, last one ${ago(now, evidence.lastUndeclaredAt)}`,
    );
  }
  return {
    kind: "drained",
    yes: reasons.length === 0,
    reasons,
    evidence: {
      window: formatDuration(s.drainWindow),
      coveredSince: coverage.coveredSince === null ? null : iso(coverage.coveredSince),
      partitions: coverage.partitions,
      lastDeclared: evidence.lastDeclaredAt ? iso(evidence.lastDeclaredAt) : null,
      lastDeclaredBy: evidence.lastDeclaredBy,
      undeclaredDependents: evidence.undeclaredDependents,
      unreadableRecords,
      registryDownSince: down ? iso(down.since) : null,
    },
  };
}

/** Ready: sampled traffic passed the candidate with zero failures for the whole window, with enough samples. */
export function judgeCandidate(
  s: LifecycleSubject,
  version: CatalogVersion,
  evidence: CandidateEvidence,
  observed: Observation,
  now: number,
): Verdict {
  const windowMs = s.readyWindow * 1000;
  const coverage = coverageFor(s, observed, windowMs, now);
  const reasons = [...coverage.reasons];
  const producers: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(evidence.producers).sort(([a], [b]) => a.localeCompare(b))) {
    const failing = p.failures > 0 && p.lastFailureAt >= now - windowMs;
    producers[name] = failing
      ? {
          samples: p.samples,
          failures: p.failures,
          keyword: p.keyword,
          instancePath: p.instancePath,
          lastFailure: iso(p.lastFailureAt),
        }
      : {
          samples: p.samples,
          failures: p.failures,
          samplesSinceFailure: p.samplesSinceFailure,
          upperBound95: zeroFailureUpperBound(p.samplesSinceFailure),
        };
    if (failing) {
      reasons.push(
        `producer ${name}: ${p.failures} of ${p.samples} samples fail ${version.version.text} (${p.keyword} at ${p.instancePath || "root"}), last one ${ago(now, p.lastFailureAt)}`,
      );
    }
  }
  if (evidence.samplesSinceFailure < s.minSamples) {
    reasons.push(`${evidence.samplesSinceFailure} samples without a failure; ${s.minSamples} needed`);
  }
  return {
    kind: "ready",
    yes: reasons.length === 0,
    reasons,
    evidence: {
      window: formatDuration(s.readyWindow),
      coveredSince: coverage.coveredSince === null ? null : iso(coverage.coveredSince),
      samples: evidence.samples,
      failures: evidence.failures,
      samplesSinceFailure: evidence.samplesSinceFailure,
      upperBound95: zeroFailureUpperBound(evidence.samplesSinceFailure),
      producers,
    },
  };
}
