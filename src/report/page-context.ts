import type { SubjectCharts } from "./history-section.js";

/**
 * What the monitor's status pages know beyond the report: the traffic per topic (rates and lag, which
 * only a live monitor measures) and where the links lead. The `report` command has none of it, so its
 * renderings show neither links nor rates.
 */
export interface PageContext {
  /** The monitor's root relative to the page: `""` on the index, `"../"` on a subject's page. */
  readonly root: string;
  readonly flows: ReadonlyMap<string, TopicFlow>;
  /** What the rates are, said on the page: how they are measured and over how long. */
  readonly rateNote: string;
  /** The versions of a subject that have a corpus example to link to; absent when none is served. */
  readonly samples?: (subject: string) => ReadonlySet<string>;
  /** What a subject's page draws over time (the monitor's buckets); absent where nothing is kept. */
  readonly charts?: (subject: string) => SubjectCharts;
}

/** One topic's traffic: records counted per second and the consumer group's lag. */
export interface TopicFlow {
  readonly topic: string;
  /** Records counted per second over the rate window; null until a window exists. */
  readonly perSecond: number | null;
  /** Records behind, summed over the topic's partitions, as last measured; null when not measured. */
  readonly lag: number | null;
  readonly lagMeasuredAt: string | null;
}

const path = (...parts: string[]) => parts.map(encodeURIComponent).join("/");

/** A subject's page. */
export const subjectHref = (page: PageContext, subject: string) => `${page.root}subjects/${path(subject)}`;

/** A version's schema, as the catalog has it. */
export const schemaHref = (page: PageContext, subject: string, version: string) =>
  `${page.root}subjects/${path(subject, "versions", version, "schema")}`;

/** A corpus example of a version (redacted as the corpus keeps it). */
export const sampleHref = (page: PageContext, subject: string, version: string) =>
  `${page.root}subjects/${path(subject, "versions", version, "sample")}`;

/** A rate as the pages show it: a few significant digits, `—` when not measured yet. */
export function rateText(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined) return "—";
  if (perSecond === 0) return "0";
  return perSecond >= 100 ? String(Math.round(perSecond)) : perSecond.toFixed(perSecond >= 10 ? 1 : 2);
}

/** A lag as the pages show it: `—` when it is not measured (a replayed capture, before the first measurement). */
export const lagText = (lag: number | null | undefined): string =>
  lag === null || lag === undefined ? "—" : String(lag);
