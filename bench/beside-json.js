// A binary format's per-record cost beside a JSON Schema subject, side by side in one run (issue 36):
// what bench/avro.js and bench/protobuf.js share. The pipeline runs on the consumer's thread
// (workers: 0); each record is in Confluent's wire format (magic 0, the schema id 2, then the
// format's own framing) carrying the same event, as JSON text or as the format's body, for a subject
// of three versions (1.0 deprecated, 1.1 active, 2.0 candidate) both ways. At ratio 0.01 a record is
// counted from its prefix and one in a hundred is decoded and judged by three readers; at ratio 1
// every one is. Records are handed to the pipeline directly (no capture to parse), so the figure is
// the pipeline's own. Median of 7 interleaved rounds, their order alternating, CPU time.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { loadCatalog } from "../dist/catalog/load.js";
import { parseConfig } from "../dist/config/load.js";
import { Pipeline } from "../dist/pipeline/pipeline.js";

const ROUNDS = 7;
const PRODUCERS = ["web", "mobile", "billing", "partner-feed"];
const JSON_PREFIX = Buffer.from([0, 0, 0, 0, 2]);

async function pipelineOf(folder, ratio, dir) {
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

/** `count` events of producers in turn; `value(event)` is the record's whole value. */
function records(count, value) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const kind = ["view", "click", "buy"][i % 3];
    const amount = i % 2 ? null : (i % 1000) / 10;
    out.push({
      topic: "events",
      partition: i % 3,
      offset: String(i),
      timestamp: 1796112000000 + i,
      key: null,
      headers: { producer: PRODUCERS[i % 4] },
      value: value({ id: 100000 + i, kind, amount }),
    });
  }
  return out;
}

/** A JSON event of the bundled `event` catalog behind its Confluent prefix. */
const jsonValue = ({ id, kind, amount }) =>
  Buffer.concat([
    JSON_PREFIX,
    Buffer.from(JSON.stringify({ id, event: kind, ...(amount === null ? {} : { amount }) })),
  ]);

function cpuOf(pipeline, list) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  for (const record of list) pipeline.process(record);
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs the comparison for a format `name` whose schema files (name → text) are `files` and whose
 * record value for an event `{ id, kind, amount }` (amount null for none) is `value(event)`; prints a
 * row per ratio and returns them as `{ ratio, json, [name], validations }` (CPU ms).
 */
export async function besideJson({ name, records: count, files, value }) {
  const dir = await mkdtemp(join(tmpdir(), `schemawatch-${name}-`));
  try {
    await writeFile(join(dir, "config.yaml"), "");
    await mkdir(join(dir, name));
    for (const [file, text] of Object.entries(files)) await writeFile(join(dir, name, file), text);
    const folders = { json: join(process.cwd(), "examples/catalog/event"), [name]: join(dir, name) };
    const lists = { json: records(count, jsonValue), [name]: records(count, value) };
    const rows = [];
    for (const ratio of [0.01, 1]) {
      const cpu = { json: [], [name]: [] };
      const validations = {};
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? [name, "json"] : ["json", name];
        for (const format of order) {
          const pipeline = await pipelineOf(folders[format], ratio, dir);
          cpu[format].push(cpuOf(pipeline, lists[format]));
          const failed = pipeline.tallies.validations.filter((c) => c.labels.result === "fail");
          validations[format] = [
            pipeline.tallies.validations.reduce((s, c) => s + c.value, 0),
            failed.reduce((s, c) => s + c.value, 0),
          ];
        }
      }
      const ns = (ms) => Math.round((ms * 1e6) / count);
      const r = { ratio, json: median(cpu.json), [name]: median(cpu[name]), validations };
      rows.push(r);
      const n = (x) => x.toLocaleString("en-US");
      console.log(
        `| ${ratio} | ${ns(r.json)} | ${ns(r[name])} | ${(r[name] / r.json).toFixed(2)} | ${n(validations.json[0])} (${n(validations.json[1])} fail) | ${n(validations[name][0])} (${n(validations[name][1])} fail) |`,
      );
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The table's title and header, for a format `label` (Avro, Protobuf). */
export function printHeader(label, count) {
  console.log(
    `${label} beside JSON Schema, ${count.toLocaleString("en-US")} wire-format records, 3 readers, workers: 0, median of ${ROUNDS} interleaved rounds (CPU)`,
  );
  console.log(
    `| ratio | JSON ns/record | ${label} ns/record | ${label} / JSON | JSON validations | ${label} validations |`,
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: |");
}
