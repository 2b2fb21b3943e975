// Over 350 lines, kept whole: the lifecycle's one state (evidence per version, candidate and field) and the judging of it, whose parts share that state; the pure judging already lives in verdicts.ts and field-verdicts.ts.
import type { Logger } from "pino";
import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import type { ReaderResult } from "../engine/evaluate.js";
import { Coverage, type CoverageOptions, type PartitionCoverage } from "./coverage.js";
import {
  emptyCandidateEvidence,
  emptyVersionEvidence,
  mergeUnreadable,
  type CandidateEvidence,
  type UnreadableEvidence,
  type VersionEvidence,
} from "./evidence.js";
import { FieldEvidence, type FieldEvidenceState, type FieldFacts } from "./field-evidence.js";
import { fieldWindowMs, judgeFields, type FieldVerdict } from "./field-verdicts.js";
import type { Observation, World } from "./observation.js";
import { RetiredTraffic } from "./retired.js";
import { judgeCandidate, judgeDeprecated, type Verdict } from "./verdicts.js";

export interface LifecycleSubject {
  readonly subject: CatalogSubject;
  /** Seconds. */
  readonly drainWindow: number;
  readonly readyWindow: number;
  readonly minSamples: number;
}

export interface LifecycleOptions {
  readonly coverage?: CoverageOptions;
  /**
   * When observation began (ms); default now. A replayed capture starts at +Infinity and takes its
   * first record's time.
   */
  readonly startedAt?: number;
}

/** Serializable evidence, the content of the state file (and of the state topic's records). */
export interface LifecycleState {
  readonly format: 1;
  readonly savedAt: number;
  readonly startedAt: number;
  readonly partitions: PartitionCoverage[];
  readonly versions: Record<string, Record<string, VersionEvidence>>;
  readonly candidates: Record<string, Record<string, CandidateEvidence>>;
  /** Per subject, the records whose version could not be read (absent in state of older versions). */
  readonly unreadable?: Record<string, UnreadableEvidence[]>;
  /**
   * Per subject and version, when a monitor saw the version turn retired (ms): the date its alarm
   * names (absent in state of older versions).
   */
  readonly retiredSince?: Record<string, Record<string, number>>;
  /** Per subject, its fields' evidence (absent in state of older versions). */
  readonly fields?: Record<string, FieldEvidenceState>;
  /** The corpus of real shapes, when it is enabled (its own JSON form, see src/corpus). */
  readonly corpus?: unknown;
  /**
   * The last good snapshot of every registry subject (src/registry), so that a restart while the
   * registry is down still knows the registered versions and their ids. State file only.
   */
  readonly registry?: unknown;
}

/**
 * Gathers the evidence behind "drained" and "ready" and judges it: per-partition coverage, when each
 * version was last declared (or needed by undeclared records), and each candidate's failures. The
 * clock is the monitor's for a live source and the records' own for a replayed capture.
 */
export class Lifecycle {
  readonly coverage: Coverage;
  /** Records of retired versions: when each turned retired, and the warnings once per producer. */
  readonly retired: RetiredTraffic;
  readonly #subjects = new Map<string, LifecycleSubject>();
  readonly #versions = new Map<string, Map<string, VersionEvidence>>();
  readonly #candidates = new Map<string, Map<string, CandidateEvidence>>();
  /** Per subject, keyed by topic, partition and reason. */
  readonly #unreadable = new Map<string, Map<string, UnreadableEvidence>>();
  readonly #verdicts = new Map<string, Verdict>();
  /** Each field's evidence: when records last carried it, lacked it, could not be read, per producer. */
  readonly fields = new FieldEvidence();
  readonly #fieldVerdicts = new Map<string, FieldVerdict>();
  /**
   * From when the field evidence is whole: undefined, since this process started (`startedAt`, which
   * a replay moves to its first record); -Infinity once restored from state that kept it.
   */
  #fieldsSince: number | undefined;
  readonly #log: Logger;
  readonly #now: () => number;
  /** Partitions of each topic as the brokers report them (all of them, not only this member's). */
  readonly knownPartitions = new Map<string, Set<number>>();
  startedAt: number;
  constructor(
    subjects: readonly LifecycleSubject[],
    logger: Logger,
    now: () => number,
    options: LifecycleOptions = {},
  ) {
    this.#log = logger;
    this.#now = now;
    this.coverage = new Coverage(options.coverage);
    this.retired = new RetiredTraffic(logger);
    this.startedAt = options.startedAt ?? now();
    for (const s of subjects) this.#subjects.set(s.subject.name, s);
  }

