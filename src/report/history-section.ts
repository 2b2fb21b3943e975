import { formatDuration } from "../config/duration.js";
import type { HistoryView } from "../history/history.js";
import { NO_VERSION, UNKNOWN_VERSION } from "../pipeline/tallies.js";
import type { QuartileHistory } from "../stats/over-time.js";
import { formatValue, type ChartSeries, type LineChart } from "./charts.js";
import type { Block, Section } from "./document.js";

/** What a subject's page draws over time: the traffic history and the field statistics' quartiles. */
export interface SubjectCharts {
  readonly traffic?: HistoryView;
  readonly quartiles?: QuartileHistory;
  /** The history's bound, all subjects together: lines kept, the most it keeps, records drawn nowhere. */
  readonly bound?: { readonly lines: number; readonly maxLines: number; readonly dropped: number };
}

/**
 * Quartile charts on a page at most (one per field and producer, so 20 fields from 50 producers would
 * be a thousand): the rest are named, and /api/status has them all.
 */
export const MAX_QUARTILE_CHARTS = 12;

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const distinct = (values: Iterable<string>) => [...new Set(values)].sort(byText);

/** A part of a whole per bucket: its share, and the fallback's words for it. */
function shares(name: string, part: readonly number[], whole: readonly number[]): ChartSeries {
  const values = whole.map((w, i) => (w === 0 ? null : part[i]! / w));
  const texts = values.map((v, i) =>
    v === null ? null : `${formatValue(v, "share")} (${part[i]} of ${whole[i]})`,
  );
  return { name, values, texts };
}

const sum = (lines: ReadonlyArray<{ readonly records: readonly number[] }>, buckets: number) =>
  Array.from({ length: buckets }, (_, i) => lines.reduce((n, l) => n + l.records[i]!, 0));

/** What a version's chart is of: a version, none declared, or one that could not be read. */
const onVersion = (version: string) =>
  version === NO_VERSION
    ? "that declared no version"
    : version === UNKNOWN_VERSION
      ? "whose version could not be read"
      : `on ${version}`;

/** One chart per version: each producer's share of its records on it, per bucket. */
function versionCharts(traffic: HistoryView, order: readonly string[]): Block[] {
  const producers = distinct(traffic.versions.map((l) => l.producer));
  const totals = new Map(
    producers.map((p) => [
      p,
      sum(
        traffic.versions.filter((l) => l.producer === p),
        traffic.buckets,
      ),
    ]),
  );
  const rank = (v: string) => (order.includes(v) ? order.indexOf(v) : order.length);
  const versions = distinct(traffic.versions.map((l) => l.version)).sort((a, b) => rank(a) - rank(b));
  return versions.map((version) => ({
    kind: "chart",
    chart: {
      title: `share of each producer's records ${onVersion(version)}`,
      from: traffic.from,
      bucketMs: traffic.bucketMs,
      scale: "share",
      series: producers.map((p) => {
        const line = traffic.versions.find((l) => l.producer === p && l.version === version);
        return shares(p, line?.records ?? new Array<number>(traffic.buckets).fill(0), totals.get(p)!);
      }),
    },
  }));
}

/** One chart per tracked field: each producer's share of its records that carried it, per bucket. */
function fieldCharts(traffic: HistoryView): Block[] {
  const fields = [...new Set(traffic.fields.map((l) => l.field))];
  return fields.map((field) => {
    const lines = traffic.fields
      .filter((l) => l.field === field)
      .sort((a, b) => byText(a.producer, b.producer));
    return {
      kind: "chart",
      chart: {
        title: `share of each producer's records carrying ${field}`,
        from: traffic.from,
        bucketMs: traffic.bucketMs,
        scale: "share",
        series: lines.map((l) => shares(l.producer, l.present, l.records)),
      },
    };
  });
}

function quartileCharts(quartiles: QuartileHistory): Block[] {
  const shown = quartiles.lines.slice(0, MAX_QUARTILE_CHARTS);
  const blocks: Block[] = shown.map((line) => {
    const chart: LineChart = {
      title: `${line.field}${line.measure === "length" ? " (its length)" : ""} from ${line.producer}: quartiles`,
      from: quartiles.from,
      bucketMs: quartiles.bucketMs,
      scale: "value",
      series: (["p25", "p50", "p75"] as const).map((q) => ({
        name: q,
        values: line[q],
        texts: line[q].map((v, i) =>
          v === null ? null : `${formatValue(v, "value")} (of ${line.count[i]})`,
        ),
      })),
    };
    return { kind: "chart", chart };
  });
  const more = quartiles.lines.slice(MAX_QUARTILE_CHARTS);
  if (more.length > 0)
    blocks.push({
      kind: "text",
      text: {
        text: `… and ${more.length} more (${more.map((l) => `${l.field} from ${l.producer}`).join(", ")}): /api/status has them all.`,
        tone: "muted",
      },
    });
  return blocks;
}

const bucketWords = (view: { readonly bucketMs: number; readonly buckets: number }) =>
  `${view.buckets} buckets of ${formatDuration(view.bucketMs / 1000)}, times in UTC; the last bucket is still filling`;

/**
 * A subject's progress at a glance: who sends which version and which tracked field, bucket by bucket
 * over the drain window, and each profiled field's quartiles per producer over the statistics' window.
 * Undefined when there is nothing to draw yet. `data`: where the same buckets are served as JSON.
 */
export function historySection(
  id: string,
  charts: SubjectCharts,
  versionOrder: readonly string[],
  data?: string,
): Section | undefined {
  const sections: Section[] = [];
  const traffic = charts.traffic;
  if (traffic && traffic.versions.length > 0) {
    sections.push({
      id: `${id}-versions-over-time`,
      title: "versions over the drain window",
      blocks: [
        {
          kind: "text",
          text: {
            text: `Each line is one producer: the share of its records in a bucket that declared the version (${bucketWords(traffic)}). A gap is a bucket without records from it.`,
            tone: "muted",
          },
        },
        ...versionCharts(traffic, versionOrder),
      ],
    });
  }
  if (traffic && traffic.fields.length > 0) {
    sections.push({
      id: `${id}-fields-over-time`,
      title: "fields over the drain window",
      blocks: [
        {
          kind: "text",
          text: {
            text: `Each line is one producer: the share of its records in a bucket that carried the field (every record checked; ${bucketWords(traffic)}).`,
            tone: "muted",
          },
        },
        ...fieldCharts(traffic),
      ],
    });
  }
  if (charts.quartiles && charts.quartiles.lines.length > 0) {
    sections.push({
      id: `${id}-quartiles`,
      title: "field values over time",
      blocks: [
        {
          kind: "text",
          text: {
            text: `The lower quartile, median and upper quartile of each producer's sampled values per bucket, writer versions together, on a logarithmic scale when every value is positive (${bucketWords(charts.quartiles)}).`,
            tone: "muted",
          },
        },
        ...quartileCharts(charts.quartiles),
      ],
    });
  }
  if (sections.length === 0) return undefined;
  const blocks: Block[] =
    data === undefined ? [] : [{ kind: "text", text: { text: "these buckets as JSON", href: data } }];
  const bound = charts.bound;
  if (bound && bound.dropped > 0)
    blocks.push({
      kind: "text",
      text: {
        text: `${bound.dropped} records (or field checks) are drawn nowhere: the monitor keeps ${bound.lines} of at most ${bound.maxLines} lines over all subjects, or they were observed before the oldest bucket.`,
        tone: "warn",
      },
    });
  return { id: `${id}-over-time`, title: "over time", blocks, sections };
}
