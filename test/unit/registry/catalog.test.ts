// The catalog builder over registry snapshots: plain data as the snapshot reader returns it (the reader
// itself is tested against a real registry in snapshot.test.ts), so these tests need no registry.
import { resolve } from "node:path";

import { describe, expect, it } from "vitest";

import { parseConfig } from "../../../src/config/load.js";
import type { IdLookups } from "../../../src/catalog/lookups.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { buildCatalog, retainRemoved } from "../../../src/registry/catalog.js";
import { CompiledVersions, referenceDocuments, versionBaseUri } from "../../../src/registry/compile.js";
import { savedSnapshots } from "../../../src/registry/saved.js";
import type { RegistryVersion, SubjectSnapshot } from "../../../src/registry/types.js";
import { writeTree } from "../../helpers/files.js";
import { decodeCounts, record, recordCounts, wire } from "../../helpers/monitor.js";

const street = { type: "object", properties: { street: { type: "string" } }, required: ["street"] };
const country = { type: "string", enum: ["DE", "FR"] };

function version(
  n: number,
  id: number,
  schema: unknown,
  extra: Partial<RegistryVersion> = {},
): RegistryVersion {
  return { subject: "orders-value", version: n, id, schema, references: [], deleted: false, ...extra };
}

function snapshot(versions: RegistryVersion[], subject = "orders-value"): SubjectSnapshot {
  return {
    registry: "main",
    subject,
    versions: versions.map((v) => ({ ...v, subject })),
    skipped: [],
    compatibility: { level: "BACKWARD", source: "subject" },
    fetchedAt: 1_000,
  };
}

async function config(extra = "", folder?: Record<string, string>): Promise<ReturnType<typeof parseConfig>> {
  const dir = await writeTree({ ...(folder ?? {}), "x.keep": "" });
  return parseConfig(
    `registries:
  main: { url: "http://127.0.0.1:8081" }
subjects:
  - name: order
    topics: [orders]
${folder ? `    schemas: ${dir}/schemas\n` : ""}    registry:
      name: main
${extra}`,
    resolve(dir, "config.yaml"),
  );
}

