import type { CatalogVersion } from "../../catalog/types.js";
import { evaluateInto } from "../../engine/evaluate.js";
import type { SubjectPipeline } from "../subject-pipeline.js";
import type { UnreadableReason } from "../record.js";
import { NO_VERSION, type RecordSeries, type Tallies } from "../tallies.js";
import type { ValidatedRecord } from "../validated.js";
import {
  ITEM_NOT_JSON,
  ITEM_NOT_UTF8,
  ITEM_TIMEOUT,
  ITEM_TOO_DEEP,
  ITEM_VALIDATED,
  type ResultMessage,
  type SampleJob,
} from "./job.js";

const STATUS_REASONS: Record<number, "not_utf8" | "not_json" | "too_deep" | "timeout"> = {
  [ITEM_NOT_UTF8]: "not_utf8",
  [ITEM_NOT_JSON]: "not_json",
  [ITEM_TOO_DEEP]: "too_deep",
  [ITEM_TIMEOUT]: "timeout",
};

/**
 * Records what a validation worker found for a job: per item its decode reason, or its results
 * against every reader into the series' counters and the subject's results, the reservoir, and the
 * validated-record hook (`notify`), exactly as the in-thread path does. `unvalidated` hears of each
 * record that could not be validated (too deep, or past the time budget), which is unknown use when it declares no version.
 */
export function applyJobResult(
  job: SampleJob,
  result: ResultMessage,
  tallies: Tallies,
  record: ValidatedRecord,
  notify: (validated: ValidatedRecord) => void,
  unvalidated: (item: number, reason: UnreadableReason) => void,
): void {
  let start = 0;
  for (let i = 0; i < job.size; i++) {
    const from = start;
    const end = job.ends[i]!;
    start = end;
    const topic = job.topics[i]!;
    const status = result.status[i]!;
    if (status !== ITEM_VALIDATED) {
      const reason = STATUS_REASONS[status] ?? "internal_error";
      tallies.decodeError(topic, reason);
      // Not JSON is not a record of any version; too deep or too slow to validate is unknown use.
      if (reason !== "not_utf8" && reason !== "not_json") unvalidated(i, reason);
      continue;
    }
    const pipeline = job.pipelines[i]!;
    const series = job.series[i]!;
    const writer = job.writers[i];
    const subject = pipeline.subject;
    const results = pipeline.results;
    const evaluated = result.readers[job.subjectIndexes[i]!] ?? [];
    if (!sameReaders(evaluated, subject.readers)) {
      // A reload came in between: the worker judged other readers. This record is judged here, once.
      if (!judgeHere(result.bytes.subarray(from, end), pipeline, series, writer, tallies)) {
        unvalidated(i, "too_deep");
        continue;
      }
    } else {
      const first = result.firstReader[i]!;
      for (let j = 0; j < results.length; j++) {
        const out = results[j]!;
        const cells = series.readers[j]!;
        out.reader = subject.readers[j]!;
        out.direction = cells.pass.labels.direction;
        out.passed = result.passed[first + j] === 1;
        // Workers judge JSON Schema subjects only (batches.ts): no read of theirs is lossy.
        out.lossy = false;
        if (out.passed) {
          out.keyword = null;
          out.instancePath = null;
          cells.pass.value++;
        } else {
          out.keyword = result.strings[result.keywords[first + j]!]!;
          out.instancePath = result.strings[result.paths[first + j]!]!;
          tallies.fail(series, j, out.keyword, out.instancePath);
        }
      }
    }
    const producer = job.producers[i]!;
    const observedAt = job.observedAt[i]!;
    // A copy: the job's buffer goes back to the garbage collector with the job.
    if (pipeline.wants(observedAt))
      pipeline.keep({
        topic,
        producer,
        writer: writer ? writer.version.text : NO_VERSION,
        bytes: result.bytes.slice(from, end),
        observedAt,
      });
    const validated = record.fill(
      pipeline,
      producer,
      writer,
      topic,
      job.partitions[i]!,
      job.timestamps[i]!,
      observedAt,
      result.shapes?.[i],
    );
    validated.unparsed(result.bytes, from, end);
    notify(validated);
  }
}

function sameReaders(evaluated: readonly string[], readers: readonly CatalogVersion[]): boolean {
  if (evaluated.length !== readers.length) return false;
  for (let j = 0; j < readers.length; j++) if (evaluated[j] !== readers[j]!.version.text) return false;
  return true;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Parses and validates one record on this thread, into the subject's results and the series. */
function judgeHere(
  bytes: Uint8Array,
  pipeline: SubjectPipeline,
  series: RecordSeries,
  writer: CatalogVersion | undefined,
  tallies: Tallies,
): boolean {
  let document: unknown;
  try {
    document = JSON.parse(utf8.decode(bytes));
    evaluateInto(pipeline.results, document, pipeline.subject, writer?.version);
  } catch {
    // The worker parsed and validated it: only a stack too small here can fail, counted as such.
    tallies.decodeError(series.count.labels.topic, "too_deep");
    return false;
  }
  const results = pipeline.results;
  for (let j = 0; j < results.length; j++) {
    const r = results[j]!;
    if (r.passed) series.readers[j]!.pass.value++;
    else tallies.fail(series, j, r.keyword!, r.instancePath!);
  }
  return true;
}
