import type { SeriesKey } from "./store.js";

/** What the tests of field statistics find, and how a finding is said. */

export interface ShiftOptions {
  /** The least ratio of every quartile (default 10; cents to dollars is 100). */
  readonly factor: number;
  /** Values needed on each side (default 50). */
  readonly minSamples: number;
  /** A bucket's length in ms, to say when a change began. */
  readonly bucketMs: number;
  /** What the sketches hold: a number field's values (the default) or a string field's lengths. */
  readonly measure?: "value" | "length";
}

/** How a change by `ratio` (after / before) is said, and what to check. */
export function changeWords(
  ratio: number,
  measure: ShiftOptions["measure"],
): { times: string; check: string } {
  const length = measure === "length";
  const [up, down] = length ? ["longer", "shorter"] : ["larger", "smaller"];
  const times = ratio >= 1 ? `${roundFactor(ratio)} times ${up}` : `${roundFactor(1 / ratio)} times ${down}`;
  return { times, check: length ? "check what it carries" : "check its unit" };
}

export type Quartiles = readonly [q1: number, median: number, q3: number];

export interface ScaleFinding extends SeriesKey {
  readonly kind: "scale";
  /** What the sketches held: a number field's values, or a string field's lengths. */
  readonly measure: "value" | "length";
  /** The start (ms) of the bucket the change began in. */
  readonly since: number;
  readonly before: Quartiles;
  readonly after: Quartiles;
  readonly samplesBefore: number;
  readonly samplesAfter: number;
  /** after / before of the median: above 1 larger, below 1 smaller. */
  readonly factor: number;
  readonly message: string;
}

export interface PeerFinding extends SeriesKey {
  readonly kind: "peers";
  /** What the sketches held: a number field's values, or a string field's lengths. */
  readonly measure: "value" | "length";
  /** The start (ms) of the bucket from which on the producer differs. */
  readonly since: number;
  /** The other producers' quartiles, and this producer's, over the same buckets. */
  readonly peers: Quartiles;
  readonly own: Quartiles;
  readonly samplesPeers: number;
  readonly samplesOwn: number;
  /** own / peers of the median. */
  readonly factor: number;
  readonly message: string;
}

export interface ShareFinding extends SeriesKey {
  readonly kind: "share";
  readonly since: number;
  readonly value: string;
  /** The value's share of the producer's values before and since (0 to 1), and how many values each held. */
  readonly shareBefore: number;
  readonly shareAfter: number;
  readonly samplesBefore: number;
  readonly samplesAfter: number;
  readonly message: string;
}

export interface ValueFinding extends SeriesKey {
  readonly kind: "new-value";
  readonly since: number;
  readonly value: string;
  /** How often the new value came since, and how many values the past held without it. */
  readonly count: number;
  readonly samplesBefore: number;
  readonly message: string;
}

export type Finding = ScaleFinding | PeerFinding | ValueFinding | ShareFinding;

export const keyOf = (key: SeriesKey): SeriesKey => ({
  subject: key.subject,
  field: key.field,
  producer: key.producer,
  writer: key.writer,
});

/** A factor as people say it: a power of ten when within the sketch's error of one, else 2 digits. */
export function roundFactor(factor: number): string {
  const power = Math.round(Math.log10(factor));
  if (Math.abs(factor / 10 ** power - 1) < 0.03) return (10 ** power).toLocaleString("en-US");
  return Number(factor.toPrecision(2)).toLocaleString("en-US");
}

/** A bucket's start as `2026-12-04 14:00 UTC` (with seconds when buckets are shorter than minutes). */
export function clock(ms: number): string {
  return (
    new Date(ms)
      .toISOString()
      .slice(0, ms % 60_000 === 0 ? 16 : 19)
      .replace("T", " ") + " UTC"
  );
}

export const quote = (value: string): string =>
  JSON.stringify(value.length > 40 ? value.slice(0, 40) + "…" : value);
