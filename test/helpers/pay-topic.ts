import type { RunningMonitor } from "../../src/monitor/start.js";
import { writeTree } from "./files.js";
import { createTopic, freshGroupId, freshTopic, kafkaBrokers, produce, waitFor } from "./kafka.js";
import { countedRecords } from "./live.js";

// The subject the field tests run through a real broker: `pay`, where 1.0.0 (deprecated) requires
// `amount` and 1.1.0 (active) makes it optional beside an optional `total`, on a fresh topic of two
// partitions. The article's rename of `amount` to `total`, expand then contract.

/** A 2020-12 schema of `pay` with these properties. */
export const paySchema = (version: string, properties: Record<string, unknown>, required: string[]) =>
  JSON.stringify({
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: `https://example.com/schemas/pay/${version}.json`,
    type: "object",
    properties,
    required,
  });

export interface PayTopicOptions {
  /** The topic's name prefix (freshTopic). */
  readonly prefix: string;
  /** The drain and ready windows, e.g. `3s`. */
  readonly window: string;
  /** Whether 1.1.0 marks `amount` `deprecated: true` (else only a config `replaces` names it). */
  readonly deprecated: boolean;
  /** Config lines before `subjects:` (a `state:` or `stats:` block), each ending in a newline. */
  readonly top?: string;
  /** Lines added to the subject's entry (a `fields:` block), indented by 4, each ending in a newline. */
  readonly subject?: string;
  /** More files beside `pay/` and `config.yaml`. */
  readonly files?: Readonly<Record<string, string>>;
}

export async function payTopic(options: PayTopicOptions) {
  const brokers = await kafkaBrokers();
  const topic = freshTopic(options.prefix);
  await createTopic(brokers, topic, 2);
  const amount = options.deprecated ? { type: "number", deprecated: true } : { type: "number" };
  const dir = await writeTree({
    "pay/1.0.json": paySchema("1.0", { id: { type: "integer" }, amount: { type: "number" } }, [
      "id",
      "amount",
    ]),
    "pay/1.1.json": paySchema("1.1", { id: { type: "integer" }, amount, total: { type: "number" } }, ["id"]),
    ...options.files,
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
${options.top ?? ""}subjects:
  - name: pay
    topics: [${topic}]
    schemas: ./pay
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
    drainWindow: ${options.window}
    readyWindow: ${options.window}
    minSamples: 5
${options.subject ?? ""}`,
  });
  return { brokers, topic, dir, configPath: `${dir}/config.yaml` };
}

/**
 * `n` records of a producer declaring pay 1.1, `{"id":i,<body>}`, over both partitions in turn, or all
 * on `partition`.
 */
export const paySend = (producer: string, n: number, body: string, partition?: number) =>
  Array.from({ length: n }, (_, i) => ({
    value: `{"id":${i}${body === "" ? "" : `,${body}`}}`,
    headers: { producer, "schema-version": "1.1" },
    partition: partition ?? i % 2,
  }));

/**
 * Produces to the topic and waits until the monitor has counted every record produced so far: each
 * step of a test then reads verdicts over the records it sent.
 */
export function countedProducer(brokers: string[], topic: string, monitor: RunningMonitor) {
  let total = 0;
  return async (messages: ReturnType<typeof paySend>) => {
    await produce(brokers, topic, messages);
    total += messages.length;
    await waitFor(() => countedRecords(monitor) === total, `${total} records`);
  };
}

/** The capture of the `diff --monitor` and `readiness --field` unit tests: billing sends amount and total until `amountUntil` seconds after `t0`, then total only; web sends total only. */
export function payCapture(t0: number, amountUntil: number): string {
  const lines: string[] = [];
  for (let t = 0; t <= 100; t++)
    for (const producer of ["billing", "web"]) {
      const amount = producer === "billing" && t <= amountUntil;
      lines.push(
        JSON.stringify({
          topic: "payments",
          partition: 0,
          offset: lines.length,
          timestamp: t0 + t * 1000,
          headers: { producer, "schema-version": "1.1" },
          value: amount ? { id: t, amount: 3, total: 3 } : { id: t, total: 3 },
        }),
      );
    }
  return lines.join("\n") + "\n";
}
