import type { HistoryView, TrafficHistory } from "./history.js";
import type { BucketLines } from "./subject-history.js";

/**
 * The traffic history shared by replicas through the state topic, as the field statistics are: one
 * record per bucket of each subject (`history/<subject>/<index>/<replica>`), sent again only when its
 * counts changed, and a tombstone once it leaves the ring, so the compacted topic keeps at most one
 * ring's buckets per subject and replica. The other replicas' buckets are kept apart, per replica, and
 * added to this replica's own when a page is drawn, never into them (nothing counts twice). No Kafka
 * here: state/messages.ts reads and writes the records.
 */

/** A record's value: one bucket's lines with records in it, and the bucket length they were counted in. */
export interface SharedHistoryJSON extends BucketLines {
  readonly bucketMs: number;
}

/** One record to publish: the key's parts after `history/` (subject, bucket index), and its value (null: a tombstone). */
export interface HistoryRecord {
  readonly parts: readonly [string, number];
  readonly value: string | null;
}

interface PeerBucket extends SharedHistoryJSON {
  readonly subject: string;
  readonly index: number;
}

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0;
const isName = (s: unknown): s is string => typeof s === "string";

/** A bucket as a replica published it; undefined when the value is not a readable one or holds more than `maxLines` lines. */
export function readSharedHistory(value: unknown, maxLines: number): SharedHistoryJSON | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Partial<Record<keyof SharedHistoryJSON, unknown>>;
  if (!Number.isSafeInteger(v.bucketMs) || (v.bucketMs as number) < 1) return undefined;
  if (!Array.isArray(v.versions) || !Array.isArray(v.fields)) return undefined;
  if (v.versions.length + v.fields.length > maxLines) return undefined;
  const versions = v.versions as unknown[];
  const fields = v.fields as unknown[];
  const tuple = (t: unknown, counts: number): boolean =>
    Array.isArray(t) && t.length === 2 + counts && isName(t[0]) && isName(t[1]) && t.slice(2).every(isCount);
  if (!versions.every((t) => tuple(t, 1)) || !fields.every((t) => tuple(t, 2))) return undefined;
  return value as SharedHistoryJSON;
}

const keyOf = (subject: string, index: number) => `${subject}\u0000${index}`;

export class HistoryShare {
  /** Other replicas' buckets, per replica and `subject\0index`. */
  readonly #peers = new Map<string, Map<string, PeerBucket>>();
  /** What was last published of each own bucket (its JSON), by `subject\0index`. */
  readonly #sent = new Map<string, { readonly parts: HistoryRecord["parts"]; value: string }>();
  /** This replica's previous run's buckets read on start: the last value of each key. */
  readonly #loaded = new Map<string, PeerBucket>();

  constructor(readonly history: TrafficHistory) {}

