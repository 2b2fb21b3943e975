// The field check's cost on the whole monitor from a real broker (issue 28): bench/consumer.js runs
// `schemawatch run`'s monitor in a fresh process per round, once with a subject without any field of
// interest and once with the same subject and 3 deprecated fields, on the Kafka benchmark's topic.
//
//   KAFKA_BROKERS=127.0.0.1:19092 node --expose-gc bench/fields.js
//                  # BENCH_KAFKA_RECORDS (1,000,000 a run), BENCH_FIELDS_ROUNDS (7 pairs of runs),
//                  # BENCH_FIELDS_NESTED=1 (the 3 fields under /event, issue 38)
//   KAFKA_BROKERS=127.0.0.1:19092 npm run bench      # as one figure of the Kafka section
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The deprecated properties of both benchmarks (bench/fields.js imports them from here). */
export const DEPRECATED = ["legacy_id", "coupon", "referrer"];

/**
 * The whole monitor from a real broker (bench/consumer.js, each run a fresh process): the subject
 * without any field of interest against the same subject with 3 deprecated fields, on the Kafka
 * benchmark's topic (~200-byte records, {id, event, amount} values), in pairs of runs back to back,
 * the pair's order alternating (which runs first gets a warmer machine every other round).
 * Returns the median of the pairs' ratios of CPU time a record (3 deprecated fields / none): one
 * round is as far from the next as the two subjects from each other (BENCHMARKS.md, 2026-12-05), so
 * the lowest of each would compare two rounds' luck.
 */
export async function fieldsKafkaBench(brokers) {
  const { Kafka, logLevel } = await import("kafkajs");
  const { fill, runConsumer, loadAverage } = await import("./kafka.js");
  const records = Number(process.env.BENCH_KAFKA_RECORDS ?? 1_000_000);
  const rounds = Number(process.env.BENCH_FIELDS_ROUNDS ?? 7);
  const nested = process.env.BENCH_FIELDS_NESTED === "1";
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-fields-kafka-"));
  const kafka = new Kafka({ clientId: "schemawatch-bench", brokers, logLevel: logLevel.NOTHING });
  const topic = `bench-fields-${Date.now()}`;
  try {
    const schemas = {};
    for (const mode of ["plain", "deprecated"]) {
      const folder = join(dir, mode);
      await mkdir(folder);
      const properties = { id: { type: "integer" }, event: {}, amount: { type: "number" } };
      // Nested (issue 38): /event/legacy_id and so on, each found only by reading the record exactly.
      const deprecated = {};
      if (mode === "deprecated") for (const name of DEPRECATED) deprecated[name] = { deprecated: true };
      if (nested) properties.event = { properties: deprecated };
      else Object.assign(properties, deprecated);
      const json = JSON.stringify({ type: "object", properties, required: ["id", "event", "amount"] });
      for (const file of ["1.0.json", "1.1.json"]) await writeFile(join(folder, file), json);
      schemas[mode] = folder;
    }
    await fill(kafka, topic);
    const cpu = { plain: [], deprecated: [] };
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? ["plain", "deprecated"] : ["deprecated", "plain"];
      for (const mode of order) {
        const result = await runConsumer({
          mode: "schemawatch",
          ratio: 0.01,
          workers: 0,
          schemas: schemas[mode],
          brokers,
          topic,
          records,
        });
        cpu[mode].push(result.cpuSecondsPerMillion);
      }
    }
    const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
    console.log(
      `\nThe whole monitor from Kafka, ${records.toLocaleString("en-US")} records, ratio 0.01, ${rounds} rounds, ${nested ? "nested" : "top-level"} fields (load ${loadAverage()}):`,
    );
    console.log("| subject | CPU-s per 1M records, median | lowest | every round |");
    console.log("| --- | ---: | ---: | --- |");
    for (const mode of ["plain", "deprecated"])
      console.log(
        `| ${mode === "plain" ? "no field of interest" : "3 deprecated fields"} | ${median(cpu[mode]).toFixed(2)} | ${Math.min(...cpu[mode]).toFixed(2)} | ${cpu[mode].map((c) => c.toFixed(2)).join(", ")} |`,
      );
    const pairs = cpu.plain.map((plain, i) => cpu.deprecated[i] / plain);
    const ratio = median(pairs);
    console.log(
      `CPU per record, 3 deprecated fields / none: median of the rounds' ratios ${ratio.toFixed(2)} (each round's: ${pairs.map((r) => r.toFixed(2)).join(", ")}); lowest of each ${(Math.min(...cpu.deprecated) / Math.min(...cpu.plain)).toFixed(2)}`,
    );
    return ratio;
  } finally {
    const admin = kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.disconnect();
    await rm(dir, { recursive: true, force: true });
  }
}