describe("registry versions as catalog versions", () => {
  it("knows each version by Apicurio's globalId and contentId too, and notes a wire id no version has", async () => {
    const cfg = await config("    writer:\n      wire: { idBytes: 8, id: globalId }\n");
    const snap = snapshot([
      version(1, 41, { type: "object" }, { globalId: 71, contentId: 41 }),
      version(2, 42, { type: "object", properties: { b: {} } }, { globalId: 72, contentId: 42 }),
    ]);
    const { catalog, notes } = await buildCatalog(cfg, [snap]);
    expect(notes).toEqual([]);
    const subject = catalog.subjects.get("order")!;
    expect([...subject.byGlobalId].map(([id, v]) => `${id}=${v.version.text}`)).toEqual(["71=1", "72=2"]);
    expect([...subject.byContentId].map(([id, v]) => `${id}=${v.version.text}`)).toEqual(["41=1", "42=2"]);
    expect([...subject.byConfluentId].map(([id, v]) => `${id}=${v.version.text}`)).toEqual(["41=1", "42=2"]);
    // A registry without Apicurio's native API gives no globalIds: said once per build, not per record.
    const plain = snapshot([version(1, 41, { type: "object" })]);
    const built = await buildCatalog(cfg, [plain]);
    expect(built.notes.map((n) => n.message)).toEqual([
      "order: writer.wire.id is globalId, but registry main gave no version of orders-value one (it serves no Apicurio 3 native API): its prefixed records are unknown_schema_id",
    ]);
    expect(built.catalog.subjects.get("order")!.byGlobalId.size).toBe(0);
  });

  it("labels by number, orders as semver, takes ids from the registry and statuses from the registry or the config", async () => {
    const cfg = await config(`      versions:\n        "2": { status: candidate }\n`);
    const snap = snapshot([
      version(1, 41, { type: "object", properties: { a: {} } }, { deleted: true }),
      version(2, 42, { type: "object", properties: { a: {}, b: {} } }),
      version(10, 43, { type: "object", properties: { b: {} } }, { state: "DEPRECATED" }),
    ]);
    const { catalog, notes } = await buildCatalog(cfg, [snap]);
    expect(notes).toEqual([]);
    const subject = catalog.subjects.get("order")!;
    expect(subject.versions.map((v) => [v.version.text, v.status, v.confluentId, v.file.path])).toEqual([
      ["1", "retired", 41, "registry:main/orders-value/versions/1"],
      ["2", "candidate", 42, "registry:main/orders-value/versions/2"],
      ["10", "deprecated", 43, "registry:main/orders-value/versions/10"],
    ]);
    // A writer may declare 10 or 10.0.0.
    expect(subject.byVersion.get("10.0.0")?.confluentId).toBe(43);
    expect(subject.readers.map((r) => r.version.text)).toEqual(["2", "10"]);
    expect([...subject.byConfluentId.keys()]).toEqual([41, 42, 43]);
  });

  it("resolves each reference by its name against the schema that names it, nested references too", async () => {
    const root = {
      $id: "https://example.com/orders/order.json",
      type: "object",
      properties: { ship: { $ref: "address.json" } },
      required: ["ship"],
    };
    const address = {
      type: "object",
      properties: { street: { type: "string" }, country: { $ref: "codes/country.json" } },
      required: ["street", "country"],
    };
    const v = version(1, 7, root, {
      referenceEntries: [{ name: "address.json", subject: "address-value", version: 3 }],
      references: [
        {
          name: "codes/country.json",
          subject: "country-value",
          version: 1,
          id: 5,
          schema: country,
          references: [],
        },
        {
          name: "address.json",
          subject: "address-value",
          version: 3,
          id: 6,
          schema: address,
          references: [{ name: "codes/country.json", subject: "country-value", version: 1 }],
        },
      ],
    });
    const base = versionBaseUri("main", v, "$id");
    expect(base).toBe("https://example.com/orders/order.json");
    expect(referenceDocuments("main", v, base).map((d) => d.uri)).toEqual([
      "https://example.com/orders/address.json",
      "https://example.com/orders/codes/country.json",
    ]);
    const { catalog } = await buildCatalog(await config(), [snapshot([v])]);
    const validate = catalog.subjects.get("order")!.versions[0]!.validate;
    expect(validate({ ship: { street: "Main St", country: "DE" } })).toBe(true);
    expect(validate({ ship: { street: "Main St", country: "XX" } })).toBe(false);
    expect(validate.errors?.[0]?.instancePath).toBe("/ship/country");
  });

  it("gives a version without $id a base URI of its own, so references of two versions never mix", async () => {
    const ref = (schema: unknown, n: number) => ({
      referenceEntries: [{ name: "street.json", subject: "street-value", version: n }],
      references: [
        { name: "street.json", subject: "street-value", version: n, id: 60 + n, schema, references: [] },
      ],
    });
    const loose = { type: "object" };
    const v1 = version(1, 61, { type: "object", properties: { s: { $ref: "street.json" } } }, ref(loose, 1));
    const v2 = version(2, 62, { type: "object", properties: { s: { $ref: "street.json" } } }, ref(street, 2));
    expect(versionBaseUri("main", v1, "$id")).toBe("schemawatch-registry://main/orders-value/versions/1");
    const { catalog } = await buildCatalog(await config(), [snapshot([v1, v2])]);
    const [one, two] = catalog.subjects.get("order")!.versions;
    expect(one!.validate({ s: {} })).toBe(true);
    expect(two!.validate({ s: {} })).toBe(false);
  });

  it("compiles each registered version once, however often the catalog is rebuilt", async () => {
    const cfg = await config();
    const compiled = new CompiledVersions();
    const snap = snapshot([version(1, 1, street), version(2, 2, street)]);
    const first = await buildCatalog(cfg, [snap], { compiled });
    const second = await buildCatalog(cfg, [snap], { compiled });
    expect(compiled.size).toBe(2);
    expect(second.catalog.subjects.get("order")!.versions[1]!.validate).toBe(
      first.catalog.subjects.get("order")!.versions[1]!.validate,
    );
  });

  it("leaves out a version that does not compile or cannot be labelled, and says why", async () => {
    const cfg = await config(`      labels: semver\n`);
    const snap = snapshot([
      version(1, 1, { $id: "https://example.com/o/1.0.json", type: "object" }),
      version(2, 2, {
        $id: "https://example.com/o/1.1.json",
        type: "object",
        properties: { a: { type: 7 } },
      }),
      version(3, 3, { $id: "https://example.com/o/order.json", type: "object" }),
    ]);
    const { catalog, notes } = await buildCatalog(cfg, [snap]);
    expect(catalog.subjects.get("order")!.versions.map((v) => v.version.text)).toEqual(["1.0.0"]);
    expect(notes.map((n) => n.message)).toEqual([
      `orders-value version 3 (id 3): its $id names no semver version; give it one in the config: registry.versions."3".label`,
      expect.stringMatching(
        /^registry:main\/orders-value\/versions\/2 \(id 2\) is left out: registry:main\/orders-value\/versions\/2: does not compile: #\/properties\/a\/type: /,
      ),
    ]);
  });

  it("adds local files as versions not registered yet; a registered version takes a local file's label", async () => {
    const cfg = await config("", {
      "schemas/2.json": JSON.stringify({ type: "object", properties: { local: {} } }),
      "schemas/3.0.0-rc.1.json": JSON.stringify({ type: "object", properties: { next: {} } }),
    });
    const { catalog, notes } = await buildCatalog(cfg, [
      snapshot([version(1, 1, street), version(2, 2, street)]),
    ]);
    const subject = catalog.subjects.get("order")!;
    expect(subject.versions.map((v) => [v.version.text, v.registry?.version ?? v.file.path])).toEqual([
      ["1", 1],
      ["2", 2],
      ["3.0.0-rc.1", `${cfg.subjects[0]!.schemas}/3.0.0-rc.1.json`],
    ]);
    expect(notes.map((n) => n.message)).toEqual([
      `order 2.0.0: registered version 2 of orders-value takes this label; the local file ${cfg.subjects[0]!.schemas}/2.json is not used`,
    ]);
  });

  it("looks ids up in the record's own subject: one schema under two subjects has one id", async () => {
    const cfg = parseConfig(
      `registries:
  main: { url: "http://127.0.0.1:8081" }
subjects:
  - name: order
    topics: [orders]
    registry: { name: main }
  - name: refund
    topics: [refunds]
    registry: { name: main }
`,
      "/tmp/config.yaml",
    );
    const shared = { type: "object", properties: { id: { type: "integer" } }, required: ["id"] };
    const { catalog } = await buildCatalog(cfg, [
      snapshot([version(1, 9, shared)], "orders-value"),
      snapshot([version(1, 5, street), version(2, 9, shared)], "refunds-value"),
    ]);
    const asked: number[] = [];
    const pipeline = new Pipeline(catalog, cfg, {
      lookups: (subject) =>
        subject.name === "order"
          ? {
              request: (id) => void asked.push(id),
              requestGuid: () => undefined,
            }
          : undefined,
    });
    pipeline.process(record(undefined, {}, { topic: "orders", raw: wire(9, { id: 1 }) }));
    pipeline.process(record(undefined, {}, { topic: "refunds", raw: wire(9, { id: 1 }) }));
    pipeline.process(record(undefined, {}, { topic: "orders", raw: wire(5, { street: "x" }) }));
    pipeline.process(record(undefined, {}, { topic: "orders", raw: wire(5, { street: "y" }) }));
    const counts = pipeline.tallies.records
      .filter((c) => c.value > 0)
      .map((c) => `${c.labels.topic} ${c.labels.writer_version}=${c.value}`)
      .sort();
    expect(counts).toEqual(["orders 1=1", "orders unknown=2", "refunds 2=1"]);
    // An id of another subject is unknown here, and handed to the lookup (which asks the registry once).
    expect(asked).toEqual([5, 5]);
  });

  it("reads GUIDs from the __value_schema_id header, and hands one it does not know to the lookup", async () => {
    const guid = "0f8e1a52-3c4d-4b6e-9f70-112233445566";
    const { catalog } = await buildCatalog(await config(), [snapshot([version(1, 1, street, { guid })])]);
    const asked: string[] = [];
    const pipeline = new Pipeline(catalog, await config(), {
      lookups: (subject) =>
        subject.name === "order"
          ? {
              request: () => undefined,
              requestGuid: (g) => void asked.push(g),
            }
          : undefined,
    });
    const header = (hex: string) => ({
      __value_schema_id: Buffer.concat([Buffer.from([1]), Buffer.from(hex, "hex")]),
    });
    pipeline.process(record({ street: "x" }, header(guid.replace(/-/g, "")), { topic: "orders" }));
    pipeline.process(record({ street: "x" }, header("ff".repeat(16)), { topic: "orders" }));
    const counts = pipeline.tallies.records
      .filter((c) => c.value > 0)
      .map((c) => `${c.labels.writer_version}=${c.value}`)
      .sort();
    expect(counts).toEqual(["1=1", "unknown=1"]);
    expect(asked).toEqual(["ff".repeat(16)]);
  });

  it("has a record whose id is being looked up wait, and counts it once: under the version the answer brought, else as unknown", async () => {
    const cfg = await config();
    const { catalog } = await buildCatalog(cfg, [snapshot([version(1, 1, street)])]);
    let answer!: () => void;
    const lookup = new Promise<void>((resolve) => (answer = resolve));
    const never = new Promise<void>(() => undefined);
    const asked: number[] = [];
    // The registry's lookups, changed below: the pipeline reads them at each record.
    const lookups: { -readonly [K in keyof IdLookups]: IdLookups[K] } = {
      request: (id) => {
        asked.push(id);
        return id === 2 ? lookup : id === 9 ? never : undefined;
      },
      requestGuid: () => undefined,
      wait: 60_000,
      waitRecords: 10,
    };
    const pipeline = new Pipeline(catalog, cfg, {
      lookups: (subject) => (subject.name === "order" ? lookups : undefined),
    });
    const orders = (id: number) => record(undefined, {}, { topic: "orders", raw: wire(id, { street: "x" }) });
    for (const id of [1, 2, 2, 2]) pipeline.process(orders(id));
    // The records of id 2 wait: neither counted as unknown nor as any version yet.
    expect(pipeline.waitingForLookups).toBe(3);
    expect(recordCounts(pipeline)).toEqual(["unknown 1=1"]);
    const flushed = pipeline.flush();
    // The registry's answer: version 2 is id 2, and the catalog takes it before the lookup settles.
    const { catalog: next } = await buildCatalog(cfg, [
      snapshot([version(1, 1, street), version(2, 2, street)]),
    ]);
    pipeline.replaceCatalog(next);
    answer();
    await flushed;
    expect(pipeline.waitingForLookups).toBe(0);
    expect(recordCounts(pipeline)).toEqual(["unknown 1=1", "unknown 2=3"]);
    expect(decodeCounts(pipeline)).toEqual([]);
    expect(asked).toEqual([2, 2, 2]);

    // An id the answer does not bring, and one whose answer never comes within the wait: unknown, once.
    lookups.request = (id) => (id === 9 ? never : undefined);
    lookups.wait = 20;
    pipeline.process(orders(9));
    pipeline.process(orders(8));
    expect(pipeline.waitingForLookups).toBe(1);
    await pipeline.flush();
    expect(pipeline.waitingForLookups).toBe(0);
    expect(recordCounts(pipeline)).toEqual(["unknown 1=1", "unknown 2=3", "unknown unknown=2"]);
    expect(decodeCounts(pipeline)).toEqual(["orders unknown_schema_id=2"]);
  });

  it("keeps a hard-deleted version as retired, and reads kept snapshots back from a state", () => {
    const before = snapshot([version(1, 1, street), version(2, 2, street)]);
    const after = snapshot([version(2, 2, street), version(3, 3, street)]);
    const kept = retainRemoved(before, after);
    expect(kept.versions.map((v) => [v.version, v.deleted])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    const saved = JSON.parse(JSON.stringify([kept, { registry: "main" }, "junk"])) as unknown;
    expect(savedSnapshots(saved)).toEqual([kept]);
    expect(savedSnapshots(undefined)).toEqual([]);
  });

  it("reads a kept Protobuf version back from a state: its schema is its .proto text", () => {
    const text = 'syntax = "proto3";\npackage shop;\nmessage Order { int64 id = 1; }\n';
    const kept = snapshot([version(1, 7, text, { schemaType: "PROTOBUF", text })]);
    expect(savedSnapshots(JSON.parse(JSON.stringify([kept])))).toEqual([kept]);
    // A string schema without its text is no version this catalog wrote.
    expect(savedSnapshots([snapshot([version(1, 7, text)])])).toEqual([]);
  });
});
