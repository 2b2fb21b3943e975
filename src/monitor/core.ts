import type { Logger } from "pino";
import type { Catalog } from "../catalog/types.js";
import { fieldBlocks } from "../config/fields.js";
import type { Config } from "../config/types.js";
import { Corpus } from "../corpus/corpus.js";
import { fallbackVersion, feedCorpus } from "../corpus/feed.js";
import { ValidationBudget } from "../engine/budget.js";
import { messageOf } from "../errors.js";
import { MAX_FIELDS } from "../fields/interest.js";
import { RenameLedger } from "../fields/rename-ledger.js";
import type { RenameProgress } from "../fields/rename-progress.js";
import { FieldTallies } from "../fields/tallies.js";
import { TrafficHistory } from "../history/history.js";
import { HistoryShare } from "../history/share.js";
import type { Health } from "../health/health.js";
import { createRegistry } from "../metrics/exporter.js";
import { SeriesBudget } from "../metrics/budget.js";
import { ObservationClock } from "../pipeline/clock.js";
import { Pipeline } from "../pipeline/pipeline.js";
import { InThreadValidation } from "../pipeline/workers/in-thread.js";
import { ValidationPool } from "../pipeline/workers/pool.js";
import type { SubjectCharts } from "../report/history-section.js";
import { buildReport, type Report } from "../report/model.js";
import { buildStatus, type MonitorStatus } from "../report/status.js";
import type { ReadState } from "../state/file.js";
import type { StateFile } from "../state/file.js";
import type { StateTopic } from "../state/topic.js";
import { feedStats } from "../stats/listener.js";
import { quartilesOverTime } from "../stats/over-time.js";
import { FieldStats } from "../stats/stats.js";
import type { CatalogSources } from "./catalog-sources.js";
import { CatalogUpdates } from "./catalog-updates.js";
import { internalErrorLogger } from "./diagnostics.js";
import { LifecycleRuntime, type Persistence } from "./lifecycle-runtime.js";
import { lifecycleListeners, newLifecycle } from "./lifecycle-setup.js";
import { validationThreadUrl } from "./validation-thread-url.js";
import type { Registry } from "prom-client";

export interface CoreInputs {
  readonly config: Config;
  readonly logger: Logger;
  readonly health: Health;
  readonly sources: CatalogSources;
  /** Live from Kafka; otherwise a replayed capture, judged on its own clock and saving nothing. */
  readonly live: boolean;
  /** Where the state is kept: the file read once at start (with what was read), or the state topic. */
  readonly state:
    | { readonly kind: "file"; readonly file: StateFile; readonly read: ReadState }
    | { readonly kind: "topic"; readonly topic: StateTopic }
    | { readonly kind: "none" };
  readonly workers: number;
  readonly version: string;
}

/** The monitor's core: everything between a record arriving and a number on /metrics. */
export interface Core {
  readonly pipeline: Pipeline;
  readonly pool: ValidationPool | undefined;
  readonly lifecycle: LifecycleRuntime;
  readonly updates: CatalogUpdates;
  readonly corpus: Corpus | undefined;
  /** Presence of each field of interest in every record. */
  readonly fields: FieldTallies;
  /** Field statistics and their findings (docs/stats.md); absent with `stats.enabled: false`. */
  readonly stats: FieldStats | undefined;
  /** Each subject's traffic over its drain window, in buckets (the page's charts). */
  readonly history: TrafficHistory;
  readonly metrics: Registry;
  /** When records are observed: advanced by the lifecycle's tick live, by the file source in a replay. */
  readonly clock: ObservationClock;
  catalog(): Catalog;
  /** What a subject's page draws over time: its traffic history and its fields' quartiles. */
  charts(subject: string): SubjectCharts;
  status(): MonitorStatus;
  report(): Report;
  /** Each rename's progress per producer (config `fields.replaces`), by subject, of the last judgement. */
  renames(): ReadonlyMap<string, RenameProgress[]>;
}

