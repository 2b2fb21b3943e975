import { exportCorpus, type ExportOptions, type ExportSummary } from "./export.js";
import { Redactor } from "./redact.js";
import { ShapeKeys } from "../pipeline/shape.js";
import { parseCorpusJson, type CorpusJson } from "./state.js";

/** What a corpus keeps: at most `maxShapes` examples per subject, redacted at the `redact` pointers. */
export interface CorpusOptions {
  readonly maxShapes: number;
  readonly redact: readonly string[];
}

/** What the caller knows about one observed document besides its shape. */
export interface ObserveDetail {
  /** Whether the document passed its own declared (writer) version; leave out when none is declared. */
  readonly conforms?: boolean | undefined;
  /** When it was produced, in milliseconds (the record's timestamp); the corpus clock otherwise. */
  readonly at?: number | undefined;
  /** Its shape key, when the caller already has it (a validation worker computed it). */
  readonly shape?: string | undefined;
  /**
   * Gives the document when `observe` was given none: called only when the document is kept, so a
   * document validated elsewhere is parsed here only for a new shape.
   */
  readonly load?: (() => unknown) | undefined;
}

/**
 * `kept`: a new shape, stored; `seen`: a shape already kept (its count went up); `dropped`: a new
 * shape that was not stored because the subject already holds `maxShapes`.
 */
export type ObserveOutcome = "kept" | "seen" | "dropped";

/** One kept example: the first document of its shape from one writer version and producer. */
export interface CorpusEntry {
  readonly subject: string;
  /** The declared writer version (`1.1.0`), or `none`. */
  readonly writer: string;
  readonly producer: string;
  readonly shape: string;
  /** Whether the example passed its writer version; null when no version was declared. */
  readonly conforms: boolean | null;
  /** Records of this shape, writer and producer observed, the kept one included. */
  readonly seen: number;
  readonly firstSeen: number;
  readonly lastSeen: number;
  /** The configured pointers that were redacted in this example. */
  readonly redacted: readonly string[];
  /** The redacted document. */
  readonly document: unknown;
}

export interface CorpusSubjectStats {
  readonly subject: string;
  readonly shapes: number;
  /** Distinct shapes not kept because of the bound (exact up to DROPPED_MEMORY, then a lower bound). */
  readonly dropped: number;
  /** Records that brought a shape that was not kept. */
  readonly droppedRecords: number;
}

/** How many distinct dropped shapes a subject remembers, so `dropped` counts each once. */
export const DROPPED_MEMORY = 1000;

/** Options for restoring a corpus from its JSON form. */
export interface RestoreOptions extends Partial<CorpusOptions> {
  /** The schema re-redacted examples should pass: the writer version's, or the newest active one. */
  readonly schemaFor?: (subject: string, writer: string) => unknown;
  readonly now?: () => number;
}

interface Example {
  conforms: boolean | null;
  seen: number;
  firstSeen: number;
  lastSeen: number;
  redacted: readonly string[];
  document: unknown;
}

class SubjectCorpus {
  /** writer → producer → shape key → example. */
  readonly byWriter = new Map<string, Map<string, Map<string, Example>>>();
  size = 0;
  readonly droppedKeys = new Set<string>();
  droppedRecords = 0;
}

/**
 * The corpus of real shapes (docs/corpus.md): one example per distinct shape per subject, writer
 * version and producer, first-seen wins, at most `maxShapes` per subject. Examples are redacted before
 * they are stored, so personal data at the configured pointers never reaches memory, state or export.
 */
export class Corpus {
  readonly maxShapes: number;
  readonly redactor: Redactor;
  readonly #subjects = new Map<string, SubjectCorpus>();
  readonly #keys = new ShapeKeys();
  readonly #now: () => number;

  constructor(options: CorpusOptions, now: () => number = Date.now) {
    this.maxShapes = options.maxShapes;
    this.redactor = new Redactor(options.redact);
    this.#now = now;
  }

  /**
   * Counts one parsed document and keeps it when its shape is new for (subject, writer, producer).
   * `schema` is the JSON Schema its placeholders should pass (writer version, else the newest active);
   * it is only read when the document is kept. A kept example that failed its writer version is
   * replaced once by the first document of the same shape that passes it.
   */
  observe(
    subject: string,
    writerVersion: string,
    producer: string,
    document: unknown,
    schema?: unknown,
    detail?: ObserveDetail,
  ): ObserveOutcome {
    let corpus = this.#subjects.get(subject);
    if (!corpus) {
      corpus = new SubjectCorpus();
      this.#subjects.set(subject, corpus);
    }
    let producers = corpus.byWriter.get(writerVersion);
    if (!producers) {
      producers = new Map();
      corpus.byWriter.set(writerVersion, producers);
    }
    let shapes = producers.get(producer);
    if (!shapes) {
      shapes = new Map();
      producers.set(producer, shapes);
    }
    const shape = detail?.shape ?? this.#keys.key(document);
    const load = detail?.load;
    const at = detail?.at ?? this.#now();
    const conforms = detail?.conforms ?? null;
    const example = shapes.get(shape);
    if (example) {
      example.seen++;
      if (at > example.lastSeen) example.lastSeen = at;
      if (example.conforms === false && conforms === true) {
        const redacted = this.redactor.apply(load ? load() : document, schema);
        example.document = redacted.document;
        example.redacted = redacted.redacted;
        example.conforms = true;
      }
      return "seen";
    }
    if (corpus.size >= this.maxShapes) {
      corpus.droppedRecords++;
      if (corpus.droppedKeys.size < DROPPED_MEMORY) {
        corpus.droppedKeys.add(JSON.stringify([writerVersion, producer, shape]));
      }
      return "dropped";
    }
    const redacted = this.redactor.apply(load ? load() : document, schema);
    shapes.set(shape, {
      conforms,
      seen: 1,
      firstSeen: at,
      lastSeen: at,
      redacted: redacted.redacted,
      document: redacted.document,
    });
    corpus.size++;
    return "kept";
  }

