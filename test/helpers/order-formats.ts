// The Avro and Protobuf `order` subjects of the registry and broker tests (issue 36): v1 and v2 of
// shop.Order in each format, with shop.Money under a subject of its own that v1 and v2 reference,
// registered on the real registry (Apicurio's ccompat) with v1 deprecated; records written byte for
// byte as Confluent's serializers write them (magic 0, the schema id big-endian; for Protobuf the
// message indexes, `[0]` as one 0 byte), their bodies by avsc and protobufjs, independently of the
// monitor's decoders; the config of a live monitor that watches such subjects; and what the tests
// read back of it (its series, its report).
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import avro from "avsc";

import type { RunningMonitor } from "../../src/monitor/start.js";
import type { Report } from "../../src/report/model.js";
import { expect } from "vitest";
import { runCli } from "./cli.js";
import { writeTree } from "./files.js";
import { createTopic, freshGroupId, freshTopic, waitFor } from "./kafka.js";
import { confluentRecord, encode, proto } from "./protobuf.js";
import { freshSubject, register, setState } from "./registry.js";

export const AVRO_MONEY = {
  type: "record",
  name: "Money",
  namespace: "shop",
  fields: [
    { name: "units", type: "long" },
    { name: "currency", type: "string", default: "EUR" },
  ],
};
const kind = (symbols: string[]) => ({ type: "enum", name: "Kind", symbols });
export const AVRO_V1 = {
  type: "record",
  name: "Order",
  namespace: "shop",
  fields: [
    { name: "id", type: "long" },
    { name: "kind", type: kind(["CARD", "CASH"]) },
    { name: "total", type: "shop.Money" },
  ],
};
/** v2 adds the symbol IOU (which v1 cannot read) and an optional note (v1 drops it, v2 defaults it). */
export const AVRO_V2 = {
  ...AVRO_V1,
  fields: [
    { name: "id", type: "long" },
    { name: "kind", type: kind(["CARD", "CASH", "IOU"]) },
    { name: "total", type: "shop.Money" },
    { name: "note", type: ["null", "string"], default: null },
  ],
};

/** AVRO_V2 with its note tagged `DEPRECATED` (Confluent's field tags): a deprecated Avro field. */
export const AVRO_V2_NOTE_DEPRECATED = {
  ...AVRO_V2,
  fields: AVRO_V2.fields.map((f) => (f.name === "note" ? { ...f, "confluent:tags": ["DEPRECATED"] } : f)),
};

/** An Avro Order as Confluent's KafkaAvroSerializer writes it: magic 0, the 4-byte schema id, the body. */
export function avroOrder(id: number, schema: unknown, value: unknown): Buffer {
  const registry = {};
  avro.Type.forSchema(AVRO_MONEY as avro.Schema, { registry });
  const body = avro.Type.forSchema(schema as avro.Schema, { registry, wrapUnions: true }).toBuffer(value);
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(id, 1);
  return Buffer.concat([prefix, body]);
}

export const PROTO_MONEY =
  'syntax = "proto3";\npackage shop;\nmessage Money { int64 units = 1; string currency = 2; }\n';
export const PROTO_V1 = `syntax = "proto3";
package shop;
import "shop/money.proto";
message Order { int64 id = 1; string note = 2 [deprecated = true]; Money total = 3; int64 qty = 4; }
`;
/** v2 drops note (2), adds channel (5), and reads qty as an int32 where v1 wrote an int64. */
export const PROTO_V2 = `syntax = "proto3";
package shop;
import "shop/money.proto";
message Order { int64 id = 1; Money total = 3; int32 qty = 4; string channel = 5; }
`;
const protoRefs = { "shop/money.proto": PROTO_MONEY };
export const protoV1 = proto(PROTO_V1, protoRefs);
export const protoV2 = proto(PROTO_V2, protoRefs);

/** A Protobuf Order as Confluent's KafkaProtobufSerializer writes it, from a plain object of its fields. */
export function protoOrder(id: number, schema: typeof protoV1, value: Record<string, unknown>): Buffer {
  return Buffer.from(confluentRecord(id, [0], encode(schema, "shop.Order", value)));
}

/** An Avro order's total (shop.Money); a Protobuf order's, its int64 as protobufjs takes it. */
export const money = { units: 5, currency: "USD" };
export const total = { units: "5", currency: "USD" };

/** A producer's record as the tests' `produce` takes it, to `partition` when given. */
export const send = (producer: string, value: Buffer, partition?: number) => ({
  value,
  headers: { producer },
  ...(partition === undefined ? {} : { partition }),
});

/** `n` values of `make(0)` to `make(n - 1)`. */
export const times = <T>(n: number, make: (i: number) => T): T[] =>
  Array.from({ length: n }, (_, i) => make(i));

export type OrderFormat = "AVRO" | "PROTOBUF";

/** An order subject registered: its registry subject name and the ids of v1 and v2. */
export interface RegisteredOrder {
  readonly subject: string;
  readonly id1: number;
  readonly id2: number;
}

/**
 * Registers Money under a fresh subject, then v1 and v2 of Order referencing it under another, and
 * marks v1 DEPRECATED (Apicurio's state): the subjects of the Avro and Protobuf tests. With
 * `deprecatedNote` an Avro v2 tags its note DEPRECATED (Protobuf's v1 marks its note deprecated always).
 */
