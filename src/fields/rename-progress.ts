import { formatDuration } from "../config/duration.js";
import { FORMS, RENAME_FORMS, stepOf, stepWords, type RenameCounts, type RenameStep } from "./rename.js";
import { EVERY_WRITER, tallyRows, type RenameRow } from "./rename-rows.js";
import type { SubjectFieldsView } from "./tallies.js";

/** One producer's records of a rename, and the step of the procedure it is at. */
export interface RenameProducerProgress {
  readonly producer: string;
  /**
   * Records per form since the state began: this process's tallies, with what a state file or this
   * replica's state topic records kept of its previous runs, and every other replica's sharing it.
   */
  readonly records: RenameCounts;
  /** The same, per writer version the producer sent (less a replica's rows past their bound). */
  readonly writers: Record<string, RenameCounts>;
  /** From the forms its records took in the drain window (`stepOf`). */
  readonly step: RenameStep;
  /** The step in words, with its action (`stepWords`). */
  readonly words: string;
  /** When its last record carried the replaced field, alone or with the replacement (ISO; null: never). */
  readonly lastReplaced: string | null;
}

/** A rename's progress (config `fields.replaces`): per producer, by name. */
export interface RenameProgress {
  /** The replaced field. */
  readonly field: string;
  readonly replacement: string;
  /** The window a producer's step is read over: the subject's drain window, as the old field's drain. */
  readonly window: string;
  readonly producers: RenameProducerProgress[];
}

const zero = (): RenameCounts => ({ old: 0, both: 0, new: 0, neither: 0, unknown: 0 });

/**
 * A subject's renames at `now` (the monitor's observation clock, ms), each producer's step read from
 * the forms its records took in the last `windowSeconds`. The rows of pair `p` are `rowsOf(p)`: by
 * default the tallies' own (this process's); `RenameLedger` gives them merged with the saved ones and
 * other replicas'. Pure: the tallies are only read.
 */
export function renameProgress(
  view: SubjectFieldsView,
  now: number,
  windowSeconds: number,
  rowsOf: (p: number) => readonly RenameRow[] = (p) => tallyRows(view, p),
): RenameProgress[] {
  return view.pairs.map((pair, p) =>
    pairProgress(
      view.fields[pair.replaced]!.pointer,
      view.fields[pair.replacement]!.pointer,
      rowsOf(p),
      now,
      windowSeconds,
    ),
  );
}

/** One rename's progress from its rows, summed per producer. */
export function pairProgress(
  field: string,
  replacement: string,
  rows: readonly RenameRow[],
  now: number,
  windowSeconds: number,
): RenameProgress {
  const since = now - windowSeconds * 1000 - 1000; // the live clock is coarse: one tick of slack
  const by = new Map<
    string,
    { records: RenameCounts; writers: Record<string, RenameCounts>; last: number[] }
  >();
  for (const row of rows) {
    let entry = by.get(row.producer);
    if (!entry)
      by.set(
        row.producer,
        (entry = { records: zero(), writers: {}, last: new Array<number>(FORMS).fill(0) }),
      );
    // A row of every writer version (a record past its bound) counts for the producer, not per writer.
    const writer = row.writer === EVERY_WRITER ? zero() : (entry.writers[row.writer] ??= zero());
    for (let f = 0; f < FORMS; f++) {
      const n = row.records[f] ?? 0;
      const form = RENAME_FORMS[f]!;
      entry.records[form] += n;
      writer[form] += n;
      entry.last[f] = Math.max(entry.last[f]!, row.lastAt[f] ?? 0);
    }
  }
  const producers = [...by]
    .filter(([, e]) => RENAME_FORMS.some((form) => e.records[form] > 0))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([producer, e]): RenameProducerProgress => {
      // A writer version with no record of the pair (a row made before the pair was) says nothing.
      const writers = Object.fromEntries(
        Object.entries(e.writers).filter(([, counts]) => RENAME_FORMS.some((form) => counts[form] > 0)),
      );
      const step = stepOf(e.last, since);
      const lastReplaced = Math.max(e.last[0]!, e.last[1]!);
      return {
        producer,
        records: e.records,
        writers,
        step,
        words: stepWords(step, field, replacement, windowSeconds),
        lastReplaced: lastReplaced > 0 ? new Date(lastReplaced).toISOString() : null,
      };
    });
  return { field, replacement, window: formatDuration(windowSeconds), producers };
}

/**
 * Every subject's renames, by subject name (subjects without one left out), each producer's step read
 * over the subject's drain window (`windowOf`, seconds); `rowsOf` as `renameProgress`'s.
 */
export function renamesBySubject(
  views: Iterable<SubjectFieldsView>,
  now: number,
  windowOf: (subject: string) => number,
  rowsOf?: (view: SubjectFieldsView, p: number) => readonly RenameRow[],
): Map<string, RenameProgress[]> {
  const renames = new Map<string, RenameProgress[]>();
  for (const view of views)
    if (view.pairs.length > 0)
      renames.set(
        view.subject,
        renameProgress(view, now, windowOf(view.subject), rowsOf ? (p) => rowsOf(view, p) : undefined),
      );
  return renames;
}
