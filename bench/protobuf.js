#!/usr/bin/env node
// What a Protobuf subject costs per record beside a JSON Schema subject (issue 36), side by side in
// one run, as bench/avro.js measures Avro: the pipeline on the consumer's thread (workers: 0), each
// record in Confluent's wire format (magic 0, the schema id; for Protobuf the [0] message index)
// carrying the same event, as JSON text or as a Protobuf body, for a subject of three versions (1.0
// deprecated, 1.1 active, 2.0 candidate) both ways. At ratio 0.01 a record is counted from its prefix and one in a hundred is
// decoded and judged by three readers; at ratio 1 every one is. Records are handed to the pipeline
// directly (no capture to parse), so the figure is the pipeline's own. Median of 7 interleaved
// rounds, their order alternating, CPU time.
//
//   npm run build && node --expose-gc bench/protobuf.js      # BENCH_PROTOBUF_RECORDS (200000)
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { pathToFileURL } from "node:url";
import protobuf from "protobufjs";
import { loadCatalog } from "../dist/catalog/load.js";
import { parseConfig } from "../dist/config/load.js";
import { Pipeline } from "../dist/pipeline/pipeline.js";

const RECORDS = Number(process.env.BENCH_PROTOBUF_RECORDS ?? 200_000);
const ROUNDS = 7;
const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];

const proto = (symbols, amount) =>
  `syntax = "proto3";\npackage bench;\nenum Kind { ${symbols.map((k, i) => `${k.toUpperCase()} = ${i};`).join(" ")} }\n` +
  `message Event { int64 id = 1; Kind event = 2;${amount ? ` ${amount} double amount = 3;` : ""} }\n`;
const PROTO = {
  "1.0.proto": proto(["view", "click"], ""),
  "1.1.proto": proto(["view", "click", "buy"], "optional"),
  // 2.0 reads amount without presence: a 1.1 record without one reads its default.
  "2.0.proto": proto(["view", "click", "buy"], " "),
};

async function pipelineOf(dir, format, ratio) {
  const folder = format === "json" ? join(process.cwd(), "examples/catalog/event") : join(dir, "protobuf");
  const config = parseConfig(
    `subjects:
  - name: event
    topics: [events]
    schemas: ${folder}
    sampling: { ratio: ${ratio}, maxPerSecond: 100000000 }
    versions:
      "1.0.0": { status: deprecated, confluentId: 1 }
      "1.1.0": { status: active, confluentId: 2 }
      "2.0.0": { status: candidate, confluentId: 3 }
`,
    join(dir, "config.yaml"),
  );
  return new Pipeline(await loadCatalog(config), config);
}

function records(format) {
  const type = protobuf.parse(PROTO["1.1.proto"], { keepCase: true }).root.lookupType("bench.Event");
  const prefix = Buffer.from([0, 0, 0, 0, 2, 0]);
  const out = [];
  for (let i = 0; i < RECORDS; i++) {
    const kind = ["view", "click", "buy"][i % 3];
    const amount = i % 2 ? null : (i % 1000) / 10;
    const body =
      format === "json"
        ? Buffer.from(JSON.stringify({ id: 100000 + i, event: kind, ...(amount === null ? {} : { amount }) }))
        : Buffer.from(
            type
              .encode(
                type.fromObject({
                  id: 100000 + i,
                  event: kind.toUpperCase(),
                  ...(amount === null ? {} : { amount }),
                }),
              )
              .finish(),
          );
    out.push({
      topic: "events",
      partition: i % 3,
      offset: String(i),
      timestamp: 1796112000000 + i,
      key: null,
      headers: { producer: PRODUCERS[i % 4] },
      value: Buffer.concat([format === "json" ? prefix.subarray(0, 5) : prefix, body]),
    });
  }
  return out;
}

function cpuOf(pipeline, list) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  for (const record of list) pipeline.process(record);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function protobufBench() {
  const dir = await mkdtemp(join(tmpdir(), "schemawatch-protobuf-"));
  try {
    await writeFile(join(dir, "config.yaml"), "");
    await mkdir(join(dir, "protobuf"));
    for (const [file, text] of Object.entries(PROTO)) await writeFile(join(dir, "protobuf", file), text);
    const lists = { json: records("json"), protobuf: records("protobuf") };
    const rows = [];
    for (const ratio of [0.01, 1]) {
      const cpu = { json: [], protobuf: [] };
      let validations = {};
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? ["protobuf", "json"] : ["json", "protobuf"];
        for (const format of order) {
          const pipeline = await pipelineOf(dir, format, ratio);
          cpu[format].push(cpuOf(pipeline, lists[format]));
          const failed = pipeline.tallies.validations.filter((c) => c.labels.result === "fail");
          validations[format] = [
            pipeline.tallies.validations.reduce((s, c) => s + c.value, 0),
            failed.reduce((s, c) => s + c.value, 0),
          ];
        }
      }
      const ns = (ms) => Math.round((ms * 1e6) / RECORDS);
      rows.push({ ratio, json: median(cpu.json), protobuf: median(cpu.protobuf), validations });
      const r = rows.at(-1);
      console.log(
        `| ${ratio} | ${ns(r.json)} | ${ns(r.protobuf)} | ${(r.protobuf / r.json).toFixed(2)} | ${r.validations.json[0].toLocaleString("en-US")} (${r.validations.json[1].toLocaleString("en-US")} fail) | ${r.validations.protobuf[0].toLocaleString("en-US")} (${r.validations.protobuf[1].toLocaleString("en-US")} fail) |`,
      );
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(
    `Protobuf beside JSON Schema, ${RECORDS.toLocaleString("en-US")} wire-format records, 3 readers, workers: 0, median of ${ROUNDS} interleaved rounds (CPU)`,
  );
  console.log(
    "| ratio | JSON ns/record | Protobuf ns/record | Protobuf / JSON | JSON validations | Protobuf validations |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
  const rows = await protobufBench();
  console.log(`\nProtobuf / JSON per record at ratio 0.01: ${(rows[0].protobuf / rows[0].json).toFixed(2)}`);
}
