import { mayRunLong } from "../../catalog/cost.js";
import { compileDeferred } from "../../catalog/deferred.js";
import type { CatalogSubject } from "../../catalog/types.js";
import { ShapeKeys } from "../shape.js";
import { DEFAULT_VALIDATION_TIMEOUT_MS, ValidationBudget } from "../../engine/budget.js";
import { createResults, evaluateInto, type ReaderResult } from "../../engine/evaluate.js";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { isStackOverflow, parsePayload } from "../payload.js";
import {
  ITEM_NOT_JSON,
  ITEM_NOT_UTF8,
  ITEM_TIMEOUT,
  ITEM_TOO_DEEP,
  ITEM_VALIDATED,
  type JobMessage,
  type ResultMessage,
} from "./job.js";

/** The arrays one job's results are written into, item by item. */
interface Output {
  readonly status: Uint8Array;
  readonly firstReader: Int32Array;
  readonly passed: Uint8Array;
  readonly keywords: Uint32Array;
  readonly paths: Uint32Array;
  readonly strings: string[];
  readonly stringIndex: Map<string, number>;
  readonly shapes: Array<string | null> | undefined;
  readonly readers: Record<number, string[]>;
}

/**
 * Validates the payloads of a job against every reader of their subjects: the work a validation
 * worker does, and what the consumer's thread runs itself with `workers: 0`. Each item runs within the
 * time budget; one that exceeds it is `ITEM_TIMEOUT` and the items after it go on.
 */
export class JobValidator {
  readonly #subjects: ReadonlyArray<CatalogSubject | undefined>;
  readonly #generation: number;
  readonly #results: Array<ReaderResult[] | undefined>;
  readonly #shapes: ShapeKeys | undefined;
  readonly #budget: ValidationBudget;
  /** Per subject index: whether a reader may run long, so that its items need the budget's watchdog. */
  readonly #guarded: boolean[];
  /** Per subject index: whether its readers are compiled (a catalog compiles each on first need). */
  readonly #compiled: boolean[];
  /** Called as each item starts (a worker tells the pool's watchdog it is not stuck). */
  readonly #onItem: ((item: number) => void) | undefined;

  /** `subjects` by the index of the config's subject list; `shapes` when the corpus wants shape keys. */
  constructor(
    subjects: ReadonlyArray<CatalogSubject | undefined>,
    generation: number,
    shapes: boolean,
    budget: ValidationBudget = new ValidationBudget(DEFAULT_VALIDATION_TIMEOUT_MS),
    assertFormats = true,
    onItem?: (item: number) => void,
  ) {
    this.#onItem = onItem;
    this.#subjects = subjects;
    this.#generation = generation;
    this.#results = subjects.map((s) => (s ? createResults(s) : undefined));
    this.#shapes = shapes ? new ShapeKeys() : undefined;
    this.#budget = budget;
    this.#guarded = subjects.map((s) => s?.readers.some((r) => mayRunLong(r, assertFormats)) ?? false);
    this.#compiled = subjects.map(() => false);
  }

