import type { CatalogSubject } from "../catalog/types.js";
import type { FieldsConfig } from "../config/types.js";
import { excluded } from "./configured.js";
import { fieldsOfInterest, type FieldOfInterest } from "./interest.js";
import type { RenamePair } from "./rename.js";
import type { FieldRow } from "./tallies.js";

/**
 * Which tracked fields a reloaded `fields` block keeps (true) and which leave (false): a field leaves
 * when the old block added it and the new one does not name it, nor do the schemas make it one of
 * interest, or when the new block excludes it. A field the schemas alone made one of interest stays
 * tracked when they no longer do (counters never go back), as after a catalog reload.
 */
export function keptFields(
  fields: readonly FieldOfInterest[],
  subject: CatalogSubject,
  before: FieldsConfig | undefined,
  after: FieldsConfig | undefined,
): boolean[] {
  const named = new Set(
    fieldsOfInterest(subject.versions, Number.MAX_SAFE_INTEGER, after, subject.format.fields).fields.map(
      (f) => f.pointer,
    ),
  );
  return fields.map(
    (f) =>
      named.has(f.pointer) ||
      (!(before?.add.includes(f.pointer) ?? false) && !excluded(f.pointer, after?.exclude ?? [])),
  );
}

/** Leaves out the columns of the fields that leave, in every row, in place (rows are shared by identity). */
export function dropColumns(rows: readonly FieldRow[], keep: readonly boolean[]): void {
  for (const row of rows)
    for (const counts of [
      row.present,
      row.absent,
      row.unknown,
      row.lastPresentAt,
      row.lastAbsentAt,
      row.lastUnknownAt,
    ]) {
      const left = counts.filter((_, i) => keep[i]);
      counts.length = 0;
      counts.push(...left);
    }
}

/** The rename pairs' indexes once the fields that leave are gone (a rename's fields always stay). */
export function movedPairs(
  pairs: readonly RenamePair[],
  before: readonly FieldOfInterest[],
  after: readonly FieldOfInterest[],
): RenamePair[] {
  const at = (index: number) => after.findIndex((f) => f.pointer === before[index]!.pointer);
  return pairs.map((p) => ({ replaced: at(p.replaced), replacement: at(p.replacement) }));
}
