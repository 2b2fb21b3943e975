#!/usr/bin/env node
// schemawatch benchmark: every figure is measured in this one run, side by side, and the targets are
// ratios between them (never absolute times), so the result holds on any machine.
//
//   npm run bench                      # parse, validation, the file-source pipeline, memory, scrapes
//   KAFKA_BROKERS=127.0.0.1:19092 npm run bench   # plus bare kafkajs vs schemawatch on a real topic
//
// Options (environment): BENCH_DOCS (default 500000 documents), BENCH_KAFKA_RECORDS (1000000),
// BENCH_SCRAPES (2000). Every figure with a target is printed with its verdict, and all of them again
// at the end (bench/figures.js).
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir, cpus } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { loadCatalog, loadSchemaFiles } from "../dist/catalog/load.js";
import { parseConfig } from "../dist/config/load.js";
import { Pipeline } from "../dist/pipeline/pipeline.js";
import { replayFile } from "../dist/source/file.js";
import { Health } from "../dist/health/health.js";
import { createLogger } from "../dist/log.js";
import { Figures } from "./figures.js";
import { kafkaBench } from "./kafka.js";
import { codecConsumptionBench } from "./kafka-codecs.js";
import { replayMemory } from "./memory.js";
import { budgetBench } from "./budget.js";
import { fieldsBench } from "./fields.js";
import { fieldsKafkaBench } from "./fields-kafka.js";
import { regexpBench } from "./regexp.js";
import { scrapeBench } from "./scrape.js";
import { statsBench } from "./stats.js";

const DOCS = Number(process.env.BENCH_DOCS ?? 500_000);
const ARTICLE = ["v1", "v2-optional-amount", "v2-required-amount", "v2-enum-buy", "v2-open"].map(
  (name) => `examples/article/schemas/${name}.json`,
);

/** The article's four shapes, with varying values so the parser cannot be lucky. */
function documents(count) {
  const texts = new Array(count);
  for (let i = 0; i < count; i++) {
    const shape = i % 4;
    const doc =
      shape === 0
        ? { id: 100000 + i, event: i % 2 ? "view" : "click" }
        : shape === 1
          ? { id: 100000 + i, event: "view", amount: (i % 1000) / 10 }
          : shape === 2
            ? { id: 100000 + i, event: "buy", amount: i % 500 }
            : { id: 100000 + i, event: "view", x: i % 3 === 0 };
    texts[i] = JSON.stringify(doc);
  }
  return texts;
}