  get subjects(): IterableIterator<LifecycleSubject> {
    return this.#subjects.values();
  }

  /**
   * After a catalog reload: new versions and candidates start with empty evidence; a version that
   * turned retired is dated from now.
   */
  replaceSubjects(subjects: readonly LifecycleSubject[]): void {
    for (const s of subjects) {
      const before = this.#subjects.get(s.subject.name);
      if (before) this.retired.catalogChanged(before.subject, s.subject, this.#now());
    }
    this.#subjects.clear();
    for (const s of subjects) this.#subjects.set(s.subject.name, s);
  }

  version(subject: string, version: string): VersionEvidence {
    let versions = this.#versions.get(subject);
    if (!versions) this.#versions.set(subject, (versions = new Map()));
    let evidence = versions.get(version);
    if (!evidence) versions.set(version, (evidence = emptyVersionEvidence()));
    return evidence;
  }

  candidate(subject: string, version: string): CandidateEvidence {
    let candidates = this.#candidates.get(subject);
    if (!candidates) this.#candidates.set(subject, (candidates = new Map()));
    let evidence = candidates.get(version);
    if (!evidence) candidates.set(version, (evidence = emptyCandidateEvidence()));
    return evidence;
  }

  /** Every record with a declared version. Cheap: called from the evaluation of verdicts, not per record. */
  declared(subject: string, version: string, producer: string, at: number): void {
    const evidence = this.version(subject, version);
    if (at > evidence.lastDeclaredAt) {
      evidence.lastDeclaredAt = at;
      evidence.lastDeclaredBy = producer;
    }
  }

  /** A validated record: candidate evidence, and the versions undeclared records depend on. */
  validated(
    subject: string,
    results: readonly ReaderResult[],
    producer: string,
    writer: CatalogVersion | undefined,
    at: number,
  ): void {
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if (result.reader.status !== "candidate") continue;
      this.candidateResult(subject, result.reader.version.text, producer, result, at);
    }
    if (writer) return;
    // An undeclared record still needs a deprecated version when it passes it and fails every newer
    // active one: removing that version would leave no schema that accepts it. Kept for active versions
    // too, so that one deprecated later (a reload, a registry state) starts with what traffic needed.
    for (let i = 0; i < results.length; i++) {
      const result = results[i]!;
      if (result.reader.status === "candidate" || !result.passed) continue;
      let newerActivePasses = false;
      for (let j = i + 1; j < results.length; j++) {
        const newer = results[j]!;
        if (newer.reader.status === "active" && newer.passed) newerActivePasses = true;
      }
      if (!newerActivePasses) {
        const evidence = this.version(subject, result.reader.version.text);
        evidence.undeclaredDependents++;
        if (at > evidence.lastUndeclaredAt) evidence.lastUndeclaredAt = at;
      }
    }
  }

  /** Records of a partition whose version could not be read (one record, or a whole undecodable batch). */
  unreadable(
    subject: string,
    topic: string,
    partition: number,
    reason: string,
    records: number,
    at: number,
  ): void {
    let entries = this.#unreadable.get(subject);
    if (!entries) this.#unreadable.set(subject, (entries = new Map()));
    const key = `${topic}\u0000${partition}\u0000${reason}`;
    const entry = entries.get(key);
    if (!entry) entries.set(key, { topic, partition, reason, records, firstAt: at, lastAt: at });
    else {
      entry.records += records;
      if (at > entry.lastAt) entry.lastAt = at;
      if (at < entry.firstAt) entry.firstAt = at;
    }
  }

