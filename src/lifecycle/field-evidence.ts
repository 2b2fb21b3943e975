import { isFieldUse, isTrackedField } from "./field-merge.js";

/**
 * Evidence about a subject's fields, gathered from the presence check of every record: what a
 * deprecated field's drain and an optional field's "ready to require" rest on. The lifecycle knows no
 * pipeline: the monitor hands it, at each judgement, the field tallies as `FieldFacts` (cumulative
 * counts since the process started), and this folds what is new since the last time into time buckets.
 */

/** A field the monitor tracks (src/fields/interest.ts `FieldOfInterest` has this shape). */
export interface TrackedField {
  readonly pointer: string;
  /** The non-retired versions that mark it `deprecated: true`. */
  readonly deprecatedIn: readonly string[];
  /** The newest active version when the field is optional there. */
  readonly optionalIn: string | undefined;
}

/** One (producer, writer version)'s counts per field, each array indexed like `FieldFacts.fields`. */
export interface FieldFactsRow {
  readonly labels: { readonly producer: string; readonly writer_version: string };
  readonly present: readonly number[];
  readonly absent: readonly number[];
  readonly unknown: readonly number[];
  /** When a record last carried, lacked, or could not be read for each field (ms; 0: never). */
  readonly lastPresentAt: readonly number[];
  readonly lastAbsentAt: readonly number[];
  readonly lastUnknownAt: readonly number[];
}

/** A subject's tracked fields and their tallies (src/fields/tallies.ts `SubjectFieldsView` has this shape). */
export interface FieldFacts {
  readonly subject: string;
  readonly fields: readonly TrackedField[];
  readonly rows: readonly FieldFactsRow[];
}

/** Records of one field in one time bucket. */
export interface FieldBucket {
  /** The bucket's start, ms. */
  readonly start: number;
  present: number;
  absent: number;
  unknown: number;
}

/** What traffic said of one field, from one producer with one writer version. Serializable. */
export interface FieldUse {
  readonly producer: string;
  readonly writer: string;
  /** When a record last carried the field, lacked it, or could not be read (ms; 0: never). */
  lastPresentAt: number;
  lastAbsentAt: number;
  lastUnknownAt: number;
  /**
   * Records of this use that carried it since the last record of the field, of any producer, that
   * lacked it or could not be read (as far as folding tells the order: see `FieldEvidence.observe`).
   * Summed over a replica's uses: the field's streak on that replica.
   */
  presentSinceMissing: number;
  /** Counts per time bucket, oldest first, as far back as the longer window of the subject. */
  buckets: FieldBucket[];
}

/**
 * How many buckets a window (the subject's longer one) is cut into: a share over a window that begins
 * inside a bucket counts that bucket whole, and says so (field-shares.ts).
 */
export const BUCKETS_PER_WINDOW = 12;

/**
 * The live clock's tick, ms: it ticks rather than being read per record, so a verdict's window reaches
 * one tick further back (field-verdicts.ts), and a bucket is kept as long as that window reaches it.
 */
export const CLOCK_TICK_MS = 1000;

/**
 * Whether a bucket (`width` ms wide) may hold records of the window that starts at `since`: it ends
 * at or after it. A record dated at or after `since` is always in such a bucket (it was folded in at
 * or after its time); the bucket may hold older records too (field-shares.ts says how far back).
 */
export function reachesWindow(bucket: FieldBucket, since: number, width: number): boolean {
  return bucket.start + width >= since;
}

/** The bucket width for a subject whose longer window is `windowMs`; at least a second. */
export function bucketWidth(windowMs: number): number {
  return Math.max(1000, Math.ceil(windowMs / BUCKETS_PER_WINDOW));
}

const useKey = (pointer: string, producer: string, writer: string) =>
  `${pointer}\u0000${producer}\u0000${writer}`;

/** The serializable form: per subject, its tracked fields and every use. */
export interface FieldEvidenceState {
  readonly fields: TrackedField[];
  readonly uses: Record<string, FieldUse & { readonly field: string }>;
  /** Fields that began to be tracked after the evidence did (a reload), and when (ms). */
  readonly trackedSince?: Record<string, number>;
}

interface SubjectEvidence {
  fields: readonly TrackedField[];
  readonly uses: Map<string, FieldUse & { readonly field: string }>;
  readonly trackedSince: Map<string, number>;
  /** Whether its field list is known already (told in this process, or restored). */
  listed: boolean;
}

/**
 * The counts of a tallies row already folded in, per field pointer: a reload that drops a field
 * moves the others' columns (src/fields/reload.ts), never their counts.
 */
