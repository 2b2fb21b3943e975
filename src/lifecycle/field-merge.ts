import type { FieldBucket, FieldUse, TrackedField } from "./field-evidence.js";

// A field's uses as they come from elsewhere, another replica or a saved state: read only when they
// read as uses, and several replicas' views judged as one.

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** When a use last lacked the field or could not be read for it: what ends its streak (ms; 0: never). */
const lastMissing = (use: FieldUse) => Math.max(use.lastAbsentAt, use.lastUnknownAt);

/** When any of a replica's uses last missed the field: what ends its streaks (ms; 0: never). */
export const lastMissingOf = (uses: readonly FieldUse[]) => Math.max(0, ...uses.map(lastMissing));

/**
 * The uses of one field seen by several replicas, judged as one, per producer and writer version.
 * Last times merge by max, so a record any replica saw carry, lack or fail the field counts; bucket
 * counts add up by bucket start. The streak of records carrying it since the last that did not: a
 * replica's records cannot be ordered against another's, so after a miss only the streaks of the
 * replica whose miss (of any producer) came last count, a use's shortest where replicas tie; another
 * replica's records may all have come before that miss, and count nothing. With no miss anywhere, the
 * streaks add up.
 */
export function mergeFieldUses(views: ReadonlyArray<readonly FieldUse[]>): FieldUse[] {
  const missedAt = Math.max(0, ...views.map(lastMissingOf));
  const groups = new Map<string, Array<{ use: FieldUse; last: boolean }>>();
  for (const view of views) {
    const last = lastMissingOf(view) === missedAt;
    for (const use of view) {
      const key = `${use.producer}\u0000${use.writer}`;
      const list = groups.get(key) ?? [];
      list.push({ use, last });
      groups.set(key, list);
    }
  }
  const merged: FieldUse[] = [];
  for (const entries of groups.values()) {
    const list = entries.map((e) => e.use);
    const buckets = new Map<number, FieldBucket>();
    for (const use of list)
      for (const b of use.buckets) {
        const into = buckets.get(b.start);
        if (!into) buckets.set(b.start, { ...b });
        else {
          into.present += b.present;
          into.absent += b.absent;
          into.unknown += b.unknown;
        }
      }
    const since = entries.filter((e) => e.last).map((e) => e.use.presentSinceMissing);
    merged.push({
      producer: list[0]!.producer,
      writer: list[0]!.writer,
      lastPresentAt: Math.max(...list.map((u) => u.lastPresentAt)),
      lastAbsentAt: Math.max(...list.map((u) => u.lastAbsentAt)),
      lastUnknownAt: Math.max(...list.map((u) => u.lastUnknownAt)),
      presentSinceMissing:
        missedAt === 0
          ? list.reduce((n, u) => n + u.presentSinceMissing, 0)
          : since.length === 0
            ? 0
            : Math.min(...since),
      buckets: [...buckets.values()].sort((a, b) => a.start - b.start),
    });
  }
  return merged.sort((a, b) => a.producer.localeCompare(b.producer) || a.writer.localeCompare(b.writer));
}

/** A use as the state topic carries it (without its field, which the record's key names). */
export function isSharedUse(v: unknown): v is FieldUse {
  return isFieldUse({ ...(v as object), field: "" });
}

export function isTrackedField(v: unknown): v is TrackedField {
  const f = v as Partial<TrackedField> | null;
  return (
    typeof f === "object" &&
    f !== null &&
    typeof f.pointer === "string" &&
    Array.isArray(f.deprecatedIn) &&
    (f.optionalIn === undefined || typeof f.optionalIn === "string")
  );
}

export function isFieldUse(v: unknown): v is FieldUse & { readonly field: string } {
  const u = v as Partial<FieldUse & { field: string }> | null;
  return (
    typeof u === "object" &&
    u !== null &&
    typeof u.field === "string" &&
    typeof u.producer === "string" &&
    typeof u.writer === "string" &&
    isNumber(u.lastPresentAt) &&
    isNumber(u.lastAbsentAt) &&
    isNumber(u.lastUnknownAt) &&
    isNumber(u.presentSinceMissing) &&
    Array.isArray(u.buckets) &&
    u.buckets.every(
      (b: Partial<FieldBucket> | null) =>
        typeof b === "object" &&
        b !== null &&
        isNumber(b.start) &&
        isNumber(b.present) &&
        isNumber(b.absent) &&
        isNumber(b.unknown),
    )
  );
}
