import { FORMS } from "./rename.js";
import type { SubjectFieldsView } from "./tallies.js";

// A rename's counts as rows that outlive the process and travel between replicas: read from the
// tallies, saved in the state file, published in the state topic, and merged when the report reads
// them. Pure: no I/O, no clock.

/**
 * One producer's and writer version's records of one rename: per form (`RENAME_FORMS`: old, both,
 * new, neither, unknown) the records counted, and when a record last took it (ms; 0: never).
 */
export interface RenameRow {
  readonly producer: string;
  readonly writer: string;
  readonly records: readonly number[];
  readonly lastAt: readonly number[];
}

/**
 * The writer of a row that sums every writer version of its producer: a record past the bound
 * (`boundRows`) keeps each producer's counts and times exact, not their split by writer version.
 */
export const EVERY_WRITER = "*";

/** The rows of pair `p` of a subject's tallies, copied (the tallies keep counting). */
export function tallyRows(view: SubjectFieldsView, p: number): RenameRow[] {
  return view.rows.map((row) => ({
    producer: row.labels.producer,
    writer: row.labels.writer_version,
    records: formsOf(row.renames, p),
    lastAt: formsOf(row.renameLastAt, p),
  }));
}

const formsOf = (values: readonly number[], p: number) =>
  Array.from({ length: FORMS }, (_, f) => values[p * FORMS + f] ?? 0);

/**
 * Several views of one rename as one: the rows of a producer and writer version add their records
 * and take the latest time of each form. Each view is one replica's (or one run's) own count, never
 * another's copy, so adding counts nothing twice. In the order rows are first met.
 */
export function mergeRows(views: Iterable<readonly RenameRow[]>): RenameRow[] {
  const merged = new Map<string, { producer: string; writer: string; records: number[]; lastAt: number[] }>();
  for (const rows of views)
    for (const row of rows) {
      const id = `${row.producer}\u0000${row.writer}`;
      const into = merged.get(id);
      if (!into) {
        merged.set(id, { ...row, records: [...row.records], lastAt: [...row.lastAt] });
        continue;
      }
      for (let f = 0; f < FORMS; f++) {
        into.records[f]! += row.records[f]!;
        into.lastAt[f] = Math.max(into.lastAt[f]!, row.lastAt[f]!);
      }
    }
  return [...merged.values()];
}

const isCount = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;
const isTime = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0;
const isForms = (v: unknown, is: (n: unknown) => boolean): v is number[] =>
  Array.isArray(v) && v.length === FORMS && v.every(is);

/**
 * Rows as saved or published (`[{producer, writer, records: [5 counts], lastAt: [5 ms]}]`), or
 * undefined when any of them is not a readable one: a name that is no string, a count that is not a
 * count, not five of either.
 */
export function readRows(value: unknown): RenameRow[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const rows: RenameRow[] = [];
  for (const v of value) {
    if (typeof v !== "object" || v === null) return undefined;
    const { producer, writer, records, lastAt } = v as Record<string, unknown>;
    if (typeof producer !== "string" || typeof writer !== "string") return undefined;
    if (!isForms(records, isCount) || !isForms(lastAt, isTime)) return undefined;
    rows.push({ producer, writer, records: [...records], lastAt: [...lastAt] });
  }
  return rows;
}

/** What `boundRows` kept of rows whose JSON passed its bound. */
export interface BoundRows {
  readonly rows: readonly RenameRow[];
  /** Writer versions summed per producer (`EVERY_WRITER`). */
  readonly folded: boolean;
  /** Producers left out, those whose last record is the oldest, when folding was not enough. */
  readonly leftOut: number;
}

/**
 * Rows whose JSON fits in `maxBytes`: as they are when they fit; else each producer's writer versions
 * summed into one row (its counts and step stay exact); else, on top, the producers whose last record
 * is the oldest left out until the rest fit (thousands of producers: beyond `producer.maxValues`'s
 * default 50 by far).
 */
export function boundRows(rows: readonly RenameRow[], maxBytes: number): BoundRows {
  if (bytesOf(rows) <= maxBytes) return { rows, folded: false, leftOut: 0 };
  const folded = mergeRows([rows.map((r) => ({ ...r, writer: EVERY_WRITER }))]);
  let bytes = bytesOf(folded);
  if (bytes <= maxBytes) return { rows: folded, folded: true, leftOut: 0 };
  const latest = (r: RenameRow) => Math.max(...r.lastAt);
  const kept = [...folded].sort((a, b) => latest(b) - latest(a));
  let leftOut = 0;
  while (kept.length > 0 && bytes > maxBytes) {
    bytes -= Buffer.byteLength(JSON.stringify(kept.pop())) + 1;
    leftOut++;
  }
  return { rows: kept, folded: true, leftOut };
}

/** The bytes of `rows` as a JSON array. */
export const bytesOf = (rows: readonly RenameRow[]): number => Buffer.byteLength(JSON.stringify(rows));
