import { SubjectHistory, type FieldLine, type Room, type VersionLine } from "./subject-history.js";

/** What the state file keeps of the history (its `history` section): each ring, oldest bucket first. */
export interface HistoryJSON {
  readonly format: 1;
  readonly buckets: number;
  readonly subjects: readonly {
    readonly subject: string;
    readonly bucketMs: number;
    /** The newest bucket's index; `records` and `present` end with it. */
    readonly newest: number;
    readonly versions: readonly VersionLine<readonly number[]>[];
    readonly fields: readonly FieldLine<readonly number[]>[];
  }[];
}

const isCounts = (value: unknown, length: number): value is number[] =>
  Array.isArray(value) &&
  value.length === length &&
  value.every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/**
 * The subjects' rings from a saved history, within `room`. Nothing saved, or another bucket count (a
 * history of another build), is an empty history; a malformed one too, with why.
 */
export function readHistory(
  saved: unknown,
  buckets: number,
  room: Room,
): { readonly subjects: SubjectHistory[]; readonly problem?: string } {
  if (saved === undefined) return { subjects: [] };
  if (!isObject(saved) || saved["format"] !== 1 || !Array.isArray(saved["subjects"]))
    return { subjects: [], problem: "the saved history has an unknown format" };
  if (saved["buckets"] !== buckets) return { subjects: [] };
  const subjects: SubjectHistory[] = [];
  // Nothing of a malformed history is kept: the lines already made give their room back.
  const fail = (problem: string) => {
    for (const state of subjects) state.release();
    return { subjects: [], problem };
  };
  for (const s of saved["subjects"] as unknown[]) {
    if (
      !isObject(s) ||
      typeof s["subject"] !== "string" ||
      !Number.isSafeInteger(s["bucketMs"]) ||
      (s["bucketMs"] as number) < 1 ||
      !Number.isSafeInteger(s["newest"]) ||
      (s["newest"] as number) < 0 ||
      !Array.isArray(s["versions"]) ||
      !Array.isArray(s["fields"])
    )
      return fail("a subject of the saved history is malformed");
    const state = new SubjectHistory(s["subject"], s["bucketMs"] as number, buckets, room);
    subjects.push(state);
    const newest = s["newest"] as number;
    state.roll(newest, undefined);
    // Slot of the i-th saved count: the ring's, counted back from the newest bucket.
    const slot = (i: number) => (((newest - buckets + 1 + i) % buckets) + buckets) % buckets;
    const restore = (into: Float64Array | undefined, counts: readonly number[]) => {
      if (into) counts.forEach((n, i) => (into[slot(i)] = n));
    };
    for (const v of s["versions"] as unknown[]) {
      if (!isObject(v) || typeof v["producer"] !== "string" || typeof v["version"] !== "string")
        return fail("a version line of the saved history is malformed");
      if (!isCounts(v["records"], buckets)) return fail("a version line of the saved history has no counts");
      restore(state.versionLine(v["producer"], v["version"])?.records, v["records"]);
    }
    for (const f of s["fields"] as unknown[]) {
      if (!isObject(f) || typeof f["producer"] !== "string" || typeof f["field"] !== "string")
        return fail("a field line of the saved history is malformed");
      if (!isCounts(f["records"], buckets) || !isCounts(f["present"], buckets))
        return fail("a field line of the saved history has no counts");
      const line = state.fieldLine(f["producer"], f["field"]);
      restore(line?.records, f["records"]);
      restore(line?.present, f["present"]);
    }
  }
  return { subjects };
}
