import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import type { Pipeline } from "../monitor/pipeline.js";
import type { Corpus } from "./corpus.js";

/** The pipeline's hook for validated records. */
export type ValidatedHook = NonNullable<Pipeline["onValidated"]>;

/** The writer label of a record that declares no version. */
export const NO_WRITER = "none";

/** The schema placeholders of undeclared documents aim at: the newest active version, else the newest. */
export function fallbackVersion(subject: CatalogSubject): CatalogVersion | undefined {
  const versions = subject.versions;
  for (let i = versions.length - 1; i >= 0; i--) if (versions[i]!.status === "active") return versions[i];
  return versions[versions.length - 1];
}

/**
 * Feeds a corpus from the pipeline (`pipeline.onValidated = feedCorpus(corpus)`, or called from a
 * hook that also feeds others). Conformance comes from the results the pipeline just computed, so a
 * record costs a shape key and a few map lookups; only a retired writer version, which the pipeline
 * does not evaluate, is validated here.
 */
export function feedCorpus(corpus: Corpus): ValidatedHook {
  // Keyed by the subject object, so a reloaded catalog gets its own fallback.
  const fallbacks = new WeakMap<CatalogSubject, unknown>();
  const detail: { conforms: boolean | undefined; at: number } = { conforms: undefined, at: 0 };
  return (pipeline, producer, record, document, writer) => {
    const subject = pipeline.subject;
    let schema: unknown;
    detail.conforms = undefined;
    if (writer) {
      schema = writer.file.json;
      const results = pipeline.results;
      for (let i = 0; i < results.length; i++) {
        if (results[i]!.reader === writer) {
          detail.conforms = results[i]!.passed;
          break;
        }
      }
      detail.conforms ??= writer.validate(document);
    } else {
      schema = fallbacks.get(subject);
      if (schema === undefined) {
        schema = fallbackVersion(subject)?.file.json ?? null;
        fallbacks.set(subject, schema);
      }
    }
    detail.at = record.timestamp;
    corpus.observe(
      subject.name,
      writer ? writer.version.text : NO_WRITER,
      producer,
      document,
      schema ?? undefined,
      detail,
    );
  };
}

/** Adds the corpus to the pipeline's validated-record hook, after whatever hook is already there. */
export function attachCorpus(pipeline: Pipeline, corpus: Corpus): void {
  const previous = pipeline.onValidated;
  const feed = feedCorpus(corpus);
  pipeline.onValidated = previous
    ? (subject, producer, record, document, writer) => {
        previous(subject, producer, record, document, writer);
        feed(subject, producer, record, document, writer);
      }
    : feed;
}
