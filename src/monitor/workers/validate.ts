import type { CatalogSubject } from "../../catalog/types.js";
import { ShapeKeys } from "../../corpus/shape.js";
import { createResults, evaluateInto, type ReaderResult } from "../../engine/evaluate.js";
import { isStackOverflow, parsePayload } from "../payload.js";
import {
  ITEM_NOT_JSON,
  ITEM_NOT_UTF8,
  ITEM_TOO_DEEP,
  ITEM_VALIDATED,
  type JobMessage,
  type ResultMessage,
} from "./job.js";

/**
 * Validates the payloads of a job against every reader of their subjects: the work a validation
 * worker does, in a function that the consumer's thread can also run when no worker answers.
 */
export class JobValidator {
  readonly #subjects: ReadonlyArray<CatalogSubject | undefined>;
  readonly #generation: number;
  readonly #results: Array<ReaderResult[] | undefined>;
  readonly #shapes: ShapeKeys | undefined;

  /** `subjects` by the index of the config's subject list; `shapes` when the corpus wants shape keys. */
  constructor(subjects: ReadonlyArray<CatalogSubject | undefined>, generation: number, shapes: boolean) {
    this.#subjects = subjects;
    this.#generation = generation;
    this.#results = subjects.map((s) => (s ? createResults(s) : undefined));
    this.#shapes = shapes ? new ShapeKeys() : undefined;
  }

  validate(job: JobMessage): ResultMessage {
    const count = job.ends.length;
    const firstReader = new Int32Array(count);
    let total = 0;
    for (let i = 0; i < count; i++) {
      firstReader[i] = total;
      total += this.#subjects[job.subjects[i]!]?.readers.length ?? 0;
    }
    const status = new Uint8Array(count);
    const passed = new Uint8Array(total);
    const keywords = new Uint32Array(total);
    const paths = new Uint32Array(total);
    const strings = [""];
    const stringIndex = new Map<string, number>([["", 0]]);
    const intern = (text: string): number => {
      let index = stringIndex.get(text);
      if (index === undefined) {
        index = strings.length;
        strings.push(text);
        stringIndex.set(text, index);
      }
      return index;
    };
    const shapes = this.#shapes ? new Array<string | null>(count).fill(null) : undefined;
    const readers: Record<number, string[]> = {};
    let start = 0;
    for (let i = 0; i < count; i++) {
      const end = job.ends[i]!;
      const view = job.bytes.subarray(start, end);
      start = end;
      const subjectIndex = job.subjects[i]!;
      const subject = this.#subjects[subjectIndex];
      const results = this.#results[subjectIndex];
      if (!subject || !results) {
        status[i] = ITEM_TOO_DEEP;
        continue;
      }
      readers[subjectIndex] ??= subject.readers.map((r) => r.version.text);
      const payload = parsePayload(view, 0);
      if (typeof payload === "string") {
        status[i] = payload === "not_json" ? ITEM_NOT_JSON : ITEM_NOT_UTF8;
        continue;
      }
      const document = payload.document;
      const writerIndex = job.writers[i]!;
      const writer =
        writerIndex < 0 ? undefined : subject.byVersion.get(job.writerTexts[writerIndex]!)?.version;
      try {
        evaluateInto(results, document, subject, writer);
      } catch (error) {
        if (!isStackOverflow(error)) throw error;
        status[i] = ITEM_TOO_DEEP;
        continue;
      }
      status[i] = ITEM_VALIDATED;
      const first = firstReader[i]!;
      for (let j = 0; j < results.length; j++) {
        const result = results[j]!;
        if (result.passed) passed[first + j] = 1;
        else {
          keywords[first + j] = intern(result.keyword ?? "unknown");
          paths[first + j] = intern(result.instancePath ?? "");
        }
      }
      if (shapes) {
        try {
          shapes[i] = this.#shapes!.key(document);
        } catch (error) {
          if (!isStackOverflow(error)) throw error;
          shapes[i] = null;
        }
      }
    }
    return {
      kind: "result",
      id: job.id,
      generation: this.#generation,
      readers,
      status,
      firstReader,
      passed,
      keywords,
      paths,
      strings,
      shapes,
      bytes: job.bytes,
    };
  }
}