/**
 * Builds the core in the order each part's constructor needs the others: the corpus, the lifecycle
 * and the field tallies (what listens to records), the pipeline (given its listeners, its clock and its
 * validation), the lifecycle's runtime (given the pipeline), the catalog's updates, the metrics.
 */
export function buildCore(inputs: CoreInputs): Core {
  const { config, logger, health, sources, live, state } = inputs;
  const initial = sources.initial;
  const follower = sources.follower;
  const saved = state.kind === "file" ? state.read.sections : undefined;
  const corpus = config.corpus.enabled
    ? restoreCorpus(config, initial.catalog, saved?.corpus, logger)
    : undefined;
  // Live, the lifecycle's tick advances it; in a replay, the file source, by the capture's clock.
  const observationClock = new ObservationClock();
  const timing = {
    clock: live ? ("live" as const) : observationClock,
    ...(live ? { lagInterval: config.kafka.lagInterval } : {}),
  };
  const lifecycle = newLifecycle(initial.catalog, config, logger.child({ component: "lifecycle" }), timing);
  const listeners = lifecycleListeners(lifecycle);
  const fields = new FieldTallies(initial.catalog, MAX_FIELDS, fieldBlocks(config));
  // Buckets and findings on the monitor's clock: a replayed capture's "now" is the capture's clock.
  const statsNow = live ? Date.now : () => observationClock.now ?? Date.now();
  const history = new TrafficHistory({
    fields: (subject) => fields.subject(subject),
    now: statsNow,
    saved: saved?.history,
  });
  if (history.problem)
    logger.error({ problem: history.problem }, "the saved traffic history is unreadable; starting afresh");
  const stats = config.stats.enabled ? restoreStats(config, saved?.stats, logger, statsNow) : undefined;
  const renames = restoreRenames(fields, saved?.renames, logger);
  // Replicas sharing a state topic draw the group's traffic: their buckets travel through it.
  const historyShare = state.kind === "topic" ? new HistoryShare(history) : undefined;
  const pool =
    inputs.workers > 0
      ? new ValidationPool(inputs.workers, logger.child({ component: "workers" }), validationThreadUrl())
      : // On the consumer's thread too, every validation has its time budget: a batch's at the flush.
        new InThreadValidation(
          config.corpus.enabled,
          new ValidationBudget(config.validationTimeout),
          config.assertFormats,
        );
  const pipeline = new Pipeline(initial.catalog, config, {
    validated: [
      ...listeners.validated,
      ...(corpus ? [feedCorpus(corpus)] : []),
      ...(stats ? [feedStats(stats)] : []),
    ],
    unreadable: listeners.unreadable,
    // The history first: it folds the field tallies' counts in when a bucket ends, before the record
    // that starts the next is counted there.
    counted: [history.listener, fields.listener],
    internalError: internalErrorLogger(logger.child({ component: "pipeline" })),
    runner: pool,
    lookups: (subject) => sources.lookupsFor(subject),
    clock: observationClock,
  });
  const persistence: Persistence =
    state.kind === "file"
      ? {
          kind: "file",
          file: state.file,
          sections: (final) => ({
            ...(corpus ? { corpus: corpus.toJSON() } : {}),
            ...(follower ? { registry: follower.snapshots() } : {}),
            ...(stats ? { stats: stats.saved(Date.now(), final) } : {}),
            history: history.toJSON(),
            renames: renames.toJSON(),
          }),
        }
      : state.kind === "topic"
        ? {
            ...state,
            renames,
            ...(historyShare ? { history: historyShare } : {}),
            // Buckets sent once a minute (as the state file saves them), or once a bucket when shorter.
            ...(stats
              ? { stats: { share: stats.share, everyMs: Math.min(60_000, config.stats.bucket) } }
              : {}),
          }
        : state;
  const drainWindows = new Map(config.subjects.map((s) => [s.name, s.drainWindow]));
  const runtime = new LifecycleRuntime({
    lifecycle,
    pipeline,
    logger: logger.child({ component: "lifecycle" }),
    timing,
    persistence,
    observationClock,
    fieldFacts: () => fields.subjects(),
    // At each judgement's time, beside its field verdicts (a replayed capture's "now" is the
    // capture's), merged with the previous runs' counts and the other replicas' (nothing of them
    // without a state).
    renames: (now) => renames.progress(now, (s) => drainWindows.get(s) ?? 0),
    ...(follower ? { world: { registryDown: (subject: string) => follower.down(subject) } } : {}),
  });
  const updates = new CatalogUpdates({
    initial,
    pipeline,
    pool: pool instanceof ValidationPool ? pool : undefined,
    lifecycle,
    fields,
    logger: sources.log,
    onApplied: () => sources.complete(),
  });
  sources.follow(updates);
  const catalog = () => updates.current.catalog;
  const seriesBudget = new SeriesBudget(config.metrics.seriesBudget);
  const metrics = createRegistry({
    pipeline,
    health,
    catalog,
    ...(follower ? { registries: follower } : {}),
    version: inputs.version,
    lifecycle: runtime,
    producerDetail: config.metrics.producerDetail,
    seriesBudget,
    fields,
    ...(stats ? { stats } : {}),
  });
  const status = (): MonitorStatus => ({
    ...buildStatus(catalog(), pipeline, health, follower),
    seriesBudget: {
      limit: seriesBudget.limit,
      folded: seriesBudget.totalFolded(),
      deep: seriesBudget.folding && seriesBudget.depth === "writers",
    },
  });
  // The last judgement's, which the report's own judgement renews before it reads them.
  const renameProgress = () => runtime.renames();
  return {
    pipeline,
    pool: pool instanceof ValidationPool ? pool : undefined,
    lifecycle: runtime,
    updates,
    corpus,
    fields,
    stats,
    history,
    metrics,
    clock: observationClock,
    catalog,
    charts: (subject) => ({
      traffic: (historyShare ?? history).view(subject),
      bound: { lines: history.lines, maxLines: history.maxLines, dropped: history.dropped },
      ...(stats ? { quartiles: quartilesOverTime(stats.store, subject, stats.now()) } : {}),
    }),
    status,
    renames: renameProgress,
    report: () => buildReport(status(), pipeline.tallies, runtime, stats?.findings(), renameProgress),
  };
}

