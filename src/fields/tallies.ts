import type { Catalog, CatalogSubject } from "../catalog/types.js";
import type { CountedHook, SubjectPipeline } from "../pipeline/pipeline.js";
import type { DecodeReason, RecordFrame } from "../pipeline/record.js";
import type { RecordSeries } from "../pipeline/tallies.js";
import type { FieldsConfig } from "../config/types.js";
import type { BodyPresence } from "../formats/format.js";
import { MAX_FIELDS, fieldsOfInterest, type FieldOfInterest } from "./interest.js";
import { FieldPresence } from "./exact.js";
import { ABSENT, PRESENT, type PresenceName } from "./presence.js";
import { dropColumns, keptFields, movedPairs } from "./reload.js";
import { countForm, grow, type FieldRow } from "./rows.js";
import { FORMS, FORM_UNKNOWN, formOf, type RenamePair } from "./rename.js";
import { fieldSamples, renameSamples, summedOverProducers, type RenameSample } from "./samples.js";

export type { FieldRow, FieldRowLabels } from "./rows.js";

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
  /** The renames the config names (`fields.replaces`), as indexes into `fields`. */
  readonly pairs: readonly RenamePair[];
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
  pairs: RenamePair[] = [];
  /** Per pair, the field index of the replaced field then of the replacement. */
  #pairFields: number[] = [];
  #config: FieldsConfig | undefined;
  /** The byte search, then the exact read of a record it says may carry a field (a JSON body). */
  presence = new FieldPresence([]);
  /** A binary format's presence check (`Format.fields`), in place of `presence`; undefined for JSON. */
  #body: BodyPresence | undefined;
  readonly #byLabels = new Map<string, Map<string, FieldRow>>();
  readonly #bySeries = new Map<RecordSeries, FieldRow>();
  readonly #max: number;

  constructor(subject: CatalogSubject, max: number, config: FieldsConfig | undefined) {
    this.subject = subject.name;
    this.#max = max;
    this.#config = config;
    this.#from = subject;
    this.#read(subject);
  }

  /** Follows a reloaded catalog: fields tracked stay (counters never go back); new ones join under the cap. */
  follow(subject: CatalogSubject): void {
    if (subject !== this.#from) this.#read((this.#from = subject));
  }

  /**
   * Takes a reloaded `fields` block: the fields that leave (reload.ts `keptFields`) take their counts
   * with them, the others keep theirs, and those it adds join from now on. Its renames are the old
   * block's (monitor/reload.ts refuses a change of `replaces`).
   */
  reconfigure(subject: CatalogSubject, config: FieldsConfig | undefined): void {
    const keep = keptFields(this.fields, subject, this.#config, config);
    this.#config = config;
    this.#from = subject;
    if (keep.includes(false)) {
      const before = this.fields;
      this.fields = before.filter((_, i) => keep[i]);
      dropColumns(this.rows, keep);
      this.pairs = movedPairs(this.pairs, before, this.fields);
    }
    this.#read(subject);
  }

  #read(subject: CatalogSubject): void {
    const binary = subject.format.fields;
    const found = fieldsOfInterest(subject.versions, Number.MAX_SAFE_INTEGER, this.#config, binary);
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
    const pairs: RenamePair[] = [];
    this.fields.forEach((field, replaced) => {
      const replacement = this.fields.findIndex((f) => f.pointer === field.replacedBy);
      if (replacement !== -1) pairs.push({ replaced, replacement });
    });
    // The config's pairs stay what they were at start: a reload adds none, so their counts stay put.
    if (pairs.length > this.pairs.length) this.pairs = pairs;
    this.#pairFields = this.pairs.flatMap((p) => [p.replaced, p.replacement]);
    // A deprecated field is in use where any record carries it; an optional one is ready only where
    // every object at its parent's place carries it.
    this.presence = new FieldPresence(
      binary ? [] : this.fields.map((f) => ({ pointer: f.pointer, every: f.deprecatedIn.length === 0 })),
    );
    this.#body = binary?.presence(
      subject.versions,
      this.fields.map((f) => f.pointer),
    );
    for (const row of this.rows) grow(row, this.fields.length, this.pairs.length);
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
        renames: [],
        renameLastAt: [],
      };
      grow(row, this.fields.length, this.pairs.length);
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
    frame: RecordFrame | undefined,
  ): void {
    row.checked += records;
    const fields = this.fields.length;
    if (!readable) {
      for (let i = 0; i < fields; i++) {
        row.unknown[i]! += records;
        if (at > row.lastUnknownAt[i]!) row.lastUnknownAt[i] = at;
      }
      for (let p = 0; p < this.pairs.length; p++) countForm(row, p * FORMS + FORM_UNKNOWN, records, at);
      return;
    }
    let verdicts: Uint8Array;
    const body = this.#body;
    if (body === undefined) {
      const presence = this.presence;
      presence.check(value, start, frame);
      verdicts = presence.verdicts;
    } else {
      // A binary body is read against its writer version: the row's, which a catalog reload keeps.
      body.check(this.#from.byVersion.get(row.labels.writer_version), value, start);
      verdicts = body.verdicts;
    }
    for (let i = 0; i < fields; i++) {
      const verdict = verdicts[i];
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
    const pairFields = this.#pairFields;
    for (let p = 0; p < pairFields.length; p += 2) {
      const form = formOf(verdicts[pairFields[p]!]!, verdicts[pairFields[p + 1]!]!);
      countForm(row, (p >> 1) * FORMS + form, records, at);
    }
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
  #config: ReadonlyMap<string, FieldsConfig>;
  #lastPipeline: SubjectPipeline | undefined;
  #lastState: SubjectFieldState | undefined;

  /**
   * `catalog`: the subjects watched from the start, so their fields are known before traffic;
   * `config`: each subject's `fields` block, by subject name.
   */
  constructor(catalog: Catalog, max = MAX_FIELDS, config: ReadonlyMap<string, FieldsConfig> = new Map()) {
    this.#max = max;
    this.#config = config;
    for (const subject of catalog.subjects.values())
      this.#states.set(subject.name, new SubjectFieldState(subject, max, config.get(subject.name)));
  }

  /** The pipeline's listener: give it as `counted: [fields.listener]`. */
  readonly listener: CountedHook = (pipeline, series, value, start, reason, records, frame) => {
    let state = this.#lastState;
    if (this.#lastPipeline !== pipeline || state === undefined) {
      state = this.#states.get(pipeline.subject.name);
      if (state === undefined) {
        state = new SubjectFieldState(pipeline.subject, this.#max, this.#config.get(pipeline.subject.name));
        this.#states.set(state.subject, state);
      }
      this.#lastPipeline = pipeline;
      this.#lastState = state;
    }
    state.follow(pipeline.subject);
    if (state.fields.length === 0) return;
    const readable = reason === undefined || PAYLOAD_READ.has(reason);
    // The pipeline dates the series before it counts a record: its latest observation is this one's.
    state.count(state.row(series), value, start, readable, records, series.lastObservedMs, frame);
  };

  /** Each subject's tracked fields and rows. */
  subjects(): Iterable<SubjectFieldsView> {
    return this.#states.values();
  }

  subject(name: string): SubjectFieldsView | undefined {
    return this.#states.get(name);
  }

  /** The samples of `schemawatch_field_records_total` summed over producers (samples.ts). */
  summedOverProducers(): ReturnType<typeof summedOverProducers> {
    return summedOverProducers(this.#states.values());
  }

  /** Every (row, field, presence) count, zeros included: the samples of `schemawatch_field_records_total`. */
  samples(): Iterable<FieldSample> {
    return fieldSamples(this.#states.values());
  }

  /** Every rename pair's records per producer and form (samples.ts). */
  renameSamples(producerDetail = true): Iterable<RenameSample> {
    return renameSamples(this.#states.values(), producerDetail);
  }

  /**
   * A reloaded config's `fields` blocks (by subject name) over the reloaded catalog: each subject's
   * fields follow them at once (`SubjectFieldState.reconfigure`).
   */
  reconfigure(catalog: Catalog, config: ReadonlyMap<string, FieldsConfig>): void {
    this.#config = config;
    for (const subject of catalog.subjects.values()) {
      const state = this.#states.get(subject.name);
      if (state) state.reconfigure(subject, config.get(subject.name));
      else
        this.#states.set(subject.name, new SubjectFieldState(subject, this.#max, config.get(subject.name)));
    }
  }
}
