import { formatDuration } from "../config/duration.js";
import { zeroFailureUpperBound } from "./evidence.js";
import {
  bucketWidth,
  CLOCK_TICK_MS,
  type FieldEvidence,
  type FieldUse,
  type TrackedField,
} from "./field-evidence.js";
import { lastMissingOf } from "./field-merge.js";
import { producerShares, type FieldProducerShare } from "./field-shares.js";
import type { LifecycleSubject } from "./lifecycle.js";
import type { Observation } from "./observation.js";
import { ago, coverageFor, iso, type Verdict } from "./verdicts.js";

export type { FieldProducerShare } from "./field-shares.js";

/**
 * A deprecated field's drain (`kind` "drained") or an optional field's readiness to be required
 * (`kind` "ready"), with the version it is about: the newest that deprecates it, or the newest active
 * in which it is optional.
 */
export interface FieldVerdict extends Verdict {
  readonly field: string;
  readonly fieldKind: "deprecated" | "optional";
  readonly version: string;
  /** Per producer that sent records in the window, by name. */
  readonly producers: FieldProducerShare[];
}

/** A share as a person reads it: never "0%" for some, nor "100%" for not all. */
export function percent(part: number, whole: number): string {
  if (whole === 0) return "0%";
  const share = (part / whole) * 100;
  if (part > 0 && share < 1) return "<1%";
  if (part < whole && share > 99) return ">99%";
  return `${Math.round(share)}%`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
/** Records of a producer; `unknown` is the pipeline's name for none read (an undecodable batch's). */
const recordsOf = (n: number, producer: string) =>
  producer === "unknown"
    ? `${plural(n, "record")} of no known producer`
    : `${plural(n, "record")} of ${producer}`;

/** The longer of a subject's windows, ms: how far back its field buckets go. */
export function fieldWindowMs(s: LifecycleSubject): number {
  return Math.max(s.drainWindow, s.readyWindow) * 1000;
}

/** From when a field's evidence is whole, and why it begins then. */
export interface FieldsSince {
  readonly at: number;
  /** Set when it is the group's: a replica that does not share its field evidence read records. */
  readonly group?: boolean;
}

/**
 * Field evidence younger than the coverage: the monitor started without saved field evidence (a state
 * file written before it did), began to track the field, or shares a state topic with a replica that
 * does not share its field evidence, so records went unchecked though the partitions count as
 * observed. Said only when the coverage alone would not withhold the verdict already.
 */
function evidenceBegins(
  fieldsSince: FieldsSince,
  coveredSince: number | null,
  windowMs: number,
  now: number,
): string[] {
  const at = fieldsSince.at;
  if (at <= now - windowMs || coveredSince === null || coveredSince >= at) return [];
  const why = fieldsSince.group
    ? "when a replica that does not share its field evidence through the state topic was last heard of"
    : "when this monitor started without saved field evidence or began to track the field";
  return [`field evidence begins at ${iso(at)}, ${why}: the window completes at ${iso(at + windowMs)}`];
}

const lastOf = (uses: readonly FieldUse[], producer: string, pick: (u: FieldUse) => number) =>
  Math.max(0, ...uses.filter((u) => u.producer === producer).map(pick));

/** What a verdict waits on in the records: a deprecated field still sent, an optional one still omitted. */
const SIDES = {
  deprecated: { count: "present", last: "lastPresentAt", does: "sends", may: "carry" },
  optional: { count: "absent", last: "lastAbsentAt", does: "omits", may: "lack" },
} as const;

/**
 * Per producer, within the window: who still sends (or omits) the field, with its share, and whose
 * records could not be read for it (they may carry, or lack, it); `unknownRecords` counts the latter.
 */
function producerReasons(
  side: keyof typeof SIDES,
  pointer: string,
  uses: readonly FieldUse[],
  producers: FieldVerdict["producers"],
  since: number,
  now: number,
): { holding: string[]; unreadable: string[]; unknownRecords: number } {
  const { count, last, does, may } = SIDES[side];
  const holding: string[] = [];
  const unreadable: string[] = [];
  let unknownRecords = 0;
  for (const p of producers) {
    const lastSeen = lastOf(uses, p.producer, (u) => u[last]);
    if (lastSeen >= since)
      holding.push(
        `${p.producer} still ${does} ${pointer} in ${percent(p[count], p.records)} of its records (${p[count]} of ${p.records} in the last ${p.over}; writer ${p.writers.join(", ") || "unknown"}), the last one ${ago(now, lastSeen)}`,
      );
    const lastUnknown = lastOf(uses, p.producer, (u) => u.lastUnknownAt);
    if (lastUnknown >= since && p.unknown > 0) {
      unknownRecords += p.unknown;
      unreadable.push(
        `${recordsOf(p.unknown, p.producer)} could not be read in the last ${p.over}, the last one ${ago(now, lastUnknown)}: they may ${may} ${pointer}`,
      );
    }
  }
  return { holding, unreadable, unknownRecords };
}

/**
 * Drained: no record carried the field for the whole drain window, none could not be read (it may
 * have carried it), and every partition was observed throughout: a version's drain, field by field.
 */
export function judgeDeprecatedField(
  s: LifecycleSubject,
  field: TrackedField,
  uses: readonly FieldUse[],
  observed: Observation,
  now: number,
  fieldsSince: FieldsSince = { at: Number.NEGATIVE_INFINITY },
): FieldVerdict {
  const windowMs = s.drainWindow * 1000;
  const window = formatDuration(s.drainWindow);
  const coverage = coverageFor(s, observed, windowMs, now);
  // The live clock is coarse (it ticks, rather than being read per record): allow for one tick.
  const since = now - windowMs - CLOCK_TICK_MS;
  const producers = producerShares(uses, "present", since, bucketWidth(fieldWindowMs(s)), now, window);
  let lastCarried = 0;
  let lastCarriedBy: string | null = null;
  for (const use of uses)
    if (use.lastPresentAt > lastCarried) {
      lastCarried = use.lastPresentAt;
      lastCarriedBy = use.producer;
    }
  const { holding, unreadable, unknownRecords } = producerReasons(
    "deprecated",
    field.pointer,
    uses,
    producers,
    since,
    now,
  );
  const reasons = [
    ...holding,
    ...unreadable,
    ...coverage.reasons,
    ...evidenceBegins(fieldsSince, coverage.coveredSince, windowMs, now),
  ];
  return {
    kind: "drained",
    yes: reasons.length === 0,
    reasons,
    field: field.pointer,
    fieldKind: "deprecated",
    version: field.deprecatedIn[field.deprecatedIn.length - 1] ?? "",
    producers,
    evidence: {
      window,
      coveredSince: coverage.coveredSince === null ? null : iso(coverage.coveredSince),
      partitions: coverage.partitions,
      lastCarried: lastCarried ? iso(lastCarried) : null,
      lastCarriedBy,
      records: producers.reduce((n, p) => n + p.records, 0),
      unknownRecords,
    },
  };
}

/**
 * Ready to require: every producer sent the field in every record for the whole ready window (none
 * lacked it, none could not be read), every partition was observed throughout, and at least
 * `minSamples` records carried it since the last that did not.
 */
export function judgeOptionalField(
  s: LifecycleSubject,
  field: TrackedField,
  uses: readonly FieldUse[],
  observed: Observation,
  now: number,
  fieldsSince: FieldsSince = { at: Number.NEGATIVE_INFINITY },
): FieldVerdict {
  const windowMs = s.readyWindow * 1000;
  const window = formatDuration(s.readyWindow);
  const coverage = coverageFor(s, observed, windowMs, now);
  const since = now - windowMs - CLOCK_TICK_MS;
  const producers = producerShares(uses, "absent", since, bucketWidth(fieldWindowMs(s)), now, window);
  const { holding, unreadable } = producerReasons("optional", field.pointer, uses, producers, since, now);
  // Records since the last that lacked the field, of any producer: a use whose last record came
  // before that miss adds nothing, whatever it counted since a miss of its own. A record observed in
  // the miss's own tick of the clock (250 ms) may count: a fold that holds a miss ends every
  // producer's streak (field-evidence.ts), so what a use counted since came in a later fold.
  const missedAt = lastMissingOf(uses);
  const streak = uses.reduce((n, u) => (u.lastPresentAt >= missedAt ? n + u.presentSinceMissing : n), 0);
  const reasons = [
    ...holding,
    ...unreadable,
    ...coverage.reasons,
    ...evidenceBegins(fieldsSince, coverage.coveredSince, windowMs, now),
  ];
  if (streak < s.minSamples)
    reasons.push(
      `${plural(streak, "record")} carried ${field.pointer} since the last that lacked it; ${s.minSamples} needed`,
    );
  return {
    kind: "ready",
    yes: reasons.length === 0,
    reasons,
    field: field.pointer,
    fieldKind: "optional",
    version: field.optionalIn ?? "",
    producers,
    evidence: {
      window,
      coveredSince: coverage.coveredSince === null ? null : iso(coverage.coveredSince),
      partitions: coverage.partitions,
      records: producers.reduce((n, p) => n + p.records, 0),
      recordsSinceMissing: streak,
      lackingBound95: zeroFailureUpperBound(streak),
    },
  };
}

/**
 * Every tracked field's verdict, keyed `subject \0 pointer`: a field some version deprecates is judged
 * for its drain (even where it is optional too: removal is what it waits for), another optional one
 * for being required.
 */
export function judgeFields(
  subjects: Iterable<LifecycleSubject>,
  evidence: FieldEvidence,
  observed: Observation,
  now: number,
  fieldsSince = Number.NEGATIVE_INFINITY,
): Map<string, FieldVerdict> {
  const verdicts = new Map<string, FieldVerdict>();
  for (const s of subjects) {
    const name = s.subject.name;
    for (const field of evidence.fieldsOf(name)) {
      const own = evidence.usesOf(name, field.pointer);
      const shared = observed.world.fieldUses?.(name, field.pointer, own);
      const uses = shared?.uses ?? own;
      const ownSince = Math.max(
        fieldsSince,
        evidence.trackedSince(name, field.pointer),
        shared?.trackedSince ?? Number.NEGATIVE_INFINITY,
      );
      const group = observed.world.fieldsSince?.() ?? Number.NEGATIVE_INFINITY;
      const since: FieldsSince = group > ownSince ? { at: group, group: true } : { at: ownSince };
      const verdict =
        field.deprecatedIn.length > 0
          ? judgeDeprecatedField(s, field, uses, observed, now, since)
          : field.optionalIn !== undefined
            ? judgeOptionalField(s, field, uses, observed, now, since)
            : undefined;
      if (verdict) verdicts.set(`${name}\u0000${field.pointer}`, verdict);
    }
  }
  return verdicts;
}