/** The corpus, restored from the state when it was saved there; bad saved content starts it afresh. */
function restoreCorpus(config: Config, catalog: Catalog, saved: unknown, logger: Logger): Corpus {
  const options = { maxShapes: config.corpus.maxShapes, redact: config.corpus.redact };
  if (saved === undefined) return new Corpus(options);
  try {
    return Corpus.fromJSON(saved as Parameters<typeof Corpus.fromJSON>[0], {
      ...options,
      schemaFor: (subjectName, writer) => {
        const subject = catalog.subjects.get(subjectName);
        if (!subject) return undefined;
        return (subject.byVersion.get(writer) ?? fallbackVersion(subject))?.file.json;
      },
    });
  } catch (error) {
    logger.error({ problem: messageOf(error) }, "the saved corpus is unreadable; starting an empty one");
    return new Corpus(options);
  }
}

/** The renames' ledger, with the counts the state file kept; an unreadable section starts afresh. */
function restoreRenames(fields: FieldTallies, saved: unknown, logger: Logger): RenameLedger {
  const renames = new RenameLedger(fields);
  const problem = renames.restore(saved);
  if (problem) logger.error({ problem }, "the saved renames' counts are unreadable; starting afresh");
  return renames;
}

/** The field statistics, restored from the state file when saved there; unreadable ones start afresh. */
function restoreStats(config: Config, saved: unknown, logger: Logger, now: () => number): FieldStats {
  const { stats, problem } = FieldStats.restore(config.stats, config.corpus.redact, saved, now);
  if (problem) logger.error({ problem }, "the saved field statistics are unreadable; starting afresh");
  return stats;
}
