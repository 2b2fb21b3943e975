import type { Message } from "kafkajs";
import type { RenameLedger } from "../fields/rename-ledger.js";
import { boundRows, readRows } from "../fields/rename-rows.js";
import type { FieldUse } from "../lifecycle/field-evidence.js";
import { mergeFieldUses } from "../lifecycle/field-merge.js";
import type { Lifecycle } from "../lifecycle/lifecycle.js";
import type { World } from "../lifecycle/observation.js";
import type { HistoryShare } from "../history/share.js";
import type { StatsShare } from "../stats/share.js";
import { readHistoryRecord } from "./history-records.js";
import { fieldRecordOf, isRetiredRecord, readFieldRecord, stateKey, type FieldRecord } from "./records.js";

// The state topic's records of field evidence (`field/`), retirement dates (`retired/`), field
// statistics (`stats/`) and renames' progress (`rename/`), and which replicas share field evidence at
// all (`meta/started`): what they mean to this replica and what it publishes of them. messages.ts
// hands each such record here.

/** What a record of these kinds did: nothing to report, or a problem and whether windows restart. */
export type Outcome = undefined | { readonly what: string; readonly restartsWindows: boolean };

const UNREADABLE_FIELDS = "is unreadable: treated as a coverage gap";

/** A field record's largest value (bytes of JSON) before its buckets are summed into one per use. */
export const MAX_FIELD_RECORD_BYTES = 500_000;

/** A rename record's rows' largest JSON (bytes), past which `boundRows` folds them. */
export const MAX_RENAME_RECORD_BYTES = 500_000;

const LEFT_OUT_OF_RENAMES = "is unreadable: left out of the rename progress";
const UNKNOWN_RENAME = "names a rename this replica's config does not: left out of the rename progress";

/** A use with its buckets summed into one, dated at the newest's start. */
function oneBucket(use: FieldUse): FieldUse {
  if (use.buckets.length <= 1) return use;
  const sum = { start: use.buckets[use.buckets.length - 1]!.start, present: 0, absent: 0, unknown: 0 };
  for (const b of use.buckets) {
    sum.present += b.present;
    sum.absent += b.absent;
    sum.unknown += b.unknown;
  }
  return { ...use, buckets: [sum] };
}

export class SharedEvidence {
  /** Other replicas' field records, per `subject\0pointer` and replica. */
  readonly #fields = new Map<string, Map<string, FieldRecord>>();
  /** Replicas whose `meta/started` says they share field evidence, and those whose does not. */
  readonly #sharing = new Set<string>();
  readonly #notSharing = new Set<string>();
  /** When each replica was last heard of (its heartbeat), ms. */
  readonly #alive = new Map<string, number>();
  /** The latest heartbeat of a replica while it did not share field evidence, ms. */
  #floor = Number.NEGATIVE_INFINITY;
  /** What was last published of each field record (its JSON) and of its verdict-relevant times. */
  readonly #sent = new Map<string, string>();
  readonly #sentLast = new Map<string, string>();
  readonly #sentRetired = new Set<string>();
  #statsSentAt = Number.NEGATIVE_INFINITY;
  /** What was last published of each rename record (its JSON), by key; keys of own records to delete. */
  readonly #sentRenames = new Map<string, string>();
  readonly #renameTombstones = new Set<string>();
  /** Field records published with one bucket per use, their whole form past the bound. */
  compacted = 0;
  /** Rename records published with writer versions folded, and producers left out past the bound. */
  renamesFolded = 0;
  renameProducersLeftOut = 0;

  constructor(
    readonly replica: string,
    /** The field statistics, when enabled. */
    readonly stats: StatsShare | undefined,
    /** The renames' progress, when the monitor has one (`fields.replaces`). */
    readonly renames?: RenameLedger,
    /** The traffic history (history-records.ts). */
    readonly history?: HistoryShare,
  ) {}

