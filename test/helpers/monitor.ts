import { resolve } from "node:path";
import { loadCatalog } from "../../src/catalog/load.js";
import { parseConfig } from "../../src/config/load.js";
import { Pipeline, type PipelineHooks } from "../../src/pipeline/pipeline.js";
import type { HeaderValue, SourceRecord } from "../../src/pipeline/record.js";

/** A config for the bundled `event` catalog (1.0 deprecated, 1.1 active, 2.0 candidate) plus extra YAML. */
export function eventConfigYaml(subjectExtra = "", topExtra = ""): string {
  return `${topExtra}subjects:
  - name: event
    topics: [events]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated, confluentId: 101, confluentGuid: "0f8e1a52-3c4d-4b6e-9f70-112233445566" }
      "1.1.0": { status: active, confluentId: 102 }
      "2.0.0": { status: candidate }
${subjectExtra}`;
}

/** The bundled `event` catalog's pipeline; `hooks` are its listeners (and clock, runner, lookups). */
export async function eventPipeline(subjectExtra = "", topExtra = "", hooks: PipelineHooks = {}) {
  const config = parseConfig(eventConfigYaml(subjectExtra, topExtra), resolve("test/config.yaml"));
  const catalog = await loadCatalog(config);
  return { config, catalog, pipeline: new Pipeline(catalog, config, hooks) };
}

let offset = 0;

/** A record on `events` with a JSON value (or raw bytes) and string headers. */
export function record(
  value: unknown,
  headers: Record<string, HeaderValue> = {},
  options: { raw?: Buffer; key?: string; topic?: string; timestamp?: number } = {},
): SourceRecord {
  return {
    topic: options.topic ?? "events",
    partition: 0,
    offset: String(offset++),
    timestamp: options.timestamp ?? 1796112000000,
    key: options.key === undefined ? null : Buffer.from(options.key),
    headers,
    value: options.raw ?? (value === undefined ? null : Buffer.from(JSON.stringify(value))),
  };
}

export function wire(id: number, document: unknown): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, Buffer.from(JSON.stringify(document))]);
}

/** Non-zero record counts as `producer writer=count` strings, sorted. */
export function recordCounts(pipeline: Pipeline): string[] {
  return pipeline.tallies.records
    .filter((c) => c.value > 0)
    .map((c) => `${c.labels.producer} ${c.labels.writer_version}=${c.value}`)
    .sort();
}

/** Non-zero validation counts as `producer writer>reader direction result=count`, sorted. */
export function validationCounts(pipeline: Pipeline): string[] {
  return pipeline.tallies.validations
    .filter((c) => c.value > 0)
    .map(
      (c) =>
        `${c.labels.producer} ${c.labels.writer_version}>${c.labels.reader_version} ${c.labels.direction} ${c.labels.result}=${c.value}`,
    )
    .sort();
}

export function decodeCounts(pipeline: Pipeline): string[] {
  return pipeline.tallies.decodeErrors
    .filter((c) => c.value > 0)
    .map((c) => `${c.labels.topic} ${c.labels.reason}=${c.value}`)
    .sort();
}

/** Failures as `producer reader keyword pointer=count`, in the tallies' order. */
export function failureCounts(pipeline: Pipeline): string[] {
  return pipeline.tallies.failures.map(
    (c) => `${c.labels.producer} ${c.labels.reader_version} ${c.labels.keyword} ${c.pointer}=${c.value}`,
  );
}

/** Lossy reads (passed, but dropping or defaulting data) as `producer writer>reader rule pointer=count`. */
export function lossCounts(pipeline: Pipeline): string[] {
  return pipeline.tallies.losses.map(
    (c) =>
      `${c.labels.producer} ${c.labels.writer_version}>${c.labels.reader_version} ${c.labels.keyword} ${c.pointer}=${c.value}`,
  );
}
