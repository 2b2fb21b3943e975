import type { RegistryStatus, SubjectRegistryStatus } from "../registry/types.js";

/** A partition's two ends: where committed readers stop, and where the log ends. */
export interface PartitionEnds {
  /** The last stable offset: records from here on belong to a transaction still open (or follow one). */
  readonly stable: bigint;
  /** The log end offset (high watermark); past `stable` when a transaction is open. */
  readonly logEnd: bigint;
}

/** The registries a catalog follows, read at scrape and request time. */
export interface RegistrySource {
  status(): readonly RegistryStatus[];
  /** A config subject's registry subject; undefined for a subject without a registry. */
  subject(name: string): SubjectRegistryStatus | undefined;
}

/** A condition an operator should know of that does not stop the monitor (see {@link Health.problems}). */
export interface Problem {
  /** Stable identity, e.g. `undecodable:events/2` or `topic-missing:events`. */
  readonly key: string;
  message: string;
  /** How often it happened, when first and last (ms). */
  count: number;
  readonly firstAt: number;
  lastAt: number;
}

/** A problem as /readyz and /api/status show it. */
export interface ProblemStatus {
  problem: string;
  count: number;
  first: string;
  last: string;
}

/** The current problems, for JSON. */
export function describeProblems(health: Health): ProblemStatus[] {
  return health.problems().map((p) => ({
    problem: p.message,
    count: p.count,
    first: new Date(p.firstAt).toISOString(),
    last: new Date(p.lastAt).toISOString(),
  }));
}

/** How long a problem that stopped happening is still shown by /readyz and the status. */
export const PROBLEM_MEMORY_MS = 15 * 60_000;
const MAX_PROBLEMS = 100;

/**
 * What the monitor knows about its own condition, written by the sources and read by /readyz and the
 * metrics at scrape time. One instance per process, passed to whoever needs it.
 */
export class Health {
  catalogLoaded = false;
  /** Why the catalog is not loaded yet (a registry that has not answered), for /readyz. */
  catalogProblem: string | undefined;
  /** True while the source can reach Kafka (always true for a file source). */
  brokerUp = false;
  /** The partitions this member is assigned, per topic. */
  readonly assigned = new Map<string, ReadonlySet<number>>();
  /** The group's lag in records, per topic and partition, as last measured. */
  readonly lag = new Map<string, Map<number, number>>();
  /** When each topic's lag was last measured (ms): the time the measurement started. */
  readonly lagMeasuredAt = new Map<string, number>();
  /**
   * Each partition's last stable offset and log end, per topic, as last measured with the lag: a log
   * end past the stable offset is an open transaction, whose records no committed reader sees yet.
   */
  readonly ends = new Map<string, Map<number, PartitionEnds>>();
  /** Why the monitor is not ready, for /readyz and logs; undefined when it is. */
  lastError: string | undefined;
  readonly #problems = new Map<string, Problem>();

  /**
   * Records a problem (or another occurrence of it). Problems leave readiness alone: the monitor still
   * counts everything else. They are listed by /readyz and the status until they stop happening.
   */
  problem(key: string, message: string, now = Date.now()): Problem {
    let entry = this.#problems.get(key);
    if (entry) {
      entry.count++;
      entry.lastAt = now;
      entry.message = message;
      return entry;
    }
    if (this.#problems.size >= MAX_PROBLEMS) {
      const oldest = [...this.#problems.values()].reduce((a, b) => (b.lastAt < a.lastAt ? b : a));
      this.#problems.delete(oldest.key);
    }
    entry = { key, message, count: 1, firstAt: now, lastAt: now };
    this.#problems.set(key, entry);
    return entry;
  }

  /** The condition behind a problem is over (a missing topic exists again). */
  resolve(key: string): void {
    this.#problems.delete(key);
  }

  /** Problems seen within {@link PROBLEM_MEMORY_MS}, the most recent first. */
  problems(now = Date.now()): Problem[] {
    return [...this.#problems.values()]
      .filter((p) => now - p.lastAt <= PROBLEM_MEMORY_MS)
      .sort((a, b) => b.lastAt - a.lastAt);
  }

  get assignedPartitions(): number {
    let count = 0;
    for (const partitions of this.assigned.values()) count += partitions.size;
    return count;
  }

  /** Ready when the catalog is loaded, the broker answers and this member has partitions. */
  get ready(): boolean {
    return this.catalogLoaded && this.brokerUp && this.assignedPartitions > 0;
  }

  reasonNotReady(): string | undefined {
    if (!this.catalogLoaded)
      return this.catalogProblem ? `catalog not loaded: ${this.catalogProblem}` : "catalog not loaded";
    if (!this.brokerUp) return `broker unreachable${this.lastError ? `: ${this.lastError}` : ""}`;
    if (this.assignedPartitions === 0) {
      const missing = this.problems().filter((p) => p.key.startsWith("topic-missing:"));
      return missing.length === 0
        ? "no partitions assigned yet"
        : `no partitions assigned: ${missing.map((p) => p.message).join("; ")}`;
    }
    return undefined;
  }
}
