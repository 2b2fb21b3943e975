import { Registry, collectDefaultMetrics, type Metric } from "prom-client";
import type { Catalog } from "../catalog/types.js";
import type { FieldTallies } from "../fields/tallies.js";
import type { Health, RegistrySource } from "../health/health.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import { DECODE_REASONS } from "../pipeline/record.js";
import { NO_VERSION } from "../pipeline/tallies.js";
import { retiredRecords } from "../lifecycle/retired.js";
import type { LifecycleView } from "../lifecycle/view.js";
import type { FieldStats } from "../stats/stats.js";
import { METRICS, type MetricDefinition } from "./definitions.js";
import { SummedWithoutProducer } from "./without-producer.js";

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

  constructor(definition: MetricDefinition, read: () => Iterable<Sample>) {
    this.name = definition.name;
    this.help = definition.help;
    this.type = definition.type;
    this.#read = read;
  }

  async get() {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: [...this.#read()],
    };
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
  /** Field presence in every record; absent in tools that do not check fields. */
  readonly fields?: FieldTallies;
  /** Field statistics and their findings; absent with `stats.enabled: false` and in tools. */
  readonly stats?: FieldStats;
}

/** Builds the process's registry. It is never the global one, so tests can build as many as they like. */
export function createRegistry(sources: MetricSources): Registry {
  const registry = new Registry();
  const add = (definition: MetricDefinition, read: () => Iterable<Sample>) =>
    registry.registerMetric(new CollectedMetric(definition, read) as unknown as Metric);
  const { pipeline, health } = sources;
  const tallies = pipeline.tallies;

  add(METRICS.records, () => tallies.records);
  if (sources.producerDetail ?? true) {
    add(METRICS.validations, () => tallies.validations);
    add(METRICS.validationFailures, () => tallies.failures);
    add(METRICS.validationLosses, () => tallies.losses);
  } else {
    const validations = new SummedWithoutProducer(tallies.validations);
    const failures = new SummedWithoutProducer(tallies.failures);
    const losses = new SummedWithoutProducer(tallies.losses);
    add(METRICS.validations, () => validations.samples());
    add(METRICS.validationFailures, () => failures.samples());
    add(METRICS.validationLosses, () => losses.samples());
  }
  // Every reason on every configured topic starts at zero.
  for (const subject of pipeline.subjects.values()) {
    for (const topic of subject.subject.topics)
      for (const reason of DECODE_REASONS) tallies.decodeCell(topic, reason);
  }
  add(METRICS.decodeErrors, () => tallies.decodeErrors);
  add(METRICS.tombstones, () => tallies.tombstones);
  add(METRICS.versionInfo, function* () {
    for (const subject of sources.catalog().subjects.values()) {
      for (const v of subject.versions) {
        yield { labels: { subject: subject.name, version: v.version.text, status: v.status }, value: 1 };
      }
    }
  });
  add(METRICS.lastSeen, function* () {
    for (const subject of sources.catalog().subjects.values()) {
      const seen = tallies.lastSeen(subject.name);
      for (const version of [...subject.versions.map((v) => v.version.text), NO_VERSION]) {
        yield { labels: { subject: subject.name, version }, value: seen.get(version) ?? 0 };
      }
    }
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
  const verdictMetric = (definition: MetricDefinition, status: "deprecated" | "candidate") =>
    add(definition, function* () {
      for (const subject of sources.catalog().subjects.values()) {
        for (const v of subject.versions) {
          if (v.status !== status) continue;
          const verdict = lifecycle?.verdict(subject.name, v.version.text);
          yield { labels: { subject: subject.name, version: v.version.text }, value: verdict?.yes ? 1 : 0 };
        }
      }
    });
  verdictMetric(METRICS.versionRemovable, "deprecated");
  verdictMetric(METRICS.candidateReady, "candidate");
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
    // Summed over producers as the validation series are, when the config turns their detail off.
    add(METRICS.fieldRecords, () =>
      (sources.producerDetail ?? true) ? fields.samples() : fields.summedOverProducers(),
    );
    add(METRICS.fieldInfo, function* () {
      for (const subject of fields.subjects()) {
        for (const field of subject.fields) {
          const kind = field.deprecatedIn.length > 0 ? "deprecated" : "optional";
          yield { labels: { subject: subject.subject, field: field.pointer, kind }, value: 1 };
        }
      }
    });
    // The last judgement's verdicts (every judge interval); a field not judged yet is 0.
    const fieldVerdict = (definition: MetricDefinition, kind: "deprecated" | "optional") =>
      add(definition, function* () {
        const verdicts = lifecycle?.fieldVerdicts?.();
        for (const subject of fields.subjects())
          for (const field of subject.fields) {
            if ((field.deprecatedIn.length > 0 ? "deprecated" : "optional") !== kind) continue;
            const verdict = verdicts?.get(`${subject.subject}\u0000${field.pointer}`);
            yield { labels: { subject: subject.subject, field: field.pointer }, value: verdict?.yes ? 1 : 0 };
          }
      });
    fieldVerdict(METRICS.fieldDrained, "deprecated");
    fieldVerdict(METRICS.fieldReady, "optional");
    add(METRICS.fieldRenameRecords, () => fields.renameSamples(sources.producerDetail ?? true));
    add(METRICS.fieldsUntracked, function* () {
      for (const subject of fields.subjects())
        yield { labels: { subject: subject.subject }, value: subject.overflow };
    });
  }
  // Declared whether or not the statistics are on (a scrape shows every metric's TYPE); empty when off.
  addStatsMetrics(add, sources.stats);
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** The field statistics' metrics: quantiles and counts only, never a value as it was sent. */
function addStatsMetrics(
  add: (definition: MetricDefinition, read: () => Iterable<Sample>) => void,
  stats: FieldStats | undefined,
): void {
  add(METRICS.fieldQuantile, () => stats?.quantiles() ?? []);
  add(METRICS.fieldFindings, () => stats?.findingCounts() ?? []);
  add(METRICS.fieldStatsDropped, () => (stats ? [{ labels: {}, value: stats.store.dropped }] : []));
  add(METRICS.fieldStatsBytes, () => (stats ? [{ labels: {}, value: stats.store.bytes }] : []));
}
