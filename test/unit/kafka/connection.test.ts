// Unit tests of the kafkajs client configuration: TLS files, SASL secrets and the log bridge. They
// need no broker (they sit under test/kafka/ because the test for src/kafka/x.ts lives there).
//
// SASL is also exercised live, in test/integration/kafka/sasl.test.ts, against a broker started for it. TLS is
// not: it would need certificates minted for the test and a second TLS listener, and kafkajs owns
// the handshake; what schemawatch owns, and what is tested here, is reading the files into the
// options kafkajs takes without ever putting a secret into an error or a log line.
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";

import { logLevel } from "kafkajs";
import { pino, type Logger } from "pino";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";

import type { KafkaConfig } from "../../../src/config/types.js";
import { SchemawatchError } from "../../../src/errors.js";
import {
  KAFKA_RETRY,
  RETRIED_RESPONSE_ERRORS,
  buildKafkaConfig,
  kafkaLogCreator,
} from "../../../src/kafka/connection.js";
import { install, installed } from "../../../src/kafka/patches/index.js";

const SECRET = "s3cr3t-Pa55";
const silent = pino({ level: "silent" });

const base: KafkaConfig = {
  brokers: ["b1:9092", "b2:9092"],
  clientId: "sw",
  groupId: "g",
  fromBeginning: false,
  lagInterval: 15_000,
};

let dir = "";
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "sw-connection-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** The error buildKafkaConfig rejects with, checked to be CONFIG_INVALID and free of the secret. */
async function configError(config: KafkaConfig, env: Record<string, string> = {}): Promise<SchemawatchError> {
  const error: unknown = await buildKafkaConfig(config, env, silent).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SchemawatchError);
  const sw = error as SchemawatchError;
  expect(sw.code).toBe("CONFIG_INVALID");
  const cause = sw.cause instanceof Error ? sw.cause.message : "";
  expect(`${sw.message} ${cause} ${JSON.stringify(sw)}`).not.toContain(SECRET);
  return sw;
}

// First, before this file installs the patches: each test file runs in a process of its own.
describe("buildKafkaConfig before the kafkajs patches", () => {
  it("refuses to configure a client, naming the call that is missing", async () => {
    expect(installed()).toBe(false);
    await expect(buildKafkaConfig(base, {}, silent)).rejects.toThrow(
      "kafkajs is not patched: call install() of src/kafka/patches/ before building a kafkajs client, as src/monitor/start.ts does",
    );
  });
});

