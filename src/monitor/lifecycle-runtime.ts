// Over 350 lines, kept whole: the lifecycle's tick folds every source event, the clock, the judging and the save in one order that must hold; src/monitor/lifecycle-setup.ts already holds how it is built.
import type { Logger } from "pino";
import type { RenameLedger } from "../fields/rename-ledger.js";
import type { RenameProgress } from "../fields/rename-progress.js";
import type { PartitionEnds } from "../health/health.js";
import type { UndecodableBatch } from "../kafka/patches/index.js";
import type { KafkaSourceOptions } from "../kafka/options.js";
import { isSchemawatchError, messageOf } from "../errors.js";
import type { Lifecycle } from "../lifecycle/lifecycle.js";
import { DEFAULT_JUDGE_INTERVAL, type LifecycleTiming } from "./lifecycle-setup.js";
import type { FieldFacts } from "../lifecycle/field-evidence.js";
import type { FieldVerdict } from "../lifecycle/field-verdicts.js";
import type { World } from "../lifecycle/observation.js";
import { retiredRecords } from "../lifecycle/retired.js";
import type { Verdict } from "../lifecycle/verdicts.js";
import type { LifecycleView } from "../lifecycle/view.js";
import type { ObservationClock } from "../pipeline/clock.js";
import type { Pipeline } from "../pipeline/pipeline.js";
import type { RecordSink, SourceRecord } from "../pipeline/record.js";
import type { ReadState, StateFile } from "../state/file.js";
import type { HistoryShare } from "../history/share.js";
import type { StateTopic } from "../state/topic.js";
import type { StatsShare } from "../stats/share.js";

/** Where a running lifecycle keeps its evidence: a state file, the shared state topic, or nowhere. */
export type Persistence =
  | {
      readonly kind: "file";
      readonly file: StateFile;
      /**
       * The file's other sections (the corpus, the registry snapshots, the statistics, the renames),
       * read at each save; `final` at the last one before a stop.
       */
      readonly sections: (final: boolean) => {
        readonly corpus?: unknown;
        readonly registry?: unknown;
        readonly stats?: unknown;
        readonly history?: unknown;
        readonly renames?: unknown;
      };
    }
  | {
      readonly kind: "topic";
      readonly topic: StateTopic;
      /** The field statistics shared through it (when enabled), and how often their buckets are sent. */
      readonly stats?: { readonly share: StatsShare; readonly everyMs: number };
      /** The renames' progress, shared through it. */
      readonly renames?: RenameLedger;
      /** The traffic history, shared through it. */
      readonly history?: HistoryShare;
    }
  | { readonly kind: "none" };

export interface LifecycleRuntimeOptions {
  readonly lifecycle: Lifecycle;
  /** The pipeline that tells the lifecycle of its records (`lifecycleListeners`). */
  readonly pipeline: Pipeline;
  readonly logger: Logger;
  readonly timing: LifecycleTiming;
  /** A live runtime advances it every 250 ms: the pipeline's observation time of records. */
  readonly observationClock?: ObservationClock;
  readonly persistence: Persistence;
  /**
   * What verdicts read of the world besides the evidence: the registries, and the records waiting
   * for a lookup (by default the pipeline's held records).
   */
  readonly world?: Pick<World, "registryDown" | "waitingForLookups">;
  /** The field tallies (`FieldTallies.subjects`), folded into the field evidence at each judgement. */
  readonly fieldFacts?: () => Iterable<FieldFacts>;
  /**
   * The renames' progress at a judgement: at its time, beside its field verdicts, so that the report
   * reads a rename's steps and its field's verdict from one snapshot.
   */
  readonly renames?: (now: number) => RenamesBySubject;
}

/** Each subject's renames (src/fields/rename-progress.ts), by subject name. */
export type RenamesBySubject = ReadonlyMap<string, RenameProgress[]>;

/**
 * Runs the lifecycle in a live monitor or a replay: the source's events (assignments, batches, lag
 * measurements), a coarse clock tick, periodic verdicts, and the state's saves.
 */
export class LifecycleRuntime implements LifecycleView {
  readonly lifecycle: Lifecycle;
  readonly #pipeline: Pipeline;
  readonly #observationClock: ObservationClock | undefined;
  readonly #replay: ObservationClock | undefined;
  readonly #log: Logger;
  readonly #persistence: Persistence;
  readonly #interval: number;
  readonly #world: World;
  #timer: NodeJS.Timeout | undefined;
  #lastJudged = 0;
  #lastShared = 0;
  /** Each topic's last lag measurement, as the source reported it. */
  readonly #measured = new Map<
    string,
    { lag: ReadonlyMap<number, number>; ends: ReadonlyMap<number, PartitionEnds> | undefined; at: number }
  >();
  /** The lag measurement of each topic last folded in (its start time). */
  readonly #listedAt = new Map<string, number>();
  #verdicts = new Map<string, Verdict>();
  readonly #fieldFacts: (() => Iterable<FieldFacts>) | undefined;
  #fieldVerdicts = new Map<string, FieldVerdict>();
  readonly #renamesAt: LifecycleRuntimeOptions["renames"];
  #renames: RenamesBySubject = new Map();
  #fieldsFoldedAt = Number.NEGATIVE_INFINITY;
  /** A problem with the state, for the report; undefined when the state was fine. */
  stateProblem: string | undefined;

