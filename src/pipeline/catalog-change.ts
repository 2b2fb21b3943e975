import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import { evaluateInto, type ReaderResult } from "../engine/evaluate.js";
import { OTHER_PRODUCER, UNKNOWN_PRODUCER } from "./producer.js";
import { reservoirDocument, type ReservoirEntry, type SubjectPipeline } from "./subject-pipeline.js";
import { UNREADABLE, type Tallies } from "./tallies.js";

/** Hears of each reservoir record judged by a reader that a new catalog added. */
export type ReservoirListener = (
  subject: SubjectPipeline,
  entry: ReservoirEntry,
  reader: CatalogVersion,
  result: ReaderResult,
) => void;

/** Zero is a value: every label set known before traffic starts at 0 (at start, and for a version new to the catalog). */
export function startAtZero(tallies: Tallies, pipeline: SubjectPipeline): void {
  const declared = pipeline.producer.declared;
  const producers =
    declared.length > 0 ? [...declared, OTHER_PRODUCER, UNKNOWN_PRODUCER] : [UNKNOWN_PRODUCER];
  const writers = [undefined, ...pipeline.subject.versions, UNREADABLE] as const;
  for (const topic of pipeline.subject.topics) {
    for (const producer of producers) {
      for (const writer of writers) tallies.series(topic, pipeline.subject, producer, writer);
    }
  }
}

/**
 * Readers that a new catalog added (a candidate just registered) judged at once against the
 * subject's reservoir of recent samples, into the series' counters: a new reader need not wait for
 * traffic to have evidence.
 */
export function judgeReservoir(
  tallies: Tallies,
  pipeline: SubjectPipeline,
  subject: CatalogSubject,
  added: ReadonlyArray<readonly [CatalogVersion, number]>,
  onReservoir: ReservoirListener | undefined,
): void {
  for (const entry of pipeline.reservoir) {
    const document = reservoirDocument(entry, subject);
    if (document === undefined) continue;
    const writer = subject.byVersion.get(entry.writer);
    const results = evaluateInto(pipeline.results, document, subject, writer?.version);
    const series = tallies.series(entry.topic, subject, entry.producer, writer);
    for (const [reader, index] of added) {
      const result = results[index]!;
      if (result.passed) {
        series.readers[index]!.pass.value++;
        if (result.lossy === true) tallies.lose(series, index, result.keyword!, result.instancePath!);
      } else tallies.fail(series, index, result.keyword!, result.instancePath!);
      onReservoir?.(pipeline, entry, reader, result);
    }
  }
}