type Folded = Map<string, { present: number; absent: number; unknown: number }>;

/** Field evidence of every subject. */
export class FieldEvidence {
  readonly #subjects = new Map<string, SubjectEvidence>();
  /** Per tallies row (an object of this process), what was folded in already: never saved. */
  #folded = new WeakMap<FieldFactsRow, Folded>();

  /**
   * Folds in what the tallies counted since the last call, dated `now` (its bucket), with the last
   * times the tallies hold. `windowMs(subject)`: the subject's longer window (what buckets cover).
   */
  observe(facts: Iterable<FieldFacts>, now: number, windowMs: (subject: string) => number): void {
    for (const f of facts) {
      // Listed even without fields: one that a reload gives fields must not take them as tracked all along.
      const subject = this.#subject(f.subject);
      // A field tracked only from now on (a reload made it one of interest): the records before went
      // unchecked for it, so its evidence begins now, whatever the coverage says.
      if (subject.listed) {
        const known = new Set(subject.fields.map((t) => t.pointer));
        for (const t of f.fields) if (!known.has(t.pointer)) subject.trackedSince.set(t.pointer, now);
        // A field no longer tracked (a reload left it out): its evidence goes, so that if it is
        // tracked again, its evidence begins then rather than joining what came before the gap.
        const tracked = new Set(f.fields.map((t) => t.pointer));
        for (const [key, use] of subject.uses) if (!tracked.has(use.field)) subject.uses.delete(key);
        for (const pointer of subject.trackedSince.keys())
          if (!tracked.has(pointer)) subject.trackedSince.delete(pointer);
      }
      subject.listed = true;
      subject.fields = f.fields.map((t) => ({
        pointer: t.pointer,
        deprecatedIn: [...t.deprecatedIn],
        optionalIn: t.optionalIn,
      }));
      const window = windowMs(f.subject);
      const width = bucketWidth(window);
      const start = Math.floor(now / width) * width;
      // A record of any producer that lacked a field, or could not be read for it, ends every streak
      // of that field here: the records of other producers folded before it came before that record.
      const missed = f.fields.map((t, i) => f.rows.some((row) => this.#misses(row, t.pointer, i)));
      for (const row of f.rows) {
        let folded = this.#folded.get(row);
        if (!folded) this.#folded.set(row, (folded = new Map()));
        for (let i = 0; i < f.fields.length; i++) {
          const counts = {
            present: row.present[i] ?? 0,
            absent: row.absent[i] ?? 0,
            unknown: row.unknown[i] ?? 0,
          };
          let was = folded.get(f.fields[i]!.pointer) ?? { present: 0, absent: 0, unknown: 0 };
          // Fewer than folded: the field left and joined again, its column counting from zero.
          if (counts.present < was.present || counts.absent < was.absent || counts.unknown < was.unknown)
            was = { present: 0, absent: 0, unknown: 0 };
          folded.set(f.fields[i]!.pointer, counts);
          const present = counts.present - was.present;
          const absent = counts.absent - was.absent;
          const unknown = counts.unknown - was.unknown;
          if (present + absent + unknown === 0) continue;
          const use = this.#use(
            subject,
            f.fields[i]!.pointer,
            row.labels.producer,
            row.labels.writer_version,
          );
          use.lastPresentAt = Math.max(use.lastPresentAt, row.lastPresentAt[i] ?? 0);
          use.lastAbsentAt = Math.max(use.lastAbsentAt, row.lastAbsentAt[i] ?? 0);
          use.lastUnknownAt = Math.max(use.lastUnknownAt, row.lastUnknownAt[i] ?? 0);
          // Within what was folded at once, the order is not known: a record that lacked it may have
          // come last, so the streak starts again at 0 (never longer than it was).
          use.presentSinceMissing = missed[i] ? 0 : use.presentSinceMissing + present;
          let bucket = use.buckets[use.buckets.length - 1];
          if (!bucket || bucket.start < start) {
            use.buckets.push((bucket = { start, present: 0, absent: 0, unknown: 0 }));
          }
          bucket.present += present;
          bucket.absent += absent;
          bucket.unknown += unknown;
          // Kept while a window judged now reaches it, the clock's tick included: dropped any sooner, an
          // unreadable record the window still holds would no longer count, and the field could drain.
          const oldest = now - window - CLOCK_TICK_MS;
          while (use.buckets.length > 0 && !reachesWindow(use.buckets[0]!, oldest, width))
            use.buckets.shift();
        }
      }
      for (const use of subject.uses.values())
        if (missed[f.fields.findIndex((t) => t.pointer === use.field)]) use.presentSinceMissing = 0;
    }
  }

  /** Whether a row lacked field `i` (at `pointer`), or could not be read for it, since it was last folded. */
  #misses(row: FieldFactsRow, pointer: string, i: number): boolean {
    const absent = row.absent[i] ?? 0;
    const unknown = row.unknown[i] ?? 0;
    let was = this.#folded.get(row)?.get(pointer) ?? { present: 0, absent: 0, unknown: 0 };
    // Fewer than folded: the field left and joined again, its column counting from zero (as observe reads it).
    if ((row.present[i] ?? 0) < was.present || absent < was.absent || unknown < was.unknown)
      was = { present: 0, absent: 0, unknown: 0 };
    return absent > was.absent || unknown > was.unknown;
  }