function best(runs, fn) {
  let fastest = Infinity;
  let result;
  for (let r = 0; r < runs; r++) {
    globalThis.gc?.();
    const start = performance.now();
    result = fn();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return { ms: fastest, result };
}

const rate = (count, ms) => Math.round((count / ms) * 1000);
const fmt = (n) => n.toLocaleString("en-US");

async function main() {
  const texts = documents(DOCS);
  const bytes = texts.reduce((sum, t) => sum + t.length, 0);
  const validators = (await loadSchemaFiles(ARTICLE)).map((s) => s.validate);

  // Parse-only and parse+validate alternate, best of 7 each: on a shared machine a burst of noise then
  // hits both rather than one of them.
  const parseOnly = () => {
    let keep = 0;
    for (const text of texts) keep += JSON.parse(text).id;
    return keep;
  };
  const parseAndValidate = () => {
    let passed = 0;
    for (const text of texts) {
      const doc = JSON.parse(text);
      for (const v of validators) if (v(doc)) passed++;
    }
    return passed;
  };
  const parse = { ms: Infinity };
  const validate = { ms: Infinity };
  for (let r = 0; r < 7; r++) {
    parse.ms = Math.min(parse.ms, best(1, parseOnly).ms);
    validate.ms = Math.min(validate.ms, best(1, parseAndValidate).ms);
  }

  // The whole per-record pipeline on the file source: NDJSON lines with headers, as a capture holds them.
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-bench-"));
  const capture = join(dir, "capture.ndjson");
  const producers = ["web", "mobile", "billing", "partner-feed"];
  await writeFile(
    capture,
    texts
      .map((text, i) =>
        JSON.stringify({
          topic: "events",
          partition: i % 3,
          offset: i,
          timestamp: 1796112000000 + i,
          key: `${producers[i % 4]}:${i}`,
          headers: { producer: producers[i % 4], "schema-version": i % 4 === 0 ? "event/1.0" : "event/1.1" },
          value: JSON.parse(text),
        }),
      )
      .join("\n") + "\n",
  );
  const config = parseConfig(
    `subjects:\n  - name: event\n    topics: [events]\n    schemas: ${resolve("examples/catalog/event")}\n    sampling:\n      maxPerSecond: 100000000\n`,
    resolve("bench/config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const logger = createLogger("silent");
  let pipelineMs = Infinity;
  for (let r = 0; r < 3; r++) {
    const pipeline = new Pipeline(catalog, config);
    globalThis.gc?.();
    const start = performance.now();
    await replayFile({
      path: capture,
      sink: pipeline,
      health: new Health(),
      tallies: pipeline.tallies,
      topics: ["events"],
      logger,
    });
    pipelineMs = Math.min(pipelineMs, performance.now() - start);
  }
  let replayOnlyMs = Infinity;
  for (let r = 0; r < 3; r++) {
    const sink = { process() {} };
    globalThis.gc?.();
    const start = performance.now();
    await replayFile({
      path: capture,
      sink,
      health: new Health(),
      tallies: new Pipeline(catalog, config).tallies,
      topics: ["events"],
      logger,
    });
    replayOnlyMs = Math.min(replayOnlyMs, performance.now() - start);
  }
  const figures = new Figures();
  const ratio = validate.ms / parse.ms;
  console.log(
    `schemawatch benchmark — node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}`,
  );
  console.log(
    `${fmt(DOCS)} documents, ${(bytes / DOCS).toFixed(0)} bytes on average (the article's four shapes)\n`,
  );
  console.log("| measure | records/s | time vs parse |");
  console.log("| --- | ---: | ---: |");
  console.log(`| JSON.parse alone | ${fmt(rate(DOCS, parse.ms))} | 1.00 |`);
  console.log(
    `| parse + validate against the article's 5 schemas | ${fmt(rate(DOCS, validate.ms))} | ${ratio.toFixed(2)} |`,
  );
  console.log(
    `| file source: NDJSON replay, no pipeline | ${fmt(rate(DOCS, replayOnlyMs))} | ${(replayOnlyMs / parse.ms).toFixed(2)} |`,
  );
  console.log(
    `| file source: whole per-record pipeline, ratio 1, 3 versions | ${fmt(rate(DOCS, pipelineMs))} | ${(pipelineMs / parse.ms).toFixed(2)} |`,
  );
  console.log("");
  figures.add("validation / parse time", ratio, { target: 2, better: "lower" });
  figures.add(
    "per-record pipeline with the validation time budget / without (workers 0, linear-time readers)",
    await budgetBench(),
    { target: 1.1, better: "lower" },
  );
  // Issue 28's 1.10 against two denominators: the pipeline alone (a few hundred nanoseconds a
  // record, no source's work: the strictest) and the file source (a source's work included).
  const fields = await fieldsBench();
  figures.add(
    "per-record pipeline alone, ratio 0.01, a subject with 3 deprecated fields / without any",
    fields.memory,
    { target: 1.1, better: "lower" },
  );
  figures.add("file source, ratio 0.01, a subject with 3 deprecated fields / without any", fields.file, {
    target: 1.1,
    better: "lower",
  });
  figures.add(
    "per-record CPU with field statistics on 5 fields / without, at the default sampling (workers 0)",
    await statsBench(),
    { target: 1.15, better: "lower", note: "issue 29" },
  );
  figures.add(
    "validation of 8 patterned fields, schemawatch's pattern engines / native RegExp",
    regexpBench(),
    { target: 8, better: "lower", note: "the price of linear time where a pattern could backtrack" },
  );

  // The product's memory without Kafka: `schemawatch run` replaying the same capture in its own process.
  const memory = await replayMemory(capture, DOCS);
  figures.add(
    `schemawatch run --source file: (its own process, ${memory.nodeOptions}, ${fmt(DOCS)} records), peak resident memory`,
    memory.peakMb,
    { target: 200, better: "lower", unit: " MB", digits: 0 },
  );
  await rm(dir, { recursive: true, force: true });

  const { scrapes, metrics, healthz } = await scrapeBench();
  const latencies = (r) =>
    `p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, max ${r.max.toFixed(0)} ms`;
  console.log(
    `\n${fmt(scrapes)} concurrent requests on loopback to schemawatch run (bundled traffic), each on its own connection:`,
  );
  console.log(`  GET /healthz (constant answer: the connections alone): ${latencies(healthz)}`);
  console.log(`  GET /metrics: ${latencies(metrics)}`);
  figures.add(`${fmt(scrapes)} concurrent GET /metrics, slowest`, metrics.max, {
    target: 1000,
    better: "lower",
    unit: " ms",
    digits: 0,
  });
  // What rendering adds to the connections' own cost, as a ratio in this run: ~30 when every scrape
  // rendered in turn, ~1 when they share renderings.
  figures.add(
    `${fmt(scrapes)} concurrent GET /metrics, median, vs the same burst of GET /healthz`,
    metrics.p50 / healthz.p50,
    {
      target: 1.5,
      better: "lower",
    },
  );
  figures.add(`${fmt(scrapes)} concurrent GET /metrics that failed`, metrics.failed, {
    target: 0,
    better: "lower",
    digits: 0,
  });
  console.log("");

  if (process.env.KAFKA_BROKERS) {
    const brokers = process.env.KAFKA_BROKERS.split(",");
    await kafkaBench(brokers, catalog, config, figures);
    await codecConsumptionBench(brokers, catalog, config, figures);
    figures.add(
      "whole monitor from Kafka, ratio 0.01, a subject with 3 deprecated fields / without any, CPU per record",
      await fieldsKafkaBench(brokers),
      { target: 1.1, better: "lower" },
    );
  } else console.log("\nKAFKA_BROKERS is not set: the Kafka comparison is skipped (see BENCHMARKS.md).");
  figures.print();
}

await main();
