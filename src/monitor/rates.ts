import type { Tallies } from "../pipeline/tallies.js";

/** Records counted per topic since the monitor started: what the rates are taken from. */
export function recordsPerTopic(tallies: Tallies): Map<string, number> {
  const totals = new Map<string, number>();
  for (const cell of tallies.records)
    totals.set(cell.labels.topic, (totals.get(cell.labels.topic) ?? 0) + cell.value);
  return totals;
}

export interface RateWindow {
  /** How many seconds the rates are measured over: from the oldest kept sample to now. */
  readonly seconds: number;
  /** Records counted per second, per topic. */
  readonly perSecond: ReadonlyMap<string, number>;
  /** Records counted per topic now. */
  readonly totals: ReadonlyMap<string, number>;
}

export interface TopicRatesOptions {
  /** How often a sample of the totals is taken (ms). */
  readonly everyMs?: number;
  /** How far back the rates look (ms): samples older than this are dropped. */
  readonly windowMs?: number;
  readonly now?: () => number;
}

/**
 * Records per second per topic over about the last minute, as kminion shows throughput: a small ring
 * of (time, records per topic) samples taken every 10 s, and at request time the difference between
 * the counts now and the oldest sample still in the window. Cheap: one pass over the record counters
 * per sample and per request, whatever the traffic.
 */
export class TopicRates {
  readonly #totals: () => ReadonlyMap<string, number>;
  readonly #everyMs: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  #samples: Array<{ readonly at: number; readonly totals: ReadonlyMap<string, number> }> = [];
  #timer: NodeJS.Timeout | undefined;

  constructor(totals: () => ReadonlyMap<string, number>, options: TopicRatesOptions = {}) {
    this.#totals = totals;
    this.#everyMs = options.everyMs ?? 10_000;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? Date.now;
  }

  get windowSeconds(): number {
    return this.#windowMs / 1000;
  }

  get everySeconds(): number {
    return this.#everyMs / 1000;
  }

  /** Takes a sample now and one every `everyMs`; the timer never keeps the process alive. */
  start(): void {
    this.sample();
    this.#timer ??= setInterval(() => this.sample(), this.#everyMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  sample(): void {
    const at = this.#now();
    this.#samples.push({ at, totals: new Map(this.#totals()) });
    this.#trim(at);
  }

  /** The rates now; undefined before a sample at least a second old exists (the monitor just started). */
  current(): RateWindow | undefined {
    const now = this.#now();
    this.#trim(now);
    const oldest = this.#samples[0];
    if (oldest === undefined || now - oldest.at < 1000) return undefined;
    const seconds = (now - oldest.at) / 1000;
    const totals = this.#totals();
    const perSecond = new Map<string, number>();
    for (const [topic, total] of totals)
      perSecond.set(topic, Math.max(0, total - (oldest.totals.get(topic) ?? 0)) / seconds);
    return { seconds, perSecond, totals };
  }

  #trim(now: number): void {
    // The newest sample stays even when old (a stalled timer): a rate over a longer span beats none.
    while (this.#samples.length > 1 && this.#samples[0]!.at < now - this.#windowMs) this.#samples.shift();
  }
}
