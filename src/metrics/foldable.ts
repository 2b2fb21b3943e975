import { METRICS, type MetricDefinition } from "./definitions.js";
import type { MetricSources } from "./exporter.js";
import { SummedWithoutProducer } from "./without-producer.js";
import type { FieldTallies } from "../fields/tallies.js";
import { foldPassingReaders, type LateFamily } from "./late.js";
import {
  failingPairs,
  foldProducers,
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
export function addFoldable(
  add: Add,
  sources: MetricSources,
  budget: SeriesBudget,
  late: readonly LateFamily[],
): void {
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
    for (const family of late) {
      add(family.definition, family.read);
      budget.folded.set(family.definition.name, 0);
    }
  } else addBudgeted(add, sources, budget, late);
  add(METRICS.seriesFolded, function* () {
    for (const [metric, value] of budget.folded) yield { labels: { metric }, value };
  });
}

/** The foldable metrics with producer detail: folded where the series budget says so. */
function addBudgeted(
  add: Add,
  sources: MetricSources,
  budget: SeriesBudget,
  late: readonly LateFamily[],
): void {
  const tallies = sources.pipeline.tallies;
  const fields = sources.fields;
  // What one scrape decided, read by the metrics after the first.
  let versions = new Set<string>();
  let failing = new Set<string>();
  let fieldSamples: ProducerSample[] = [];
  const writerNeeds = (l: Readonly<Record<string, unknown>>) =>
    versions.has(`${String(l["subject"])}\u0000${String(l["writer_version"])}`);
  let retired = new Set<string>();
  const deep = () => budget.depth === "writers";
  // Summed over producers alone: a deprecated or retired writer and a failing pair keep their producers.
  // Summed over writers too: a retired writer and a failing conformance pair (the producer that breaks
  // its own declared version, whom SchemawatchProducerNonConformant names); who sends a deprecated
  // version stays in schemawatch_records_total, which is never folded.
  const pairNeeds = (l: Readonly<Record<string, unknown>>) =>
    deep()
      ? retired.has(`${String(l["subject"])}\u0000${String(l["writer_version"])}`) ||
        (l["direction"] === "conformance" && failing.has(pairKey(l)))
      : writerNeeds(l) || failing.has(pairKey(l));
  let deprecatedFields = new Set<string>();
  const fieldNeeds = (l: Readonly<Record<string, unknown>>) =>
    (deep() ? retired.has(`${String(l["subject"])}\u0000${String(l["writer_version"])}`) : writerNeeds(l)) ||
    deprecatedFields.has(`${String(l["subject"])}\u0000${String(l["field"])}`);
  let lateSamples: Sample[][] = [];
  add(METRICS.validations, () => {
    fieldSamples = fields ? [...fields.samples()] : [];
    lateSamples = late.map((family) => [...family.read()]);
    const lateCount = lateSamples.reduce((n, samples) => n + samples.length, 0);
    const foldable =
      tallies.validations.length + tallies.failures.length + tallies.losses.length + fieldSamples.length;
    if (budget.decide(foldable + lateCount)) {
      versions = versionsNeedingAttention(sources.catalog());
      retired = versionsNeedingAttention(sources.catalog(), ["retired"]);
      failing = failingPairs(tallies.validations);
      deprecatedFields = fields ? deprecatedFieldsOf(fields) : new Set();
      // Summed over producers alone, would the scrape keep to the budget? If not, fold deeper.
      budget.deepen(
        foldProducers(tallies.validations, pairNeeds).length +
          foldProducers(tallies.failures, pairNeeds).length +
          foldProducers(tallies.losses, pairNeeds).length +
          foldProducers(fieldSamples, fieldNeeds).length +
          lateCount,
      );
    }
    const out = budget.apply(METRICS.validations.name, tallies.validations, pairNeeds);
    if (!deep()) return out;
    const readers = foldPassingReaders(out);
    budget.folded.set(METRICS.validations.name, tallies.validations.length - readers.length);
    return readers;
  });
  add(METRICS.validationFailures, () =>
    budget.apply(METRICS.validationFailures.name, tallies.failures, pairNeeds),
  );
  add(METRICS.validationLosses, () => budget.apply(METRICS.validationLosses.name, tallies.losses, pairNeeds));
  if (fields) {
    add(METRICS.fieldRecords, () => {
      const samples = fieldSamples;
      fieldSamples = [];
      return budget.apply(METRICS.fieldRecords.name, samples, fieldNeeds);
    });
  }
  late.forEach((family, i) =>
    add(family.definition, () => {
      const samples = lateSamples[i] ?? [];
      lateSamples[i] = [];
      const out = deep() ? family.fold(samples) : samples;
      budget.folded.set(family.definition.name, samples.length - out.length);
      return out;
    }),
  );
}

/** `subject\0pointer` of every tracked deprecated field: its series keep their producers. */
function deprecatedFieldsOf(fields: FieldTallies): Set<string> {
  const deprecated = new Set<string>();
  for (const subject of fields.subjects())
    for (const field of subject.fields)
      if (field.deprecatedIn.length > 0) deprecated.add(`${subject.subject}\u0000${field.pointer}`);
  return deprecated;
}
