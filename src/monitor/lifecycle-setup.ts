import type { Logger } from "pino";
import type { Catalog } from "../catalog/types.js";
import type { Config } from "../config/types.js";
import { Lifecycle, type LifecycleSubject } from "../lifecycle/lifecycle.js";
import type { ObservationClock } from "../pipeline/clock.js";
import type { PipelineHooks } from "../pipeline/pipeline.js";

// The lifecycle as the monitor builds it: its subjects from the config and the catalog, its clock and
// coverage rules from the timing, and the pipeline's listeners that tell it of each record. The
// runtime that ticks it is lifecycle-runtime.ts.

/** The lifecycle settings of the config's subjects that the catalog has. */
export function lifecycleSubjects(catalog: Catalog, config: Config): LifecycleSubject[] {
  return config.subjects.flatMap((s) => {
    const subject = catalog.subjects.get(s.name);
    return subject
      ? [{ subject, drainWindow: s.drainWindow, readyWindow: s.readyWindow, minSamples: s.minSamples }]
      : [];
  });
}

export interface LifecycleTiming {
  /**
   * Live: the monitor's clock. Replay: the capture's clock, which the file source advances before each
   * record (`source/capture-clock.ts`: the capture's order, and the timestamps it believes).
   */
  readonly clock: "live" | ObservationClock;
  /** Milliseconds between verdicts (and state saves); default 10 s. */
  readonly judgeInterval?: number;
  /**
   * Live from Kafka: the lag interval, in ms. Partition ends (open transactions) measured longer ago
   * than two of them and 30 s leave a topic's verdicts waiting.
   */
  readonly lagInterval?: number;
}

/** Milliseconds between verdicts (and state saves) when the timing does not say. */
export const DEFAULT_JUDGE_INTERVAL = 10_000;

/** The lifecycle of the config's subjects, with the coverage rules its timing implies. */
export function newLifecycle(
  catalog: Catalog,
  config: Config,
  logger: Logger,
  timing: LifecycleTiming,
): Lifecycle {
  const interval = timing.judgeInterval ?? DEFAULT_JUDGE_INTERVAL;
  const replay = timing.clock === "live" ? undefined : timing.clock;
  return new Lifecycle(
    lifecycleSubjects(catalog, config),
    logger,
    replay ? () => replay.now ?? 0 : () => Date.now(),
    {
      coverage: {
        // Other replicas publish every interval: two missed publishes (and 5 s for the broker) mean gone.
        sharedSlackMs: 2 * interval + 5_000,
        ...(timing.lagInterval === undefined ? {} : { endsStaleAfterMs: 2 * timing.lagInterval + 30_000 }),
      },
      ...(replay ? { startedAt: Number.POSITIVE_INFINITY } : {}),
    },
  );
}

/**
 * What the pipeline tells the lifecycle, given to the pipeline at its construction. First among the
 * validated listeners: the ones after it (the corpus) walk the document and may fail on a deep one.
 */
export function lifecycleListeners(
  lifecycle: Lifecycle,
): Required<Pick<PipelineHooks, "validated" | "unreadable">> {
  return {
    validated: [
      (record) =>
        lifecycle.validated(
          record.subject.subject.name,
          record.subject.results,
          record.producer,
          record.writer,
          record.observedAt,
        ),
    ],
    unreadable: [
      (subject, topic, partition, reason, records, at) =>
        lifecycle.unreadable(subject.subject.name, topic, partition, reason, records, at),
    ],
  };
}
