import { mergeSketch, newSketch, quantile } from "./sketch.js";
import type { Sketch } from "./series.js";
import type { StatsStore } from "./store.js";

/** A subject's field quartiles over the statistics' buckets, as the page draws them and /api/status serves them. */
export interface QuartileHistory {
  readonly subject: string;
  readonly bucketMs: number;
  /** The first bucket's start (ms since the epoch); bucket i starts at from + i × bucketMs. */
  readonly from: number;
  /** How many buckets: the statistics' ring; the last holds now. */
  readonly buckets: number;
  /** Per (field, producer, measure) with values in the window, writer versions together. */
  readonly lines: readonly QuartileLine[];
}

export interface QuartileLine {
  readonly field: string;
  readonly producer: string;
  /** `value` for a number field, `length` for a string field's lengths. */
  readonly measure: "value" | "length";
  /** Values per bucket. */
  readonly count: readonly number[];
  /** The lower, middle and upper quartile per bucket (within the sketch's 1%); null without values. */
  readonly p25: readonly (number | null)[];
  readonly p50: readonly (number | null)[];
  readonly p75: readonly (number | null)[];
}

/**
 * Per profiled number or length field and producer of a subject, the quartiles of each bucket of the
 * statistics' window ending with now's; a producer's writer versions are merged as the gauges merge
 * them. Read only: a series' sketch is merged into a new one, never changed.
 */
export function quartilesOverTime(store: StatsStore, subject: string, now: number): QuartileHistory {
  const { bucketMs, buckets } = store.options;
  const last = Math.floor(now / bucketMs);
  const first = last - buckets + 1;
  const byLine = new Map<
    string,
    {
      key: Omit<QuartileLine, "count" | "p25" | "p50" | "p75">;
      sketches: (Sketch | undefined)[];
      owned: boolean[];
    }
  >();
  for (const series of store.all()) {
    if (series.subject !== subject || series.kind === "values") continue;
    const measure = series.kind === "length" ? ("length" as const) : ("value" as const);
    const id = `${series.field}\0${series.producer}\0${measure}`;
    let line = byLine.get(id);
    if (!line) {
      line = {
        key: { field: series.field, producer: series.producer, measure },
        sketches: new Array<Sketch | undefined>(buckets).fill(undefined),
        owned: new Array<boolean>(buckets).fill(false),
      };
      byLine.set(id, line);
    }
    for (const bucket of series.buckets()) {
      if (bucket.index < first || bucket.index > last || !bucket.sketch || bucket.sketch.count === 0)
        continue;
      const i = bucket.index - first;
      const held = line.sketches[i];
      if (held === undefined) line.sketches[i] = bucket.sketch;
      else {
        // A second writer version in the bucket: merged into a sketch of this view's own.
        const into = line.owned[i] ? held : newSketch();
        if (!line.owned[i]) mergeSketch(into, held);
        mergeSketch(into, bucket.sketch);
        line.sketches[i] = into;
        line.owned[i] = true;
      }
    }
  }
  const lines: QuartileLine[] = [];
  for (const { key, sketches } of byLine.values()) {
    if (sketches.every((s) => s === undefined)) continue;
    // Within the sketch's 1%, four significant digits say all it knows.
    const at = (q: number) =>
      sketches.map((s) => (s === undefined ? null : Number(quantile(s, q).toPrecision(4))));
    lines.push({
      ...key,
      count: sketches.map((s) => s?.count ?? 0),
      p25: at(0.25),
      p50: at(0.5),
      p75: at(0.75),
    });
  }
  lines.sort(
    (a, b) => compare(a.field, b.field) || compare(a.producer, b.producer) || compare(a.measure, b.measure),
  );
  return { subject, bucketMs, from: first * bucketMs, buckets, lines };
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