  /** Every kept example, by subject, writer, producer and shape. */
  entries(): CorpusEntry[] {
    const out: CorpusEntry[] = [];
    for (const [subject, corpus] of this.#subjects) {
      for (const [writer, producers] of corpus.byWriter) {
        for (const [producer, shapes] of producers) {
          for (const [shape, e] of shapes) out.push({ subject, writer, producer, shape, ...e });
        }
      }
    }
    return out.sort(
      (a, b) =>
        compare(a.subject, b.subject) ||
        compare(a.writer, b.writer) ||
        compare(a.producer, b.producer) ||
        compare(a.shape, b.shape),
    );
  }

  /** Per subject: kept shapes and what the bound dropped (for metrics and the export index). */
  stats(): CorpusSubjectStats[] {
    return [...this.#subjects]
      .map(([subject, corpus]) => ({
        subject,
        shapes: corpus.size,
        dropped: corpus.droppedKeys.size,
        droppedRecords: corpus.droppedRecords,
      }))
      .sort((a, b) => compare(a.subject, b.subject));
  }

  /** The form kept in the monitor's state and served by `GET /api/corpus`. */
  toJSON(): CorpusJson {
    const entries = this.entries();
    return {
      format: 1,
      maxShapes: this.maxShapes,
      subjects: [...this.#subjects]
        .sort(([a], [b]) => compare(a, b))
        .map(([subject, corpus]) => ({
          subject,
          droppedRecords: corpus.droppedRecords,
          dropped: [...corpus.droppedKeys].map((k) => JSON.parse(k) as [string, string, string]),
          examples: entries
            .filter((e) => e.subject === subject)
            .map(({ subject: _, ...e }) => ({ ...e, redacted: [...e.redacted] })),
        })),
    };
  }

  /**
   * Restores a corpus from `toJSON()` (state, or a monitor's `/api/corpus`). Throws STATE_INVALID
   * naming what is wrong. With `redact`, examples are redacted again, so a pointer added to the config
   * since the state was written also covers old examples. With a smaller `maxShapes`, the first-seen
   * examples are kept and the rest count as dropped.
   */
  static fromJSON(json: unknown, options: RestoreOptions = {}): Corpus {
    const parsed = parseCorpusJson(json);
    const corpus = new Corpus(
      { maxShapes: options.maxShapes ?? parsed.maxShapes, redact: options.redact ?? [] },
      options.now,
    );
    const again = corpus.redactor.pointers.length > 0;
    for (const subject of parsed.subjects) {
      const target = new SubjectCorpus();
      corpus.#subjects.set(subject.subject, target);
      target.droppedRecords = subject.droppedRecords;
      for (const key of subject.dropped.slice(0, DROPPED_MEMORY)) target.droppedKeys.add(JSON.stringify(key));
      const byAge = [...subject.examples].sort((a, b) => a.firstSeen - b.firstSeen);
      for (const e of byAge) {
        if (target.size >= corpus.maxShapes) {
          target.droppedRecords += e.seen;
          if (target.droppedKeys.size < DROPPED_MEMORY) {
            target.droppedKeys.add(JSON.stringify([e.writer, e.producer, e.shape]));
          }
          continue;
        }
        const producers = getOrAdd(target.byWriter, e.writer, () => new Map<string, Map<string, Example>>());
        const shapes = getOrAdd(producers, e.producer, () => new Map<string, Example>());
        if (shapes.has(e.shape)) continue;
        const redacted = again
          ? corpus.redactor.apply(e.document, options.schemaFor?.(subject.subject, e.writer))
          : undefined;
        shapes.set(e.shape, {
          conforms: e.conforms,
          seen: e.seen,
          firstSeen: e.firstSeen,
          lastSeen: e.lastSeen,
          redacted: redacted ? [...new Set([...e.redacted, ...redacted.redacted])].sort() : e.redacted,
          document: redacted ? redacted.document : e.document,
        });
        target.size++;
      }
    }
    return corpus;
  }

  /** Writes the examples as files `check --old-docs` and `diff --docs` read as they are (docs/corpus.md). */
  exportTo(dir: string, options: ExportOptions = {}): Promise<ExportSummary> {
    return exportCorpus(this.entries(), this.stats(), dir, options);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}
