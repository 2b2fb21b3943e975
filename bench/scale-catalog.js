// The generated cluster of the scale benchmark (bench/scale.js): S subjects of five versions each, one
// topic per subject, about 1,000 partitions and 300 producers in all, and an NDJSON capture of N
// records spread over them. The versions differ as the article's do: an optional field added, an enum
// widened, another optional field, and a candidate that makes a field required.
import { mkdir, writeFile } from "node:fs/promises";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";

export const VERSIONS = [
  { file: "1.0.json", version: "1.0.0", status: "deprecated" },
  { file: "1.1.json", version: "1.1.0", status: "deprecated" },
  { file: "1.2.json", version: "1.2.0", status: "active" },
  { file: "1.3.json", version: "1.3.0", status: "active" },
  { file: "2.0.json", version: "2.0.0", status: "candidate" },
];
/** The versions producers declare (never the candidate), and `null` for producers that declare none. */
const DECLARED = ["1.0.0", "1.1.0", "1.2.0", "1.3.0", null];
const KINDS = ["created", "updated", "deleted", "archived"];

export const PRODUCERS = 300;
export const PARTITIONS = 1000;

const subjectName = (i) => `orders-${String(i).padStart(3, "0")}`;

/** The five versions of subject i; the field names vary per subject, so no two subjects share a schema. */
function schemas(i) {
  const extra = `note${i % 7}`;
  const base = (title, kinds, properties, required) => ({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `https://example.com/schemas/${subjectName(i)}/${title}.json`,
    title: `${subjectName(i)} ${title}`,
    type: "object",
    properties: {
      id: { type: "integer", minimum: 0 },
      kind: { enum: kinds },
      customer: { type: "string", maxLength: 64 },
      at: { type: "string", maxLength: 40 },
      ...properties,
    },
    required: ["id", "kind", "customer", ...required],
    additionalProperties: false,
  });
  const amount = { amount: { type: "number", minimum: 0 } };
  const note = { [extra]: { type: "string", maxLength: 200 } };
  return [
    base("1.0", KINDS.slice(0, 2), {}, []),
    base("1.1", KINDS.slice(0, 2), amount, []),
    base("1.2", KINDS.slice(0, 3), amount, []),
    base("1.3", KINDS, { ...amount, ...note }, []),
    base("2.0", KINDS, { ...amount, ...note }, ["amount"]),
  ];
}

/** How many producers write each subject: all 300 on a single subject, fewer as the subjects grow. */
export const producersPerSubject = (subjects) => Math.min(PRODUCERS, Math.ceil((PRODUCERS * 3) / subjects));
export const partitionsPerTopic = (subjects) => Math.max(1, Math.round(PARTITIONS / subjects));

/** The producer j of subject s writes one declared version (or none), as a real service does. */
function producerOf(subjects, s, j) {
  const index = (s * producersPerSubject(subjects) + j) % PRODUCERS;
  return { name: `svc-${String(index).padStart(3, "0")}`, declared: DECLARED[index % DECLARED.length] };
}

/** A document the producer's version allows, mostly valid against its neighbours too. */
function document(k, s, declared) {
  const doc = { id: k, kind: KINDS[k % 2], customer: `c-${k % 9973}`, at: "2026-12-02T10:00:00Z" };
  if (declared === null || declared >= "1.1.0") doc.amount = (k % 1000) / 10;
  if (declared >= "1.2.0" && k % 5 === 0) doc.kind = KINDS[2 + (k % 2)];
  if (declared >= "1.3.0" && k % 3 === 0) doc[`note${s % 7}`] = "left at the door";
  return doc;
}

/**
 * Writes the catalog folders, a config and the capture under `dir`.
 * @returns {Promise<{config: (ratio: number) => string, capture: string}>}
 */
export async function writeCluster(dir, subjects, records) {
  const lines = [`logLevel: warn`, `subjects:`];
  const perSubject = producersPerSubject(subjects);
  for (let i = 0; i < subjects; i++) {
    const folder = join(dir, "schemas", subjectName(i));
    await mkdir(folder, { recursive: true });
    const texts = schemas(i);
    for (let v = 0; v < VERSIONS.length; v++)
      await writeFile(join(folder, VERSIONS[v].file), JSON.stringify(texts[v], null, 2));
    lines.push(
      `  - name: ${subjectName(i)}`,
      `    topics: [${subjectName(i)}]`,
      `    schemas: ${folder}`,
      `    versions:`,
      ...VERSIONS.map((v) => `      "${v.version}": { status: ${v.status} }`),
      `    producer: { header: producer, maxValues: ${perSubject + 10} }`,
      `    sampling: { ratio: RATIO, maxPerSecond: 1000000000 }`,
    );
  }
  const template = lines.join("\n") + "\n";
  const config = (ratio) => template.replaceAll("RATIO", String(ratio));

  const capture = join(dir, "capture.ndjson");
  const out = createWriteStream(capture);
  const partitions = partitionsPerTopic(subjects);
  const offsets = new Map();
  let chunk = "";
  for (let k = 0; k < records; k++) {
    // Records arrive in short runs per subject and producer, as a fetch of one partition hands them over.
    const run = Math.floor(k / 8);
    const s = run % subjects;
    // The subject's own run count: producers take turns, and partitions shift against them, so every
    // partition of every topic is written and no producer keeps to one partition.
    const turn = Math.floor(run / subjects);
    const producer = producerOf(subjects, s, turn % perSubject);
    const partition = (turn + Math.floor(turn / perSubject)) % partitions;
    const key = `${s}:${partition}`;
    const offset = offsets.get(key) ?? 0;
    offsets.set(key, offset + 1);
    const headers = { producer: producer.name };
    if (producer.declared) headers["schema-version"] = `${subjectName(s)}/${producer.declared}`;
    chunk +=
      JSON.stringify({
        topic: subjectName(s),
        partition,
        offset,
        timestamp: 1796112000000 + k,
        key: `${producer.name}:${k}`,
        headers,
        value: document(k, s, producer.declared),
      }) + "\n";
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
  return { config, capture };
}

/**
 * Registers the S subjects' five versions in a Confluent-compatible registry under names of their own
 * (`prefix` + subject: the registry is shared), and writes a config that reads the catalog from it
 * and a one-record capture. Returns the config's path.
 */
export async function writeRegistryCluster(dir, subjects, url, prefix) {
  await mkdir(dir, { recursive: true });
  const lines = [`logLevel: warn`, `registries:`, `  main: { url: "${url}" }`, `subjects:`];
  for (let i = 0; i < subjects; i++) {
    const registered = `${prefix}${subjectName(i)}`;
    for (const schema of schemas(i)) {
      const response = await fetch(`${url}/subjects/${encodeURIComponent(registered)}/versions`, {
        method: "POST",
        headers: { "content-type": "application/vnd.schemaregistry.v1+json" },
        body: JSON.stringify({ schemaType: "JSON", schema: JSON.stringify(schema) }),
      });
      if (!response.ok)
        throw new Error(`registering ${registered}: ${response.status} ${await response.text()}`);
    }
    lines.push(
      `  - name: ${subjectName(i)}`,
      `    topics: [${subjectName(i)}]`,
      `    registry: { name: main, subject: ${registered} }`,
    );
  }
  const config = join(dir, "config-registry.yaml");
  await writeFile(config, lines.join("\n") + "\n");
  const capture = join(dir, "one.ndjson");
  await writeFile(capture, JSON.stringify({ topic: subjectName(0), value: { id: 1 } }) + "\n");
  return { config, capture };
}