  /**
   * Compiles the readers of the job's subjects that wait for their first use. Validation calls it
   * first, so that the budget times validations and never a compilation; a worker calls it before it
   * reports itself busy to the pool's watchdog.
   */
  compile(job: JobMessage): void {
    for (let i = 0; i < job.subjects.length; i++) {
      const index = job.subjects[i]!;
      if (!this.#compiled[index]) this.#compileSubject(index);
    }
  }

  /** `compile`, letting this thread's event loop turn after each subject compiled. */
  async #compileYielding(job: JobMessage): Promise<void> {
    for (let i = 0; i < job.subjects.length; i++) {
      const index = job.subjects[i]!;
      if (this.#compiled[index]) continue;
      this.#compileSubject(index);
      await yieldToEventLoop();
    }
  }

  #compileSubject(index: number): void {
    for (const reader of this.#subjects[index]?.readers ?? []) compileDeferred(reader);
    this.#compiled[index] = true;
  }

  /**
   * Whether the job runs within the budget: a vm run costs a watchdog thread's start and join (tens of
   * microseconds of CPU, more on a loaded machine), which items whose every reader validates in linear
   * time do not need.
   */
  #needsBudget(job: JobMessage): boolean {
    for (let i = 0; i < job.subjects.length; i++) if (this.#guarded[job.subjects[i]!]) return true;
    return false;
  }

  /** Whether this validator judges exactly these subjects (the same catalog objects). */
  judges(subjects: ReadonlyArray<CatalogSubject | undefined>): boolean {
    return subjects.length === this.#subjects.length && subjects.every((s, i) => s === this.#subjects[i]);
  }

  /** `documents`: items already parsed on this thread (by index), which are not parsed again. */
  validate(job: JobMessage, documents?: readonly unknown[]): ResultMessage {
    this.compile(job);
    const out = this.#output(job);
    if (!this.#needsBudget(job))
      for (let i = 0; i < job.ends.length; i++) this.#item(job, i, out, documents?.[i]);
    else
      this.#budget.run(
        job.ends.length,
        (i) => this.#item(job, i, out, documents?.[i]),
        (i) => timedOut(out, i),
      );
    return this.#result(job, out);
  }

  /** `validate`, letting this thread's event loop turn between runs (on the consumer's thread). */
  async validateYielding(job: JobMessage, documents?: readonly unknown[]): Promise<ResultMessage> {
    await this.#compileYielding(job);
    const out = this.#output(job);
    if (!this.#needsBudget(job)) return this.validate(job, documents);
    await this.#budget.runYielding(
      job.ends.length,
      (i) => this.#item(job, i, out, documents?.[i]),
      (i) => timedOut(out, i),
    );
    return this.#result(job, out);
  }

  #output(job: JobMessage): Output {
    const count = job.ends.length;
    const firstReader = new Int32Array(count + 1);
    let total = 0;
    for (let i = 0; i < count; i++) {
      firstReader[i] = total;
      total += this.#subjects[job.subjects[i]!]?.readers.length ?? 0;
    }
    firstReader[count] = total;
    return {
      status: new Uint8Array(count),
      firstReader,
      passed: new Uint8Array(total),
      keywords: new Uint32Array(total),
      paths: new Uint32Array(total),
      strings: [""],
      stringIndex: new Map<string, number>([["", 0]]),
      shapes: this.#shapes ? new Array<string | null>(count).fill(null) : undefined,
      readers: {},
    };
  }

  #result(job: JobMessage, out: Output): ResultMessage {
    return {
      kind: "result",
      id: job.id,
      generation: this.#generation,
      readers: out.readers,
      status: out.status,
      firstReader: out.firstReader,
      passed: out.passed,
      keywords: out.keywords,
      paths: out.paths,
      strings: out.strings,
      shapes: out.shapes,
      bytes: job.bytes,
    };
  }

  #item(job: JobMessage, i: number, out: Output, parsed: unknown): void {
    this.#onItem?.(i);
    const start = i === 0 ? 0 : job.ends[i - 1]!;
    const subjectIndex = job.subjects[i]!;
    const subject = this.#subjects[subjectIndex];
    const results = this.#results[subjectIndex];
    if (!subject || !results) {
      out.status[i] = ITEM_TOO_DEEP;
      return;
    }
    out.readers[subjectIndex] ??= subject.readers.map((r) => r.version.text);
    let document = parsed;
    if (document === undefined) {
      const payload = parsePayload(job.bytes.subarray(start, job.ends[i]!), 0);
      if (typeof payload === "string") {
        out.status[i] =
          payload === "too_deep" ? ITEM_TOO_DEEP : payload === "not_json" ? ITEM_NOT_JSON : ITEM_NOT_UTF8;
        return;
      }
      document = payload.document;
    }
    const writerIndex = job.writers[i]!;
    const writer =
      writerIndex < 0 ? undefined : subject.byVersion.get(job.writerTexts[writerIndex]!)?.version;
    try {
      evaluateInto(results, document, subject, writer);
    } catch (error) {
      if (!isStackOverflow(error)) throw error;
      out.status[i] = ITEM_TOO_DEEP;
      return;
    }
    out.status[i] = ITEM_VALIDATED;
    const first = out.firstReader[i]!;
    for (let j = 0; j < results.length; j++) {
      const result = results[j]!;
      if (result.passed) out.passed[first + j] = 1;
      else {
        out.keywords[first + j] = intern(out, result.keyword ?? "unknown");
        out.paths[first + j] = intern(out, result.instancePath ?? "");
      }
    }
    if (out.shapes) {
      try {
        out.shapes[i] = this.#shapes!.key(document);
      } catch (error) {
        if (!isStackOverflow(error)) throw error;
        out.shapes[i] = null;
      }
    }
  }
}

/** What a stopped validation wrote for its readers means nothing: none of them is recorded. */
function timedOut(out: Output, i: number): void {
  out.status[i] = ITEM_TIMEOUT;
  out.passed.fill(0, out.firstReader[i], out.firstReader[i + 1]);
}

function intern(out: Output, text: string): number {
  let index = out.stringIndex.get(text);
  if (index === undefined) {
    index = out.strings.length;
    out.strings.push(text);
    out.stringIndex.set(text, index);
  }
  return index;
}
