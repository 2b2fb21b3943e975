import { createRequire } from "node:module";
import type { Metric, Registry, collectDefaultMetrics as CollectDefaultMetrics } from "prom-client";
import type { Catalog } from "../catalog/types.js";
import type { FieldTallies } from "../fields/tallies.js";
import type { Health, RegistrySource } from "../health/health.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { DECODE_REASONS } from "../pipeline/record.js";
import { NO_VERSION } from "../pipeline/tallies.js";
import { retiredRecords } from "../lifecycle/retired.js";
import type { LifecycleView } from "../lifecycle/view.js";
import type { FieldStats } from "../stats/stats.js";
import { FOLD_REASONS } from "../stats/store.js";
import { METRICS, type MetricDefinition } from "./definitions.js";
import { SeriesBudget } from "./budget.js";
import { addFoldable } from "./foldable.js";
import { quantilesFold, recordsFold, withoutZeros, type LateFamily } from "./late.js";

// prom-client's index also loads the Pushgateway, the cluster aggregator and the summaries' quantile
// code, which a monitor never uses (tens of milliseconds of every start): the two files it does use.
const requireCjs = createRequire(import.meta.url);
const RegistryClass = requireCjs("prom-client/lib/registry") as typeof Registry;
const collectDefaultMetrics = requireCjs("prom-client/lib/defaultMetrics") as typeof CollectDefaultMetrics;

type Sample = { readonly labels: object; readonly value: number };

/**
 * A metric whose values are read from the monitor's own state at scrape time, so the hot path only
 * increments numbers in plain objects and never touches prom-client.
 */
class CollectedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: MetricDefinition["type"];
  readonly aggregator = "sum";
  readonly #read: () => Iterable<Sample>;
  readonly #counted: ((n: number) => void) | undefined;

  constructor(definition: MetricDefinition, read: () => Iterable<Sample>, counted?: (n: number) => void) {
    this.name = definition.name;
    this.help = definition.help;
    this.type = definition.type;
    this.#read = read;
    this.#counted = counted;
  }

  // Not async: prom-client calls every metric's get() in registration order before awaiting any, and
  // the series budget relies on the metrics before the foldable ones having counted their series.
  get() {
    const values = [...this.#read()];
    this.#counted?.(values.length);
    return Promise.resolve({
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    });
  }

  reset(): void {}
}

export interface MetricSources {
  readonly pipeline: Pipeline;
  readonly health: Health;
  readonly catalog: () => Catalog;
  /** The registries the catalog follows; none for a catalog of files. */
  readonly registries?: RegistrySource;
  readonly version: string;
  /** Verdicts and coverage; absent in tools that have no lifecycle. */
  readonly lifecycle?: LifecycleView;
  /**
   * Whether the validation series carry `producer` (config `metrics.producerDetail`, true unless
   * given); without it they are summed over producers. The record counts keep it either way.
   */
  readonly producerDetail?: boolean;
  /**
   * Config `metrics.seriesBudget`: above it, the per-producer series that need no attention are summed
   * over producers (src/metrics/budget.ts). None: no budget.
   */
  readonly seriesBudget?: SeriesBudget;
  /** Field presence in every record; absent in tools that do not check fields. */
  readonly fields?: FieldTallies;
  /** Field statistics and their findings; absent with `stats.enabled: false` and in tools. */
  readonly stats?: FieldStats;
}

