import type { Logger } from "pino";
import type { UndecodableBatch } from "../kafka/decode-guard.js";
import type { Health } from "../health/health.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { RecordSink, SourceRecord } from "../pipeline/record.js";
import { isSchemawatchError, messageOf } from "../errors.js";
import { Lifecycle, type LifecycleSubject } from "../lifecycle/lifecycle.js";
import { loadState, saveState } from "../state/file.js";
import type { StateTopic } from "../state/topic.js";
import type { Verdict } from "../lifecycle/verdicts.js";
import type { LifecycleView } from "../lifecycle/view.js";

export interface LifecycleRuntimeOptions {
  readonly pipeline: Pipeline;
  readonly health: Health;
  readonly logger: Logger;
  /** Live: the monitor's clock. Replay: the records' own timestamps. */
  readonly clock: "live" | "records";
  readonly statePath?: string;
  /** Several replicas: the shared, compacted state topic instead of the file. */
  readonly stateTopic?: StateTopic;
  /** Milliseconds between verdicts (and state saves). */
  readonly judgeInterval?: number;
  /**
   * Live from Kafka: the lag interval, in ms. Partition ends (open transactions) measured longer ago
   * than two of them and 30 s leave a topic's verdicts waiting.
   */
  readonly lagInterval?: number;
}

/** The subjects of a pipeline with their lifecycle settings. */
export function lifecycleSubjects(pipeline: Pipeline): LifecycleSubject[] {
  return [...pipeline.subjects.values()].map((s) => ({
    subject: s.subject,
    drainWindow: s.config.drainWindow,
    readyWindow: s.config.readyWindow,
    minSamples: s.config.minSamples,
  }));
}

/**
 * Wires the lifecycle into a running monitor: the pipeline's validated records, the source's
 * assignments and batches, a clock tick, periodic verdicts, and the state file.
 */
export class LifecycleRuntime implements LifecycleView {
  readonly lifecycle: Lifecycle;
  readonly #pipeline: Pipeline;
  readonly #health: Health;
  readonly #log: Logger;
  readonly #statePath: string | undefined;
  readonly #stateTopic: StateTopic | undefined;
  readonly #interval: number;
  #eventClock = 0;
  #timer: NodeJS.Timeout | undefined;
  #lastJudged = 0;
  #lastShared = 0;
  /** The lag measurement of each topic last folded in (its start time). */
  readonly #listedAt = new Map<string, number>();
  #verdicts = new Map<string, Verdict>();
  /** A problem with the state, for the report; undefined when the state was fine. */
  stateProblem: string | undefined;
  /** Extra state saved alongside the evidence (the corpus), and what was restored of it. */
  extraState: (() => unknown) | undefined;
  restoredExtra: unknown;
  /** The registry snapshots saved alongside the evidence in the state file (read back at start-up). */
  registryState: (() => unknown) | undefined;

