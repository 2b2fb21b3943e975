// A field row's shape and how it grows: the counts of one (subject, producer, writer version), kept
// by the tallies (tallies.ts) and read by the lifecycle, the history and the state.

import { FORMS } from "./rename.js";

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
  /**
   * Per rename pair (`SubjectFieldsView.pairs`), records per form (`RENAME_FORMS`): the counts of
   * pair `p` are at `p * FORMS` on. Read from the same presence verdicts, so both fields of a record
   * are seen at once.
   */
  readonly renames: number[];
  /** When a record last took each form, laid out as `renames` (ms; 0: never). */
  readonly renameLastAt: number[];
}

export function countForm(row: FieldRow, at: number, records: number, when: number): void {
  row.renames[at]! += records;
  if (when > row.renameLastAt[at]!) row.renameLastAt[at] = when;
}

export function grow(row: FieldRow, fields: number, pairs: number): void {
  while (row.renames.length < pairs * FORMS) {
    row.renames.push(0);
    row.renameLastAt.push(0);
  }
  while (row.present.length < fields) {
    row.present.push(0);
    row.absent.push(0);
    row.unknown.push(0);
    row.lastPresentAt.push(0);
    row.lastAbsentAt.push(0);
    row.lastUnknownAt.push(0);
  }
}
