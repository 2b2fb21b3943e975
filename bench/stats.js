#!/usr/bin/env node
// What field statistics cost the per-record pipeline (issue 29: at most 1.15 times the per-record CPU
// at the default sampling), side by side in one run: the file-source pipeline on the consumer's
// thread (workers: 0) for a catalog whose newest active version declares 5 number fields, without
// the statistics' listener and with it, as `run` composes it. Twice: at the default sampling
// (ratio 1, at most 5,000 validated records a second: the target) and with every record validated
// (maxPerSecond raised: the listener's whole cost on each record), and at the default sampling with a
// validation worker (the listener then parses each sampled record on the consumer's thread, which
// the worker otherwise spares it). Best of 5 interleaved rounds, wall and CPU time.
//
//   node --expose-gc bench/stats.js      # alone (after npm run build); BENCH_STATS_DOCS (200000)
//   npm run bench                        # as one section of the benchmark
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { URL, pathToFileURL } from "node:url";
import { loadCatalog } from "../dist/catalog/load.js";
import { parseConfig } from "../dist/config/load.js";
import { createLogger } from "../dist/log.js";
import { Health } from "../dist/health/health.js";
import { Pipeline } from "../dist/pipeline/pipeline.js";
import { ValidationPool } from "../dist/pipeline/workers/pool.js";
import { replayFile } from "../dist/source/file.js";
import { feedStats } from "../dist/stats/listener.js";
import { FieldStats } from "../dist/stats/stats.js";

const DOCS = Number(process.env.BENCH_STATS_DOCS ?? 200_000);
const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];
const FIELDS = ["amount", "price", "quantity", "discount", "tax"];

function capture() {
  const lines = [];
  for (let i = 0; i < DOCS; i++) {
    const value = { id: 100000 + i, event: i % 2 ? "view" : "buy" };
    FIELDS.forEach((field, f) => (value[field] = ((i * (f + 7)) % 10000) / 100));
    lines.push(
      JSON.stringify({
        topic: "events",
        partition: i % 3,
        offset: i,
        timestamp: 1796112000000 + i,
        key: `${PRODUCERS[i % 4]}:${i}`,
        headers: { producer: PRODUCERS[i % 4], "schema-version": "event/1.1" },
        value,
      }),
    );
  }
  return lines.join("\n") + "\n";
}

/** The bundled event catalog with 5 number fields; `/id` and `/event` left out, so exactly 5 are profiled. */
async function catalogIn(dir, maxPerSecond) {
  const folder = join(dir, `catalog-${maxPerSecond ?? "default"}`);
  await mkdir(folder, { recursive: true });
  for (const file of ["1.0.json", "1.1.json", "2.0.json"]) {
    const json = JSON.parse(await readFile(`examples/catalog/event/${file}`, "utf8"));
    for (const field of FIELDS) json.properties[field] = { type: "number" };
    await writeFile(join(folder, file), JSON.stringify(json));
  }
  const sampling = maxPerSecond ? `    sampling:\n      maxPerSecond: ${maxPerSecond}\n` : "";
  const config = parseConfig(
    `stats:\n  exclude: { event: [/id, /event] }\nsubjects:\n  - name: event\n    topics: [events]\n    schemas: ${folder}\n${sampling}`,
    resolve("bench/config.yaml"),
  );
  return { config, catalog: await loadCatalog(config) };
}

/**
 * Wall and CPU ms of replaying the capture, best of 5, without and with the statistics; with
 * `workers`, on a validation pool (CPU then counts the worker's thread too: it is one process).
 */
async function compare(path, { config, catalog }, workers = 0) {
  const logger = createLogger("silent");
  const pool =
    workers > 0
      ? new ValidationPool(workers, logger, new URL("../dist/monitor/validation-thread.js", import.meta.url))
      : undefined;
  await pool?.start(config, false, []);
  const best = { plain: [Infinity, Infinity], stats: [Infinity, Infinity] };
  let fields = 0;
  let sampled = 0;
  for (let round = 0; round < 5; round++) {
    for (const mode of ["plain", "stats"]) {
      const stats = new FieldStats(config.stats, config.corpus.redact);
      const pipeline = new Pipeline(catalog, config, {
        ...(pool ? { runner: pool } : {}),
        ...(mode === "stats" ? { validated: [feedStats(stats)] } : {}),
      });
      globalThis.gc?.();
      const cpu = process.cpuUsage();
      const start = performance.now();
      await replayFile({
        path,
        sink: pipeline,
        health: new Health(),
        tallies: pipeline.tallies,
        topics: ["events"],
        logger,
      });
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      best[mode] = [Math.min(best[mode][0], wall), Math.min(best[mode][1], (used.user + used.system) / 1000)];
      if (mode === "stats") {
        fields = stats.fieldsOf(catalog.subjects.get("event")).fields.length;
        sampled = 0;
        for (const series of stats.store.all())
          if (series.field === "/amount") for (const b of series.buckets()) sampled += b.count;
      }
    }
  }
  await pool?.stop();
  return { ...best, fields, sampled };
}

/** Prints both comparisons; returns the CPU ratio at the default sampling (with / without). */
export async function statsBench() {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-stats-"));
  try {
    const path = join(dir, "capture.ndjson");
    await writeFile(path, capture());
    const atDefault = await compare(path, await catalogIn(dir, undefined));
    const everyRecord = await compare(path, await catalogIn(dir, 100_000_000));
    const withWorker = await compare(path, await catalogIn(dir, undefined), 1);
    const us = (ms) => ((ms * 1000) / DOCS).toFixed(2);
    console.log(
      `\nField statistics on the consumer's thread, ${DOCS.toLocaleString("en-US")} records (3 readers), best of 5`,
    );
    console.log(
      "| sampling | fields profiled | values profiled per field | without: µs/record wall, CPU | with statistics: µs/record wall, CPU | ratio wall, CPU |",
    );
    console.log("| --- | ---: | ---: | --- | --- | --- |");
    for (const [label, r] of [
      ["default (ratio 1, maxPerSecond 5000)", atDefault],
      ["every record validated", everyRecord],
      ["default, workers: 1 (the listener parses the sampled records on the consumer's thread)", withWorker],
    ]) {
      console.log(
        `| ${label} | ${r.fields} | ${r.sampled.toLocaleString("en-US")} | ${us(r.plain[0])}, ${us(r.plain[1])} | ${us(r.stats[0])}, ${us(r.stats[1])} | ${(r.stats[0] / r.plain[0]).toFixed(3)}, ${(r.stats[1] / r.plain[1]).toFixed(3)} |`,
      );
    }
    return atDefault.stats[1] / atDefault.plain[1];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const ratio = await statsBench();
  console.log(
    `\nCPU per record with field statistics / without, at the default sampling: ${ratio.toFixed(3)} (target ≤ 1.15)`,
  );
}
