import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

import { KAFKAJS_VERSION, PRIVATE_MEMBERS, PRIVATE_MODULES } from "../../../../src/kafka/patches/kafkajs.js";

// The patches of src/kafka/patches/ replace or reach into kafkajs's private parts. This file fails
// when the kafkajs installed, or the pin in package.json, is not the version they were written for,
// or when a private part they lean on is not where or what they expect. Upgrading kafkajs: re-read
// each file named below against the patch that uses it, then update the pin, the version in
// kafkajs.ts and the hashes here together.

const require = createRequire(import.meta.url);
const root = join(import.meta.dirname, "../../../..");
const kafkajsDir = dirname(require.resolve("kafkajs/package.json"));
const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
const text = (module: string) => readFileSync(require.resolve(module), "utf8");

describe("the kafkajs pin", () => {
  it("is exact in package.json and the lock file, and is the version installed", () => {
    const manifest = json(join(root, "package.json")) as { dependencies: Record<string, string> };
    const lock = json(join(root, "package-lock.json")) as {
      packages: Record<string, { version?: string; dependencies?: Record<string, string> }>;
    };
    expect(manifest.dependencies["kafkajs"]).toBe(KAFKAJS_VERSION);
    expect(lock.packages[""]!.dependencies!["kafkajs"]).toBe(KAFKAJS_VERSION);
    expect(lock.packages["node_modules/kafkajs"]!.version).toBe(KAFKAJS_VERSION);
    expect(json(join(kafkajsDir, "package.json"))["version"]).toBe(KAFKAJS_VERSION);
    expect(KAFKAJS_VERSION).toBe("2.2.4");
  });
});

describe("kafkajs's private parts the patches use", () => {
  it("has every private module the patches name", () => {
    for (const module of Object.values(PRIVATE_MODULES)) {
      expect(require.resolve(module), module).toBe(join(kafkajsDir, module.slice("kafkajs/".length)));
    }
  });

  it("request queue: the method request-queue.ts replaces, the ones it calls, the fields it reads", () => {
    const RequestQueue = require(PRIVATE_MODULES.requestQueue) as {
      prototype: Record<string, unknown>;
      new (options: object): Record<string, unknown> & { destroy(): void };
    };
    const method = (name: string) =>
      RequestQueue.prototype[name] as ((...args: unknown[]) => unknown) | undefined;
    expect(typeof method("scheduleCheckPendingRequests")).toBe("function");
    // The replacement takes no argument and calls checkPendingRequests(), as kafkajs's did.
    expect(method("scheduleCheckPendingRequests")!.length).toBe(0);
    expect(method("checkPendingRequests")!.length).toBe(0);
    // A request enqueued on an idle queue schedules its own check: what lets the fix schedule none.
    expect(method("push")!.length).toBe(1);
    expect(String(method("push"))).toContain("this.scheduleCheckPendingRequests()");
    expect(method("destroy")!.length).toBe(0);
    const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
    const queue = new RequestQueue({ clientId: "pin", broker: "127.0.0.1:1", logger: silent });
    try {
      expect(queue["pending"]).toEqual([]);
      expect(queue["throttledUntil"]).toBe(-1);
      expect(queue["throttleCheckTimeoutId"]).toBeNull();
    } finally {
      queue.destroy();
    }
  });

  it("record batch decoder: one fetch decoder in, loaded by the fetch path that the guard replaces it in", () => {
    const decoder = require(PRIVATE_MODULES.recordBatchDecoder) as unknown;
    expect(typeof decoder).toBe("function");
    expect((decoder as (d: unknown) => unknown).length).toBe(1);
    // The fetch path captures the decoder when it loads (the guard replaces the module's exports
    // before) and expects the partial-message error by name for a batch cut short.
    const fetchDecoder = text(PRIVATE_MODULES.fetchDecoder);
    expect(fetchDecoder).toContain("const RecordBatchDecoder = require('../../../recordBatch/v0/decoder')");
    expect(fetchDecoder).toContain("records.push(...recordBatch.records)");
    expect(fetchDecoder).toContain("e.name === 'KafkaJSPartialMessageError'");
    // Every fetch version a consumer may use (4 to 11) reads its records through that helper.
    for (let version = 4; version <= 11; version++)
      expect(decodesThroughV4(version), `fetch v${version}`).toBe(true);
    // The fetch decoder that record-batch.ts reads from: the response bytes and a position.
    const Decoder = require("kafkajs/src/protocol/decoder.js") as new (
      buffer: Buffer,
    ) => Record<string, unknown>;
    const bytes = Buffer.alloc(4);
    expect({ ...new Decoder(bytes) }).toEqual({ buffer: bytes, offset: 0 });
  });

  it("compression and errors: the codec lookup, the table it reads, and the partial-message error", () => {
    const compression = require(PRIVATE_MODULES.compression) as {
      Codecs: object;
      COMPRESSION_CODEC_MASK: number;
      lookupCodecByAttributes: (attributes: number) => unknown;
    };
    expect(compression.lookupCodecByAttributes.length).toBe(1);
    expect(compression.COMPRESSION_CODEC_MASK).toBe(0x07);
    // install() registers the codecs into kafkajs's public table: the one the decoders look up.
    expect(compression.Codecs).toBe((require("kafkajs") as { CompressionCodecs: object }).CompressionCodecs);
    const errors = require(PRIVATE_MODULES.errors) as {
      KafkaJSPartialMessageError: new (m: string) => Error;
    };
    const partial = new errors.KafkaJSPartialMessageError("cut short");
    expect([partial.name, partial.message]).toEqual(["KafkaJSPartialMessageError", "cut short"]);
  });

  it("log-end admin: the admin factory, the emitter, read_uncommitted and the Kafka instance's private members", () => {
    expect(typeof require(PRIVATE_MODULES.admin)).toBe("function");
    expect(typeof require(PRIVATE_MODULES.emitter)).toBe("function");
    expect((require(PRIVATE_MODULES.isolationLevel) as { READ_UNCOMMITTED: unknown }).READ_UNCOMMITTED).toBe(
      0,
    );
    const { Kafka } = require("kafkajs") as { Kafka: new (config: object) => object };
    const kafka = new Kafka({ brokers: ["127.0.0.1:1"], logLevel: 0 });
    const member = (description: string) => {
      const symbol = Object.getOwnPropertySymbols(kafka).find((s) => s.description === description);
      return symbol === undefined ? undefined : (kafka as Record<symbol, unknown>)[symbol];
    };
    expect(typeof member(PRIVATE_MEMBERS.createCluster)).toBe("function");
    expect(typeof (member(PRIVATE_MEMBERS.logger) as { namespace?: unknown }).namespace).toBe("function");
    // The cluster factory passes the isolation level on: what makes the admin read past open transactions.
    expect(text("kafkajs/src/index.js")).toMatch(/CREATE_CLUSTER\] = \(\{[^}]*isolationLevel,\s*\}\) =>/);
  });
});

