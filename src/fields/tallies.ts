import type { Catalog, CatalogSubject } from "../catalog/types.js";
import type { CountedHook, SubjectPipeline } from "../pipeline/pipeline.js";
import type { DecodeReason } from "../pipeline/record.js";
import type { RecordSeries } from "../pipeline/tallies.js";
import { MAX_FIELDS, fieldsOfInterest, type FieldOfInterest } from "./interest.js";
import { ABSENT, PRESENCE_NAMES, PRESENT, PresenceCheck, type PresenceName } from "./presence.js";

/** Where a field's counts are kept: one row per (subject, producer, writer version), summed over topics. */
export interface FieldRowLabels {
  readonly subject: string;
  readonly producer: string;
  readonly writer_version: string;
}

/** The counts of one row, each array indexed like the subject's tracked fields. */
export interface FieldRow {
  readonly labels: FieldRowLabels;
  /** Records checked: each one counts once in `present`, `absent` or `unknown` of every field. */
  checked: number;
  readonly present: number[];
  readonly absent: number[];
  readonly unknown: number[];
  /**
   * Per field, when a record last carried it, lacked it, or could not be read for it (the pipeline's
   * observation clock, ms; 0 when never): what the lifecycle's field verdicts date their windows by.
   * Each is the series' latest observation when the record was counted, never earlier than the record.
   */
  readonly lastPresentAt: number[];
  readonly lastAbsentAt: number[];
  readonly lastUnknownAt: number[];
}

/** One sample of `schemawatch_field_records_total`. */
export interface FieldSample {
  readonly labels: {
    readonly subject: string;
    readonly field: string;
    readonly producer: string;
    readonly writer_version: string;
    readonly presence: PresenceName;
  };
  readonly value: number;
}

/** What a subject's fields are, as tracked, and their rows. */
export interface SubjectFieldsView {
  readonly subject: string;
  /** In the order they were first tracked; a field stays tracked after a reload drops its interest. */
  readonly fields: readonly FieldOfInterest[];
  readonly overflow: number;
  readonly unresolvedRefs: readonly string[];
  readonly truncated: boolean;
  readonly rows: readonly FieldRow[];
}

/** Reasons a record is counted for whose payload is still read (its version is what went unread). */
const PAYLOAD_READ: ReadonlySet<DecodeReason> = new Set(["unknown_schema_id", "unknown_version"]);

/** One subject's fields, their presence check and rows. */
class SubjectFieldState implements SubjectFieldsView {
  readonly subject: string;
  #from: CatalogSubject;
  fields: FieldOfInterest[] = [];
  overflow = 0;
  unresolvedRefs: readonly string[] = [];
  truncated = false;
  readonly rows: FieldRow[] = [];
  /** Each field's index among the check's distinct keys (`/amount` and `/items/*\/amount` share one). */
  #keyOf: number[] = [];
  check = new PresenceCheck([]);
  verdicts = new Uint8Array(0);
  readonly #byLabels = new Map<string, Map<string, FieldRow>>();
  readonly #bySeries = new Map<RecordSeries, FieldRow>();
  readonly #max: number;

  constructor(subject: CatalogSubject, max: number) {
    this.subject = subject.name;
    this.#max = max;
    this.#from = subject;
    this.#read(subject);
  }

