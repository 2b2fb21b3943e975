#!/usr/bin/env node
// What the exhaustive field check costs (issue 28): a subject whose schemas mark 3 properties
// `deprecated: true` against the same subject without any, at sample ratio 0.01, side by side in one
// run. Every property but the deprecated ones is required, so the subject without them has no field
// of interest at all and its records pay only the listener's early return. The records carry none of
// the deprecated fields (a drained field: the search reads every byte, nothing ends it early).
//
// Three measures, best of interleaved rounds, wall and CPU time:
// - the pipeline alone: `Pipeline.process` over records held in memory with Buffer values and
//   headers, as the Kafka source hands them (the strictest: nothing but schemawatch's per-record code);
// - Kafka record batches (uncompressed, as kafkajs's encoder writes them) decoded in place by the
//   Kafka source's decoder and handed to the pipeline as its `BatchRecord`s: the consumer's own work
//   on a record, without the broker, the network and kafkajs's fetch;
// - the file source: an NDJSON capture replayed through the same pipeline (`run --source file:`).
//
//   node --expose-gc bench/fields.js     # alone (after npm run build); BENCH_FIELDS_DOCS (200000)
//   KAFKA_BROKERS=127.0.0.1:19092 node --expose-gc bench/fields.js
//                                        # plus the whole monitor from a real broker, side by side
//                                        # (bench/fields-kafka.js: BENCH_FIELDS_ROUNDS, BENCH_KAFKA_RECORDS)
//   npm run bench                        # as one section of the benchmark
import { Buffer } from "node:buffer";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { loadCatalog } from "../dist/catalog/load.js";
import { parseConfig } from "../dist/config/load.js";
import { FieldTallies } from "../dist/fields/tallies.js";
import { Health } from "../dist/health/health.js";
import { BatchRecord } from "../dist/kafka/batch.js";
import { HeaderNames, decodeRecordBatch } from "../dist/kafka/patches/record-batch.js";
import { createLogger } from "../dist/log.js";
import { Pipeline } from "../dist/pipeline/pipeline.js";
import { replayFile } from "../dist/source/file.js";
import { DEPRECATED, fieldsKafkaBench } from "./fields-kafka.js";
import { eventJson, seededRandom } from "./kafka-records.js";

const DOCS = Number(process.env.BENCH_FIELDS_DOCS ?? 200_000);
const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];
const REQUIRED = ["id", "event", "amount", "user", "session", "page", "timestamp", "source"];

/** The subject's two versions, every property required; `deprecated` adds the 3 deprecated ones. */
function schema(deprecated) {
  const properties = Object.fromEntries(REQUIRED.map((name) => [name, {}]));
  properties.id = { type: "integer" };
  properties.amount = { type: "number" };
  if (deprecated) for (const name of DEPRECATED) properties[name] = { type: "string", deprecated: true };
  return { type: "object", properties, required: REQUIRED };
}

async function subjectIn(dir, deprecated) {
  const folder = join(dir, deprecated ? "deprecated" : "plain");
  await mkdir(folder);
  for (const file of ["1.0.json", "1.1.json"])
    await writeFile(join(folder, file), JSON.stringify(schema(deprecated)));
  const config = parseConfig(
    `subjects:\n  - name: event\n    topics: [events]\n    schemas: ${folder}\n    versions:\n      "1.0.0": { status: deprecated }\n      "1.1.0": { status: active }\n    sampling:\n      ratio: 0.01\n      maxPerSecond: 100000000\n`,
    resolve("bench/config.yaml"),
  );
  const catalog = await loadCatalog(config);
  return { config, catalog, fields: () => new FieldTallies(catalog) };
}

/**
 * The records as the Kafka source hands them: a Buffer value, Buffer headers; a batch's worth (about
 * 1 MB, kafkajs's default fetch per partition) of distinct records, handed out in turn. A consumer
 * reads records out of the batch it just fetched, so their bytes are in the CPU's caches; 200,000
 * distinct records (34 MB) would make the search pay for memory a real batch does not.
 */
const BATCH = 6_000;
function records() {
  const random = seededRandom(28);
  const list = [];
  for (let i = 0; i < DOCS; i++) {
    if (i >= BATCH) {
      list.push(list[i % BATCH]);
      continue;
    }
    const producer = PRODUCERS[i % PRODUCERS.length];
    list.push({
      topic: "events",
      partition: i % 3,
      offset: String(i),
      timestamp: 1796112000000 + i,
      key: Buffer.from(`${producer}:${i}`),
      headers: {
        producer: Buffer.from(producer),
        "schema-version": Buffer.from(i % 3 === 0 ? "event/1.0" : "event/1.1"),
      },
      value: Buffer.from(eventJson(i, random)),
    });
  }
  return list;
}

const require = createRequire(import.meta.url);
const { RecordBatch } = require("kafkajs/src/protocol/recordBatch/v0/index.js");
const encodeRecord = require("kafkajs/src/protocol/recordBatch/record/v0/index.js");
const Long = require("kafkajs/src/utils/long.js");