  constructor(options: LifecycleRuntimeOptions) {
    this.lifecycle = options.lifecycle;
    this.#pipeline = options.pipeline;
    this.#log = options.logger;
    this.#persistence = options.persistence;
    this.#interval = options.timing.judgeInterval ?? DEFAULT_JUDGE_INTERVAL;
    this.#observationClock = options.observationClock;
    this.#fieldFacts = options.fieldFacts;
    this.#renamesAt = options.renames;
    this.#replay = options.timing.clock === "live" ? undefined : options.timing.clock;
    const pipeline = options.pipeline;
    const topic = options.persistence.kind === "topic" ? options.persistence.topic : undefined;
    this.#world = {
      waitingForLookups: (name) => pipeline.waitingForLookupsOn(name),
      ...options.world,
      ...topic?.world,
    };
  }

  /**
   * Takes the state read at start (the file's lifecycle section, or the state topic read to its end);
   * unreadable state is reported and becomes a coverage gap, never zero traffic.
   */
  async load(saved: ReadState = {}): Promise<void> {
    const persistence = this.#persistence;
    if (persistence.kind === "topic") {
      try {
        const records = await persistence.topic.start(
          this.lifecycle,
          (problem) => {
            this.stateProblem = problem;
            this.#log.error({ problem }, "lifecycle state record unreadable");
          },
          persistence.stats?.share,
          persistence.renames,
          persistence.history,
        );
        this.#log.info(
          { records, replica: persistence.topic.replica },
          "lifecycle state read from the state topic",
        );
      } catch (error) {
        this.#unreadable(error);
      }
      return;
    }
    if (saved.problem !== undefined) return this.#unreadable(saved.problem);
    const state = saved.sections?.lifecycle;
    if (state) {
      this.lifecycle.restore(state);
      this.#log.info(
        {
          path: persistence.kind === "file" ? persistence.file.path : undefined,
          partitions: state.partitions.length,
        },
        "lifecycle state restored",
      );
    }
  }

  #unreadable(error: unknown): void {
    this.stateProblem = isSchemawatchError(error) ? error.message : messageOf(error);
    this.#log.error({ problem: this.stateProblem }, "lifecycle state unreadable: every window restarts now");
    const topics = [...this.lifecycle.subjects].flatMap((s) => [...s.subject.topics]);
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
    this.#observationClock?.advance(now);
    this.lifecycle.coverage.tick(now);
    this.#foldFields(now);
    this.#listPartitions(now);
    if (now - this.#lastJudged >= this.#interval) {
      this.#lastJudged = now;
      this.verdicts();
      void this.save();
    } else if (this.#persistence.kind === "topic" && now - this.#lastShared >= 1_000) {
      this.#lastShared = now;
      this.#foldDeclared();
      this.#persistence.topic.publishVersions(this.lifecycle).catch((error: unknown) => {
        this.#log.error({ problem: messageOf(error) }, "could not publish version evidence");
      });
    }
  }

  /** What the Kafka source tells the lifecycle: given to the source at its construction. */
  readonly sourceEvents: Required<
    Pick<
      KafkaSourceOptions,
      | "onAssigned"
      | "onRevoked"
      | "onTopicMissing"
      | "onStartOffset"
      | "onBatchEnd"
      | "onReadPast"
      | "onUndecodable"
      | "onLagMeasured"
    >
  > = {
    onAssigned: (assignment) => this.lifecycle.coverage.assigned(assignment, this.lifecycle.now()),
    onRevoked: () => {
      const owned = this.lifecycle.coverage.owned();
      this.lifecycle.coverage.revoked(this.lifecycle.now());
      // The next owner continues from this last word on the offsets, as after a restart.
      if (this.#persistence.kind === "topic")
        this.#persistence.topic.publishCoverage(owned).catch((error: unknown) => {
          this.#log.error({ problem: messageOf(error) }, "could not publish coverage on revocation");
        });
    },
    onTopicMissing: (topic) => this.lifecycle.coverage.topicMissing(topic, this.lifecycle.now()),
    onStartOffset: (topic, partition, offset) =>
      this.lifecycle.coverage.startsAnew(topic, partition, offset, this.lifecycle.now()),
    onBatchEnd: (topic, partition, first, last, highWatermark) =>
      this.lifecycle.coverage.processed(topic, partition, first, last, this.lifecycle.now(), highWatermark),
    onReadPast: (topic, partition, last, highWatermark) =>
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
    onLagMeasured: (topic, lag, ends, at) => this.#measured.set(topic, { lag, ends, at }),
  };

  /**
   * A sink for replayed captures: each record its own batch, observed when the capture's clock says
   * (the source advances it before each record), never at the record's own timestamp.
   */
  replaySink(): RecordSink {
    const pipeline = this.#pipeline;
    const replay = this.#replay;
    if (!replay) throw new Error("a live lifecycle has no replay sink");
    return {
      process: (record: SourceRecord) => {
        const at = replay.now ?? 0;
        // Stryker disable next-line EqualityOperator: at equal times the assignment changes nothing
        if (at < this.lifecycle.startedAt) this.lifecycle.startedAt = at;
        let known = this.lifecycle.knownPartitions.get(record.topic);
        if (!known) this.lifecycle.knownPartitions.set(record.topic, (known = new Set()));
        if (!known.has(record.partition)) {
          known.add(record.partition);
          // A capture is read whole: every partition in it counts as assigned, from its first record.
          this.lifecycle.coverage.alsoAssigned(record.topic, record.partition, at, false);
        }
        this.lifecycle.coverage.processed(record.topic, record.partition, record.offset, record.offset, at);
        this.#foldFields(at);
        pipeline.process(record);
      },
      unreadable: (topic, partition, reason) => pipeline.unreadable(topic, partition, reason),
      flush: () => pipeline.flush(),
    };
  }

  /**
   * Every partition the last lag measurement listed, and which of them have caught up; once per
   * measurement, the partitions that went away and the transactions open.
   */
  #listPartitions(now: number): void {
    const coverage = this.lifecycle.coverage;
    for (const [topic, { lag: partitions, ends, at: measuredAt }] of this.#measured) {
      const fresh = this.#listedAt.get(topic) !== measuredAt;
      if (fresh) {
        this.#listedAt.set(topic, measuredAt);
        // The brokers list every partition: the known set is theirs, not the union of all ever seen.
        this.lifecycle.knownPartitions.set(topic, new Set(partitions.keys()));
        const gone = coverage.partitionsListed(topic, partitions.keys(), now);
        if (gone.length > 0)
          this.#log.warn({ topic, gone }, "partitions of a monitored topic are gone: its windows restart");
        for (const [partition, end] of ends ?? [])
          coverage.endsMeasured(topic, partition, end, partitions.get(partition) ?? 0, measuredAt);
      }
      for (const [partition, lag] of partitions) coverage.lagMeasured(topic, partition, lag, measuredAt, now);
    }
  }

  /**
   * Current verdicts, after folding in what the tallies know about declared versions; a producer seen
   * sending a retired version is warned of here, once.
   */
  verdicts(): Map<string, Verdict> {
    this.#listPartitions(this.lifecycle.now());
    this.#foldDeclared();
    this.lifecycle.retired.observe(retiredRecords(this.#pipeline.tallies.allSeries));
    this.#verdicts = this.lifecycle.judge(this.#world);
    const now = this.lifecycle.now();
    this.#foldFields(now, true);
    this.#fieldVerdicts = this.lifecycle.judgeFields(this.#world, now);
    this.#renames = this.#renamesAt?.(now) ?? this.#renames;
    return this.#verdicts;
  }

  /** The renames' progress of the last judgement (after `verdicts()`), read with its field verdicts. */
  renames(): RenamesBySubject {
    return this.#renames;
  }

  /**
   * The field tallies into the field evidence, at most once a second (and at each judgement): what
   * they counted meanwhile is dated now, so the shares over a window are right to the second.
   */
  #foldFields(now: number, always = false): void {
    if (!this.#fieldFacts || (!always && now - this.#fieldsFoldedAt < 1_000)) return;
    this.#fieldsFoldedAt = now;
    this.lifecycle.observeFields(this.#fieldFacts());
  }

  fieldVerdicts(): ReadonlyMap<string, FieldVerdict> {
    return this.#fieldVerdicts;
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
    const p = this.#persistence;
    if (p.kind === "topic") return `the state topic ${p.topic.topic}`;
    return p.kind === "file" ? `the state file ${p.file.path}` : undefined;
  }

  /**
   * Saves the state; resolves to the problem when it could not (logged), else undefined. `final`: the
   * last save before a stop, which sends the field statistics whatever their own cadence.
   */
  async save(final = false): Promise<string | undefined> {
    const p = this.#persistence;
    if (p.kind === "topic") {
      try {
        await p.topic.publish(this.lifecycle, this.lifecycle.coverage.owned(), {
          everyMs: p.stats?.everyMs ?? Number.POSITIVE_INFINITY,
          final,
        });
      } catch (error) {
        this.#log.error({ problem: messageOf(error) }, "could not publish lifecycle state");
        return messageOf(error);
      }
      return undefined;
    }
    if (p.kind === "none") return undefined;
    try {
      await p.file.write({ lifecycle: this.lifecycle.toState(), ...p.sections(final) });
    } catch (error) {
      this.#log.error({ path: p.file.path, problem: messageOf(error) }, "could not save lifecycle state");
      return messageOf(error);
    }
    return undefined;
  }

  /** Stops judging and saves the state a last time: the problem when it could not, else undefined. */
  async stop(): Promise<string | undefined> {
    if (this.#timer) clearInterval(this.#timer);
    this.verdicts();
    return this.save(true);
  }

  /** Closes the state topic's clients, after the last save. */
  async close(): Promise<void> {
    if (this.#persistence.kind === "topic") await this.#persistence.topic.stop();
  }
}
