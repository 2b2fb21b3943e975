import type { HeaderValue, SourceRecord } from "./record.js";
import type { IdLookups } from "../catalog/lookups.js";

/**
 * Payload bytes held at most, whatever `waitRecords` allows: a record may be as large as
 * `maxRecordBytes`, and a thousand of those would be a gigabyte.
 */
const MAX_HELD_BYTES = 32 * 1024 * 1024;

interface Held {
  readonly record: SourceRecord;
  readonly lookup: PromiseLike<unknown>;
  readonly until: number;
  readonly bytes: number;
}

/**
 * Records whose wire id (or GUID) is being looked up, held until the answer took effect rather than
 * counted as `unknown_schema_id` at once: a producer that registers a version and writes with its id
 * straight away (as auto-registering serializers do) has its first records counted under that version.
 * Bounded in time (each lookup's `wait`) and in records and bytes; a record past a bound is not held.
 * Every record held is handed back exactly once, by `settle`, which the sources await (or track)
 * before they commit, so an offset is never committed before its record is counted.
 */
export class HeldRecords {
  readonly #now: () => number;
  #waiting: Held[] = [];
  /** Held and not yet handed back (waiting, or in a `settle`). */
  #count = 0;
  #bytes = 0;
  /** Held and not yet handed back, per topic: the verdicts of its subjects wait for them. */
  readonly #perTopic = new Map<string, number>();
  readonly #settling = new Set<Promise<void>>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Records held and not yet handed back. */
  get size(): number {
    return this.#count;
  }

  /** Records of a topic held and not yet handed back. */
  heldOn(topic: string): number {
    return this.#perTopic.get(topic) ?? 0;
  }

  /**
   * Holds a copy of `record` (the source reuses the object) until `lookup` settles, at most
   * `lookups.wait` milliseconds. False, holding nothing, when it may not wait: no wait configured,
   * or the records or bytes held are at their bound.
   */
  hold(record: SourceRecord, lookup: PromiseLike<unknown>, lookups: IdLookups): boolean {
    const wait = lookups.wait ?? 0;
    if (wait <= 0) return false;
    const bytes = (record.value?.length ?? 0) + (record.key?.length ?? 0);
    if (this.#count >= (lookups.waitRecords ?? 0) || this.#bytes + bytes > MAX_HELD_BYTES) return false;
    this.#count++;
    this.#bytes += bytes;
    this.#perTopic.set(record.topic, this.heldOn(record.topic) + 1);
    this.#waiting.push({ record: copyRecord(record), lookup, until: this.#now() + wait, bytes });
    return true;
  }

  /**
   * Waits for the lookups of the records held so far, each at most until its deadline, and hands
   * each record to `complete` once its lookup settled or its wait ended. Also waits for the records
   * an earlier call is handing back: when it settles, every record held before the call is counted.
   */
  settle(complete: (record: SourceRecord) => void): Promise<void> {
    if (this.#waiting.length > 0) {
      const taken = this.#waiting;
      this.#waiting = [];
      const run = this.#settle(taken, complete);
      this.#settling.add(run);
      void run.finally(() => this.#settling.delete(run));
    }
    if (this.#settling.size === 0) return Promise.resolve();
    return Promise.all([...this.#settling]).then(() => undefined);
  }

  async #settle(taken: readonly Held[], complete: (record: SourceRecord) => void): Promise<void> {
    // Records of one id share one lookup: one wait per id, not per record.
    const groups = new Map<PromiseLike<unknown>, Held[]>();
    for (const held of taken) {
      const group = groups.get(held.lookup);
      if (group) group.push(held);
      else groups.set(held.lookup, [held]);
    }
    await Promise.all(
      [...groups].map(async ([lookup, group]) => {
        await within(lookup, group[0]!.until - this.#now());
        for (const held of group) {
          this.#count--;
          this.#bytes -= held.bytes;
          const left = this.heldOn(held.record.topic) - 1;
          if (left > 0) this.#perTopic.set(held.record.topic, left);
          else this.#perTopic.delete(held.record.topic);
          try {
            complete(held.record);
          } catch {
            // `complete` counts and never throws; were it to, the other records must still be counted.
          }
        }
      }),
    );
  }
}

/** Waits for `promise` at most `ms` milliseconds; its rejection ends the wait as its answer would. */
async function within(promise: PromiseLike<unknown>, ms: number): Promise<void> {
  if (ms <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([Promise.resolve(promise).catch(() => undefined), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A record the source may refill after this returns, copied with its buffers. */
function copyRecord(record: SourceRecord): SourceRecord {
  return {
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    key: record.key === null ? null : Buffer.from(record.key),
    headers: record.headers === undefined ? undefined : copyHeaders(record.headers),
    value: record.value === null ? null : Buffer.from(record.value),
  };
}

function copyHeaders(headers: Readonly<Record<string, HeaderValue>>): Record<string, HeaderValue> {
  const out: Record<string, HeaderValue> = {};
  const copy = (v: Buffer | string | null): Buffer | string | null =>
    Buffer.isBuffer(v) ? Buffer.from(v) : v;
  for (const [name, value] of Object.entries(headers)) {
    out[name] = value === undefined ? undefined : Array.isArray(value) ? value.map(copy) : copy(value);
  }
  return out;
}
