import { renamesBySubject, type RenameProgress } from "./rename-progress.js";
import { mergeRows, readRows, tallyRows, type RenameRow } from "./rename-rows.js";
import type { SubjectFieldsView } from "./tallies.js";

/** One rename's rows, as the state file's `renames` section lists them. */
export interface RenameEntry {
  readonly subject: string;
  /** The replaced field. */
  readonly field: string;
  readonly replacement: string;
  readonly rows: readonly RenameRow[];
}

/** What the ledger reads the subjects' renames from: the field tallies (`FieldTallies`). */
export interface RenameViews {
  subject(name: string): SubjectFieldsView | undefined;
  subjects(): Iterable<SubjectFieldsView>;
}

/** Whether a rename is one this monitor follows, of a subject it does not watch, or unknown to its config. */
export type RenameKnown = "known" | "unwatched" | "unknown";

const pairId = (subject: string, field: string, replacement: string) =>
  `${subject}\u0000${field}\u0000${replacement}`;

/** Each of a view's pairs by its pointers. */
const pairsOf = (view: SubjectFieldsView) =>
  view.pairs.map((pair, p) => ({
    field: view.fields[pair.replaced]!.pointer,
    replacement: view.fields[pair.replacement]!.pointer,
    p,
  }));

/**
 * A rename's progress beyond one process: what this replica's previous runs counted (the state file's
 * `renames` section, or its own records of the state topic read on start) beside the tallies of this
 * run, and what other replicas sharing the state topic counted. Nothing is added into the tallies (the
 * metric stays the process's own counter) nor into another replica's rows: each view is kept apart
 * and merged when read, so nothing counts twice. Read at save and report time only: the per-record
 * path does not know it.
 */
export class RenameLedger {
  /** This replica's previous runs, per pair. */
  readonly #saved = new Map<string, RenameEntry>();
  /** Other replicas' rows, per pair and replica. */
  readonly #peers = new Map<string, Map<string, readonly RenameRow[]>>();

  constructor(readonly views: RenameViews) {}

  /** Whether `subject` is watched and its config names this rename. */
  known(subject: string, field: string, replacement: string): RenameKnown {
    const view = this.views.subject(subject);
    if (!view) return "unwatched";
    return pairsOf(view).some((x) => x.field === field && x.replacement === replacement)
      ? "known"
      : "unknown";
  }

  /**
   * The state file's section, as `toJSON` wrote it: a problem (and nothing restored) when it is not
   * a readable one. Renames the config no longer names are kept until the next save leaves them out.
   */
  restore(section: unknown): string | undefined {
    if (section === undefined) return undefined;
    if (!Array.isArray(section)) return "the renames section is not a list";
    const entries: RenameEntry[] = [];
    for (const [i, entry] of section.entries()) {
      const e = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
      const rows = readRows(e["rows"]);
      const { subject, field, replacement } = e;
      if (
        typeof subject !== "string" ||
        typeof field !== "string" ||
        typeof replacement !== "string" ||
        !rows
      )
        return `entry ${i} of the renames section is unreadable`;
      entries.push({ subject, field, replacement, rows });
    }
    for (const entry of entries)
      this.#saved.set(pairId(entry.subject, entry.field, entry.replacement), entry);
    return undefined;
  }

  /** A previous run's record of this replica, read on start (null: a tombstone); the last read wins. */
  ownRecord(subject: string, field: string, replacement: string, rows: readonly RenameRow[] | null): void {
    const id = pairId(subject, field, replacement);
    if (rows === null) this.#saved.delete(id);
    else this.#saved.set(id, { subject, field, replacement, rows });
  }

  /** Another replica's record (null: a tombstone): its latest replaces what it said before. */
  peerRecord(
    replica: string,
    subject: string,
    field: string,
    replacement: string,
    rows: readonly RenameRow[] | null,
  ): void {
    const id = pairId(subject, field, replacement);
    let perReplica = this.#peers.get(id);
    if (!perReplica) this.#peers.set(id, (perReplica = new Map()));
    if (rows === null) perReplica.delete(replica);
    else perReplica.set(replica, rows);
  }

  /**
   * This replica's own rows of every rename its config names (previous runs' and this run's, added),
   * and those kept of subjects not watched yet (a registry subject whose schemas are still to come).
   * What the state file saves and the state topic publishes.
   */
  own(): RenameEntry[] {
    const entries: RenameEntry[] = [];
    const seen = new Set<string>();
    for (const view of this.views.subjects())
      for (const { field, replacement, p } of pairsOf(view)) {
        const id = pairId(view.subject, field, replacement);
        seen.add(id);
        const saved = this.#saved.get(id)?.rows ?? [];
        const rows = mergeRows([saved, tallyRows(view, p)]).filter((r) => r.records.some((n) => n > 0));
        if (rows.length > 0) entries.push({ subject: view.subject, field, replacement, rows });
      }
    for (const [id, entry] of this.#saved)
      if (!seen.has(id) && !this.views.subject(entry.subject)) entries.push(entry);
    return entries;
  }

  /** The state file's `renames` section. */
  toJSON(): RenameEntry[] {
    return this.own();
  }

  /** A pair's rows as every run and replica counted them. */
  rows(view: SubjectFieldsView, p: number): RenameRow[] {
    const { field, replacement } = pairsOf(view)[p]!;
    const id = pairId(view.subject, field, replacement);
    return mergeRows([
      this.#saved.get(id)?.rows ?? [],
      tallyRows(view, p),
      ...(this.#peers.get(id)?.values() ?? []),
    ]);
  }

  /** Every subject's renames from the merged rows (`renamesBySubject`). */
  progress(now: number, windowOf: (subject: string) => number): Map<string, RenameProgress[]> {
    return renamesBySubject(this.views.subjects(), now, windowOf, (view, p) => this.rows(view, p));
  }
}