// The files the patches replace parts of, reach into, or hand objects back to, as in kafkajs 2.2.4
// (first 16 hex digits of SHA-256). A difference means: re-read the file against its patch.
const FILES: [file: string, why: string, sha256: string][] = [
  [
    "src/network/requestQueue/index.js",
    "request-queue.ts replaces scheduleCheckPendingRequests",
    "b55986089c14f8f7",
  ],
  [
    "src/protocol/recordBatch/v0/decoder.js",
    "record-batch.ts gives the objects it gives",
    "38cae7fc865f9bc5",
  ],
  [
    "src/protocol/recordBatch/record/v0/decoder.js",
    "kafka-record.ts reads as its records",
    "86d740054c8be29b",
  ],
  [
    "src/protocol/requests/fetch/v4/decodeMessages.js",
    "decode-guard.ts hooks in before it",
    "d9fede59bebf84ee",
  ],
  ["src/protocol/decoder.js", "record-batch.ts reads its buffer and offset", "83c43fac8d6b8ef2"],
  ["src/protocol/message/compression/index.js", "codecs/ fill its table", "666ec6400225fe90"],
  ["src/errors.js", "the partial-message error", "bb3e50177a7b73f4"],
  ["src/admin/index.js", "log-end.ts builds an admin from it", "94aa1214e987e8f7"],
  ["src/instrumentation/emitter.js", "log-end.ts", "0b7b65603afcbf71"],
  ["src/protocol/isolationLevel.js", "log-end.ts", "58c50c30e89bdec5"],
  ["src/index.js", "log-end.ts reads the Kafka instance's private members", "38d0022e448f0aaa"],
  // Not patched, but leaned on: kafka/commits.ts counts a commit only when COMMIT_OFFSETS names it,
  // because commitOffsets resolves without committing while the runner is not running.
  [
    "src/consumer/runner.js",
    "commits.ts: commitOffsets returns silently when not running",
    "fad3247df2e3ba48",
  ],
  [
    "src/consumer/offsetManager/index.js",
    "commits.ts: COMMIT_OFFSETS is emitted once the coordinator took the commit",
    "bd1041968ae32232",
  ],
  ["src/consumer/index.js", "commits.ts: commitOffsets delegates to the runner", "cdf5b3d7c67364b2"],
];

describe("the kafkajs files the patches lean on", () => {
  it.each(FILES)("%s is as in kafkajs 2.2.4 (%s)", (file, _why, hash) => {
    const actual = createHash("sha256")
      .update(readFileSync(join(kafkajsDir, file)))
      .digest("hex")
      .slice(0, 16);
    expect(actual).toBe(hash);
  });
});

/** Whether fetch response `version` decodes its records with fetch/v4/decodeMessages.js, itself or through the version it reuses. */
function decodesThroughV4(version: number): boolean {
  const source = text(`kafkajs/src/protocol/requests/fetch/v${version}/response.js`);
  if (source.includes(version === 4 ? "require('./decodeMessages')" : "require('../v4/decodeMessages')"))
    return true;
  const reused = /require\('\.\.\/v(\d+)\/response'\)/.exec(source);
  return (
    reused !== null &&
    Number(reused[1]) >= 4 &&
    Number(reused[1]) < version &&
    decodesThroughV4(Number(reused[1]))
  );
}