  /** Whether the subject's version is retired in the catalog in use. */
  subjectRetired(subject: string, version: string): boolean {
    return this.#subjects.get(subject)?.subject.byVersion.get(version)?.status === "retired";
  }

  /**
   * The field evidence is whole all along, as far as this replica knows: set when the state topic was
   * read at start, where every replica that shares field evidence keeps its own (and the world says
   * from when the group's is whole).
   */
  fieldEvidenceShared(): void {
    this.#fieldsSince = Number.NEGATIVE_INFINITY;
  }

  hasSubject(name: string): boolean {
    return this.#subjects.has(name);
  }

  /** Takes a saved list of a subject's unreadable records as this monitor's own. */
  restoreUnreadable(subject: string, entries: readonly UnreadableEvidence[]): void {
    const map = new Map<string, UnreadableEvidence>();
    for (const e of entries) map.set(`${e.topic}\u0000${e.partition}\u0000${e.reason}`, { ...e });
    this.#unreadable.set(subject, map);
  }

  /** This monitor's own unreadable records of a subject. */
  unreadableOf(subject: string): UnreadableEvidence[] {
    return mergeUnreadable([[...(this.#unreadable.get(subject)?.values() ?? [])]]);
  }

  /** One validation of a candidate (live, or from the reservoir after a reload). */
  candidateResult(
    subject: string,
    version: string,
    producer: string,
    result: { passed: boolean; keyword: string | null; instancePath: string | null },
    at: number,
  ): void {
    const evidence = this.candidate(subject, version);
    const perProducer = (evidence.producers[producer] ??= {
      samples: 0,
      failures: 0,
      samplesSinceFailure: 0,
      lastFailureAt: 0,
      keyword: null,
      instancePath: null,
    });
    evidence.samples++;
    perProducer.samples++;
    if (result.passed) {
      evidence.samplesSinceFailure++;
      perProducer.samplesSinceFailure++;
      return;
    }
    evidence.failures++;
    evidence.samplesSinceFailure = 0;
    evidence.lastFailureAt = Math.max(evidence.lastFailureAt, at);
    perProducer.failures++;
    perProducer.samplesSinceFailure = 0;
    perProducer.lastFailureAt = Math.max(perProducer.lastFailureAt, at);
    perProducer.keyword = result.keyword;
    perProducer.instancePath = result.instancePath;
  }

  /**
   * Judges every deprecated and candidate version now; logs each change of verdict once. A drained
   * version that receives traffic again goes back to in use with a warning.
   */
  judge(world: World = {}): Map<string, Verdict> {
    const now = this.#now();
    const observed: Observation = { coverage: this.coverage, knownPartitions: this.knownPartitions, world };
    const verdicts = new Map<string, Verdict>();
    for (const s of this.#subjects.values()) {
      for (const version of s.subject.versions) {
        let verdict: Verdict | undefined;
        if (version.status === "deprecated") {
          const own = this.unreadableOf(s.subject.name);
          verdict = judgeDeprecated(
            s,
            version,
            this.version(s.subject.name, version.version.text),
            world.unreadable?.(s.subject.name, own) ?? own,
            observed,
            now,
          );
        } else if (version.status === "candidate") {
          const own = this.candidate(s.subject.name, version.version.text);
          verdict = judgeCandidate(
            s,
            version,
            world.candidates?.(s.subject.name, version.version.text, own) ?? own,
            observed,
            now,
          );
        }
        if (!verdict) continue;
        const id = `${s.subject.name}\u0000${version.version.text}`;
        verdicts.set(id, verdict);
        const before = this.#verdicts.get(id);
        if (before && before.yes !== verdict.yes) {
          const fields = {
            subject: s.subject.name,
            version: version.version.text,
            verdict: verdict.kind,
            evidence: verdict.evidence,
          };
          if (verdict.yes)
            this.#log.info(fields, `${s.subject.name} ${version.version.text} is ${verdict.kind}`);
          else
            this.#log.warn(
              { ...fields, reasons: verdict.reasons },
              `${s.subject.name} ${version.version.text} is no longer ${verdict.kind === "drained" ? "drained: traffic returned" : "ready"}`,
            );
        } else if (!before && verdict.yes) {
          this.#log.info(
            { subject: s.subject.name, version: version.version.text, evidence: verdict.evidence },
            `${s.subject.name} ${version.version.text} is ${verdict.kind}`,
          );
        }
        this.#verdicts.set(id, verdict);
      }
    }
    return verdicts;
  }

  /** The field tallies as they are now: what they counted since the last call is dated now. */
  observeFields(facts: Iterable<FieldFacts>): void {
    this.fields.observe(facts, this.#now(), (name) => {
      const s = this.#subjects.get(name);
      return s ? fieldWindowMs(s) : 0;
    });
  }

  /**
   * Judges every tracked field at `now` (keyed `subject \0 pointer`): a deprecated one drained, an
   * optional one ready to require. Logs each change once, as for versions.
   */
  judgeFields(world: World = {}, now = this.#now()): Map<string, FieldVerdict> {
    const observed: Observation = { coverage: this.coverage, knownPartitions: this.knownPartitions, world };
    const verdicts = judgeFields(
      this.#subjects.values(),
      this.fields,
      observed,
      now,
      this.#fieldsSince ?? this.startedAt,
    );
    for (const [id, verdict] of verdicts) {
      const before = this.#fieldVerdicts.get(id);
      const [subject] = id.split("\u0000");
      const what = `${subject} ${verdict.field} is ${verdict.kind === "ready" ? "ready to require" : "drained"}`;
      const fields = { subject, field: verdict.field, verdict: verdict.kind, evidence: verdict.evidence };
      if (verdict.yes && before?.yes !== true) this.#log.info(fields, what);
      else if (!verdict.yes && before?.yes === true)
        this.#log.warn(
          { ...fields, reasons: verdict.reasons },
          `${subject} ${verdict.field} is no longer ${verdict.kind === "ready" ? "ready to require: a record lacked it" : "drained: records carry it again"}`,
        );
      this.#fieldVerdicts.set(id, verdict);
    }
    return verdicts;
  }

