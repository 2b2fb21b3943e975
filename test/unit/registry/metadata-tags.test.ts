// A field deprecated by the registry's metadata (Confluent's data contracts: `metadata.tags`), from the
// registry's answer through the client, the snapshot and the catalog to the fields of interest.
//
// Why a unit test with recorded answers and not the real registry: the Apicurio Registry 3 (3.3.3)
// that the broker and registry tests run against accepts a registration's `metadata` on its ccompat
// API and drops it: `GET /subjects/{s}/versions/{v}` answers without a `metadata` key (the
// integration test "Apicurio drops a registration's metadata" in test/integration/registry/client.test.ts
// holds that, and fails once it keeps it; test/integration/registry/metadata-tags.test.ts drains such a
// field on the real broker through a proxy that adds the tags to Apicurio's answer). The answers below are written in the shape Confluent
// Schema Registry 7.4+ answers that call (its REST API reference and data contracts docs; `schemaType`
// left out for Avro), not captured from a live Confluent, which does not run here.
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { parseConfig } from "../../../src/config/load.js";
import { fieldsOfInterest } from "../../../src/fields/interest.js";
import { RegistryClient } from "../../../src/registry/client.js";
import { RegistryError, type RegistryHttp } from "../../../src/registry/http.js";
import { buildCatalog } from "../../../src/registry/catalog.js";
import { savedSnapshots } from "../../../src/registry/saved.js";
import { SnapshotReader } from "../../../src/registry/snapshot.js";
import { writeTree } from "../../helpers/files.js";

const ORDER_V1 = {
  type: "record",
  name: "Order",
  namespace: "shop",
  fields: [
    { name: "id", type: "string" },
    { name: "amount", type: "long" },
    { name: "note", type: "string", doc: "Deprecated: a doc is prose, not a contract" },
    { name: "ship", type: { type: "record", name: "Address", fields: [{ name: "zip", type: "string" }] } },
  ],
};
const ORDER_V2 = { ...ORDER_V1, fields: [...ORDER_V1.fields, { name: "total", type: "long", default: 0 }] };

/** A registry that answers GET paths from a table, as Confluent answered them; others are 404 40401. */
function recorded(answers: Record<string, unknown>): RegistryClient {
  const http = {
    label: "registry main",
    get(path: string): Promise<unknown> {
      if (path in answers) return Promise.resolve(structuredClone(answers[path]));
      return Promise.reject(new RegistryError("REGISTRY_NOT_FOUND", `GET ${path}: 404`, { status: 404 }));
    },
  } as unknown as RegistryHttp;
  return new RegistryClient(http, "http://schema-registry:8081");
}

const AVRO_ANSWERS = {
  "/subjects/orders-value/versions?deleted=true": [1, 2],
  "/subjects/orders-value/versions": [1, 2],
  "/config/orders-value": { compatibilityLevel: "BACKWARD" },
  "/subjects/orders-value/versions/1?deleted=true": {
    subject: "orders-value",
    version: 1,
    id: 100001,
    metadata: {
      tags: { "shop.Order.amount": ["DEPRECATED"], "shop.Order.id": ["PII"], "**.zip": ["PII"] },
      properties: { owner: "payments" },
    },
    schema: JSON.stringify(ORDER_V1),
  },
  "/subjects/orders-value/versions/2?deleted=true": {
    subject: "orders-value",
    version: 2,
    id: 100002,
    metadata: {
      // A pattern: every field of any record named `*.Address` called zip, in any case of the tag.
      tags: { "shop.Order.amount": ["deprecated"], "shop.*.zip": ["Deprecated", "PII"] },
      properties: { owner: "payments" },
    },
    ruleSet: { domainRules: [] },
    schema: JSON.stringify(ORDER_V2),
  },
};

async function configFor(subject: string, format = "") {
  const dir = await writeTree({ "x.keep": "" });
  return parseConfig(
    `registries:
  main: { url: "http://schema-registry:8081" }
subjects:
  - name: order
    topics: [orders]
    registry: { name: main, subject: ${subject} }
${format}`,
    resolve(dir, "config.yaml"),
  );
}

