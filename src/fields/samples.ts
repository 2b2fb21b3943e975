import { PRESENCE_NAMES } from "./presence.js";
import { FORMS, RENAME_FORMS, type RenameForm } from "./rename.js";
import type { FieldSample, SubjectFieldsView } from "./tallies.js";

/**
 * The samples summed over producers, without the `producer` label (config
 * `metrics.producerDetail: false`, as the validation series). Rows are never removed and counts
 * only grow, so no sum goes backwards.
 */
export function* summedOverProducers(
  states: Iterable<SubjectFieldsView>,
): Iterable<Omit<FieldSample, "labels"> & { labels: Omit<FieldSample["labels"], "producer"> }> {
  for (const state of states) {
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
export function* fieldSamples(states: Iterable<SubjectFieldsView>): Iterable<FieldSample> {
  for (const state of states) {
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

/** One sample of `schemawatch_field_rename_records_total`. */
export interface RenameSample {
  readonly labels: {
    readonly subject: string;
    readonly field: string;
    readonly replacement: string;
    readonly producer?: string;
    readonly form: RenameForm;
  };
  readonly value: number;
}

/**
 * Per rename pair, producer (writer versions summed: the step is a producer's) and form, zeros
 * included; summed over producers too without `producerDetail`. Pairs come from the config and
 * producers are bounded by the pipeline: at most 5 series per pair and producer.
 */
export function* renameSamples(
  states: Iterable<SubjectFieldsView>,
  producerDetail: boolean,
): Iterable<RenameSample> {
  for (const state of states) {
    if (state.pairs.length === 0) continue;
    const sums = new Map<string, number[]>();
    for (const row of state.rows) {
      const key = producerDetail ? row.labels.producer : "";
      let sum = sums.get(key);
      if (!sum) sums.set(key, (sum = new Array<number>(state.pairs.length * FORMS).fill(0)));
      for (let i = 0; i < sum.length; i++) sum[i]! += row.renames[i] ?? 0;
    }
    for (const [producer, sum] of sums)
      for (let p = 0; p < state.pairs.length; p++) {
        const pair = state.pairs[p]!;
        const field = state.fields[pair.replaced]!.pointer;
        const replacement = state.fields[pair.replacement]!.pointer;
        for (let f = 0; f < FORMS; f++)
          yield {
            labels: {
              subject: state.subject,
              field,
              replacement,
              ...(producerDetail ? { producer } : {}),
              form: RENAME_FORMS[f]!,
            },
            value: sum[p * FORMS + f]!,
          };
      }
  }
}
