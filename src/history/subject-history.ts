import type { FieldRow, SubjectFieldsView } from "../fields/tallies.js";
import type { RecordSeries } from "../pipeline/tallies.js";

/**
 * One subject's traffic over its drain window, in a ring of `buckets` time buckets (bucket index =
 * time / bucketMs, slot = index mod buckets): per (producer, writer version) the records counted, and
 * per (producer, field) the records checked for the field and those that carried it.
 */

/**
 * The records of one (producer, writer version), per slot; as the page and the state file give it,
 * per bucket in plain numbers (`VersionLine<readonly number[]>`).
 */
export interface VersionLine<Counts = Float64Array> {
  readonly producer: string;
  readonly version: string;
  readonly records: Counts;
}

/** One (producer, field), writer versions together: records checked for it and those carrying it, per slot. */
export interface FieldLine<Counts = Float64Array> {
  readonly producer: string;
  readonly field: string;
  readonly records: Counts;
  readonly present: Counts;
}

/**
 * One bucket's lines with records in it, as the state topic's `history/` records carry them:
 * `[producer, version, records]` and `[producer, field, records checked, records carrying it]`.
 */
export interface BucketLines {
  readonly versions: ReadonlyArray<readonly [string, string, number]>;
  readonly fields: ReadonlyArray<readonly [string, string, number, number]>;
}

/** The bound on lines shared by every subject: a line past it is not made and its records are counted. */
export interface Room {
  lines: number;
  readonly max: number;
  /** Records (or field checks) not kept: their line found no room, or they came too late for the ring. */
  dropped: number;
}

/**
 * What a FieldRow's counts were when they were last folded into the ring, per field pointer: a reload
 * that drops a field moves the others' columns (src/fields/reload.ts), never their counts.
 */
interface Base {
  checked: number;
  readonly fields: Map<string, { present: number; records: number }>;
}

export class SubjectHistory {
  readonly versions: VersionLine[] = [];
  readonly fields: FieldLine[] = [];
  /** The newest bucket's index; -1 before the first record. */
  newest = -1;
  /** When the newest bucket ends (ms): a record at or past it starts the next. */
  end = Number.NEGATIVE_INFINITY;
  #slot = 0;
  /**
   * Whether the versions' counts are taken from the field tallies' rows (each counts every record of
   * its producer and writer version) when a bucket ends, so that a record costs only a comparison;
   * decided at the subject's first record: a subject without tracked fields has no rows, and its
   * records are counted one by one.
   */
  fromRows: boolean | undefined;
  readonly #versionOf = new Map<string, Map<string, VersionLine>>();
  readonly #fieldOf = new Map<string, Map<string, FieldLine>>();
  readonly #bases = new Map<FieldRow, Base>();
  /** Buckets before the newest that counts were added to since `changed()` was last asked. */
  readonly #older = new Set<number>();
  /** The newest bucket when `changed()` was last asked. */
  #sharedUpTo = Number.NEGATIVE_INFINITY;
  // A record's series finds its line in one lookup by identity (null: no room was left for it).
  readonly #bySeries = new Map<RecordSeries, VersionLine | null>();

  constructor(
    readonly subject: string,
    readonly bucketMs: number,
    readonly buckets: number,
    readonly room: Room,
  ) {}

  /** Makes `index` the newest bucket (empty), after folding the field counts into the one it ends. */
  roll(index: number, fields: SubjectFieldsView | undefined): void {
    this.fold(fields);
    if (index <= this.newest) return;
    if (this.newest >= 0) {
      const steps = Math.min(this.buckets, index - this.newest);
      const clear = (counts: Float64Array) => {
        for (let s = 1; s <= steps; s++) counts[(this.newest + s) % this.buckets] = 0;
      };
      for (const line of this.versions) clear(line.records);
      for (const line of this.fields) {
        clear(line.records);
        clear(line.present);
      }
    }
    this.newest = index;
    this.end = (index + 1) * this.bucketMs;
    this.#slot = index % this.buckets;
  }

