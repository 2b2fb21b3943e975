import { formatDuration } from "../config/duration.js";
import { reachesWindow, type FieldUse } from "./field-evidence.js";
import { iso } from "./verdicts.js";

// Each producer's share of records that carried (or lacked) a field, over the verdict's own window.
// A field's buckets are a twelfth of the subject's longer window wide (field-evidence.ts), so beside
// a 7d ready window a 20s drain window lies inside one 14h bucket: summing the buckets the window
// touches would give that bucket's share, hours of it from before the window. What is exact is the
// last time of each kind of record: a kind whose last record came before the window had none in it.

/** One producer's records over a field verdict's window (summed over its writer versions). */
export interface FieldProducerShare {
  readonly producer: string;
  /** Records of this producer checked for the field over `over` (the window's, when `exact`). */
  readonly records: number;
  readonly present: number;
  readonly absent: number;
  readonly unknown: number;
  /** The writer versions a record of the window carried the field in (deprecated) or lacked it in (optional). */
  readonly writers: string[];
  /** When its last record carried the field, lacked it, could not be read (ISO; null: never). */
  readonly lastPresent: string | null;
  readonly lastAbsent: string | null;
  readonly lastUnknown: string | null;
  /**
   * What the counts cover, as a duration: the verdict's window when `exact`; else the time since the
   * start of the oldest bucket they include, which began before the window (rounded up: never less
   * than they cover).
   */
  readonly over: string;
  /** Whether every record counted came in the window (to within one fold of the tallies into buckets). */
  readonly exact: boolean;
  /**
   * Which kinds of record came in the window: read from the last such record's time, so exact
   * whatever the buckets (a verdict waits on `present` of a deprecated field, `absent` of an optional one).
   */
  readonly inWindow: Readonly<Record<Kind, boolean>>;
}

/** Which kind of record a verdict waits on: a deprecated field's carriers, an optional field's omitters. */
export type FieldSide = "present" | "absent";

const KINDS = ["present", "absent", "unknown"] as const;
type Kind = (typeof KINDS)[number];
type Counts = Record<Kind, number>;
const LAST = { present: "lastPresentAt", absent: "lastAbsentAt", unknown: "lastUnknownAt" } as const;

const UNITS = [86400, 3600, 60, 1];

/** A span, ms, as a duration of two units at most, rounded up to the smaller: 7d9h12m → `7d10h`. */
export function spanText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const first = UNITS.findIndex((u) => seconds >= u);
  const step = UNITS[Math.min(first + 1, UNITS.length - 1)]!;
  return formatDuration(Math.ceil(seconds / step) * step);
}

/** A window's counts of one producer: `narrow` only from kinds with a record in it, `wide` every bucket touched. */
interface Tally {
  readonly narrow: Counts;
  readonly wide: Counts;
  /** A kind counted in `narrow` holds records of a bucket that began before the window. */
  straddles: boolean;
  /** The start of the oldest bucket touched, ms. */
  from: number;
  readonly writers: string[];
}

function tallyUse(use: FieldUse, side: FieldSide, since: number, width: number, into: Tally): void {
  const inWindow = (kind: Kind) => use[LAST[kind]] >= since;
  for (const b of use.buckets) {
    if (!reachesWindow(b, since, width)) continue;
    into.from = Math.min(into.from, b.start);
    for (const kind of KINDS) {
      into.wide[kind] += b[kind];
      if (!inWindow(kind)) continue;
      into.narrow[kind] += b[kind];
      if (b.start < since && b[kind] > 0) into.straddles = true;
    }
  }
  if (inWindow(side)) into.writers.push(use.writer);
}

const zeros = (): Counts => ({ present: 0, absent: 0, unknown: 0 });

/**
 * Per producer with a record in the window (by the records' own times), its counts over the window:
 * exact when every bucket that holds a record of the window began in it, else over the whole buckets
 * touched, which reach back before the window, with `over` saying how far. `since`: the window's
 * start (ms); `width`: the buckets' (ms); `window`: the window as the verdict names it.
 */
export function producerShares(
  uses: readonly FieldUse[],
  side: FieldSide,
  since: number,
  width: number,
  now: number,
  window: string,
): FieldProducerShare[] {
  const by = new Map<string, FieldUse[]>();
  for (const use of uses) by.set(use.producer, [...(by.get(use.producer) ?? []), use]);
  const shares: FieldProducerShare[] = [];
  for (const [producer, list] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    const tally: Tally = { narrow: zeros(), wide: zeros(), straddles: false, from: since, writers: [] };
    for (const use of list) tallyUse(use, side, since, width, tally);
    const last = (kind: Kind) => Math.max(0, ...list.map((u) => u[LAST[kind]]));
    // No record of it in the window: every kind's last one came before.
    if (tally.narrow.present + tally.narrow.absent + tally.narrow.unknown === 0) continue;
    // A bucket begun before the window holds records of it: the buckets cannot tell which, so the
    // counts are the whole buckets', every kind alike (their shares then hold over that longer span).
    const counts = tally.straddles ? tally.wide : tally.narrow;
    const lastAt = (kind: Kind) => (last(kind) ? iso(last(kind)) : null);
    shares.push({
      producer,
      records: counts.present + counts.absent + counts.unknown,
      ...counts,
      writers: tally.writers,
      lastPresent: lastAt("present"),
      lastAbsent: lastAt("absent"),
      lastUnknown: lastAt("unknown"),
      over: tally.straddles ? spanText(now - tally.from) : window,
      exact: !tally.straddles,
      inWindow: {
        present: last("present") >= since,
        absent: last("absent") >= since,
        unknown: last("unknown") >= since,
      },
    });
  }
  return shares;
}
