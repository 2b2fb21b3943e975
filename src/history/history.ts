import type { SubjectFieldsView } from "../fields/tallies.js";
import type { CountedHook, SubjectPipeline } from "../pipeline/pipeline.js";
import type { RecordSeries } from "../pipeline/tallies.js";
import { readHistory, type HistoryJSON } from "./saved.js";
import {
  SubjectHistory,
  type BucketLines,
  type FieldLine,
  type Room,
  type VersionLine,
} from "./subject-history.js";

/** Buckets per drain window: a 7-day window in buckets of 3.5 h, a 1-day one in 30 min. */
export const HISTORY_BUCKETS = 48;
/**
 * Lines kept in all (a (producer, version) or a (producer, field) of a subject): each holds one or two
 * rings of 48 numbers, 0.4 or 0.8 KB, so the history stays under about 1.6 MB (docs/lifecycle.md).
 */
export const MAX_HISTORY_LINES = 2000;

/** One subject's traffic over its drain window, as the page draws it and /api/status serves it. */
export interface HistoryView {
  readonly subject: string;
  readonly bucketMs: number;
  /** The first bucket's start (ms since the epoch); bucket i starts at from + i × bucketMs. */
  readonly from: number;
  /** How many buckets: the last one holds now, and is still filling. */
  readonly buckets: number;
  /** Per (producer, writer version) with records in the window: records per bucket. */
  readonly versions: readonly VersionLine<readonly number[]>[];
  /** Per (producer, field) checked in the window: records checked for it, and those that carried it. */
  readonly fields: readonly FieldLine<readonly number[]>[];
}

export interface HistoryOptions {
  /** Each subject's tracked fields and their counts (the field tallies), folded in at each bucket's end. */
  readonly fields?: (subject: string) => SubjectFieldsView | undefined;
  readonly buckets?: number;
  readonly maxLines?: number;
  /** The monitor's now: the wall clock live, the capture's clock in a replay. */
  readonly now?: () => number;
  /** The `history` section of the state file, when one was saved. */
  readonly saved?: unknown;
}

/**
 * Each subject's traffic over its drain window in time buckets, per producer and writer version and
 * per producer and tracked field: what the status page draws as "who still sends what, since when".
 * A listener of the pipeline (`counted`), given before the field tallies' so that it hears each record
 * first: per record a comparison; for a subject without tracked fields (whose records the field
 * tallies do not count), also a lookup of the record's series. Bounded by `maxLines`;
 * producers are bounded by the pipeline, versions by the catalog and fields by the field tallies.
 */
export class TrafficHistory {
  readonly #subjects = new Map<string, SubjectHistory>();
  readonly #room: Room;
  readonly #buckets: number;
  readonly #fields: (subject: string) => SubjectFieldsView | undefined;
  readonly now: () => number;
  /** Why the saved history could not be read, if it could not (it starts empty then). */
  readonly problem: string | undefined;
  // Consecutive records mostly share their subject and series: the last ones answer without lookups.
  #lastPipeline: SubjectPipeline | undefined;
  #lastState: SubjectHistory | undefined;
  #lastSeries: RecordSeries | undefined;
  #lastLine: VersionLine | null = null;

