import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import type { Consumer, KafkaMessage } from "kafkajs";
import { afterEach, describe, expect, it } from "vitest";
import type { CommandContext } from "../../../src/cli/command.js";
import { demoProduceCommand } from "../../../src/cli/commands/demo-produce.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";

// `schemawatch demo-produce` against the real broker: exactly --count records with the article's
// documents and the headers the monitor reads, the wire prefix with --wire-id, a stop request ending
// an unbounded run, and a missing topic failing with exit 1. Flag errors are test/unit/cli/demo-produce.test.ts.
// One run is a real process (bin/schemawatch.js, so it needs dist/: npm test builds it first), for
// what only a process shows: Node's own warnings on stderr.

const consumers: Consumer[] = [];
afterEach(async () => {
  await Promise.all(consumers.splice(0).map((c) => c.disconnect()));
});

interface Run {
  readonly code: number;
  readonly stderr: string;
}

async function demo(args: string[], stopSignal = new AbortController().signal): Promise<Run> {
  let stderr = "";
  const context: CommandContext = {
    stdout: { write: () => true },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: {},
    cwd: process.cwd(),
    stopSignal,
  };
  const code = await demoProduceCommand.run(args, context);
  return { code, stderr };
}

/** How many records the topic holds: the sum of its partitions' high watermarks (no transactions here). */
async function recordsOn(brokers: string[], topic: string): Promise<number> {
  const offsets = await withAdmin(brokers, (admin) => admin.fetchTopicOffsets(topic));
  return offsets.reduce((sum, p) => sum + Number(p.high), 0);
}

/**
 * Every record of the topic, read from the beginning by a fresh group until `expected` have arrived,
 * after checking that the topic holds exactly `expected`: so no extra record can arrive later.
 */
async function consumeAll(brokers: string[], topic: string, expected: number): Promise<KafkaMessage[]> {
  expect(await recordsOn(brokers, topic)).toBe(expected);
  const consumer = kafkaClient(brokers).consumer({
    groupId: freshGroupId("sw-demo-read"),
    maxWaitTimeInMs: 200,
  });
  consumers.push(consumer);
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const messages: KafkaMessage[] = [];
  await consumer.run({
    eachMessage: async ({ message }) => {
      messages.push(message);
    },
  });
  await waitFor(() => messages.length >= expected, `${expected} records on ${topic}`);
  return messages;
}

const text = (value: Buffer | string | (Buffer | string)[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value.map(String) : String(value);

describe("schemawatch demo-produce against a real broker", () => {
  it("sends exactly --count documents with the version and producer headers", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-demo");
    await createTopic(brokers, topic, 3);
    // the compose file's flags, plus a bound; 1.1 stands for 1.1.0
    const args = [
      "--brokers",
      brokers.join(","),
      "--topic",
      topic,
      "--producer",
      "checkout",
      "--version",
      "1.1",
    ];
    const started = Date.now();
    const run = await demo([...args, "--rate", "100", "--count", "45"]);
    expect(run.code, run.stderr).toBe(0);
    // 45 records at 100/s: the last one is due 0.44 s after the first
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect(run.stderr).toContain(
      "demo-produce checkout: sending event 1.1.0 (header schema-version: event/1.1)",
    );
    expect(run.stderr).toMatch(/demo-produce checkout: done: 45 records sent in/);

    const messages = await consumeAll(brokers, topic, 45);
    expect(messages).toHaveLength(45);
    const documents = messages.map(
      (m) => JSON.parse(String(m.value)) as { id: number; event: string; amount: number },
    );
    expect(documents.map((d) => d.id).sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i));
    for (const [i, m] of messages.entries()) {
      expect(text(m.headers?.["schema-version"])).toBe("event/1.1");
      expect(text(m.headers?.["producer"])).toBe("checkout");
      expect(String(m.key)).toBe(`checkout-${documents[i]!.id}`);
      expect(typeof documents[i]!.amount).toBe("number");
    }
    expect(documents.filter((d) => d.event === "buy")).toHaveLength(9);
  });

  it("declares the version with the Confluent wire prefix when given --wire-id", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-demo-wire");
    await createTopic(brokers, topic, 1);
    const run = await demo([
      ...["--brokers", brokers[0]!, "--topic", topic, "--producer", "legacy", "--version", "1.0.0"],
      ...["--count", "7", "--rate", "1000", "--wire-id", "101"],
    ]);
    expect(run.code, run.stderr).toBe(0);
    const messages = await consumeAll(brokers, topic, 7);
    expect(messages).toHaveLength(7);
    for (const m of messages) {
      const value = m.value!;
      expect([...value.subarray(0, 5)]).toEqual([0, 0, 0, 0, 101]);
      expect(JSON.parse(value.subarray(5).toString())).toMatchObject({
        event: expect.stringMatching(/^(view|click)$/),
      });
      expect(m.headers?.["schema-version"]).toBeUndefined();
      expect(text(m.headers?.["producer"])).toBe("legacy");
    }
  });

  it("runs until stopped when no --count is given", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-demo-stop");
    await createTopic(brokers, topic, 1);
    const stop = new AbortController();
    const started = Date.now();
    const running = demo(
      [
        "--brokers",
        brokers[0]!,
        "--topic",
        topic,
        "--producer",
        "legacy",
        "--version",
        "1.0.0",
        "--rate",
        "50",
      ],
      stop.signal,
    );
    // Stopped once 20 records are on the topic, however long a loaded machine takes to send them.
    await waitFor(
      async () => (await recordsOn(brokers, topic)) >= 20,
      "20 records on the topic",
      undefined,
      100,
    );
    stop.abort();
    const run = await running;
    const elapsed = (Date.now() - started) / 1000;
    expect(run.code, run.stderr).toBe(0);
    const sent = Number(/done: (\d+) records sent/.exec(run.stderr)?.[1]);
    expect(sent).toBeGreaterThanOrEqual(20);
    // The rate limit: record n is due n / 50 s after the start, so no more than 50 a second plus the
    // first one were sent (a loaded machine only sends fewer).
    expect(sent).toBeLessThanOrEqual(Math.floor(elapsed * 50) + 1);
    expect(await consumeAll(brokers, topic, sent)).toHaveLength(sent);
  });

  it("fails with exit 1 and says so when the topic does not exist", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-demo-missing");
    const run = await demo([
      "--brokers",
      brokers[0]!,
      "--topic",
      topic,
      "--producer",
      "x",
      "--version",
      "1.0.0",
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Kafka failed after 0 records: topic '${topic}' does not exist`);
  });

  it("as a process, prints its progress and no Node warning (kafkajs's negative timer is fixed)", async () => {
    if (!existsSync("dist/cli/main.js")) throw new Error("dist/ is missing: run `npm run build` first");
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-demo-process");
    await createTopic(brokers, topic, 2);
    const args = ["--brokers", brokers.join(","), "--topic", topic, "--producer", "legacy"];
    const child = spawn(
      process.execPath,
      ["bin/schemawatch.js", "demo-produce", ...args, "--version", "1.0.0", "--count", "20", "--rate", "200"],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain("TimeoutNegativeWarning");
    expect(stderr).not.toContain("(node:");
    // every line is the command's own
    for (const line of stderr.trimEnd().split("\n")) expect(line).toMatch(/^demo-produce legacy: /);
    expect(stderr).toMatch(/demo-produce legacy: done: 20 records sent in/);
    expect(await consumeAll(brokers, topic, 20)).toHaveLength(20);
  });
});
