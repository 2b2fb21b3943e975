import type { MetricDefinition } from "./definitions.js";

type Sample = { readonly labels: object; readonly value: number };
type Labels = Readonly<Record<string, unknown>>;

/**
 * A metric without producers to sum over that the series budget still folds when summing over
 * producers and writers was not enough (depth `writers`, src/metrics/budget.ts): its samples are read
 * when the budget decides, counted in the decision, and exported through `fold` at that depth.
 * Registered after the metrics the budget never folds, so its series come later in a scrape.
 */
export interface LateFamily {
  readonly definition: MetricDefinition;
  readonly read: () => Iterable<Sample>;
  /** The samples at depth `writers`: what needs no series of its own left out. */
  readonly fold: (samples: readonly Sample[]) => Sample[];
}

/** A counter or finding count at 0 says nothing happened: at depth `writers` it is left out. */
export const withoutZeros = (samples: readonly Sample[]): Sample[] => samples.filter((s) => s.value !== 0);

/**
 * Record counts: a series at 0 is left out where its topic has a series above 0, so every topic keeps
 * a record series and `schemawatch:consumer_lag:seconds` still divides by a rate (a stuck consumer
 * still gives +Inf).
 */
export function recordsFold(samples: readonly Sample[]): Sample[] {
  const counted = new Set<string>();
  for (const s of samples) if (s.value !== 0) counted.add(String((s.labels as Labels)["topic"]));
  return samples.filter((s) => s.value !== 0 || !counted.has(String((s.labels as Labels)["topic"])));
}

/**
 * Field quartiles: kept for the (subject, field, producer) that has a finding above 0, the ones to
 * look at; the others left out (quartiles cannot be summed over producers). `findings` is read at
 * the same scrape.
 */
export function quantilesFold(findings: () => Iterable<Sample>) {
  return (samples: readonly Sample[]): Sample[] => {
    const found = new Set<string>();
    for (const f of findings()) if (f.value > 0) found.add(seriesKey(f.labels as Labels));
    return samples.filter((s) => found.has(seriesKey(s.labels as Labels)));
  };
}

const seriesKey = (l: Labels) =>
  `${String(l["subject"])}\u0000${String(l["field"])}\u0000${String(l["producer"])}`;

/**
 * Validations summed over producers, writers and topics (those without `producer`): where a (subject,
 * reader, direction) has no failure, its passes are summed over `reader_version` and `direction` too,
 * one series per subject; a reader that someone fails keeps its own series, so every
 * would-fail ratio the rules compute stays exact, and the alerts fire for the same readers.
 */
export function foldPassingReaders(samples: readonly Sample[]): Sample[] {
  // Without topic: the sums have none, the series kept with their producers do.
  const group = (l: Labels) =>
    `${String(l["subject"])}\u0000${String(l["reader_version"])}\u0000${String(l["direction"])}`;
  const failing = new Set<string>();
  for (const s of samples) {
    const l = s.labels as Labels;
    if (l["result"] === "fail" && s.value > 0) failing.add(group(l));
  }
  const out: Sample[] = [];
  const sums = new Map<string, { labels: object; value: number }>();
  for (const s of samples) {
    const l = s.labels as Labels;
    if ("producer" in l || failing.has(group(l))) {
      out.push(s);
      continue;
    }
    const key = `${String(l["subject"])}\u0000${String(l["result"])}`;
    const sum = sums.get(key);
    if (sum !== undefined) sum.value += s.value;
    else {
      const entry = { labels: { subject: l["subject"], result: l["result"] }, value: s.value };
      sums.set(key, entry);
      out.push(entry);
    }
  }
  return out;
}
