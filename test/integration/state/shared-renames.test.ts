import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { RenameProgress } from "../../../src/fields/rename-progress.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { countedRecords, startReplica as start } from "../../helpers/live.js";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
  withAdmin,
} from "../../helpers/kafka.js";
import { paySend as send } from "../../helpers/pay-topic.js";

// A rename's progress (total replaces amount) through a real broker, beyond one process (issue 28):
// a monitor with a state file restarted keeps each producer's exact counts and step, and two replicas
// sharing a state topic each report the other's producer. The drain window is an hour, so no step
// turns quiet while the test runs.

const topics: string[] = [];

afterEach(async () => {
  const brokers = await kafkaBrokers();
  const created = topics.splice(0);
  await withAdmin(brokers, (admin) => admin.deleteTopics({ topics: created })).catch(() => undefined);
});

const schema = JSON.stringify({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://example.com/schemas/pay/1.1.json",
  type: "object",
  properties: { id: { type: "integer" }, amount: { type: "number" }, total: { type: "number" } },
  required: ["id"],
});

async function setup(state: "topic" | "file") {
  const brokers = await kafkaBrokers();
  const topic = freshTopic("sw-shared-renames");
  const stateTopic = freshTopic("sw-state");
  topics.push(topic, stateTopic);
  await createTopic(brokers, topic, 2);
  const dir = await writeTree({
    "pay/1.1.json": schema,
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 500ms
logLevel: silent
${state === "topic" ? `state:\n  topic: ${stateTopic}\n` : ""}subjects:
  - name: pay
    topics: [${topic}]
    schemas: ./pay
    versions:
      "1.1.0": { status: active }
    drainWindow: 1h
    readyWindow: 1h
    fields:
      replaces:
        /total: /amount
`,
  });
  return { brokers, topic, dir, configPath: `${dir}/config.yaml` };
}

const rename = (m: RunningMonitor): RenameProgress => m.report().subjects[0]!.renames![0]!;

/** Each producer as `producer old/both/new/neither/unknown step`. */
const progress = (m: RunningMonitor) =>
  rename(m).producers.map(
    (p) =>
      `${p.producer} ${p.records.old}/${p.records.both}/${p.records.new}/${p.records.neither}/${p.records.unknown} ${p.step}`,
  );

const mine = (m: RunningMonitor, topic: string) => [...m.health.assigned.get(topic)!][0]!;

describe("a rename's progress beyond one process", () => {
  it("a monitor with a state file restarted keeps each producer's exact counts and step, and counts on from them", async () => {
    const { brokers, topic, dir, configPath } = await setup("file");
    const first = await start(configPath, "solo");
    await waitFor(() => first.health.ready, "the partitions to be assigned");
    await produce(brokers, topic, [
      ...send("billing", 4, `"amount":2.5`, 0),
      ...send("web", 3, `"amount":1,"total":1`, 1),
      ...send("app", 2, `"total":1`, 0),
    ]);
    await waitFor(() => countedRecords(first) === 9, "9 records");
    const before = rename(first);
    expect(progress(first)).toEqual(["app 0/0/2/0/0 done", "billing 4/0/0/0/0 add", "web 0/3/0/0/0 switch"]);
    await first.stop();
    // The graceful stop saved the section: a row per producer and writer version (in order of arrival).
    const saved = JSON.parse(await readFile(`${dir}/.schemawatch-state.json`, "utf8")) as {
      renames: Array<{
        subject: string;
        field: string;
        replacement: string;
        rows: Array<{ producer: string }>;
      }>;
    };
    expect(
      saved.renames.map((e) => [e.subject, e.field, e.replacement, e.rows.map((r) => r.producer).sort()]),
    ).toEqual([["pay", "/amount", "/total", ["app", "billing", "web"]]]);

    const second = await start(configPath, "solo");
    // Before any record of its own: the whole progress, words and last times included.
    expect(rename(second)).toEqual(before);
    await waitFor(() => second.health.ready, "the partitions to be assigned again");
    await produce(brokers, topic, send("billing", 2, `"amount":2.5,"total":2.5`, 1));
    await waitFor(() => countedRecords(second) === 2, "2 records after the restart");
    // Billing's records alone are still in the window: step 1 until it is an hour old.
    expect(progress(second)).toEqual(["app 0/0/2/0/0 done", "billing 4/2/0/0/0 add", "web 0/3/0/0/0 switch"]);
    expect(rename(second).producers[1]!.writers).toEqual({
      "1.1.0": { old: 4, both: 2, new: 0, neither: 0, unknown: 0 },
    });
  }, 120_000);

  it("two replicas sharing a state topic each report the other's producer exactly, and a restarted one its own", async () => {
    const { brokers, topic, configPath } = await setup("topic");
    const a = await start(configPath, "replica-a");
    const b = await start(configPath, "replica-b");
    await waitFor(
      () => a.health.assignedPartitions === 1 && b.health.assignedPartitions === 1,
      "one partition each",
    );
    // Billing sends to A's partition only, web to B's only.
    await produce(brokers, topic, [
      ...send("billing", 4, `"amount":2.5`, mine(a, topic)),
      ...send("web", 3, `"amount":1,"total":1`, mine(b, topic)),
    ]);
    await waitFor(() => countedRecords(a) === 4 && countedRecords(b) === 3, "4 records on A, 3 on B");
    const both = ["billing 4/0/0/0/0 add", "web 0/3/0/0/0 switch"];
    // Published with each full publish (every 10 s).
    await waitFor(
      () => progress(a).length === 2 && progress(b).length === 2,
      "each to learn the other's",
      60_000,
    );
    expect(progress(a)).toEqual(both);
    expect(progress(b)).toEqual(both);
    expect(rename(a)).toEqual(rename(b));
    // /api/status reads the same merged view.
    const status = (await (await fetch(`${b.address}/api/status`)).json()) as {
      renames: Record<string, RenameProgress[]>;
    };
    expect(status.renames["pay"]).toEqual([rename(b)]);
    // The metric stays each process's own counter: B never counted billing.
    const metrics = await (await fetch(`${b.address}/metrics`)).text();
    expect(metrics).not.toContain('producer="billing",form="old"');

    // A restarts: its own count comes back from the topic, B's is still B's, nothing counted twice.
    await a.stop();
    const a2 = await start(configPath, "replica-a");
    expect(progress(a2)).toEqual(both);
    expect(rename(a2)).toEqual(rename(b));
  }, 180_000);
});