/** The distinct records as uncompressed Kafka record batches of 1,000, as kafkajs's encoder writes them. */
async function batches(list) {
  const out = [];
  for (let from = 0; from < BATCH; from += 1000) {
    const slice = list.slice(from, from + 1000);
    const encoded = await RecordBatch({
      compression: 0,
      firstOffset: Long.fromString(String(from)),
      firstTimestamp: 1796112000000 + from,
      maxTimestamp: 1796112000000 + from + slice.length,
      lastOffsetDelta: slice.length - 1,
      records: slice.map((r, i) =>
        encodeRecord({
          offsetDelta: i,
          timestampDelta: i,
          key: r.key,
          value: r.value,
          headers: { producer: r.headers.producer, "schema-version": r.headers["schema-version"] },
        }),
      ),
    });
    out.push(Buffer.from(encoded.buffer));
  }
  return out;
}

/** Decodes each batch in place (as the Kafka source does) and hands its records to the pipeline. */
async function consume(pipeline, encoded) {
  const deps = {
    names: new HeaderNames(),
    codecFor: () => null,
    partialError: (message) => new Error(message),
  };
  const record = new BatchRecord("events", 0);
  for (let done = 0; done < DOCS;) {
    for (const buffer of encoded) {
      const batch = await decodeRecordBatch({ buffer, offset: 0 }, deps);
      for (const message of batch.records) pipeline.process(record.fill(message));
      done += batch.records.length;
      if (done >= DOCS) break;
    }
  }
  await pipeline.flush();
}

function capture(list) {
  return (
    list
      .map((r, i) =>
        JSON.stringify({
          topic: r.topic,
          partition: i % 3,
          offset: i,
          timestamp: 1796112000000 + i,
          key: r.key.toString(),
          headers: {
            producer: r.headers.producer.toString(),
            "schema-version": r.headers["schema-version"].toString(),
          },
          value: JSON.parse(r.value.toString()),
        }),
      )
      .join("\n") + "\n"
  );
}

/** Milliseconds of wall and CPU time of `run`, after a collection. */
async function timed(run) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return [wall, (used.user + used.system) / 1000];
}

const min = (a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1])];

/**
 * Prints both measures; returns the wall-time ratios (with the 3 deprecated fields / without) of the
 * pipeline alone and of the file source, and how many records carried a deprecated field (0: the check
 * ran to the end of every record).
 */
export async function fieldsBench() {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-fields-"));
  try {
    const subjects = { plain: await subjectIn(dir, false), deprecated: await subjectIn(dir, true) };
    const list = records();
    const path = join(dir, "capture.ndjson");
    await writeFile(path, capture(list));
    const logger = createLogger("silent");
    const encoded = await batches(list);
    const best = {
      memory: { plain: [Infinity, Infinity], deprecated: [Infinity, Infinity] },
      kafka: { plain: [Infinity, Infinity], deprecated: [Infinity, Infinity] },
      file: { plain: [Infinity, Infinity], deprecated: [Infinity, Infinity] },
    };
    let present = 0;
    let checked = 0;
    for (let round = 0; round < 7; round++) {
      for (const mode of ["plain", "deprecated"]) {
        const { catalog, config, fields } = subjects[mode];
        const tallies = fields();
        const pipeline = new Pipeline(catalog, config, { counted: [tallies.listener] });
        best.memory[mode] = min(
          best.memory[mode],
          await timed(async () => {
            for (let i = 0; i < list.length; i++) pipeline.process(list[i]);
            await pipeline.flush();
          }),
        );
        const decoded = new Pipeline(catalog, config, { counted: [fields().listener] });
        best.kafka[mode] = min(best.kafka[mode], await timed(() => consume(decoded, encoded)));
        if (mode === "deprecated" && round === 0) {
          for (const row of tallies.subject("event").rows) {
            checked += row.checked;
            for (const count of row.present) present += count;
          }
        }
        if (round >= 5) continue;
        const replayed = new Pipeline(catalog, config, { counted: [fields().listener] });
        best.file[mode] = min(
          best.file[mode],
          await timed(() =>
            replayFile({
              path,
              sink: replayed,
              health: new Health(),
              tallies: replayed.tallies,
              topics: ["events"],
              logger,
            }),
          ),
        );
      }
    }
    const ns = (ms) => ((ms * 1e6) / DOCS).toFixed(0);
    console.log(
      `\nThe exhaustive field check, ${DOCS.toLocaleString("en-US")} records of ~166 bytes at ratio 0.01, 3 deprecated fields none of them carries (${checked.toLocaleString("en-US")} checked, ${present} present) against none`,
    );
    console.log(
      "| path | without: ns/record wall, CPU | with 3 deprecated fields: ns/record wall, CPU | ratio wall, CPU |",
    );
    console.log("| --- | ---: | ---: | ---: |");
    for (const [name, r] of [
      ["pipeline alone (records in memory, best of 7)", best.memory],
      ["Kafka record batches decoded in place, then the pipeline (best of 7)", best.kafka],
      ["file source (NDJSON capture, best of 5)", best.file],
    ])
      console.log(
        `| ${name} | ${ns(r.plain[0])}, ${ns(r.plain[1])} | ${ns(r.deprecated[0])}, ${ns(r.deprecated[1])} | ${(r.deprecated[0] / r.plain[0]).toFixed(2)}, ${(r.deprecated[1] / r.plain[1]).toFixed(2)} |`,
      );
    return {
      memory: best.memory.deprecated[0] / best.memory.plain[0],
      kafka: best.kafka.deprecated[0] / best.kafka.plain[0],
      file: best.file.deprecated[0] / best.file.plain[0],
      present,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await fieldsBench();
  if (process.env.KAFKA_BROKERS) {
    await fieldsKafkaBench(process.env.KAFKA_BROKERS.split(","));
  }
}
