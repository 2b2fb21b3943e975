import type { Message } from "kafkajs";
import { CLOCK_TICK_MS } from "../lifecycle/field-evidence.js";
import type { Lifecycle } from "../lifecycle/lifecycle.js";
import { stateKey } from "./records.js";

// Records of replicas that are gone: which keys of the state topic each replica owns, when each was
// last heard of, and the tombstones that delete them. No Kafka client here (messages.ts reads and
// writes the records).

/** The part of a key (split and decoded) that names the replica owning it; undefined for shared keys. */
export function ownerOf(parts: readonly string[]): string | undefined {
  const [kind, a] = parts;
  const at: Record<string, number> = {
    candidate: 3,
    unreadable: 2,
    field: 3,
    stats: 6,
    rename: 4,
    history: 3,
  };
  if (kind === "meta") return a === "alive" || a === "started" ? parts[2] : undefined;
  const index = kind === undefined ? undefined : at[kind];
  return index === undefined || parts.length !== index + 1 ? undefined : parts[index];
}

/**
 * Each replica's keys in the topic and its last heartbeat. A replica not heard of for `forgetAfterMs`
 * (at least every subject's longest window, src/config/state.ts) holds no evidence a verdict still
 * reads: its records are deleted by whichever replica notices first (tombstones are idempotent, so
 * several doing it at once is harmless). A replica never heard of (a version before the heartbeat)
 * is never forgotten.
 */
export class ReplicaKeys {
  readonly #keys = new Map<string, Set<string>>();
  readonly #heard = new Map<string, number>();

  constructor(
    readonly self: string,
    readonly forgetAfterMs: number,
  ) {}

  /** A record read: its key joins its owner's (a tombstone leaves them). */
  read(owner: string, key: string, tombstone: boolean): void {
    let keys = this.#keys.get(owner);
    if (tombstone) {
      keys?.delete(key);
      return;
    }
    if (!keys) this.#keys.set(owner, (keys = new Set()));
    keys.add(key);
  }

  /** `replica` was heard of at `at` (ms): its heartbeat. */
  heard(replica: string, at: number): void {
    this.#heard.set(replica, Math.max(at, this.#heard.get(replica) ?? at));
  }

  /**
   * The replicas gone at `now` with a tombstone for each of their keys, forgotten here once returned
   * (a record of theirs read later makes them known again).
   */
  gone(now: number): Array<{ replica: string; tombstones: Message[] }> {
    const gone: Array<{ replica: string; tombstones: Message[] }> = [];
    for (const [replica, at] of this.#heard) {
      if (replica === this.self || now - at < this.forgetAfterMs) continue;
      const keys = this.#keys.get(replica) ?? new Set();
      gone.push({ replica, tombstones: [...keys].map((key) => ({ key, value: null })) });
      this.#keys.delete(replica);
      this.#heard.delete(replica);
    }
    return gone;
  }
}

/**
 * At a graceful stop, tombstones for this replica's records that hold no evidence any window still
 * reaches, which nobody, its own next run included, needs: a field record whose every use was last
 * seen (carrying, lacking or unreadable) before the subject's longer window (and the clock's tick),
 * and a subject's unreadable record whose every entry is older than its drain window. The others stay
 * until the replica is not heard of for `state.forgetReplicasAfter`: deleted now, a record some
 * producer's use within the window rests on would let a verdict forget it.
 */
export function expiredOwnRecords(lifecycle: Lifecycle, replica: string, now: number): Message[] {
  const windows = new Map(
    [...lifecycle.subjects].map((s) => [
      s.subject.name,
      { longer: Math.max(s.drainWindow, s.readyWindow) * 1000, drain: s.drainWindow * 1000 },
    ]),
  );
  const messages: Message[] = [];
  const state = lifecycle.toState();
  for (const [subject, evidence] of Object.entries(lifecycle.fields.toState())) {
    const window = windows.get(subject);
    if (!window) continue;
    const cutoff = now - window.longer - CLOCK_TICK_MS;
    const uses = Object.values(evidence.uses);
    for (const field of evidence.fields) {
      const own = uses.filter((u) => u.field === field.pointer);
      if (own.length === 0) continue;
      const last = Math.max(...own.map((u) => Math.max(u.lastPresentAt, u.lastAbsentAt, u.lastUnknownAt)));
      const since = evidence.trackedSince?.[field.pointer] ?? Number.NEGATIVE_INFINITY;
      if (last < cutoff && since < cutoff)
        messages.push({ key: stateKey("field", subject, field.pointer, replica), value: null });
    }
  }
  for (const [subject, entries] of Object.entries(state.unreadable ?? {})) {
    const window = windows.get(subject);
    if (!window || entries.length === 0) continue;
    if (entries.every((e) => e.lastAt < now - window.drain - CLOCK_TICK_MS))
      messages.push({ key: stateKey("unreadable", subject, replica), value: null });
  }
  return messages;
}

/** What of a replica's side of the topic forgets a replica that is gone (messages.ts `StateMessages`). */
export interface Forgetting {
  readonly candidates: Map<string, Map<string, unknown>>;
  readonly unreadable: Map<string, Map<string, unknown>>;
  readonly shared: { forget(replica: string): void };
}

/**
 * The tombstones a full publish ends with: at a graceful stop (`final`), those of this replica's own
 * records that no window reaches; always, every record of each replica gone, which `from` forgets.
 */
export function tombstones(
  keys: ReplicaKeys,
  lifecycle: Lifecycle,
  from: Forgetting,
  final: boolean,
): Message[] {
  const now = lifecycle.now();
  const messages = final ? expiredOwnRecords(lifecycle, keys.self, now) : [];
  for (const { replica, tombstones } of keys.gone(now)) {
    messages.push(...tombstones);
    for (const perReplica of [...from.candidates.values(), ...from.unreadable.values()])
      perReplica.delete(replica);
    from.shared.forget(replica);
  }
  return messages;
}