  /** What the verdicts read of the other replicas' field evidence. */
  readonly world: Pick<World, "fieldUses" | "fieldsSince"> = {
    fieldUses: (subject, pointer, own) => {
      const others = [...(this.#fields.get(`${subject}\u0000${pointer}`)?.values() ?? [])];
      return {
        uses: others.length === 0 ? [...own] : mergeFieldUses([own, ...others.map((r) => r.uses)]),
        trackedSince: Math.max(Number.NEGATIVE_INFINITY, ...others.map((r) => r.trackedSince ?? -Infinity)),
      };
    },
    fieldsSince: () => {
      let since = this.#floor;
      for (const replica of this.#notSharing) since = Math.max(since, this.#alive.get(replica) ?? since);
      return since;
    },
  };

  /** `field/<subject>/<pointer>/<replica>`. */
  field(lifecycle: Lifecycle, parts: readonly string[], value: unknown, loading: boolean): Outcome {
    const [, subject, pointer, replica] = parts as [string, string, string, string];
    if (!lifecycle.hasSubject(subject)) return undefined;
    const record = readFieldRecord(value);
    if (!record) return { what: UNREADABLE_FIELDS, restartsWindows: true };
    if (replica === this.replica) {
      // A previous run of this replica: its evidence is this one's, as a state file's would be.
      if (loading) lifecycle.fields.restoreUses(subject, record.uses, pointer, record.trackedSince);
      return undefined;
    }
    const id = `${subject}\u0000${pointer}`;
    let perReplica = this.#fields.get(id);
    if (!perReplica) this.#fields.set(id, (perReplica = new Map()));
    perReplica.set(replica, record);
    return undefined;
  }

  /** `retired/<subject>/<version>`: the earliest date any replica saw the version turn retired. */
  retired(lifecycle: Lifecycle, parts: readonly string[], value: unknown): Outcome {
    const [, subject, version] = parts as [string, string, string];
    if (value === null) {
      lifecycle.retired.shared(subject, version, undefined, false);
      return undefined;
    }
    if (!isRetiredRecord(value)) return { what: "is unreadable: left out", restartsWindows: false };
    const retired = lifecycle.subjectRetired(subject, version);
    lifecycle.retired.shared(subject, version, value.at, retired);
    return undefined;
  }

  /** `stats/<subject>/<field>/<producer>/<writer>/<index>/<replica>`. */
  statistics(parts: readonly string[], value: unknown, loading: boolean, now: number): Outcome {
    const [, subject, field, producer, writer, index, replica] = parts as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (!this.stats || (replica === this.replica && !loading)) return undefined;
    if (!/^\d+$/.test(index))
      return { what: "is unreadable: left out of the field statistics", restartsWindows: false };
    const key = { subject, field, producer, writer, index: Number(index) };
    const read = this.stats.apply(replica, replica === this.replica, key, value, now);
    return read
      ? undefined
      : { what: "is unreadable: left out of the field statistics", restartsWindows: false };
  }

  /**
   * `rename/<subject>/<field>/<replacement>/<replica>` (null: a tombstone). A previous run's of this
   * replica, read on start, is its own count; another replica's is kept apart, its latest replacing
   * the one before. One of a rename this config does not name is reported and left out, except this
   * replica's own (its config dropped the rename: the record gets a tombstone).
   */
  rename(parts: readonly string[], value: unknown, loading: boolean): Outcome {
    const [, subject, field, replacement, replica] = parts as [string, string, string, string, string];
    const own = replica === this.replica;
    if (!this.renames || (own && !loading)) return undefined;
    const known = this.renames.known(subject, field, replacement);
    if (known === "unwatched") return undefined;
    if (known === "unknown") {
      if (own && value !== null)
        this.#renameTombstones.add(stateKey("rename", subject, field, replacement, replica));
      return own || value === null ? undefined : { what: UNKNOWN_RENAME, restartsWindows: false };
    }
    const rows =
      value === null
        ? null
        : readRows(typeof value === "object" ? (value as { rows?: unknown }).rows : undefined);
    if (rows === undefined) return { what: LEFT_OUT_OF_RENAMES, restartsWindows: false };
    if (own) this.renames.ownRecord(subject, field, replacement, rows);
    else this.renames.peerRecord(replica, subject, field, replacement, rows);
    return undefined;
  }

  /**
   * This replica's rename records whose rows changed since last sent (previous runs' and this run's
   * counts together), each bounded (`boundRows`), and a tombstone for each of its own records of a
   * rename its config no longer names.
   */
  renameMessages(): Message[] {
    const messages: Message[] = [];
    for (const key of this.#renameTombstones) messages.push({ key, value: null });
    this.#renameTombstones.clear();
    for (const entry of this.renames?.own() ?? []) {
      const key = stateKey("rename", entry.subject, entry.field, entry.replacement, this.replica);
      const bound = boundRows(entry.rows, MAX_RENAME_RECORD_BYTES);
      const value = JSON.stringify({ rows: bound.rows });
      if (this.#sentRenames.get(key) === value) continue;
      this.#sentRenames.set(key, value);
      if (bound.folded) this.renamesFolded++;
      this.renameProducersLeftOut += bound.leftOut;
      messages.push({ key, value });
    }
    return messages;
  }

  /** `history/<subject>/<index>/<replica>`: a bucket of the traffic history (history-records.ts). */
  historyBucket(parts: readonly string[], value: unknown, loading: boolean): Outcome {
    const what = readHistoryRecord(this.history, this.replica, parts, value, loading);
    return what === undefined ? undefined : { what, restartsWindows: false };
  }

  /** The first read of the topic ended. */
  loaded(): void {
    this.stats?.loaded();
    this.history?.loaded();
  }

  /** `meta/started/<replica>`: whether it shares field evidence (`fields: true`). */
  started(replica: string, value: unknown): void {
    const shares =
      typeof value === "object" && value !== null && (value as { fields?: unknown }).fields === true;
    if (shares) {
      // From now on its records are checked; those it read before were not, up to its last heartbeat.
      if (this.#notSharing.delete(replica))
        this.#floor = Math.max(this.#floor, this.#alive.get(replica) ?? -Infinity);
      this.#sharing.add(replica);
    } else {
      this.#sharing.delete(replica);
      this.#notSharing.add(replica);
    }
  }

  /** Forgets a replica that is gone (forget.ts): its field records and history buckets, its heartbeat. */
  forget(replica: string): void {
    for (const perReplica of this.#fields.values()) perReplica.delete(replica);
    for (const set of [this.#sharing, this.#notSharing]) set.delete(replica);
    this.#alive.delete(replica);
    this.history?.forget(replica);
  }

  /** `meta/alive/<replica>`: heard of at `at` (ms). */
  alive(replica: string, at: number): void {
    this.#alive.set(replica, Math.max(at, this.#alive.get(replica) ?? at));
  }

  /**
   * This replica's field records: every one whose value changed since last sent (`changedOnly`
   * false), or, between full publishes, those whose verdict-relevant times changed: when a record
   * last carried a deprecated field or lacked an optional one, or could not be read for it.
   */
  fieldMessages(lifecycle: Lifecycle, changedOnly: boolean): Message[] {
    const messages: Message[] = [];
    for (const [subject, state] of Object.entries(lifecycle.fields.toState())) {
      const byField = new Map<string, FieldUse[]>();
      for (const use of Object.values(state.uses)) {
        const list = byField.get(use.field) ?? [];
        const { field: _, ...rest } = use;
        list.push(rest);
        byField.set(use.field, list);
      }
      for (const field of state.fields) {
        const uses = byField.get(field.pointer) ?? [];
        const trackedSince = state.trackedSince?.[field.pointer];
        if (uses.length === 0 && trackedSince === undefined) continue;
        const key = stateKey("field", subject, field.pointer, this.replica);
        let value = JSON.stringify(fieldRecordOf(uses, trackedSince));
        // Past the bound (thousands of producer and writer pairs), each use's buckets become one at
        // the newest's start: the counts then may include records from before the window, which
        // only ever withholds a verdict (more records carrying or lacking the field), never gives one.
        if (Buffer.byteLength(value) > MAX_FIELD_RECORD_BYTES) {
          this.compacted++;
          value = JSON.stringify(fieldRecordOf(uses.map(oneBucket), trackedSince));
        }
        const deprecated = field.deprecatedIn.length > 0;
        const last = JSON.stringify(
          uses.map((u) => [
            u.producer,
            u.writer,
            deprecated ? u.lastPresentAt : u.lastAbsentAt,
            u.lastUnknownAt,
          ]),
        );
        if (this.#sent.get(key) === value) continue;
        if (changedOnly && this.#sentLast.get(key) === last) continue;
        this.#sent.set(key, value);
        this.#sentLast.set(key, last);
        messages.push({ key, value });
      }
    }
    return messages;
  }

  /** The retirement dates this replica knows, and a tombstone for each it published that is gone. */
  retiredMessages(lifecycle: Lifecycle): Message[] {
    const messages: Message[] = [];
    const now = new Set<string>();
    for (const [subject, versions] of Object.entries(lifecycle.retired.toState()))
      for (const [version, at] of Object.entries(versions)) {
        const key = stateKey("retired", subject, version);
        now.add(key);
        if (!this.#sentRetired.has(key)) messages.push({ key, value: JSON.stringify({ at }) });
        this.#sentRetired.add(key);
      }
    for (const key of this.#sentRetired)
      if (!now.has(key)) {
        this.#sentRetired.delete(key);
        messages.push({ key, value: null });
      }
    return messages;
  }

  /**
   * The field statistics' buckets that changed, at most once per `everyMs` (a minute, or a bucket
   * when shorter) unless `final` (a stop): each bucket is sent again whole as it fills.
   */
  statsMessages(now: number, everyMs: number, final: boolean): Message[] {
    if (!this.stats || (!final && now - this.#statsSentAt < everyMs)) return [];
    this.#statsSentAt = now;
    return this.stats.records(now).map(({ parts, value }) => ({
      key: stateKey("stats", ...parts, this.replica),
      value,
    }));
  }
}