  constructor(options: LifecycleRuntimeOptions) {
    this.#pipeline = options.pipeline;
    this.#health = options.health;
    this.#log = options.logger;
    this.#statePath = options.statePath;
    this.#stateTopic = options.stateTopic;
    this.#interval = options.judgeInterval ?? 10_000;
    const now = options.clock === "live" ? () => Date.now() : () => this.#eventClock;
    this.lifecycle = new Lifecycle(lifecycleSubjects(options.pipeline), options.logger, now);
    // Other replicas publish every interval: two missed publishes (and 5 s for the broker) mean gone.
    this.lifecycle.coverage.sharedSlackMs = 2 * this.#interval + 5_000;
    if (options.lagInterval !== undefined)
      this.lifecycle.coverage.endsStaleAfterMs = 2 * options.lagInterval + 30_000;
    if (options.clock === "records") this.lifecycle.startedAt = Number.POSITIVE_INFINITY;
    const previous = this.#pipeline.onValidated;
    this.#pipeline.onValidated = (record) => {
      // First: the hooks before it (the corpus) walk the document and may fail on a deep one.
      this.lifecycle.validated(
        record.subject.subject.name,
        record.subject.results,
        record.producer,
        record.writer,
        record.observedAt,
      );
      previous?.(record);
    };
    this.lifecycle.waitingForLookups = (topic) => this.#pipeline.waitingForLookupsOn(topic);
    this.#pipeline.onUnreadable = (subject, topic, partition, reason, records, at) =>
      this.lifecycle.unreadable(subject.subject.name, topic, partition, reason, records, at);
  }

  /** Loads the state file; unreadable state is reported and becomes a coverage gap, never zero traffic. */
  async load(): Promise<void> {
    if (this.#stateTopic) {
      try {
        const records = await this.#stateTopic.start(this.lifecycle, (problem) => {
          this.stateProblem = problem;
          this.#log.error({ problem }, "lifecycle state record unreadable: treated as a coverage gap");
        });
        this.#log.info(
          { records, replica: this.#stateTopic.replica },
          "lifecycle state read from the state topic",
        );
      } catch (error) {
        this.#unreadable(error);
      }
      return;
    }
    if (!this.#statePath) return;
    try {
      const state = await loadState(this.#statePath);
      if (state) {
        this.lifecycle.restore(state);
        this.restoredExtra = state.corpus;
        this.#log.info(
          { path: this.#statePath, partitions: state.partitions.length },
          "lifecycle state restored",
        );
      }
    } catch (error) {
      this.#unreadable(error);
    }
  }

  #unreadable(error: unknown): void {
    this.stateProblem = isSchemawatchError(error) ? error.message : messageOf(error);
    this.#log.error({ problem: this.stateProblem }, "lifecycle state unreadable: every window restarts now");
    const topics = [...this.#pipeline.subjects.values()].flatMap((s) => [...s.subject.topics]);
    this.lifecycle.coverage.invalidateAll(this.lifecycle.now(), this.stateProblem, topics);
  }

  /** Live sources: tick the coarse clock every 250 ms and judge every `judgeInterval`. */
  startTicking(): void {
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), 250);
    // Stryker disable next-line CallExpression: only lets the process exit while it ticks; a test cannot see it
    this.#timer.unref();
  }

  #tick(): void {
    const now = Date.now();
    this.#pipeline.observedAt = now;
    this.lifecycle.coverage.tick(now);
    this.#listPartitions(now);
    if (now - this.#lastJudged >= this.#interval) {
      this.#lastJudged = now;
      this.verdicts();
      void this.save();
    } else if (this.#stateTopic && now - this.#lastShared >= 1_000) {
      this.#lastShared = now;
      this.#foldDeclared();
      this.#stateTopic.publishVersions(this.lifecycle).catch((error: unknown) => {
        this.#log.error({ problem: messageOf(error) }, "could not publish version evidence");
      });
    }
  }

  /** KafkaSource hooks. */
  readonly hooks = {
    onAssigned: (assignment: Map<string, number[]>) =>
      this.lifecycle.coverage.assigned(assignment, this.lifecycle.now()),
    onRevoked: () => {
      const owned = this.lifecycle.coverage.owned();
      this.lifecycle.coverage.revoked(this.lifecycle.now());
      // The next owner continues from this last word on the offsets, as after a restart.
      this.#stateTopic?.publishCoverage(owned).catch((error: unknown) => {
        this.#log.error({ problem: messageOf(error) }, "could not publish coverage on revocation");
      });
    },
    onTopicMissing: (topic: string) => this.lifecycle.coverage.topicMissing(topic, this.lifecycle.now()),
    onStartOffset: (topic: string, partition: number, offset: string) =>
      this.lifecycle.coverage.startsAnew(topic, partition, offset, this.lifecycle.now()),
    onBatchEnd: (topic: string, partition: number, first: string, last: string, highWatermark: string) =>
      this.lifecycle.coverage.processed(topic, partition, first, last, this.lifecycle.now(), highWatermark),
    onReadPast: (topic: string, partition: number, last: string, highWatermark: string) =>
      this.lifecycle.coverage.readPast(topic, partition, last, this.lifecycle.now(), highWatermark),
    onUndecodable: (topic: string, partition: number, batch: UndecodableBatch) => {
      this.lifecycle.coverage.undecodable(
        topic,
        partition,
        batch.firstOffset,
        batch.lastOffset,
        this.lifecycle.now(),
        batch.problem,
      );
      this.#pipeline.undecodableBatch(topic, partition, batch.records);
    },
  };

  /** A sink for replayed captures: the records' timestamps are the clock, each record its own batch. */
  replaySink(): RecordSink {
    return {
      process: (record: SourceRecord) => {
        // Stryker disable next-line EqualityOperator: at equal timestamps the assignment changes nothing
        if (record.timestamp > this.#eventClock) this.#eventClock = record.timestamp;
        // Stryker disable next-line EqualityOperator: at equal timestamps the assignment changes nothing
        if (record.timestamp < this.lifecycle.startedAt) this.lifecycle.startedAt = record.timestamp;
        let known = this.lifecycle.knownPartitions.get(record.topic);
        if (!known) this.lifecycle.knownPartitions.set(record.topic, (known = new Set()));
        if (!known.has(record.partition)) {
          known.add(record.partition);
          // A capture is read whole: every partition in it counts as assigned, from its first record.
          this.lifecycle.coverage.alsoAssigned(record.topic, record.partition, record.timestamp, false);
        }
        this.lifecycle.coverage.processed(
          record.topic,
          record.partition,
          record.offset,
          record.offset,
          record.timestamp,
        );
        this.#pipeline.process(record);
      },
      flush: () => this.#pipeline.flush(),
    };
  }

  /**
   * Every partition the last lag measurement listed, and which of them have caught up; once per
   * measurement, the partitions that went away and the transactions open.
   */
  #listPartitions(now: number): void {
    const coverage = this.lifecycle.coverage;
    for (const [topic, partitions] of this.#health.lag) {
      const measuredAt = this.#health.lagMeasuredAt.get(topic) ?? 0;
      const fresh = this.#listedAt.get(topic) !== measuredAt;
      if (fresh) {
        this.#listedAt.set(topic, measuredAt);
        // The brokers list every partition: the known set is theirs, not the union of all ever seen.
        this.lifecycle.knownPartitions.set(topic, new Set(partitions.keys()));
        const gone = coverage.partitionsListed(topic, partitions.keys(), now);
        if (gone.length > 0)
          this.#log.warn({ topic, gone }, "partitions of a monitored topic are gone: its windows restart");
        const ends = this.#health.ends.get(topic);
        for (const [partition, end] of ends ?? [])
          coverage.endsMeasured(topic, partition, end, partitions.get(partition) ?? 0, measuredAt);
      }
      for (const [partition, lag] of partitions) coverage.lagMeasured(topic, partition, lag, measuredAt, now);
    }
  }

  /** Current verdicts, after folding in what the tallies know about declared versions. */
  verdicts(): Map<string, Verdict> {
    this.#listPartitions(this.lifecycle.now());
    this.#foldDeclared();
    this.#verdicts = this.lifecycle.judge();
    return this.#verdicts;
  }

  #foldDeclared(): void {
    for (const series of this.#pipeline.tallies.allSeries) {
      if (!series.writer || series.lastObservedMs === 0) continue;
      const labels = series.count.labels;
      this.lifecycle.declared(labels.subject, labels.writer_version, labels.producer, series.lastObservedMs);
    }
  }

  verdict(subject: string, version: string): Verdict | undefined {
    return this.#verdicts.get(`${subject}\u0000${version}`);
  }

  /** Where the state is kept, for the log; undefined when this runtime keeps none (a replay). */
  get stateAt(): string | undefined {
    if (this.#stateTopic) return `the state topic ${this.#stateTopic.topic}`;
    return this.#statePath === undefined ? undefined : `the state file ${this.#statePath}`;
  }

  /** Saves the state; resolves to the problem when it could not (logged), else undefined. */
  async save(): Promise<string | undefined> {
    if (this.#stateTopic) {
      try {
        await this.#stateTopic.publish(this.lifecycle, this.lifecycle.coverage.owned());
      } catch (error) {
        this.#log.error({ problem: messageOf(error) }, "could not publish lifecycle state");
        return messageOf(error);
      }
      return undefined;
    }
    if (!this.#statePath) return undefined;
    try {
      const extra = this.extraState?.();
      const registry = this.registryState?.();
      await saveState(this.#statePath, {
        ...this.lifecycle.toState(),
        ...(extra === undefined ? {} : { corpus: extra }),
        ...(registry === undefined ? {} : { registry }),
      });
    } catch (error) {
      this.#log.error({ path: this.#statePath, problem: messageOf(error) }, "could not save lifecycle state");
      return messageOf(error);
    }
    return undefined;
  }

  /** Stops judging and saves the state a last time: the problem when it could not, else undefined. */
  async stop(): Promise<string | undefined> {
    if (this.#timer) clearInterval(this.#timer);
    this.verdicts();
    return this.save();
  }

  /** Closes the state topic's clients, after the last save. */
  async close(): Promise<void> {
    await this.#stateTopic?.stop();
  }
}
