// KafkaSource over SASL (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) against a real broker started for this
// file, a wrong password, and that broker going away and coming back while the source runs.
// TLS is not tested live: it would need certificates made for the test, and kafkajs owns the
// handshake; test/unit/kafka/connection.test.ts checks the files schemawatch reads for it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";

import { pino, type Logger } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

import type { SaslConfig } from "../../../src/config/types.js";
import { KafkaSource } from "../../../src/kafka/source.js";
import { Health } from "../../../src/health/health.js";
import type { RecordSink } from "../../../src/pipeline/record.js";
import type { SourceRecord } from "../../../src/pipeline/record.js";
import { freshGroupId, freshTopic, waitFor } from "../../helpers/kafka.js";
import { PLAIN_USER, SCRAM_USER, SaslBroker } from "./sasl-broker.js";

let broker: SaslBroker | undefined;
let brokerError: unknown;
let dir = "";
const sources: KafkaSource[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "sw-sasl-test-"));
  try {
    broker = await SaslBroker.create();
  } catch (error) {
    brokerError = error;
  }
}, 120_000);

afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.stop()));
});

afterAll(async () => {
  await broker?.destroy();
  await rm(dir, { recursive: true, force: true });
}, 60_000);

function saslBroker(): SaslBroker {
  if (broker === undefined) throw brokerError;
  return broker;
}

async function topicWith(values: string[]): Promise<string> {
  const topic = freshTopic("sw-sasl");
  const kafka = saslBroker().client();
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  await admin.disconnect();
  await send(topic, values);
  return topic;
}

async function send(topic: string, values: string[]): Promise<void> {
  const producer = saslBroker().client().producer();
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: values.map((value) => ({ value })) });
  await producer.disconnect();
}

function capture(): { text: () => string; logger: Logger } {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { text: () => text, logger: pino({ level: "debug" }, stream) };
}

function source(
  topic: string,
  sasl: SaslConfig,
  env: Record<string, string>,
  logger?: Logger,
  stopTimeoutMs?: number,
) {
  const records: SourceRecord[] = [];
  const sink: RecordSink = { process: (record) => void records.push({ ...record }) };
  const health = new Health();
  const s = new KafkaSource({
    kafka: {
      brokers: saslBroker().brokers,
      clientId: "schemawatch-test",
      groupId: freshGroupId("sw-sasl"),
      fromBeginning: true,
      lagInterval: 200,
      sasl,
    },
    topics: [topic],
    sink,
    health,
    logger: logger ?? pino({ level: "silent" }),
    env,
    tuning: {
      sessionTimeout: 10_000,
      heartbeatInterval: 500,
      maxWaitTimeInMs: 200,
      reconnectMaxMs: 1_000,
      ...(stopTimeoutMs === undefined ? {} : { stopTimeoutMs }),
    },
  });
  sources.push(s);
  return { source: s, records, health };
}

const values = (records: SourceRecord[]): string[] =>
  records.map((r) => `${r.offset}:${r.value?.toString()}`);

describe("KafkaSource over SASL", () => {
  it.each([
    ["plain", "a user name in the config and a password variable"],
    ["scram-sha-256", "a user name variable and a password file"],
    ["scram-sha-512", "user name and password variables"],
  ] as const)(
    "consumes with %s, from %s",
    async (mechanism, _how) => {
      const topic = await topicWith(["a", "b", "c"]);
      const passwordFile = join(dir, `password-${mechanism}`);
      const user = mechanism === "plain" ? PLAIN_USER : SCRAM_USER;
      await writeFile(passwordFile, `${user.password}\n`);
      const sasl: SaslConfig =
        mechanism === "plain"
          ? { mechanism, username: user.username, passwordEnv: "SW_PASSWORD" }
          : mechanism === "scram-sha-256"
            ? { mechanism, usernameEnv: "SW_USER", passwordFile }
            : { mechanism, usernameEnv: "SW_USER", passwordEnv: "SW_PASSWORD" };
      const {
        source: s,
        records,
        health,
      } = source(topic, sasl, {
        SW_USER: user.username,
        SW_PASSWORD: user.password,
      });
      await s.start();
      await waitFor(() => records.length >= 3, "3 records");
      expect(values(records)).toEqual(["0:a", "1:b", "2:c"]);
      expect(health.brokerUp).toBe(true);
      await waitFor(() => health.lag.get(topic)?.get(0) === 0, "lag 0");
    },
    180_000,
  );

  it("reports a wrong password as unreachable with the reason, never the password", async () => {
    const topic = await topicWith(["a"]);
    const wrong = "not-the-Password-9";
    const logs = capture();
    const {
      source: s,
      records,
      health,
    } = source(
      topic,
      { mechanism: "plain", username: PLAIN_USER.username, passwordEnv: "SW_PASSWORD" },
      { SW_PASSWORD: wrong },
      logs.logger,
      // A stop that waited for the broker would wait out this hour, far past the test's timeout.
      3_600_000,
    );
    await expect(s.start()).resolves.toBeUndefined();
    expect(health.brokerUp).toBe(false);
    expect(health.lastError).toMatch(/SASL PLAIN authentication failed/);
    expect(health.lastError).not.toContain(wrong);
    await expect(s.stop()).resolves.toBeUndefined();
    expect([health.brokerUp, health.assignedPartitions]).toEqual([false, 0]);
    expect(records).toEqual([]);
    expect(logs.text()).toMatch(/authentication failed/);
    expect(logs.text()).not.toContain(wrong);
  }, 180_000);

  it("reports the broker going away and resumes without loss or duplicates when it is back", async () => {
    const topic = await topicWith(["a", "b"]);
    const {
      source: s,
      records,
      health,
    } = source(
      topic,
      { mechanism: "plain", username: PLAIN_USER.username, passwordEnv: "SW_PASSWORD" },
      { SW_PASSWORD: PLAIN_USER.password },
    );
    await s.start();
    await waitFor(() => records.length >= 2, "2 records");
    await waitFor(() => health.lag.get(topic)?.get(0) === 0, "the commit of offset 2");

    await saslBroker().stop();
    await waitFor(() => !health.brokerUp, "brokerUp false", 60_000, 100);
    expect(health.lastError).toBeDefined();
    expect(health.assignedPartitions).toBe(0);

    await saslBroker().start();
    await send(topic, ["c", "d"]);
    await waitFor(() => records.length >= 4, "2 more records after the restart", 60_000);
    await waitFor(() => health.brokerUp && health.assignedPartitions === 1, "the source to be back");
    // A record delivered twice would come before a record produced after all of them.
    await send(topic, ["sentinel"]);
    await waitFor(() => records.some((r) => r.value?.toString() === "sentinel"), "the sentinel record");
    expect(values(records)).toEqual(["0:a", "1:b", "2:c", "3:d", "4:sentinel"]);
  }, 180_000);
});