describe("buildKafkaConfig", () => {
  beforeAll(() => install());

  it("passes brokers and client id, with retry backoff and warn-level logging", async () => {
    const built = await buildKafkaConfig(base, {}, silent);
    expect(built.brokers).toEqual(["b1:9092", "b2:9092"]);
    expect(built.clientId).toBe("sw");
    expect(built.retry).toEqual({ initialRetryTime: 300, maxRetryTime: 30_000, retries: 5 });
    expect(built.retry).toEqual(KAFKA_RETRY);
    expect(built.logLevel).toBe(logLevel.WARN);
    expect(typeof built.logCreator).toBe("function");
    expect(built.ssl).toBeUndefined();
    expect(built.sasl).toBeUndefined();
    const debug = await buildKafkaConfig(base, {}, silent, { kafkaLogLevel: logLevel.DEBUG });
    expect(debug.logLevel).toBe(logLevel.DEBUG);
  });

  it("uses system CAs when TLS is on without files, and no TLS when it is off", async () => {
    const on = await buildKafkaConfig(
      { ...base, tls: { enabled: true, rejectUnauthorized: true } },
      {},
      silent,
    );
    expect(on.ssl).toEqual({ rejectUnauthorized: true });
    const off = await buildKafkaConfig(
      { ...base, tls: { enabled: false, ca: join(dir, "missing.pem"), rejectUnauthorized: true } },
      {},
      silent,
    );
    expect(off.ssl).toBeUndefined();
  });

  it("reads the CA, certificate and key files", async () => {
    const tls = {
      enabled: true,
      ca: await file("ca.pem", "CA PEM\n"),
      cert: await file("client.pem", "CERT PEM\n"),
      key: await file("client.key", "KEY PEM\n"),
      rejectUnauthorized: false,
    };
    const built = await buildKafkaConfig({ ...base, tls }, {}, silent);
    expect(built.ssl).toEqual({
      rejectUnauthorized: false,
      ca: ["CA PEM\n"],
      cert: "CERT PEM\n",
      key: "KEY PEM\n",
    });
  });

  it("names the key and the file it cannot read", async () => {
    const missing = join(dir, "nope", "ca.pem");
    const error = await configError({
      ...base,
      tls: { enabled: true, ca: missing, rejectUnauthorized: true },
    });
    expect(error.message).toBe(
      `kafka.tls.ca: cannot read the CA certificate file ${missing}: ENOENT: no such file or directory, open '${missing}'`,
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("refuses a certificate without its key", async () => {
    const cert = await file("client.pem", "CERT");
    const error = await configError({ ...base, tls: { enabled: true, cert, rejectUnauthorized: true } });
    expect(error.message).toMatch(/^kafka\.tls: cert and key go together/);
  });

  it("reads SASL PLAIN credentials from the config and an environment variable", async () => {
    const built = await buildKafkaConfig(
      { ...base, sasl: { mechanism: "plain", username: "alice", passwordEnv: "KAFKA_PASSWORD" } },
      { KAFKA_PASSWORD: SECRET, UNRELATED: "x" },
      silent,
    );
    expect(built.sasl).toEqual({ mechanism: "plain", username: "alice", password: SECRET });
  });

  it("reads SCRAM credentials from environment variables and a password file without its newline", async () => {
    for (const [mechanism, text] of [
      ["scram-sha-256", `${SECRET}\n`],
      ["scram-sha-512", `${SECRET}\r\n\n`],
    ] as const) {
      const passwordFile = await file(`password-${mechanism}`, text);
      const built = await buildKafkaConfig(
        { ...base, sasl: { mechanism, usernameEnv: "KAFKA_USERNAME", passwordFile } },
        { KAFKA_USERNAME: "bob" },
        silent,
      );
      expect(built.sasl).toEqual({ mechanism, username: "bob", password: SECRET });
    }
  });

  it("names a missing or empty environment variable", async () => {
    const sasl = {
      mechanism: "plain",
      usernameEnv: "KAFKA_USERNAME",
      passwordEnv: "KAFKA_PASSWORD",
    } as const;
    expect((await configError({ ...base, sasl }, { KAFKA_PASSWORD: SECRET })).message).toBe(
      "kafka.sasl.usernameEnv: the environment variable KAFKA_USERNAME (the SASL user name) is not set or empty",
    );
    expect(
      (await configError({ ...base, sasl }, { KAFKA_USERNAME: "bob", KAFKA_PASSWORD: "" })).message,
    ).toBe(
      "kafka.sasl.passwordEnv: the environment variable KAFKA_PASSWORD (the SASL password) is not set or empty",
    );
  });

  it("names an unreadable or empty password file, never its contents", async () => {
    const folder = join(dir, "a-folder");
    await mkdir(folder);
    const unreadable = await configError({
      ...base,
      sasl: { mechanism: "plain", username: "alice", passwordFile: folder },
    });
    expect(unreadable.message).toMatch(
      new RegExp(`^kafka\\.sasl\\.passwordFile: cannot read the password file ${folder}: EISDIR`),
    );
    const empty = await file("empty", "\n");
    expect(
      (await configError({ ...base, sasl: { mechanism: "plain", username: "alice", passwordFile: empty } }))
        .message,
    ).toBe(`kafka.sasl.passwordFile: the password file ${empty} is empty`);
  });

  it("asks for exactly one user name and one password source", async () => {
    const env = { KAFKA_USERNAME: SECRET, KAFKA_PASSWORD: SECRET };
    const passwordFile = await file("password", SECRET);
    const cases: [KafkaConfig["sasl"], string][] = [
      [
        { mechanism: "plain", passwordEnv: "KAFKA_PASSWORD" },
        "kafka.sasl: username or usernameEnv is required",
      ],
      [
        { mechanism: "plain", username: "a", usernameEnv: "KAFKA_USERNAME", passwordEnv: "KAFKA_PASSWORD" },
        "kafka.sasl: set only one of username and usernameEnv",
      ],
      [{ mechanism: "plain", username: "a" }, "kafka.sasl: passwordEnv or passwordFile is required"],
      [
        { mechanism: "plain", username: "a", passwordEnv: "KAFKA_PASSWORD", passwordFile },
        "kafka.sasl: set only one of passwordEnv and passwordFile",
      ],
    ];
    for (const [sasl, message] of cases)
      expect((await configError({ ...base, sasl }, env)).message).toBe(message);
  });
});

describe("kafkaLogCreator", () => {
  function capture(): { lines: Record<string, unknown>[]; logger: Logger } {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    return { lines, logger: pino({ level: "debug", base: null, timestamp: false }, stream) };
  }

  it("forwards entries at the matching pino level with the kafkajs namespace", () => {
    const { lines, logger } = capture();
    const log = kafkaLogCreator(logger)(logLevel.WARN);
    const entry = (level: logLevel, message: string, extra: Record<string, unknown> = {}): void =>
      log({ namespace: "Consumer", level, label: "X", log: { timestamp: "t", message, ...extra } });
    entry(logLevel.ERROR, "Crash", { groupId: "g", retryCount: 3 });
    entry(logLevel.WARN, "rebalancing");
    entry(logLevel.INFO, "joined");
    entry(logLevel.DEBUG, "fetch");
    entry(logLevel.NOTHING, "never");
    expect(lines).toEqual([
      { level: 50, kafkajs: "Consumer", groupId: "g", retryCount: 3, msg: "Crash" },
      { level: 40, kafkajs: "Consumer", msg: "rebalancing" },
      { level: 30, kafkajs: "Consumer", msg: "joined" },
      { level: 20, kafkajs: "Consumer", msg: "fetch" },
    ]);
  });

  it("logs what kafkajs retries by itself below error: a fresh broker's coordinator, a restart, a rejoin", () => {
    const { lines, logger } = capture();
    const log = kafkaLogCreator(logger)(logLevel.DEBUG);
    const entry = (namespace: string, message: string, extra: Record<string, unknown> = {}): void =>
      log({ namespace, level: logLevel.ERROR, label: "ERROR", log: { timestamp: "t", message, ...extra } });
    entry("Connection", "Response GroupCoordinator(key: 10, version: 2)", {
      error: "The group coordinator is not available",
    });
    entry("Connection", "Response OffsetFetch(key: 9, version: 4)", {
      error: "The coordinator is loading and hence can't process requests for this group",
    });
    entry("Consumer", "Restarting the consumer in 300ms", { retryTime: 300 });
    entry("Runner", "The coordinator is not aware of this member, re-joining the group");
    // What kafkajs does not retry, and the end of its retries, stay errors.
    entry("Connection", "Response OffsetCommit(key: 8, version: 5)", { error: "Group authorization failed" });
    entry("Consumer", "Crash: KafkaJSNumberOfRetriesExceeded: The group coordinator is not available");
    expect(lines.map((line) => [line["level"], line["msg"]])).toEqual([
      [20, "Response GroupCoordinator(key: 10, version: 2)"],
      [20, "Response OffsetFetch(key: 9, version: 4)"],
      [40, "Restarting the consumer in 300ms"],
      [40, "The coordinator is not aware of this member, re-joining the group"],
      [50, "Response OffsetCommit(key: 8, version: 5)"],
      [50, "Crash: KafkaJSNumberOfRetriesExceeded: The group coordinator is not available"],
    ]);
  });

  it("takes only errors kafkajs itself marks retriable as retried (its protocol error table)", () => {
    // A private table of kafkajs: this fails when the pinned version's messages or flags change.
    const require = createRequire(import.meta.url);
    const { errorCodes } = require("kafkajs/src/protocol/error.js") as {
      errorCodes: { message: string; retriable: boolean }[];
    };
    const retriable = new Set(errorCodes.filter((e) => e.retriable).map((e) => e.message));
    expect([...RETRIED_RESPONSE_ERRORS].filter((message) => !retriable.has(message))).toEqual([]);
    expect(RETRIED_RESPONSE_ERRORS.size).toBe(9);
  });

  it("redacts secrets and drops record contents and byte buffers", () => {
    const { lines, logger } = capture();
    kafkaLogCreator(logger)(logLevel.DEBUG)({
      namespace: "Connection",
      level: logLevel.ERROR,
      label: "ERROR",
      log: {
        timestamp: "t",
        message: "Response error",
        broker: "b1:9092",
        sasl: { mechanism: "plain", username: "alice", password: SECRET },
        request: { password: SECRET, ssl: { key: SECRET }, size: 12, value: SECRET },
        messages: [{ value: SECRET }],
        buffer: Buffer.from(SECRET),
        raw: Buffer.from(SECRET),
        error: new Error("boom"),
      },
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(lines).toEqual([
      {
        level: 50,
        kafkajs: "Connection",
        broker: "b1:9092",
        sasl: "[redacted]",
        request: { password: "[redacted]", ssl: "[redacted]", size: 12, value: "[omitted]" },
        messages: "[omitted]",
        buffer: "[omitted]",
        raw: `[${SECRET.length} bytes]`,
        error: "boom",
        msg: "Response error",
      },
    ]);
  });
});
