import { directionOf } from "../../engine/direction.js";
import { NO_VERSION, type Tallies } from "../tallies.js";
import type { ValidatedRecord } from "../validated.js";
import { ITEM_NOT_JSON, ITEM_NOT_UTF8, ITEM_TOO_DEEP, type ResultMessage, type SampleJob } from "./job.js";

/**
 * Records what a validation worker found for a job: per item its decode reason, or its results
 * against every reader into the series' counters and the subject's results, the reservoir, and the
 * validated-record hook (`notify`), exactly as the in-thread path does.
 */
export function applyJobResult(
  job: SampleJob,
  result: ResultMessage,
  tallies: Tallies,
  record: ValidatedRecord,
  notify: (validated: ValidatedRecord) => void,
): void {
  let start = 0;
  for (let i = 0; i < job.size; i++) {
    const end = job.ends[i]!;
    const bytes = result.bytes.subarray(start, end);
    start = end;
    const topic = job.topics[i]!;
    const status = result.status[i]!;
    if (status === ITEM_NOT_UTF8 || status === ITEM_NOT_JSON || status === ITEM_TOO_DEEP) {
      tallies.decodeError(
        topic,
        status === ITEM_NOT_UTF8 ? "not_utf8" : status === ITEM_NOT_JSON ? "not_json" : "too_deep",
      );
      continue;
    }
    const pipeline = job.pipelines[i]!;
    const series = job.series[i]!;
    const writer = job.writers[i];
    const subject = pipeline.subject;
    const results = pipeline.results;
    const evaluated = result.readers[job.subjectIndexes[i]!] ?? [];
    const first = result.firstReader[i]!;
    for (let j = 0; j < subject.readers.length; j++) {
      const reader = subject.readers[j]!;
      // The worker's readers are the subject's, unless a reload came in between: then by version.
      const k = evaluated[j] === reader.version.text ? j : evaluated.indexOf(reader.version.text);
      const out = results[j]!;
      out.reader = reader;
      out.direction = directionOf(writer?.version, reader.version);
      if (k < 0) {
        out.passed = true;
        out.keyword = null;
        out.instancePath = null;
        continue;
      }
      out.passed = result.passed[first + k] === 1;
      out.keyword = out.passed ? null : result.strings[result.keywords[first + k]!]!;
      out.instancePath = out.passed ? null : result.strings[result.paths[first + k]!]!;
      if (out.passed) series.readers[j]!.pass.value++;
      else tallies.fail(series, j, out.keyword!, out.instancePath!);
    }
    const producer = job.producers[i]!;
    const observedAt = job.observedAt[i]!;
    // A copy: the job's buffer goes back to the garbage collector with the job.
    if (pipeline.wants(observedAt))
      pipeline.keep({
        topic,
        producer,
        writer: writer ? writer.version.text : NO_VERSION,
        bytes: bytes.slice(),
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
    validated.unparsed(bytes);
    notify(validated);
  }
}
