// An Avro field deprecated only by its registered version's metadata tags (Confluent's data contracts:
// `"metadata": {"tags": {"shop.Order.amount": ["DEPRECATED"]}}`), drained through the real broker.
// The versions are registered on the real registry (SCHEMA_REGISTRY_URL, Apicurio's ccompat), whose
// Confluent API neither stores nor returns metadata (client.test.ts holds that), so a proxy in front
// of it adds the tags to version 1's answer, as a Confluent Schema Registry 7.4+ answers it (the same
// way prune.test.ts adds the `schemawatch.status` property). Records are written byte for byte as
// Confluent's KafkaAvroSerializer writes them (magic 0, the schema id, the body; avsc encodes it).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import avro from "avsc";
import { afterEach, describe, expect, it } from "vitest";

import { buildCatalog } from "../../../src/registry/catalog.js";
import { SnapshotReader } from "../../../src/registry/snapshot.js";
import { fieldsOfInterest } from "../../../src/fields/interest.js";
import { parseConfig } from "../../../src/config/load.js";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
} from "../../helpers/kafka.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import {
  freshSubject,
  register,
  registryUrl,
  startProxy,
  testClient,
  type TestProxy,
} from "../../helpers/registry.js";

const url = registryUrl();
const proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

// `doc` carries the subject's name so that ids are fresh per run (ids belong to content).
const order = (subject: string, fields: unknown[]) => ({
  type: "record",
  name: "Order",
  namespace: "shop",
  doc: subject,
  fields,
});
const V1_FIELDS = [
  { name: "id", type: "long" },
  { name: "amount", type: "long" },
];
const V2_FIELDS = [
  { name: "id", type: "long" },
  { name: "total", type: "long", default: 0 },
];
const TAGS = { "shop.Order.amount": ["DEPRECATED"], "shop.Order.id": ["PII"] };

/** The registry as Confluent shows a data contract: version 1's answer carries its metadata tags. */
async function withMetadata(): Promise<TestProxy> {
  const proxy = await startProxy(url, (request, response) => {
    const path = request.url ?? "";
    if (request.method !== "GET" || !/\/subjects\/[^/]+\/versions\/1(\?|$)/.test(path)) return true;
    void fetch(new URL(path, url)).then(async (answer) => {
      const body = (await answer.json()) as Record<string, unknown>;
      if (answer.ok) body["metadata"] = { tags: TAGS, properties: { owner: "payments" } };
      response.writeHead(answer.status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    });
    return false;
  });
  proxies.push(proxy);
  return proxy;
}

function confluent(id: number, schema: unknown, value: unknown): Buffer {
  const body = avro.Type.forSchema(schema as avro.Schema).toBuffer(value);
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, body]);
}

const field = (monitor: RunningMonitor, pointer: string): FieldVerdict | undefined =>
  monitor.report().subjects[0]!.fields?.find((f) => f.field === pointer);

describe("an Avro field deprecated by the registry's metadata tags", () => {
  it("is no field of interest from Apicurio itself, which drops the metadata", async () => {
    const subject = freshSubject("tags-plain");
    const v1 = order(subject, V1_FIELDS);
    const response = await fetch(`${url}/subjects/${encodeURIComponent(subject)}/versions`, {
      method: "POST",
      headers: { "content-type": "application/vnd.schemaregistry.v1+json" },
      body: JSON.stringify({ schema: JSON.stringify(v1), metadata: { tags: TAGS } }),
    });
    expect(response.status).toBe(200);
    const client = testClient(url);
    try {
      const snapshot = await new SnapshotReader("main", client).read(subject);
      const dir = await writeTree({});
      const config = parseConfig(
        `registries:\n  main: { url: "${url}" }\nsubjects:\n  - name: order\n    topics: [orders]\n    registry: { name: main, subject: ${subject} }\n`,
        join(dir, "config.yaml"),
      );
      const built = (await buildCatalog(config, [snapshot])).catalog.subjects.get("order")!;
      expect(fieldsOfInterest(built.versions, 16, undefined, built.format.fields).fields).toEqual([]);
    } finally {
      await client.http.close();
    }
  });

  it("is tracked as deprecated in version 1 and drains once no producer writes version 1 for the window", async () => {
    const subject = freshSubject("tags-order");
    const v1 = order(subject, V1_FIELDS);
    const v2 = order(subject, V2_FIELDS);
    const id1 = await register(url, subject, JSON.stringify(v1), [], "AVRO");
    const id2 = await register(url, subject, JSON.stringify(v2), [], "AVRO");
    const proxy = await withMetadata();

    const brokers = await kafkaBrokers();
    const topic = freshTopic("tags");
    await createTopic(brokers, topic, 1);
    const dir = await writeTree({});
    const configPath = join(dir, "config.yaml");
    await writeFile(
      configPath,
      `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
registries:
  main: { url: "${proxy.url}", pollInterval: 1s }
subjects:
  - name: order
    topics: [${topic}]
    registry: { name: main, subject: ${subject} }
    drainWindow: 3s
    readyWindow: 3s
    minSamples: 5
`,
    );
    const monitor = await startLiveMonitor(configPath);
    await waitFor(() => monitor.health.ready, "partitions to be assigned");
    expect(monitor.catalog.subjects.get("order")!.format.name).toBe("avro");

    const send = (producer: string, value: Buffer) => ({ value, headers: { producer } });
    await produce(brokers, topic, [
      ...Array.from({ length: 10 }, (_, i) => send("web", confluent(id1, v1, { id: i, amount: 5 }))),
      ...Array.from({ length: 4 }, (_, i) => send("app", confluent(id2, v2, { id: i, total: 5 }))),
    ]);
    await waitFor(() => countedRecords(monitor) === 14, "the 14 records to be counted");
    const amount = field(monitor, "/amount")!;
    expect([amount.fieldKind, amount.version, amount.yes]).toEqual(["deprecated", "1", false]);
    expect(amount.reasons[0]!.replace(/, the last one .*$/, "")).toBe(
      "web still sends /amount in 100% of its records (10 of 10 in the last 3s; writer 1)",
    );
    // `id` is only PII: not deprecated, and an Avro subject tracks no optional fields.
    expect(monitor.report().subjects[0]!.fields!.map((f) => f.field)).toEqual(["/amount"]);

    // web moves to v2; once v1 has been silent for the drain window, /amount is drained.
    await waitFor(
      async () => {
        await produce(brokers, topic, [send("web", confluent(id2, v2, { id: 100, total: 5 }))]);
        return field(monitor, "/amount")?.yes === true;
      },
      "/amount to be drained",
      90_000,
      1_000,
    );
  }, 240_000);
});
