/**
 * A transaction found open on a partition: the records from its first one on (the last stable offset)
 * are invisible to a committed reader until it commits or aborts, so they are unknown use.
 */
export interface OpenTransaction {
  readonly topic: string;
  readonly partition: number;
  /** When a measurement first found the partition's log end past its last stable offset, ms. */
  readonly since: number;
  /** Records between the last stable offset and the log end, at the last measurement. */
  records: number;
  /**
   * The log end at the last measurement that found it open: once the group has read (committed) or
   * this member processed past it, every record it held was either counted or aborted.
   */
  until: bigint;
}

/** A partition's two ends, as a lag measurement found them (see kafka/offsets.ts). */
export interface MeasuredEnds {
  readonly stable: bigint;
  readonly logEnd: bigint;
}

const key = (topic: string, partition: number) => `${topic}\u0000${partition}`;

/**
 * The transactions the lag measurements found open, per partition, until the consumer has read past
 * where the log ended when they were seen. Coverage asks it; the verdicts wait while one is here.
 */
export class OpenTransactions {
  readonly #open = new Map<string, OpenTransaction>();
  /** When each topic's partition ends were last measured, ms. */
  readonly #measuredAt = new Map<string, number>();

  /**
   * A lag measurement started at `measuredAt` found the partition's ends, with `lag` records between
   * the group's committed offset and the last stable offset. One already open ends once the committed
   * offset has passed it; a log end past the stable offset is one open now (a new one, or the same
   * one with more records behind it, which keeps its first time).
   */
  measured(topic: string, partition: number, ends: MeasuredEnds, lag: number, measuredAt: number): void {
    const k = key(topic, partition);
    const measured = this.#measuredAt.get(topic);
    if (measured === undefined || measuredAt > measured) this.#measuredAt.set(topic, measuredAt);
    const open = this.#open.get(k);
    if (open !== undefined && ends.stable - BigInt(lag) >= open.until) this.#open.delete(k);
    if (ends.logEnd <= ends.stable) return;
    const records = Number(ends.logEnd - ends.stable);
    const still = this.#open.get(k);
    if (still === undefined) {
      this.#open.set(k, { topic, partition, since: measuredAt, records, until: ends.logEnd });
      return;
    }
    still.records = records;
    if (ends.logEnd > still.until) still.until = ends.logEnd;
  }

  /** This member processed (or read past) the partition up to `last`: a transaction before it is over. */
  readTo(topic: string, partition: number, last: string): void {
    const k = key(topic, partition);
    const open = this.#open.get(k);
    if (open !== undefined && BigInt(last) + 1n >= open.until) this.#open.delete(k);
  }

  get(topic: string, partition: number): OpenTransaction | undefined {
    return this.#open.get(key(topic, partition));
  }

  all(): IterableIterator<OpenTransaction> {
    return this.#open.values();
  }

  /** When the ends of a topic's partitions were last measured (undefined: never, or a capture). */
  measuredAt(topic: string): number | undefined {
    return this.#measuredAt.get(topic);
  }

  /** A partition that went away, or every partition of a topic that did: nothing of it can be read past. */
  forget(topic: string, partition?: number): void {
    if (partition !== undefined) {
      this.#open.delete(key(topic, partition));
      return;
    }
    for (const [k, open] of this.#open) if (open.topic === topic) this.#open.delete(k);
  }
}