  constructor(options: HistoryOptions = {}) {
    this.#buckets = options.buckets ?? HISTORY_BUCKETS;
    this.#room = { lines: 0, max: options.maxLines ?? MAX_HISTORY_LINES, dropped: 0 };
    this.#fields = options.fields ?? (() => undefined);
    this.now = options.now ?? Date.now;
    const read = readHistory(options.saved, this.#buckets, this.#room);
    for (const state of read.subjects) this.#subjects.set(state.subject, state);
    this.problem = read.problem;
  }

  /** Records (or field checks) not kept: no room for their line, or older than the ring. */
  get dropped(): number {
    return this.#room.dropped;
  }

  /** Lines kept, against `maxLines`. */
  get lines(): number {
    return this.#room.lines;
  }

  /** Buckets per window. */
  get bucketCount(): number {
    return this.#buckets;
  }

  /** How many lines may be kept in all. */
  get maxLines(): number {
    return this.#room.max;
  }

  /** The pipeline's listener: give it as `counted: [history.listener, fields.listener]`. */
  readonly listener: CountedHook = (pipeline, series, _value, _start, _reason, records) => {
    let state = this.#lastState;
    if (pipeline !== this.#lastPipeline || state === undefined) {
      state = this.#stateOf(pipeline);
      this.#lastPipeline = pipeline;
      this.#lastState = state;
      this.#lastSeries = undefined;
    }
    // The pipeline dates the series before it tells its listeners: its latest observation is this one's.
    const at = series.lastObservedMs;
    if (at >= state.end) {
      state.roll(Math.floor(at / state.bucketMs), this.#fields(state.subject));
    }
    if (state.fromRows) return;
    if (series !== this.#lastSeries) {
      this.#lastSeries = series;
      this.#lastLine = state.lineOf(series);
    }
    state.count(this.#lastLine, at, records);
  };

  /** The subject's history, made (or made again, when its drain window changed) for its pipeline. */
  #stateOf(pipeline: SubjectPipeline): SubjectHistory {
    const name = pipeline.subject.name;
    const bucketMs = Math.max(1, Math.ceil((pipeline.config.drainWindow * 1000) / this.#buckets));
    let state = this.#subjects.get(name);
    const fields = this.#fields(name);
    if (state?.bucketMs !== bucketMs) {
      state?.release();
      state = new SubjectHistory(name, bucketMs, this.#buckets, this.#room);
      this.#subjects.set(name, state);
      // What the field tallies counted before is no bucket's.
      state.fold(fields);
    }
    state.fromRows ??= (fields?.fields.length ?? 0) > 0;
    return state;
  }

  /** A subject's traffic over the window that ends with now's bucket; undefined before its first record. */
  view(subject: string, now = this.now()): HistoryView | undefined {
    const state = this.#subjects.get(subject);
    if (!state || state.newest < 0) return undefined;
    state.fold(this.#fields(subject));
    const last = Math.max(state.newest, Math.floor(now / state.bucketMs));
    const first = last - state.buckets + 1;
    const some = (counts: readonly number[]) => counts.some((n) => n > 0);
    const versions = state.versions
      .map((line) => ({
        producer: line.producer,
        version: line.version,
        records: state.window(line.records, first, last),
      }))
      .filter((line) => some(line.records));
    const fields = state.fields
      .map((line) => ({
        field: line.field,
        producer: line.producer,
        records: state.window(line.records, first, last),
        present: state.window(line.present, first, last),
      }))
      .filter((line) => some(line.records));
    return {
      subject,
      bucketMs: state.bucketMs,
      from: first * state.bucketMs,
      buckets: state.buckets,
      versions,
      fields,
    };
  }

  /**
   * Each subject's ring (`oldest` to `newest`, bucket indexes) with the buckets that may have changed
   * since the last call (all of them at the first), field counts folded first: what the state topic
   * shares, one record per bucket (share.ts).
   */
  *changedBuckets(): Iterable<{
    subject: string;
    bucketMs: number;
    oldest: number;
    newest: number;
    buckets: Array<{ index: number; lines: BucketLines }>;
  }> {
    for (const state of this.#subjects.values()) {
      if (state.newest < 0) continue;
      state.fold(this.#fields(state.subject));
      const buckets = state.changed().map((index) => ({ index, lines: state.bucket(index) }));
      const { subject, bucketMs, newest } = state;
      yield { subject, bucketMs, oldest: newest - state.buckets + 1, newest, buckets };
    }
  }

  /**
   * Takes a bucket this replica's previous run shared through the state topic as its own (its counts
   * are not counted again: this run's tallies start at zero). One of another bucket length (the drain
   * window changed) is left out.
   */
  adopt(subject: string, bucketMs: number, index: number, lines: BucketLines): void {
    let state = this.#subjects.get(subject);
    if (!state)
      this.#subjects.set(subject, (state = new SubjectHistory(subject, bucketMs, this.#buckets, this.#room)));
    if (state.bucketMs === bucketMs) state.add(index, lines);
  }

  /** Every subject's view (for /api/status). */
  views(now = this.now()): HistoryView[] {
    return [...this.#subjects.keys()].flatMap((s) => this.view(s, now) ?? []);
  }

  /**
   * What the state file keeps, with every save (every 10 s and at stop): every subject's ring. At its
   * bound, 2,000 full lines, about 700 KB of JSON made in 3-12 ms (measured).
   */
  toJSON(): HistoryJSON {
    const subjects: HistoryJSON["subjects"][number][] = [];
    for (const state of this.#subjects.values()) {
      if (state.newest < 0) continue;
      state.fold(this.#fields(state.subject));
      const first = state.newest - state.buckets + 1;
      subjects.push({
        subject: state.subject,
        bucketMs: state.bucketMs,
        newest: state.newest,
        versions: state.versions.map((l) => ({
          producer: l.producer,
          version: l.version,
          records: state.window(l.records, first, state.newest),
        })),
        fields: state.fields.map((l) => ({
          producer: l.producer,
          field: l.field,
          records: state.window(l.records, first, state.newest),
          present: state.window(l.present, first, state.newest),
        })),
      });
    }
    return { format: 1, buckets: this.#buckets, subjects };
  }
}
