import type { CatalogSubject, CatalogVersion } from "../catalog/types.js";
import type { ValidatedHook } from "../pipeline/validated.js";
import type { Corpus } from "./corpus.js";

/** The pipeline's hook for validated records. */
export type { ValidatedHook } from "../pipeline/validated.js";

/** The writer label of a record that declares no version. */
export const NO_WRITER = "none";

/** The schema placeholders of undeclared documents aim at: the newest active version, else the newest. */
export function fallbackVersion(subject: CatalogSubject): CatalogVersion | undefined {
  const versions = subject.versions;
  for (let i = versions.length - 1; i >= 0; i--) if (versions[i]!.status === "active") return versions[i];
  return versions[versions.length - 1];
}

/**
 * Feeds a corpus from the pipeline: a validated-record listener, given to the pipeline at its
 * construction (`new Pipeline(catalog, config, { validated: [feedCorpus(corpus)] })`). Conformance comes from the results the pipeline just computed, so a
 * record costs a shape key and a few map lookups; only a retired writer version, which the pipeline
 * does not evaluate, is validated here.
 */
export function feedCorpus(corpus: Corpus): ValidatedHook {
  // Keyed by the subject object, so a reloaded catalog gets its own fallback.
  const fallbacks = new WeakMap<CatalogSubject, unknown>();
  const detail: {
    conforms: boolean | undefined;
    at: number;
    shape: string | undefined;
    load: (() => unknown) | undefined;
  } = {
    conforms: undefined,
    at: 0,
    shape: undefined,
    load: undefined,
  };
  return (record) => {
    // Too deep to have a shape: the pipeline counts it as too_deep; the corpus cannot keep it.
    if (record.shape === null) return;
    const pipeline = record.subject;
    const subject = pipeline.subject;
    const writer = record.writer;
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
      detail.conforms ??= writer.validate(record.document());
    } else {
      schema = fallbacks.get(subject);
      if (schema === undefined) {
        schema = fallbackVersion(subject)?.file.json ?? null;
        fallbacks.set(subject, schema);
      }
    }
    // When the monitor read it, as every last-seen time: a producer's clock may say 1970 or 2100.
    detail.at = record.observedAt;
    // A worker's shape key spares parsing the document unless the corpus keeps it.
    detail.shape = record.shape;
    detail.load = record.shape === undefined ? undefined : () => record.document();
    corpus.observe(
      subject.name,
      writer ? writer.version.text : NO_WRITER,
      record.producer,
      record.shape === undefined ? record.document() : undefined,
      schema ?? undefined,
      detail,
    );
  };
}