  now(): number {
    return this.#now();
  }

  toState(): LifecycleState {
    const versions: LifecycleState["versions"] = {};
    for (const [subject, map] of this.#versions) versions[subject] = Object.fromEntries(map);
    const candidates: LifecycleState["candidates"] = {};
    for (const [subject, map] of this.#candidates) candidates[subject] = Object.fromEntries(map);
    const unreadable: Record<string, UnreadableEvidence[]> = {};
    for (const [subject, map] of this.#unreadable)
      unreadable[subject] = [...map.values()].map((e) => ({ ...e }));
    return {
      format: 1,
      savedAt: this.#now(),
      startedAt: this.startedAt,
      partitions: [...this.coverage.partitions].map((p) => ({ ...p })),
      versions,
      candidates,
      unreadable,
      retiredSince: this.retired.toState(),
      fields: this.fields.toState(),
    };
  }

  restore(state: LifecycleState): void {
    // Coverage restored without field evidence would vouch for records nobody checked for fields.
    this.#fieldsSince = state.fields ? Number.NEGATIVE_INFINITY : this.startedAt;
    this.startedAt = Math.min(this.startedAt, state.startedAt);
    this.coverage.restore(state.partitions);
    for (const [subject, map] of Object.entries(state.versions)) {
      this.#versions.set(subject, new Map(Object.entries(map).map(([k, v]) => [k, { ...v }])));
    }
    for (const [subject, map] of Object.entries(state.candidates)) {
      this.#candidates.set(subject, new Map(Object.entries(map).map(([k, v]) => [k, structuredClone(v)])));
    }
    for (const [subject, entries] of Object.entries(state.unreadable ?? {}))
      this.restoreUnreadable(subject, entries);
    this.retired.restore(state.retiredSince ?? {}, (subject, version) =>
      this.subjectRetired(subject, version),
    );
    if (state.fields) this.fields.restore(state.fields);
  }
}