/** Builds the process's registry. It is never the global one, so tests can build as many as they like. */
export function createRegistry(sources: MetricSources): Registry {
  const registry = new RegistryClass();
  const budget = sources.seriesBudget ?? new SeriesBudget(Number.POSITIVE_INFINITY);
  const add = (definition: MetricDefinition, read: () => Iterable<Sample>) =>
    registry.registerMetric(
      new CollectedMetric(definition, read, (n) => budget.counted(n)) as unknown as Metric,
    );
  const { pipeline, health } = sources;
  const tallies = pipeline.tallies;

  // Folded at the budget's depth `writers` (src/metrics/late.ts): registered after the others.
  const late: LateFamily[] = [
    { definition: METRICS.records, read: () => tallies.records, fold: recordsFold },
  ];
  // Every reason on every configured topic starts at zero.
  for (const subject of pipeline.subjects.values()) {
    for (const topic of subject.subject.topics)
      for (const reason of DECODE_REASONS) tallies.decodeCell(topic, reason);
  }
  late.push(
    { definition: METRICS.decodeErrors, read: () => tallies.decodeErrors, fold: withoutZeros },
    { definition: METRICS.tombstones, read: () => tallies.tombstones, fold: withoutZeros },
  );
  add(METRICS.versionInfo, function* () {
    for (const subject of sources.catalog().subjects.values()) {
      for (const v of subject.versions) {
        yield { labels: { subject: subject.name, version: v.version.text, status: v.status }, value: 1 };
      }
    }
  });
  late.push({
    definition: METRICS.lastSeen,
    read: function* () {
      for (const subject of sources.catalog().subjects.values()) {
        const seen = tallies.lastSeen(subject.name);
        for (const version of [...subject.versions.map((v) => v.version.text), NO_VERSION]) {
          yield { labels: { subject: subject.name, version }, value: seen.get(version) ?? 0 };
        }
      }
    },
    fold: withoutZeros,
  });
  add(METRICS.sampleRatio, function* () {
    for (const [name, subject] of pipeline.subjects) {
      yield { labels: { subject: name }, value: subject.sampler.effectiveRatio() };
    }
  });
  add(METRICS.labelOverflow, () => {
    let overflow = 0;
    for (const subject of pipeline.subjects.values()) overflow += subject.producer.overflow;
    return [{ labels: { label: "producer" }, value: overflow }];
  });
  add(METRICS.lag, function* () {
    for (const [topic, partitions] of health.lag) {
      for (const [partition, lag] of partitions)
        yield { labels: { topic, partition: String(partition) }, value: lag };
    }
  });
  add(METRICS.openTransactionRecords, function* () {
    for (const [topic, partitions] of health.ends) {
      for (const [partition, ends] of partitions)
        yield { labels: { topic, partition: String(partition) }, value: Number(ends.logEnd - ends.stable) };
    }
  });
  add(METRICS.openTransactionAge, function* () {
    const coverage = sources.lifecycle?.lifecycle.coverage;
    const now = Date.now();
    for (const [topic, partitions] of health.ends) {
      for (const partition of partitions.keys()) {
        const open = coverage?.openTransaction(topic, partition);
        yield {
          labels: { topic, partition: String(partition) },
          value: open === undefined ? 0 : Math.max(0, (now - open.since) / 1000),
        };
      }
    }
  });
  add(METRICS.assignedPartitions, function* () {
    for (const subject of pipeline.subjects.values()) {
      for (const topic of subject.subject.topics) {
        yield { labels: { topic }, value: health.assigned.get(topic)?.size ?? 0 };
      }
    }
  });
  add(METRICS.brokerUp, () => [{ labels: {}, value: health.brokerUp ? 1 : 0 }]);
  add(METRICS.ready, () => [{ labels: {}, value: health.ready ? 1 : 0 }]);
  const registries = () => sources.registries?.status() ?? [];
  add(METRICS.registryUp, () =>
    registries().map((r) => ({ labels: { registry: r.name }, value: r.up ? 1 : 0 })),
  );
  add(METRICS.registryLastSuccess, () =>
    registries().map((r) => ({ labels: { registry: r.name }, value: (r.lastSuccess ?? 0) / 1000 })),
  );
  add(METRICS.registryLookups, function* () {
    for (const r of registries()) {
      for (const [result, value] of Object.entries(r.lookups))
        yield { labels: { registry: r.name, result }, value };
    }
  });
  add(METRICS.registryLookupsSkipped, () =>
    registries().map((r) => ({ labels: { registry: r.name }, value: r.lookupsSkipped })),
  );
  add(METRICS.registryVersionsRetired, function* () {
    for (const r of registries()) {
      for (const [subject, value] of Object.entries(r.retired ?? {}))
        yield { labels: { registry: r.name, subject }, value };
    }
  });
  add(METRICS.retiredVersionRecords, () =>
    retiredRecords(tallies.allSeries).map((r) => ({
      labels: { subject: r.subject, version: r.version, producer: r.producer },
      value: r.records,
    })),
  );
  add(METRICS.buildInfo, () => [
    { labels: { version: sources.version, node_version: process.version }, value: 1 },
  ]);
  const lifecycle = sources.lifecycle;
  const verdicts = (status: "deprecated" | "candidate") =>
    function* () {
      for (const subject of sources.catalog().subjects.values()) {
        for (const v of subject.versions) {
          if (v.status !== status) continue;
          const verdict = lifecycle?.verdict(subject.name, v.version.text);
          yield { labels: { subject: subject.name, version: v.version.text }, value: verdict?.yes ? 1 : 0 };
        }
      }
    };
  // A deprecated version needs attention: its 0 (not drained yet) stays at every depth.
  add(METRICS.versionRemovable, verdicts("deprecated"));
  late.push({ definition: METRICS.candidateReady, read: verdicts("candidate"), fold: withoutZeros });
  add(METRICS.drainWindow, function* () {
    for (const [name, subject] of pipeline.subjects)
      yield { labels: { subject: name }, value: subject.config.drainWindow };
  });
  add(METRICS.coverageGaps, function* () {
    for (const subject of pipeline.subjects.values()) {
      for (const topic of subject.subject.topics) {
        yield { labels: { topic }, value: lifecycle?.lifecycle.coverage.gapCounts.get(topic) ?? 0 };
      }
    }
  });
  const fields = sources.fields;
  if (fields) {
    add(METRICS.fieldInfo, function* () {
      for (const subject of fields.subjects()) {
        for (const field of subject.fields) {
          const kind = field.deprecatedIn.length > 0 ? "deprecated" : "optional";
          yield { labels: { subject: subject.subject, field: field.pointer, kind }, value: 1 };
        }
      }
    });
    // The last judgement's verdicts (every judge interval); a field not judged yet is 0.
    const fieldVerdicts = (kind: "deprecated" | "optional") =>
      function* () {
        const verdicts = lifecycle?.fieldVerdicts?.();
        for (const subject of fields.subjects())
          for (const field of subject.fields) {
            if ((field.deprecatedIn.length > 0 ? "deprecated" : "optional") !== kind) continue;
            const verdict = verdicts?.get(`${subject.subject}\u0000${field.pointer}`);
            yield { labels: { subject: subject.subject, field: field.pointer }, value: verdict?.yes ? 1 : 0 };
          }
      };
    // A deprecated field needs attention: its 0 (not drained yet) stays at every depth.
    add(METRICS.fieldDrained, fieldVerdicts("deprecated"));
    late.push({ definition: METRICS.fieldReady, read: fieldVerdicts("optional"), fold: withoutZeros });
    add(METRICS.fieldRenameRecords, () => fields.renameSamples(sources.producerDetail ?? true));
    late.push({
      definition: METRICS.fieldsUntracked,
      read: function* () {
        for (const subject of fields.subjects())
          yield { labels: { subject: subject.subject }, value: subject.overflow };
      },
      fold: withoutZeros,
    });
  }
  // Declared whether or not the statistics are on (a scrape shows every metric's TYPE); empty when off.
  addStatsMetrics(add, sources.stats, late);
  // Last of schemawatch's own: the series budget decides once every other metric has counted.
  addFoldable(
    (definition, read) => registry.registerMetric(new CollectedMetric(definition, read) as unknown as Metric),
    sources,
    budget,
    late,
  );
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The field statistics' metrics: quantiles and counts only, never a value as it was sent. */
function addStatsMetrics(
  add: (definition: MetricDefinition, read: () => Iterable<Sample>) => void,
  stats: FieldStats | undefined,
  late: LateFamily[],
): void {
  const findings = () => stats?.findingCounts() ?? [];
  late.push(
    {
      definition: METRICS.fieldQuantile,
      read: () => stats?.quantiles() ?? [],
      fold: quantilesFold(findings),
    },
    { definition: METRICS.fieldFindings, read: findings, fold: withoutZeros },
  );
  add(METRICS.fieldStatsDropped, () => (stats ? [{ labels: {}, value: stats.store.dropped }] : []));
  add(METRICS.fieldStatsFolded, () =>
    stats ? FOLD_REASONS.map((reason) => ({ labels: { reason }, value: stats.store.folded[reason] })) : [],
  );
  add(METRICS.fieldStatsUnshared, () => (stats ? [{ labels: {}, value: stats.share.tooLarge }] : []));
  add(METRICS.fieldStatsBytes, () => (stats ? [{ labels: {}, value: stats.store.bytes }] : []));
}
