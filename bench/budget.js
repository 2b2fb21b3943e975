#!/usr/bin/env node
// What the validation time budget costs the per-record pipeline on the consumer's thread (workers: 0),
// in one run: the file-source pipeline at sample ratio 1 without a budget, and with it as `run` sets
// it up, for the article's catalog (every reader validates in linear time: validated at once, as
// before) and for the same catalog with `uniqueItems` on one field (quadratic in an array's length:
// validated at each flush inside budgeted vm runs). Best of 5 interleaved rounds, wall and CPU time.
//
//   node --expose-gc bench/budget.js      # alone (after npm run build); BENCH_BUDGET_DOCS (200000)
//   npm run bench                         # as one section of the benchmark
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { loadCatalog } from "../dist/catalog/load.js";
import { parseConfig } from "../dist/config/load.js";
import { ValidationBudget } from "../dist/engine/budget.js";
import { createLogger } from "../dist/log.js";
import { Health } from "../dist/health/health.js";
import { Pipeline } from "../dist/pipeline/pipeline.js";
import { InThreadValidation } from "../dist/pipeline/workers/in-thread.js";
import { replayFile } from "../dist/source/file.js";

const DOCS = Number(process.env.BENCH_BUDGET_DOCS ?? 200_000);
const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];

function capture() {
  const lines = [];
  for (let i = 0; i < DOCS; i++) {
    const shape = i % 4;
    const value =
      shape === 0
        ? { id: 100000 + i, event: i % 2 ? "view" : "click" }
        : shape === 1
          ? { id: 100000 + i, event: "view", amount: (i % 1000) / 10 }
          : shape === 2
            ? { id: 100000 + i, event: "buy", amount: i % 500 }
            : { id: 100000 + i, event: "view", x: i % 3 === 0 };
    lines.push(
      JSON.stringify({
        topic: "events",
        partition: i % 3,
        offset: i,
        timestamp: 1796112000000 + i,
        key: `${PRODUCERS[i % 4]}:${i}`,
        headers: { producer: PRODUCERS[i % 4], "schema-version": i % 4 === 0 ? "event/1.0" : "event/1.1" },
        value,
      }),
    );
  }
  return lines.join("\n") + "\n";
}

async function catalogIn(dir, uniqueItems) {
  const folder = join(dir, uniqueItems ? "guarded" : "linear");
  await mkdir(folder);
  for (const file of ["1.0.json", "1.1.json", "2.0.json"]) {
    const json = JSON.parse(await readFile(`examples/catalog/event/${file}`, "utf8"));
    if (uniqueItems) json.properties.tags = { type: "array", uniqueItems: true };
    await writeFile(join(folder, file), JSON.stringify(json));
  }
  const config = parseConfig(
    `subjects:\n  - name: event\n    topics: [events]\n    schemas: ${folder}\n    sampling:\n      maxPerSecond: 100000000\n`,
    resolve("bench/config.yaml"),
  );
  return { config, catalog: await loadCatalog(config) };
}

/** Wall and CPU milliseconds of replaying the capture, best of 5, with and without the budget. */
async function compare(path, { config, catalog }) {
  const logger = createLogger("silent");
  const best = { plain: [Infinity, Infinity], budgeted: [Infinity, Infinity] };
  for (let round = 0; round < 5; round++) {
    for (const mode of ["plain", "budgeted"]) {
      const pipeline = new Pipeline(
        catalog,
        config,
        mode === "budgeted"
          ? {
              runner: new InThreadValidation(
                false,
                new ValidationBudget(config.validationTimeout),
                config.assertFormats,
              ),
            }
          : {},
      );
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
    }
  }
  return best;
}

/** Prints both comparisons; returns the wall-time ratio for the linear catalog (budget / none). */
export async function budgetBench() {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-budget-"));
  try {
    const path = join(dir, "capture.ndjson");
    await writeFile(path, capture());
    const linear = await compare(path, await catalogIn(dir, false));
    const guarded = await compare(path, await catalogIn(dir, true));
    const us = (ms) => ((ms * 1000) / DOCS).toFixed(2);
    console.log(
      `\nThe validation time budget on the consumer's thread, ${DOCS.toLocaleString("en-US")} records at ratio 1 (3 readers), best of 5`,
    );
    console.log(
      "| catalog | without: µs/record wall, CPU | with the budget: µs/record wall, CPU | ratio wall, CPU |",
    );
    console.log("| --- | ---: | ---: | ---: |");
    for (const [name, r] of [
      ["article (validated at once)", linear],
      ["with uniqueItems (budgeted vm runs)", guarded],
    ])
      console.log(
        `| ${name} | ${us(r.plain[0])}, ${us(r.plain[1])} | ${us(r.budgeted[0])}, ${us(r.budgeted[1])} | ${(r.budgeted[0] / r.plain[0]).toFixed(2)}, ${(r.budgeted[1] / r.plain[1]).toFixed(2)} |`,
      );
    return linear.budgeted[0] / linear.plain[0];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await budgetBench();
