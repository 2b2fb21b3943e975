import { EARLIEST_CREDIBLE_MS, MAX_CLOCK_AHEAD_MS } from "../pipeline/clock.js";

/**
 * Why a capture record's timestamp was not believed: it has none, it is not a timestamp (another type,
 * or out of the range of a date, as 9e15), it is before 2000 (Kafka's -1, a producer clock at 1970), it
 * is after the time the capture is replayed, it is behind the capture's clock by more than 5 minutes,
 * or it jumps more than 5 minutes ahead of the clock (or starts it) and the next record does not
 * confirm it.
 */
export type TimestampDoubt =
  "missing" | "unreadable" | "before_2000" | "in_the_future" | "out_of_order" | "unconfirmed";

export const TIMESTAMP_DOUBTS: readonly TimestampDoubt[] = [
  "missing",
  "unreadable",
  "before_2000",
  "in_the_future",
  "out_of_order",
  "unconfirmed",
];

/** A record timestamp as the capture holds it: milliseconds, or why it is none. */
export type CaptureTimestamp = number | "missing" | "unreadable";

/** Records that wait for the clock to start before it starts at the time of the replay instead. */
const MAX_WAITING = 1000;

interface Entry<T> {
  readonly item: T;
  /** The timestamp, when it is one the clock may believe. */
  readonly at: number | undefined;
  readonly line: number;
}

/**
 * A replayed capture's clock: when each record counts as observed, decided in the capture's own order so
 * that no timestamp moves a verdict's window past the capture's own traffic. The rule:
 *
 * - the clock never goes back: a record is observed at the newest believed timestamp before it or its
 *   own, whichever is later (a record stamped 400 days ago at the end of a capture is observed at its
 *   end);
 * - a timestamp that is missing, unreadable, before 2000 or after the replay's own time (+5 minutes) is
 *   not believed: its record is observed at the clock;
 * - a timestamp more than 5 minutes ahead of the clock moves it only when the next record's timestamp
 *   is no more than 5 minutes before it: the traffic carries on from there. Otherwise (one record
 *   stamped 2100 among today's, or the last record of the capture) its record is observed at the
 *   clock;
 * - the clock starts at the first timestamp that the next record's is within 5 minutes of, either way
 *   (nothing before it vouches for a gap after it); records before are observed when it starts. A
 *   record stamped exactly as the one it would confirm says nothing of it (one reading read twice):
 *   a run of records with the same false timestamp neither starts the clock nor moves it. If it
 *   has not started after 1000 records, or by the end, it starts at the time of the replay: nothing in
 *   the capture says when its records were read, and no window passes within it.
 *
 * Each doubted timestamp is counted by reason (`onDoubt`); behind the clock by up to 5 minutes is
 * ordinary (partitions interleave, producers' clocks differ) and not counted.
 */
export class CaptureClock<T> {
  readonly #replayedAt: number;
  readonly #emit: (item: T, observedAt: number) => void;
  readonly #onDoubt: (reason: TimestampDoubt, line: number) => void;
  #clock: number | undefined;
  /** Records read before the clock started. */
  #waiting: Entry<T>[] = [];
  /** A record whose timestamp jumps ahead, until a record after it says whether the traffic follows. */
  #held: Entry<T> | undefined;
  /** Records after the held one that said nothing of it, observed once it is decided. */
  #behind: Entry<T>[] = [];

  constructor(
    replayedAt: number,
    emit: (item: T, observedAt: number) => void,
    onDoubt: (reason: TimestampDoubt, line: number) => void,
  ) {
    this.#replayedAt = replayedAt;
    this.#emit = emit;
    this.#onDoubt = onDoubt;
  }

  /** The clock: the newest believed timestamp so far; undefined before it starts. */
  get now(): number | undefined {
    return this.#clock;
  }