  /** Counts records observed at `at` (never after the newest bucket: the caller rolls first). */
  count(line: VersionLine | null, at: number, records: number): void {
    if (line === null) return void (this.room.dropped += records);
    if (at >= this.end - this.bucketMs) return void (line.records[this.#slot]! += records);
    // A record observed before the newest bucket (another series moved it on): its own bucket.
    const index = Math.floor(at / this.bucketMs);
    if (index > this.newest - this.buckets) {
      line.records[index % this.buckets]! += records;
      this.#older.add(index);
    } else this.room.dropped += records;
  }

  /** The line a series counts in (its producer and writer version), or null when there was no room. */
  lineOf(series: RecordSeries): VersionLine | null {
    let line = this.#bySeries.get(series);
    if (line === undefined) {
      const { producer, writer_version } = series.count.labels;
      line = this.versionLine(producer, writer_version) ?? null;
      this.#bySeries.set(series, line);
    }
    return line;
  }

  /** The line of a (producer, version), made when the room has space; undefined when it has none. */
  versionLine(producer: string, version: string): VersionLine | undefined {
    let byVersion = this.#versionOf.get(producer);
    if (!byVersion) this.#versionOf.set(producer, (byVersion = new Map()));
    let line = byVersion.get(version);
    if (!line && this.room.lines < this.room.max) {
      line = { producer, version, records: new Float64Array(this.buckets) };
      byVersion.set(version, line);
      this.versions.push(line);
      this.room.lines++;
    }
    return line;
  }

  fieldLine(producer: string, field: string): FieldLine | undefined {
    let byField = this.#fieldOf.get(producer);
    if (!byField) this.#fieldOf.set(producer, (byField = new Map()));
    let line = byField.get(field);
    if (!line && this.room.lines < this.room.max) {
      line = {
        producer,
        field,
        records: new Float64Array(this.buckets),
        present: new Float64Array(this.buckets),
      };
      byField.set(field, line);
      this.fields.push(line);
      this.room.lines++;
    }
    return line;
  }

  /**
   * Adds what the field tallies counted since the last fold into the newest bucket (and the versions'
   * counts too, `fromRows`). The field tallies hear each record after this history does, so a record
   * that starts a bucket is folded into it. Before the first record, it only takes the counts as
   * they are: what was counted before is no bucket's.
   */
  fold(view: SubjectFieldsView | undefined): void {
    if (!view) return;
    for (const row of view.rows) {
      let base = this.#bases.get(row);
      if (!base) this.#bases.set(row, (base = { checked: 0, fields: new Map() }));
      const counted = row.checked - base.checked;
      base.checked = row.checked;
      if (this.fromRows === true && counted > 0 && this.newest >= 0) {
        const line = this.versionLine(row.labels.producer, row.labels.writer_version);
        if (line) line.records[this.#slot]! += counted;
        else this.room.dropped += counted;
      }
      for (let i = 0; i < view.fields.length; i++) {
        const pointer = view.fields[i]!.pointer;
        const records = row.present[i]! + row.absent[i]! + row.unknown[i]!;
        let was = base.fields.get(pointer);
        // Fewer than folded: the field left and joined again, its column counting from zero.
        if (was === undefined || records < was.records) was = { present: 0, records: 0 };
        const checked = records - was.records;
        if (checked === 0) continue;
        const present = row.present[i]! - was.present;
        base.fields.set(pointer, { present: row.present[i]!, records });
        if (this.newest < 0) continue;
        const line = this.fieldLine(row.labels.producer, pointer);
        if (!line) {
          this.room.dropped += checked;
          continue;
        }
        line.records[this.#slot]! += checked;
        line.present[this.#slot]! += present;
      }
    }
  }

  /** A line's counts from bucket `first` to `last` (indexes), oldest first; 0 outside the ring. */
  window(counts: Float64Array, first: number, last: number): number[] {
    const out: number[] = [];
    for (let index = first; index <= last; index++)
      out.push(this.holds(index) ? counts[index % this.buckets]! : 0);
    return out;
  }

  /**
   * The buckets that may have changed since the last call (all of the ring at the first): the newest
   * and the one before it (a bucket's field counts are folded in when the next begins), those that
   * were the newest since, and older ones a record or a previous run's bucket was added to.
   */
  changed(): number[] {
    const from = Math.max(this.newest - this.buckets + 1, this.#sharedUpTo - 1, 0);
    const indexes = new Set<number>();
    for (let index = from; index <= this.newest; index++) indexes.add(index);
    for (const index of this.#older) if (this.holds(index)) indexes.add(index);
    this.#older.clear();
    this.#sharedUpTo = this.newest;
    return [...indexes].sort((a, b) => a - b);
  }

  /** Whether bucket `index` is in the ring now. */
  holds(index: number): boolean {
    return index >= 0 && index <= this.newest && index > this.newest - this.buckets;
  }

  /** Bucket `index`'s lines with records in it (the state topic's record of it); empty outside the ring. */
  bucket(index: number): BucketLines {
    const versions: BucketLines["versions"][number][] = [];
    const fields: BucketLines["fields"][number][] = [];
    if (!this.holds(index)) return { versions, fields };
    const slot = index % this.buckets;
    for (const l of this.versions)
      if (l.records[slot]! > 0) versions.push([l.producer, l.version, l.records[slot]!]);
    for (const l of this.fields)
      if (l.records[slot]! > 0) fields.push([l.producer, l.field, l.records[slot]!, l.present[slot]!]);
    return { versions, fields };
  }

  /**
   * Adds a bucket's lines counted elsewhere (a previous run of this replica, read back from the state
   * topic) into bucket `index`, made the newest when it is newer; one older than the ring is dropped.
   */
  add(index: number, lines: BucketLines): void {
    if (index > this.newest) this.roll(index, undefined);
    if (!this.holds(index)) return;
    this.#older.add(index);
    const slot = index % this.buckets;
    for (const [producer, version, records] of lines.versions) {
      const line = this.versionLine(producer, version);
      if (line) line.records[slot]! += records;
      else this.room.dropped += records;
    }
    for (const [producer, field, records, present] of lines.fields) {
      const line = this.fieldLine(producer, field);
      if (!line) {
        this.room.dropped += records;
        continue;
      }
      line.records[slot]! += records;
      line.present[slot]! += present;
    }
  }

  /** Forgets every line (the subject's window changed): its room is given back. */
  release(): void {
    this.room.lines -= this.versions.length + this.fields.length;
  }
}
