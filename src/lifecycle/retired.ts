import type { Logger } from "pino";
import type { CatalogSubject, VersionStatus } from "../catalog/types.js";

/**
 * What `retiredRecords` reads of one tallied series: the pipeline's `RecordSeries` has all of it, and
 * the lifecycle names only the shape, since it imports nothing of the per-record path.
 */
export interface RetiredSeriesView {
  readonly count: {
    readonly labels: { readonly subject: string; readonly producer: string; readonly writer_version: string };
  };
  readonly writer: { readonly status: VersionStatus } | undefined;
  /** Records counted while the writer version was retired. */
  readonly retiredRecords: number;
  /** When the series last got a record, by the monitor's clock (ms). */
  readonly lastObservedMs: number;
}

/** Records of one retired version from one producer, over the subject's topics. */
export interface RetiredRecords {
  readonly subject: string;
  readonly version: string;
  readonly producer: string;
  /** Records counted while the version was retired (since start, or since it was retired). */
  readonly records: number;
  /** When the last of them was observed (ms); 0 when there is none, or the version is no longer retired. */
  readonly lastAt: number;
}

/**
 * The records of retired versions, per subject, version and producer, summed over topics: one entry
 * for every series of a version retired now (at 0 until a record comes: zero is a value), and for any
 * that got records while it was retired, so that a counter never vanishes when a version comes back.
 */
export function retiredRecords(series: Iterable<RetiredSeriesView>): RetiredRecords[] {
  const sums = new Map<string, { -readonly [K in keyof RetiredRecords]: RetiredRecords[K] }>();
  for (const s of series) {
    if (s.writer?.status !== "retired" && s.retiredRecords === 0) continue;
    const { subject, producer, writer_version: version } = s.count.labels;
    const key = `${subject}\u0000${version}\u0000${producer}`;
    let sum = sums.get(key);
    if (!sum) sums.set(key, (sum = { subject, version, producer, records: 0, lastAt: 0 }));
    sum.records += s.retiredRecords;
    // While the version stays retired, the series' last record is one of its retired records.
    // Stryker disable next-line OptionalChaining: a series with retired records has a writer
    if (s.retiredRecords === 0 || s.writer?.status !== "retired") continue;
    // Stryker disable next-line EqualityOperator: `>=` takes the same maximum
    if (s.lastObservedMs > sum.lastAt) sum.lastAt = s.lastObservedMs;
  }
  return [...sums.values()];
}

const key = (subject: string, version: string) => `${subject}\u0000${version}`;
// Stryker disable next-line Regex: toISOString always ends in ":ss.sssZ", so the anchor changes nothing
const iso = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, "Z");

/**
 * A producer that still sends a retired version: after a prune, the one event an operator must hear of
 * at once (consumers may have dropped the version). Knows when this monitor saw each version become
 * retired (a registry poll or a reload; a version retired before the monitor started has no date) and
 * warns once per subject, version and producer, never per record and never with a record's contents.
 */
export class RetiredTraffic {
  readonly #log: Logger;
  /** When a version was seen turning retired, by the lifecycle's clock (ms). */
  readonly #since = new Map<string, number>();
  /** The dates other replicas (or a previous run) shared through the state topic (ms). */
  readonly #shared = new Map<string, number>();
  /** (subject, version, producer) already warned of, while the version stays retired. */
  readonly #warned = new Set<string>();
  /**
   * Each (subject, version, producer)'s count at the last `observe`: the counts never go back, so a
   * version retired a second time warns only of producers that sent it since.
   */
  readonly #counted = new Map<string, number>();

  constructor(logger: Logger) {
    this.#log = logger;
  }

  /** A reloaded subject: the versions that turned retired get a date; those no longer retired lose it. */
  catalogChanged(before: CatalogSubject, after: CatalogSubject, now: number): void {
    for (const version of after.versions) {
      const id = key(after.name, version.version.text);
      const was = before.byVersion.get(version.version.text)?.status;
      if (version.status === "retired" && was !== undefined && was !== "retired")
        this.#since.set(id, Math.min(now, this.#shared.get(id) ?? now));
      else if (version.status !== "retired") {
        this.#since.delete(id);
        for (const warned of this.#warned) if (warned.startsWith(`${id}\u0000`)) this.#warned.delete(warned);
      }
    }
  }

  /** When each version was seen turning retired, per subject: kept in the state, so a restart keeps the date. */
  toState(): Record<string, Record<string, number>> {
    const state: Record<string, Record<string, number>> = {};
    for (const [id, at] of this.#since) {
      const [subject, version] = id.split("\u0000") as [string, string];
      (state[subject] ??= {})[version] = at;
    }
    return state;
  }

  /**
   * Dates an earlier run saw, for the versions retired now (`isRetired`): a version brought back while
   * the monitor was down has none, and a date seen in this run is not replaced.
   */
  restore(
    saved: Record<string, Record<string, number>>,
    isRetired: (subject: string, version: string) => boolean,
  ): void {
    for (const [subject, versions] of Object.entries(saved))
      for (const [version, at] of Object.entries(versions)) {
        const id = key(subject, version);
        if (isRetired(subject, version) && !this.#since.has(id)) this.#since.set(id, at);
      }
  }

  /**
   * A date shared through the state topic (undefined: withdrawn, the version came back). The earliest
   * date any replica saw wins: the first to poll the registry after a prune saw it first. Taken at
   * once for a version retired here (`retiredHere`), else kept for when this replica sees it retired.
   */
  shared(subject: string, version: string, at: number | undefined, retiredHere: boolean): void {
    const id = key(subject, version);
    if (at === undefined) return void this.#shared.delete(id);
    this.#shared.set(id, Math.min(at, this.#shared.get(id) ?? at));
    if (retiredHere) this.#since.set(id, Math.min(at, this.#since.get(id) ?? at));
  }

  /** When a monitor saw the version become retired (ms); undefined when no run saw it happen. */
  since(subject: string, version: string): number | undefined {
    return this.#since.get(key(subject, version));
  }

  /** The retired-version records counted so far: a warning for each producer not warned of yet. */
  observe(records: readonly RetiredRecords[]): void {
    for (const r of records) {
      const id = `${key(r.subject, r.version)}\u0000${r.producer}`;
      const before = this.#counted.get(id) ?? 0;
      this.#counted.set(id, r.records);
      if (r.records <= before || this.#warned.has(id)) continue;
      this.#warned.add(id);
      const since = this.since(r.subject, r.version);
      this.#log.warn(
        {
          subject: r.subject,
          version: r.version,
          producer: r.producer,
          records: r.records,
          retiredAt: since === undefined ? null : new Date(since).toISOString(),
        },
        retiredTrafficLine(r, since),
      );
    }
  }
}

/** "producer billing still sends event 1.0.0, retired on 2025-06-01T10:00Z", for the log and the report. */
export function retiredTrafficLine(
  r: Pick<RetiredRecords, "subject" | "version" | "producer">,
  since: number | undefined,
): string {
  return `producer ${r.producer} still sends ${r.subject} ${r.version}, ${since === undefined ? "which is retired" : `retired on ${iso(since)}`}`;
}