  /**
   * The next record of the capture, with its timestamp (undefined: a line that has none to doubt, as one
   * that is not a record); `line` names it in what is counted.
   */
  push(item: T, timestamp: CaptureTimestamp | undefined, line: number): void {
    const entry = { item, at: this.#credible(timestamp, line), line };
    if (this.#held !== undefined) {
      const says = this.#says(entry.at, this.#held.at!);
      // Stryker disable next-line EqualityOperator: one record more or less before the bound changes nothing a test can see
      if (says === undefined && this.#behind.length < MAX_WAITING) {
        this.#behind.push(entry);
        return;
      }
      this.#decide(says === true);
    }
    this.#place(entry);
  }

  /** The capture has ended: a jump still held is not confirmed, and a clock never started starts now. */
  end(): void {
    if (this.#held !== undefined) this.#decide(false);
    if (this.#clock === undefined) this.#start(this.#replayedAt);
  }

  /**
   * What the next record's timestamp says of one held: true when the traffic carries on from it (no
   * more than 5 minutes before it), false when it carries on from the clock instead, undefined when it
   * says nothing (no timestamp to believe, or one far behind the clock: a lone old record). Before the
   * clock starts, only a timestamp within 5 minutes of it either way confirms it, since nothing before
   * it vouches for the gap after it (one record stamped 400 days ago at the start of a capture would
   * otherwise stretch the capture over 400 days).
   */
  #says(next: number | undefined, held: number): boolean | undefined {
    // The same reading again is no second clock: a run of records stamped alike (a producer's stuck
    // clock, one batch) vouches for nothing, at the start or after a jump.
    if (next === undefined || next === held) return undefined;
    const clock = this.#clock;
    if (clock === undefined) return Math.abs(next - held) <= MAX_CLOCK_AHEAD_MS;
    if (next >= held - MAX_CLOCK_AHEAD_MS) return true;
    return next < clock - MAX_CLOCK_AHEAD_MS ? undefined : false;
  }

  /** The held record is believed or not; then the records that said nothing of it, in their order. */
  #decide(confirmed: boolean): void {
    const held = this.#held!;
    this.#held = undefined;
    if (confirmed) this.#start(held.at!);
    else this.#onDoubt("unconfirmed", held.line);
    this.#observe(held);
    const behind = this.#behind;
    this.#behind = [];
    for (const entry of behind) {
      // Stamped as the held one: believed with it, or doubted with it.
      if (!confirmed && entry.at === held.at) {
        this.#onDoubt("unconfirmed", entry.line);
        this.#observe(entry);
      } else this.#place(entry);
    }
  }

  /** A record the clock can place now, or a jump to hold until what follows says whether to believe it. */
  #place(entry: Entry<T>): void {
    const clock = this.#clock;
    if (entry.at !== undefined && (clock === undefined || entry.at > clock + MAX_CLOCK_AHEAD_MS)) {
      this.#held = entry;
      return;
    }
    if (entry.at !== undefined && clock !== undefined) {
      if (entry.at > clock) this.#clock = entry.at;
      else if (entry.at < clock - MAX_CLOCK_AHEAD_MS) this.#onDoubt("out_of_order", entry.line);
    }
    this.#observe(entry);
  }

  #credible(timestamp: CaptureTimestamp | undefined, line: number): number | undefined {
    if (timestamp === undefined) return undefined;
    if (typeof timestamp === "string") {
      this.#onDoubt(timestamp, line);
      return undefined;
    }
    if (timestamp < EARLIEST_CREDIBLE_MS) {
      this.#onDoubt("before_2000", line);
      return undefined;
    }
    if (timestamp > this.#replayedAt + MAX_CLOCK_AHEAD_MS) {
      this.#onDoubt("in_the_future", line);
      return undefined;
    }
    return timestamp;
  }

  #observe(entry: Entry<T>): void {
    if (this.#clock !== undefined) return this.#emit(entry.item, this.#clock);
    this.#waiting.push(entry);
    // Stryker disable next-line EqualityOperator: one record more or less before the fallback changes nothing a test can see
    if (this.#waiting.length >= MAX_WAITING) this.#start(this.#replayedAt);
  }

  /** Starts (or moves) the clock; the records waiting for it are observed then. */
  #start(at: number): void {
    if (this.#clock === undefined || at > this.#clock) this.#clock = at;
    const waiting = this.#waiting;
    if (waiting.length === 0) return;
    this.#waiting = [];
    for (const entry of waiting) this.#emit(entry.item, this.#clock);
  }
}
