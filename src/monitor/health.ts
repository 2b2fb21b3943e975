import type { SourceRecord } from "./record.js";

/**
 * What the monitor knows about its own condition, written by the sources and read by /readyz and the
 * metrics at scrape time. One instance per process, passed to whoever needs it.
 */
export class Health {
  catalogLoaded = false;
  /** True while the source can reach Kafka (always true for a file source). */
  brokerUp = false;
  /** The partitions this member is assigned, per topic. */
  readonly assigned = new Map<string, ReadonlySet<number>>();
  /** The group's lag in records, per topic and partition, as last measured. */
  readonly lag = new Map<string, Map<number, number>>();
  /** Why the monitor is not ready, for /readyz and logs; undefined when it is. */
  lastError: string | undefined;

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
    if (!this.catalogLoaded) return "catalog not loaded";
    if (!this.brokerUp) return `broker unreachable${this.lastError ? `: ${this.lastError}` : ""}`;
    if (this.assignedPartitions === 0) return "no partitions assigned yet";
    return undefined;
  }
}

/**
 * Where sources deliver records: the monitor's pipeline. Processing is synchronous and never throws,
 * and a sink never keeps the record object after `process` returns: sources reuse it.
 */
export interface RecordSink {
  process(record: SourceRecord): void;
}
