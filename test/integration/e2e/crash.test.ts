// Crashes of the real `schemawatch run` process (kill -9) in the middle of a stream, with validation
// workers on and off: offsets are never committed ahead of the tallies (validations included), and a
// restart resumes exactly at the committed offsets (nothing lost, nothing counted twice). Needs dist/.
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";
import { WAIT_MS } from "../../helpers/wait.js";

const READERS = 3;

interface Monitor {
  readonly child: ChildProcess;
  readonly url: string;
}

async function startRun(configPath: string): Promise<Monitor> {
  const child = spawn(
    process.execPath,
    ["bin/schemawatch.js", "run", "--config", configPath, "--port", "0"],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  const url = await new Promise<string>((resolvePromise, reject) => {
    let buffered = "";
    const timer = setTimeout(() => {
      // A monitor that never said where it listens must not outlive the test.
      child.kill("SIGKILL");
      reject(new Error(`schemawatch run did not listen within ${WAIT_MS} ms`));
    }, WAIT_MS);
    child.stderr!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /"address":"(http:\/\/[^"]+)"/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolvePromise(match[1]!);
      }
    });
  });
  return { child, url };
}

/** Records counted and records validated (validations over the three readers), from /metrics. */
async function tallies(monitor: Monitor): Promise<{ counted: number; validated: number }> {
  const text = await (await fetch(`${monitor.url}/metrics`)).text();
  const sum = (name: string) =>
    text
      .split("\n")
      .filter((l) => l.startsWith(`${name}{`))
      .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
  return {
    counted: sum("schemawatch_records_total"),
    validated: sum("schemawatch_validations_total") / READERS,
  };
}

async function committed(brokers: string[], groupId: string, topic: string): Promise<number> {
  return withAdmin(brokers, async (admin) => {
    const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] });
    return offsets!.partitions.reduce((s, p) => s + Math.max(0, Number(p.offset)), 0);
  });
}

async function kill(monitor: Monitor): Promise<void> {
  const exited = new Promise((r) => monitor.child.once("exit", r));
  monitor.child.kill("SIGKILL");
  await exited;
}

describe.each([1, 0])("kill -9 in the middle of a stream (workers: %i)", (workers) => {
  it("never commits ahead of the tallies, and a restart resumes exactly at the commit", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-crash");
    const groupId = freshGroupId("sw-crash");
    await createTopic(brokers, topic, 2);
    const dir = await writeTree({
      "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${groupId}
  fromBeginning: true
workers: ${workers}
logLevel: info
state:
  file: state.json
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    sampling:
      maxPerSecond: 1000000000
`,
    });
    // Idempotent: a retried send is written once, so that `produced` is exactly what the topic holds.
    const producer = kafkaClient(brokers).producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    let produced = 0;
    let producing = true;
    // A steady stream while the first monitor runs and dies: 500 records every 50 ms.
    const stream = (async () => {
      while (producing) {
        const messages = Array.from({ length: 500 }, (_, i) => ({
          value: JSON.stringify({ id: produced + i, event: "view" }),
          headers: { producer: "web", "schema-version": "event/1.0" },
        }));
        await producer.send({ topic, messages, acks: -1 });
        produced += messages.length;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    try {
      const first = await startRun(`${dir}/config.yaml`);
      try {
        await waitFor(
          async () => (await tallies(first)).counted > 5_000,
          "the first monitor to count 5 000",
          undefined,
          200,
        );
        // Commits come once a second, for the batches tallied (workers 0) or the batches whose
        // validations the workers finished (workers 1).
        await waitFor(
          async () => (await committed(brokers, groupId, topic)) > 0,
          "a first commit",
          undefined,
          100,
        );
        // Five instants mid-stream, each after the monitor counted more: what is committed at an
        // instant is at most what was validated.
        let counted = 0;
        for (let i = 0; i < 5; i++) {
          const commit = await committed(brokers, groupId, topic);
          const after = await tallies(first);
          expect(commit).toBeLessThanOrEqual(after.validated);
          expect(after.validated).toBeLessThanOrEqual(after.counted);
          counted = after.counted;
          await waitFor(
            async () => (await tallies(first)).counted > counted,
            "more records counted",
            undefined,
            100,
          );
        }
      } finally {
        await kill(first);
      }
      producing = false;
      await stream;
      const atCrash = await committed(brokers, groupId, topic);
      const second = await startRun(`${dir}/config.yaml`);
      try {
        // The second monitor reads exactly what the first had not committed: no gap, no repeat.
        await waitFor(
          async () => (await committed(brokers, groupId, topic)) === produced,
          "the second monitor to catch up",
          undefined,
          200,
        );
        await waitFor(
          async () => (await tallies(second)).counted === produced - atCrash,
          `${produced - atCrash} records in the second monitor`,
          undefined,
          200,
        );
        expect((await tallies(second)).validated).toBe(produced - atCrash);
      } finally {
        await kill(second);
      }
    } finally {
      producing = false;
      await stream;
      await producer.disconnect();
    }
  }, 180_000);
});