  /** Follows a reloaded catalog: fields tracked stay (counters never go back); new ones join under the cap. */
  follow(subject: CatalogSubject): void {
    if (subject !== this.#from) this.#read((this.#from = subject));
  }

  #read(subject: CatalogSubject): void {
    const found = fieldsOfInterest(subject.versions, Number.MAX_SAFE_INTEGER);
    let overflow = 0;
    for (const field of found.fields) {
      const at = this.fields.findIndex((f) => f.pointer === field.pointer);
      if (at !== -1) this.fields[at] = field;
      else if (this.fields.length < this.#max) this.fields.push(field);
      else overflow++;
    }
    this.overflow = overflow;
    this.unresolvedRefs = found.unresolvedRefs;
    this.truncated = found.truncated;
    const keys = [...new Set(this.fields.map((f) => f.key))];
    this.#keyOf = this.fields.map((f) => keys.indexOf(f.key));
    this.check = new PresenceCheck(keys);
    this.verdicts = new Uint8Array(keys.length);
    for (const row of this.rows) grow(row, this.fields.length);
  }

  /** The row of a record's series, made (every field at zero) the first time its labels are seen. */
  row(series: RecordSeries): FieldRow {
    let row = this.#bySeries.get(series);
    if (row !== undefined) return row;
    const { producer, writer_version } = series.count.labels;
    let byWriter = this.#byLabels.get(producer);
    if (!byWriter) this.#byLabels.set(producer, (byWriter = new Map()));
    row = byWriter.get(writer_version);
    if (!row) {
      row = {
        labels: { subject: this.subject, producer, writer_version },
        checked: 0,
        present: [],
        absent: [],
        unknown: [],
        lastPresentAt: [],
        lastAbsentAt: [],
        lastUnknownAt: [],
      };
      grow(row, this.fields.length);
      byWriter.set(writer_version, row);
      this.rows.push(row);
    }
    this.#bySeries.set(series, row);
    return row;
  }

  /** Counts one record (or an undecodable batch's `records`) in its row. */
  count(
    row: FieldRow,
    value: Uint8Array | null,
    start: number,
    readable: boolean,
    records: number,
    at: number,
  ): void {
    row.checked += records;
    const fields = this.fields.length;
    if (!readable) {
      for (let i = 0; i < fields; i++) {
        row.unknown[i]! += records;
        if (at > row.lastUnknownAt[i]!) row.lastUnknownAt[i] = at;
      }
      return;
    }
    const verdicts = this.verdicts;
    this.check.check(value, start, verdicts);
    const keyOf = this.#keyOf;
    for (let i = 0; i < fields; i++) {
      const verdict = verdicts[keyOf[i]!];
      if (verdict === ABSENT) {
        row.absent[i]! += records;
        if (at > row.lastAbsentAt[i]!) row.lastAbsentAt[i] = at;
      } else if (verdict === PRESENT) {
        row.present[i]! += records;
        if (at > row.lastPresentAt[i]!) row.lastPresentAt[i] = at;
      } else {
        row.unknown[i]! += records;
        if (at > row.lastUnknownAt[i]!) row.lastUnknownAt[i] = at;
      }
    }
  }
}

function grow(row: FieldRow, fields: number): void {
  while (row.present.length < fields) {
    row.present.push(0);
    row.absent.push(0);
    row.unknown.push(0);
    row.lastPresentAt.push(0);
    row.lastAbsentAt.push(0);
    row.lastUnknownAt.push(0);
  }
}

/**
 * Presence of each field of interest in every record, per (subject, field, producer, writer version):
 * a listener of the pipeline (`counted`), kept in plain arrays and read at scrape time. Producers are
 * bounded by the pipeline, versions come from the catalog, and fields from the schemas, at most
 * `max` per subject: the label sets stay bounded whatever the traffic holds.
 */
export class FieldTallies {
  readonly #states = new Map<string, SubjectFieldState>();
  readonly #max: number;
  #lastPipeline: SubjectPipeline | undefined;
  #lastState: SubjectFieldState | undefined;

  /** `catalog`: the subjects watched from the start, so their fields are known before traffic. */
  constructor(catalog: Catalog, max = MAX_FIELDS) {
    this.#max = max;
    for (const subject of catalog.subjects.values())
      this.#states.set(subject.name, new SubjectFieldState(subject, max));
  }

  /** The pipeline's listener: give it as `counted: [fields.listener]`. */
  readonly listener: CountedHook = (pipeline, series, value, start, reason, records) => {
    let state = this.#lastState;
    if (this.#lastPipeline !== pipeline || state === undefined) {
      state = this.#states.get(pipeline.subject.name);
      if (state === undefined) {
        state = new SubjectFieldState(pipeline.subject, this.#max);
        this.#states.set(state.subject, state);
      }
      this.#lastPipeline = pipeline;
      this.#lastState = state;
    }
    state.follow(pipeline.subject);
    if (state.fields.length === 0) return;
    const readable = reason === undefined || PAYLOAD_READ.has(reason);
    // The pipeline dates the series before it counts a record: its latest observation is this one's.
    state.count(state.row(series), value, start, readable, records, series.lastObservedMs);
  };

  /** Each subject's tracked fields and rows. */
  subjects(): Iterable<SubjectFieldsView> {
    return this.#states.values();
  }

  subject(name: string): SubjectFieldsView | undefined {
    return this.#states.get(name);
  }

  /**
   * The samples summed over producers, without the `producer` label (config
   * `metrics.producerDetail: false`, as the validation series). Rows are never removed and counts
   * only grow, so no sum goes backwards.
   */
  *summedOverProducers(): Iterable<
    Omit<FieldSample, "labels"> & { labels: Omit<FieldSample["labels"], "producer"> }
  > {
    for (const state of this.#states.values()) {
      const sums = new Map<string, number[]>();
      for (const row of state.rows) {
        let sum = sums.get(row.labels.writer_version);
        if (!sum)
          sums.set(row.labels.writer_version, (sum = new Array<number>(state.fields.length * 3).fill(0)));
        for (let i = 0; i < state.fields.length; i++)
          for (let p = 0; p < 3; p++) sum[i * 3 + p]! += row[PRESENCE_NAMES[p]!][i]!;
      }
      for (const [writer_version, sum] of sums) {
        for (let i = 0; i < state.fields.length; i++) {
          const field = state.fields[i]!.pointer;
          for (let p = 0; p < 3; p++) {
            const presence = PRESENCE_NAMES[p]!;
            yield {
              labels: { subject: state.subject, field, writer_version, presence },
              value: sum[i * 3 + p]!,
            };
          }
        }
      }
    }
  }

  /** Every (row, field, presence) count, zeros included: the samples of `schemawatch_field_records_total`. */
  *samples(): Iterable<FieldSample> {
    for (const state of this.#states.values()) {
      for (const row of state.rows) {
        const { producer, writer_version } = row.labels;
        for (let i = 0; i < state.fields.length; i++) {
          const field = state.fields[i]!.pointer;
          for (const presence of PRESENCE_NAMES)
            yield {
              labels: { subject: state.subject, field, producer, writer_version, presence },
              value: row[presence][i]!,
            };
        }
      }
    }
  }
}