export async function registerOrder(
  url: string,
  format: OrderFormat,
  options: { deprecatedNote?: boolean } = {},
): Promise<RegisteredOrder> {
  const prefix = format === "AVRO" ? "avro" : "proto";
  const moneySubject = freshSubject(`${prefix}-money`);
  const subject = freshSubject(`${prefix}-order`);
  const [money, v1, v2] =
    format === "AVRO"
      ? [AVRO_MONEY, AVRO_V1, options.deprecatedNote ? AVRO_V2_NOTE_DEPRECATED : AVRO_V2]
      : [PROTO_MONEY, PROTO_V1, PROTO_V2];
  await register(url, moneySubject, money, [], format);
  const reference = [
    { name: format === "AVRO" ? "shop.Money" : "shop/money.proto", subject: moneySubject, version: 1 },
  ];
  const id1 = await register(url, subject, v1, reference, format);
  const id2 = await register(url, subject, v2, reference, format);
  await setState(url, subject, 1, "DEPRECATED");
  return { subject, id1, id2 };
}

/** A subject of the monitor's config: its name there, its topic and its registry subject. */
export interface WatchedSubject {
  readonly name: string;
  readonly topic: string;
  readonly subject: string;
}

/**
 * An order subject of `format` registered (registerOrder) and a fresh topic of `partitions` for it: the
 * subject as a monitor's config watches it (named `name`), with the ids of v1 and v2.
 */
export async function orderSubject(
  brokers: readonly string[],
  url: string,
  format: OrderFormat,
  options: { name?: string; partitions?: number; deprecatedNote?: boolean } = {},
): Promise<WatchedSubject & RegisteredOrder> {
  const registered = await registerOrder(url, format, options);
  const topic = freshTopic(format === "AVRO" ? "avro" : "proto");
  await createTopic([...brokers], topic, options.partitions ?? 1);
  return { ...registered, name: options.name ?? "order", topic };
}

/**
 * A fresh folder with the config of a live monitor that reads `subjects` from the registry `main` at
 * `url` (polled every second), with drain and ready windows of `window` and 5 samples needed, lag
 * measured every 500 ms; `top` is YAML added at the top level.
 */
export async function registryConfig(options: {
  brokers: readonly string[];
  url: string;
  subjects: readonly WatchedSubject[];
  window?: string;
  top?: string;
}): Promise<{ dir: string; configPath: string }> {
  const window = options.window ?? "3s";
  const dir = await writeTree({});
  const configPath = join(dir, "config.yaml");
  const subjects = options.subjects
    .map(
      (s) => `  - name: ${s.name}
    topics: [${s.topic}]
    registry: { name: main, subject: ${s.subject} }
    drainWindow: ${window}
    readyWindow: ${window}
    minSamples: 5
`,
    )
    .join("");
  await writeFile(
    configPath,
    `kafka:
  brokers: [${options.brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
${options.top ?? ""}registries:
  main: { url: "${options.url}", pollInterval: 1s }
subjects:
${subjects}`,
  );
  return { dir, configPath };
}

/**
 * A monitor's records (`producer writer=n`) or validations (`producer writer>reader result=n`) with a
 * count, sorted; `subject` keeps one subject's series.
 */
export function series(monitor: RunningMonitor, kind: "records" | "validations", subject?: string): string[] {
  const tallies =
    kind === "records" ? monitor.pipeline.tallies.records : monitor.pipeline.tallies.validations;
  return tallies
    .filter((c) => c.value > 0)
    .filter(
      (c) => subject === undefined || (c.labels as unknown as Record<string, string>)["subject"] === subject,
    )
    .map((c) => {
      const l = c.labels as unknown as Record<string, string>;
      return kind === "records"
        ? `${l["producer"]} ${l["writer_version"]}=${c.value}`
        : `${l["producer"]} ${l["writer_version"]}>${l["reader_version"]} ${l["result"]}=${c.value}`;
    })
    .sort();
}

/** The report a monitor serves at /api/report. */
export async function apiReport(monitor: RunningMonitor): Promise<Report> {
  return (await (await fetch(`${monitor.address}/api/report`)).json()) as Report;
}

/** A version's entry in a report, of its first subject or of the one named. */
export const versionOf = (report: Report, label: string, subject?: string) =>
  (subject === undefined
    ? report.subjects[0]
    : report.subjects.find((s) => s.subject === subject))!.versions.find((v) => v.version === label);

/**
 * `schemawatch prune --apply` of v1 of the registry `main`'s order `subject` (the monitor's `order`),
 * asking the monitor first, as the user `ci-user`: the monitor says v1 is drained, the registry
 * disables it, and the monitor's catalog shows it retired.
 */
export async function expectPruned(
  configPath: string,
  monitor: RunningMonitor,
  url: string,
  subject: string,
): Promise<void> {
  const pruned = await runCli(
    [
      ...["prune", "--config", configPath, "--registry", "main", "--subject", subject, "--version", "1"],
      ...["--url", monitor.address, "--apply"],
    ],
    { USER: "ci-user" },
  );
  expect(pruned.stdout).toContain(`The monitor at ${monitor.address} says order 1 is drained.`);
  expect(pruned.code).toBe(0);
  expect(await versionState(url, subject, 1)).toBe("DISABLED");
  await waitFor(
    async () => versionOf(await apiReport(monitor), "1")?.status === "retired",
    "the monitor's catalog to show v1 retired",
  );
}

/** A version's state in Apicurio's native API (`ENABLED`, `DEPRECATED`, `DISABLED`). */
export async function versionState(url: string, subject: string, version: number): Promise<string> {
  const native = url.replace(/\/apis\/ccompat\/v\d+$/, "/apis/registry/v3");
  const answer = await fetch(`${native}/groups/default/artifacts/${subject}/versions/${version}`);
  return ((await answer.json()) as { state: string }).state;
}