describe("a field deprecated by the registry's metadata tags", () => {
  it("is read from the version's metadata.tags and deprecates the Avro field it names (record full name and field)", async () => {
    const snapshot = await new SnapshotReader("main", recorded(AVRO_ANSWERS)).read("orders-value");
    expect(snapshot.versions.map((v) => [v.version, v.metadataTags])).toEqual([
      [1, { "shop.Order.amount": ["DEPRECATED"], "shop.Order.id": ["PII"], "**.zip": ["PII"] }],
      [2, { "shop.Order.amount": ["deprecated"], "shop.*.zip": ["Deprecated", "PII"] }],
    ]);
    const { catalog } = await buildCatalog(await configFor("orders-value"), [snapshot]);
    const subject = catalog.subjects.get("order")!;
    expect(subject.format.name).toBe("avro");
    const found = fieldsOfInterest(subject.versions, 16, undefined, subject.format.fields);
    // `id` is only PII, `note`'s doc is prose: neither is deprecated.
    expect(found.fields.map((f) => [f.pointer, f.deprecatedIn])).toEqual([
      ["/amount", ["1", "2"]],
      ["/ship/zip", ["2"]],
    ]);
  });

  it("survives the state file's snapshot (saved and read back), and a malformed saved value is dropped", async () => {
    const snapshot = await new SnapshotReader("main", recorded(AVRO_ANSWERS)).read("orders-value");
    const saved = JSON.parse(JSON.stringify([snapshot])) as unknown[];
    const [back] = savedSnapshots(saved);
    expect(back!.versions[0]!.metadataTags).toEqual(snapshot.versions[0]!.metadataTags);
    const broken = structuredClone(saved) as { versions: { metadataTags: unknown }[] }[];
    broken[0]!.versions[0]!.metadataTags = { "shop.Order.amount": "DEPRECATED" };
    expect(savedSnapshots(broken)).toEqual([]);
  });

  it("keeps only entries of the documented shape, and none without metadata or tags", async () => {
    const version = (metadata: unknown) => ({
      "/subjects/s/versions/1": { subject: "s", version: 1, id: 7, schema: '"string"', metadata },
    });
    const tagsOf = async (metadata: unknown) =>
      (await recorded(version(metadata)).version("s", 1)).metadataTags;
    expect(await tagsOf({ tags: { "a.B.c": ["DEPRECATED"], "a.B.d": "DEPRECATED", "a.B.e": [1] } })).toEqual({
      "a.B.c": ["DEPRECATED"],
    });
    expect(await tagsOf({ properties: { owner: "x" } })).toBeUndefined();
    expect(await tagsOf({ tags: {} })).toBeUndefined();
    expect(await tagsOf(null)).toBeUndefined();
    expect(await tagsOf(undefined)).toBeUndefined();
  });

  it("deprecates a Protobuf field by its full name (package, message, field), nested messages too", async () => {
    const text = `syntax = "proto3"; package shop;
message Order { string id = 1; int64 amount = 2; Line line = 3; message Line { string sku = 1; } }`;
    const answers = {
      "/subjects/orders-value/versions?deleted=true": [1],
      "/subjects/orders-value/versions": [1],
      "/config/orders-value": { compatibilityLevel: "BACKWARD" },
      "/subjects/orders-value/versions/1?deleted=true": {
        subject: "orders-value",
        version: 1,
        id: 100003,
        schemaType: "PROTOBUF",
        metadata: { tags: { "shop.Order.amount": ["DEPRECATED"], "shop.Order.Line.sku": ["DEPRECATED"] } },
        schema: text,
      },
    };
    const snapshot = await new SnapshotReader("main", recorded(answers)).read("orders-value");
    const { catalog } = await buildCatalog(await configFor("orders-value"), [snapshot]);
    const subject = catalog.subjects.get("order")!;
    expect(subject.format.name).toBe("protobuf");
    const found = fieldsOfInterest(subject.versions, 16, undefined, subject.format.fields);
    expect(found.fields.map((f) => [f.pointer, f.deprecatedIn])).toEqual([
      ["/amount", ["1"]],
      ["/line/sku", ["1"]],
    ]);
  });
});
