import { METRICS, type MetricDefinition } from "./definitions.js";
import type { MetricSources } from "./exporter.js";
import { SummedWithoutProducer } from "./without-producer.js";
import {
  failingPairs,
  pairKey,
  versionsNeedingAttention,
  type ProducerSample,
  type SeriesBudget,
} from "./budget.js";

type Sample = { readonly labels: object; readonly value: number };
/** Registers a metric read at scrape time (exporter.ts's CollectedMetric), outside the budget's count. */
type Add = (definition: MetricDefinition, read: () => Iterable<Sample>) => void;

/**
 * The metrics with a `producer` label that can be summed over it: summed always with
 * `metrics.producerDetail: false`, else where the series budget folds (src/metrics/budget.ts).
 */
export function addFoldable(add: Add, sources: MetricSources, budget: SeriesBudget): void {
  const tallies = sources.pipeline.tallies;
  const fields = sources.fields;
  if (!(sources.producerDetail ?? true)) {
    const validations = new SummedWithoutProducer(tallies.validations);
    const failures = new SummedWithoutProducer(tallies.failures);
    const losses = new SummedWithoutProducer(tallies.losses);
    add(METRICS.validations, () => validations.samples());
    add(METRICS.validationFailures, () => failures.samples());
    add(METRICS.validationLosses, () => losses.samples());
    if (fields) add(METRICS.fieldRecords, () => fields.summedOverProducers());
    // Summed by choice, not by the budget: nothing is folded beyond what the config asked.
    for (const metric of [
      METRICS.validations,
      METRICS.validationFailures,
      METRICS.validationLosses,
      ...(fields ? [METRICS.fieldRecords] : []),
    ])
      budget.folded.set(metric.name, 0);
  } else addBudgeted(add, sources, budget);
  add(METRICS.seriesFolded, function* () {
    for (const [metric, value] of budget.folded) yield { labels: { metric }, value };
  });
}

/** The foldable metrics with producer detail: folded where the series budget says so. */
function addBudgeted(add: Add, sources: MetricSources, budget: SeriesBudget): void {
  const tallies = sources.pipeline.tallies;
  const fields = sources.fields;
  // What one scrape decided, read by the metrics after the first.
  let versions = new Set<string>();
  let failing = new Set<string>();
  let fieldSamples: ProducerSample[] = [];
  const writerNeeds = (l: Readonly<Record<string, unknown>>) =>
    versions.has(`${String(l["subject"])}\u0000${String(l["writer_version"])}`);
  const pairNeeds = (l: Readonly<Record<string, unknown>>) => writerNeeds(l) || failing.has(pairKey(l));
  add(METRICS.validations, () => {
    fieldSamples = fields ? [...fields.samples()] : [];
    if (
      budget.decide(
        tallies.validations.length + tallies.failures.length + tallies.losses.length + fieldSamples.length,
      )
    ) {
      versions = versionsNeedingAttention(sources.catalog());
      failing = failingPairs(tallies.validations);
    }
    return budget.apply(METRICS.validations.name, tallies.validations, pairNeeds);
  });
  add(METRICS.validationFailures, () =>
    budget.apply(METRICS.validationFailures.name, tallies.failures, pairNeeds),
  );
  add(METRICS.validationLosses, () => budget.apply(METRICS.validationLosses.name, tallies.losses, pairNeeds));
  if (fields) {
    add(METRICS.fieldRecords, () => {
      const deprecated = new Set<string>();
      if (budget.folding)
        for (const subject of fields.subjects())
          for (const field of subject.fields)
            if (field.deprecatedIn.length > 0) deprecated.add(`${subject.subject}\u0000${field.pointer}`);
      const samples = fieldSamples;
      fieldSamples = [];
      return budget.apply(
        METRICS.fieldRecords.name,
        samples,
        (l) => writerNeeds(l) || deprecated.has(`${String(l["subject"])}\u0000${String(l["field"])}`),
      );
    });
  }
}