  /**
   * The own buckets whose lines changed since last published (only those that may have, history.ts
   * `changedBuckets`), and a tombstone for each published one that left its subject's ring.
   */
  records(): HistoryRecord[] {
    const records: HistoryRecord[] = [];
    const rings = new Map<string, { oldest: number; newest: number }>();
    for (const { subject, bucketMs, oldest, newest, buckets } of this.history.changedBuckets()) {
      rings.set(subject, { oldest, newest });
      for (const { index, lines } of buckets) {
        if (lines.versions.length + lines.fields.length === 0) continue;
        const key = keyOf(subject, index);
        const value = JSON.stringify({ bucketMs, ...lines } satisfies SharedHistoryJSON);
        if (this.#sent.get(key)?.value === value) continue;
        this.#sent.set(key, { parts: [subject, index], value });
        records.push({ parts: [subject, index], value });
      }
    }
    for (const [key, { parts }] of this.#sent) {
      const ring = rings.get(parts[0]);
      // Outside the ring: gone from it, or of another bucket length (the drain window changed).
      if (ring && (parts[1] < ring.oldest || parts[1] > ring.newest)) {
        this.#sent.delete(key);
        records.push({ parts, value: null });
      }
    }
    return records;
  }

  /**
   * A bucket read from the topic. `own`: this replica's previous run (read on start), taken into its
   * own history once the first read ends; another replica's is kept apart. `value` null: a tombstone.
   * False when the value is unreadable (left out).
   */
  apply(replica: string, own: boolean, subject: string, index: number, value: unknown): boolean {
    const key = keyOf(subject, index);
    if (value === null) {
      if (own) this.#loaded.delete(key);
      else this.#peers.get(replica)?.delete(key);
      return true;
    }
    const read = readSharedHistory(value, this.history.maxLines);
    if (!read) return false;
    const bucket = { ...read, subject, index };
    if (own) {
      // Kept until the first read ends: a compacted topic may still hold older values of the key, and
      // only the last one counts (adding each would count the earlier ones twice).
      this.#loaded.set(key, bucket);
      return true;
    }
    let peer = this.#peers.get(replica);
    if (!peer) this.#peers.set(replica, (peer = new Map()));
    peer.set(key, bucket);
    return true;
  }

  /** The first read of the topic ended: this replica's previous run's buckets become its own. */
  loaded(): void {
    for (const b of this.#loaded.values()) this.history.adopt(b.subject, b.bucketMs, b.index, b);
    this.#loaded.clear();
  }

  /** Forgets a replica's buckets (its records were deleted: it is gone). */
  forget(replica: string): void {
    this.#peers.delete(replica);
  }

  /**
   * A subject's traffic over its window, this replica's and every other replica's together: lines
   * summed per (producer, version) and (producer, field), in name order, so that every replica draws
   * the same charts. Buckets of another length (another drain window) are left out.
   */
  view(subject: string, now = this.history.now()): HistoryView | undefined {
    const own = this.history.view(subject, now);
    const peers = [...this.#peers.values()].flatMap((p) =>
      [...p.values()].filter((b) => b.subject === subject),
    );
    const bucketMs = own?.bucketMs ?? peers[0]?.bucketMs;
    if (bucketMs === undefined) return undefined;
    const buckets = own?.buckets ?? this.history.bucketCount;
    const first = own ? own.from / bucketMs : Math.floor(now / bucketMs) - buckets + 1;
    const versions = new Map<string, { producer: string; version: string; records: number[] }>();
    const fields = new Map<
      string,
      { producer: string; field: string; records: number[]; present: number[] }
    >();
    const zeros = () => new Array<number>(buckets).fill(0);
    const versionLine = (producer: string, version: string) => {
      const key = `${producer}\u0000${version}`;
      let line = versions.get(key);
      if (!line) versions.set(key, (line = { producer, version, records: zeros() }));
      return line;
    };
    const fieldLine = (producer: string, field: string) => {
      const key = `${producer}\u0000${field}`;
      let line = fields.get(key);
      if (!line) fields.set(key, (line = { producer, field, records: zeros(), present: zeros() }));
      return line;
    };
    for (const l of own?.versions ?? []) add(versionLine(l.producer, l.version).records, l.records);
    for (const l of own?.fields ?? []) {
      const line = fieldLine(l.producer, l.field);
      add(line.records, l.records);
      add(line.present, l.present);
    }
    for (const b of peers) {
      const at = b.index - first;
      if (b.bucketMs !== bucketMs || at < 0 || at >= buckets) continue;
      for (const [producer, version, records] of b.versions)
        versionLine(producer, version).records[at]! += records;
      for (const [producer, field, records, present] of b.fields) {
        const line = fieldLine(producer, field);
        line.records[at]! += records;
        line.present[at]! += present;
      }
    }
    const byName =
      <T extends { producer: string }>(name: (t: T) => string) =>
      (a: T, b: T) =>
        a.producer < b.producer
          ? -1
          : a.producer > b.producer
            ? 1
            : name(a) < name(b)
              ? -1
              : name(a) > name(b)
                ? 1
                : 0;
    const some = (counts: readonly number[]) => counts.some((n) => n > 0);
    return {
      subject,
      bucketMs,
      from: first * bucketMs,
      buckets,
      versions: [...versions.values()].filter((l) => some(l.records)).sort(byName((l) => l.version)),
      fields: [...fields.values()].filter((l) => some(l.records)).sort(byName((l) => l.field)),
    };
  }
}

function add(into: number[], counts: readonly number[]): void {
  counts.forEach((n, i) => (into[i]! += n));
}