  #subject(name: string): SubjectEvidence {
    let subject = this.#subjects.get(name);
    if (!subject)
      this.#subjects.set(
        name,
        (subject = { fields: [], uses: new Map(), trackedSince: new Map(), listed: false }),
      );
    return subject;
  }

  #use(subject: SubjectEvidence, field: string, producer: string, writer: string): FieldUse {
    const key = useKey(field, producer, writer);
    let use = subject.uses.get(key);
    if (!use) {
      use = {
        field,
        producer,
        writer,
        lastPresentAt: 0,
        lastAbsentAt: 0,
        lastUnknownAt: 0,
        presentSinceMissing: 0,
        buckets: [],
      };
      subject.uses.set(key, use);
    }
    return use;
  }

  /**
   * Takes uses a previous run of this replica published to the state topic as its own (its tallies
   * start at zero, so what they count from now on is new). The tracked fields are left as they are.
   */
  restoreUses(subject: string, uses: readonly FieldUse[], pointer: string, trackedSince?: number): void {
    this.#folded = new WeakMap();
    const evidence = this.#subject(subject);
    if (trackedSince !== undefined) evidence.trackedSince.set(pointer, trackedSince);
    for (const use of uses)
      evidence.uses.set(useKey(pointer, use.producer, use.writer), {
        ...use,
        field: pointer,
        buckets: use.buckets.map((b) => ({ ...b })),
      });
  }

  /** The subject's tracked fields, as last told. */
  fieldsOf(subject: string): readonly TrackedField[] {
    return this.#subjects.get(subject)?.fields ?? [];
  }

  /** From when a field's records were checked: -Infinity unless it began to be tracked later. */
  trackedSince(subject: string, pointer: string): number {
    return this.#subjects.get(subject)?.trackedSince.get(pointer) ?? Number.NEGATIVE_INFINITY;
  }

  /** Every use of a field, by producer then writer version. */
  usesOf(subject: string, pointer: string): FieldUse[] {
    const uses = [...(this.#subjects.get(subject)?.uses.values() ?? [])].filter((u) => u.field === pointer);
    return uses.sort((a, b) => a.producer.localeCompare(b.producer) || a.writer.localeCompare(b.writer));
  }

  toState(): Record<string, FieldEvidenceState> {
    const state: Record<string, FieldEvidenceState> = {};
    for (const [name, subject] of this.#subjects) {
      const uses: FieldEvidenceState["uses"] = {};
      for (const [key, use] of subject.uses)
        uses[key] = { ...use, buckets: use.buckets.map((b) => ({ ...b })) };
      state[name] = {
        fields: subject.fields.map((f) => ({ ...f })),
        uses,
        trackedSince: Object.fromEntries(subject.trackedSince),
      };
    }
    return state;
  }

  /**
   * Takes saved evidence as this monitor's own. The tallies of this process start at zero, so what
   * they count from now on is all new.
   */
  restore(state: Readonly<Record<string, FieldEvidenceState>>): void {
    this.#folded = new WeakMap();
    for (const [name, saved] of Object.entries(state)) {
      // A section written by hand or by another version: what does not read as evidence is left out
      // (no evidence of a field is never a drain: its window starts again from its next records).
      if (!Array.isArray(saved?.fields) || typeof saved.uses !== "object" || saved.uses === null) continue;
      const subject = this.#subject(name);
      if (!subject.listed) {
        subject.fields = saved.fields.filter(isTrackedField).map((f) => ({ ...f }));
        subject.listed = true;
      }
      for (const [pointer, since] of Object.entries(saved.trackedSince ?? {}))
        if (isNumber(since)) subject.trackedSince.set(pointer, since);
      for (const use of Object.values(saved.uses).filter(isFieldUse))
        subject.uses.set(useKey(use.field, use.producer, use.writer), {
          ...use,
          buckets: use.buckets.map((b) => ({ ...b })),
        });
    }
  }
}

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
