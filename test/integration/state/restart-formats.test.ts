// A monitor with a state file restarted (issue 36: "state file" for every format), as the JSON
// subject's in test/integration/kafka/lifecycle.test.ts and state/shared-evidence.test.ts: an Avro and
// a Protobuf subject of the real registry on the real broker, each with a deprecated field (Avro:
// v2's note tagged DEPRECATED; Protobuf: v1's note `[deprecated = true]`). What the first run saw
// comes back from the state file exactly: the drain window's coverage (catching up is no gap), each
// field's evidence, the traffic history's counts; v1 of each drains after the window.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

import type { RunningMonitor } from "../../../src/monitor/start.js";
import { kafkaBrokers, produce, waitFor } from "../../helpers/kafka.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import {
  AVRO_V1,
  AVRO_V2,
  avroOrder,
  orderSubject,
  protoOrder,
  protoV1,
  protoV2,
  registryConfig,
  money,
  total,
  send,
  times,
  series,
} from "../../helpers/order-formats.js";
import { registryUrl, startProxy } from "../../helpers/registry.js";

const url = registryUrl();

async function start(configPath: string): Promise<RunningMonitor> {
  const monitor = await startLiveMonitor(configPath);
  await waitFor(() => monitor.health.ready, "partitions to be assigned");
  return monitor;
}

/** Each use of a subject's deprecated /note: producer, writer, records that carried it in the buckets. */
const uses = (m: RunningMonitor, subject: string) =>
  m.lifecycle.lifecycle.fields
    .usesOf(subject, "/note")
    .map(
      (u) =>
        `${u.producer} ${u.writer} ${u.buckets.reduce((n, b) => n + b.present, 0)}/${u.buckets.reduce((n, b) => n + b.present + b.absent + b.unknown, 0)}`,
    );

/** Records per (producer, version) over the window, as the subject page's charts draw them. */
async function history(m: RunningMonitor, subject: string): Promise<string[]> {
  const { traffic } = (await (await fetch(`${m.address}/subjects/${subject}/history`)).json()) as {
    traffic?: { versions: { producer: string; version: string; records: number[] }[] };
  };
  return (traffic?.versions ?? []).map(
    (l) => `${l.producer} ${l.version} ${l.records.reduce((a, b) => a + b, 0)}`,
  );
}

/** A subject's field evidence as the state file keeps it (its uses of /note, every member). */
const evidence = (m: RunningMonitor, subject: string) =>
  m.lifecycle.lifecycle.fields.usesOf(subject, "/note");

/** When each partition of the monitor's topics has been covered since, sorted. */
const coverage = (m: RunningMonitor) =>
  m
    .report()
    .subjects.flatMap((s) => s.coverage.map((c) => Date.parse(c.coveredSince)))
    .sort();

const note = (m: RunningMonitor, subject: string) =>
  m
    .report()
    .subjects.find((s) => s.subject === subject)!
    .fields!.find((f) => f.field === "/note")!;

const verdict = (m: RunningMonitor, subject: string) =>
  m
    .report()
    .subjects.find((s) => s.subject === subject)!
    .versions.find((v) => v.version === "1")!.verdict!;

describe("an Avro and a Protobuf subject through a restart from the state file", () => {
  it("keeps the coverage, the field evidence and the history's counts exactly, and drains v1 after the window", async () => {
    const brokers = await kafkaBrokers();
    const order = await orderSubject(brokers, url, "AVRO", { name: "order", deprecatedNote: true });
    const item = await orderSubject(brokers, url, "PROTOBUF", { name: "item" });
    const { dir, configPath } = await registryConfig({
      brokers,
      url,
      subjects: [order, item],
      window: "20s",
    });
    const statePath = join(dir, ".schemawatch-state.json");

    const first = await start(configPath);
    await Promise.all([
      produce(brokers, order.topic, [
        ...times(3, (i) => send("web", avroOrder(order.id1, AVRO_V1, { id: i, kind: "CASH", total: money }))),
        ...times(2, (i) =>
          send(
            "app",
            avroOrder(order.id2, AVRO_V2, { id: i, kind: "CARD", total: money, note: { string: "n" } }),
          ),
        ),
      ]),
      produce(brokers, item.topic, [
        ...times(4, (i) =>
          send("batch", protoOrder(item.id1, protoV1, { id: String(i), note: "n", total, qty: "2" })),
        ),
        ...times(3, (i) => send("web", protoOrder(item.id2, protoV2, { id: String(i), total, qty: 3 }))),
      ]),
    ]);
    await waitFor(() => countedRecords(first) === 12, "the 12 records");
    // folded into the field evidence once a second
    await waitFor(
      () => uses(first, "order").length === 2 && uses(first, "item").length === 2,
      "both subjects' field evidence",
    );
    expect(uses(first, "order")).toEqual(["app 2 2/2", "web 1 0/3"]);
    expect(uses(first, "item")).toEqual(["batch 1 4/4", "web 2 0/3"]);
    const before = {
      evidence: { order: evidence(first, "order"), item: evidence(first, "item") },
      history: { order: await history(first, "order"), item: await history(first, "item") },
      coverage: coverage(first),
    };
    expect(before.history).toEqual({ order: ["web 1 3", "app 2 2"], item: ["batch 1 4", "web 2 3"] });
    await first.stop();
    const saved = JSON.parse(await readFile(statePath, "utf8")) as { partitions: { coveredSince: number }[] };
    expect(saved.partitions.map((p) => p.coveredSince).sort()).toEqual(before.coverage);

    // The second run reads the state file alone: the same evidence, before any record of its own.
    const second = await start(configPath);
    expect({
      evidence: { order: evidence(second, "order"), item: evidence(second, "item") },
      history: { order: await history(second, "order"), item: await history(second, "item") },
      coverage: coverage(second),
    }).toEqual(before);

    // While it runs, the producers write v2 only: the counts go on from the first run's.
    await Promise.all([
      produce(
        brokers,
        order.topic,
        times(2, (i) =>
          send("app", avroOrder(order.id2, AVRO_V2, { id: i, kind: "CARD", total: money, note: null })),
        ),
      ),
      produce(
        brokers,
        item.topic,
        times(2, (i) => send("web", protoOrder(item.id2, protoV2, { id: String(i), total, qty: 4 }))),
      ),
    ]);
    await waitFor(() => countedRecords(second) === 4, "the 4 new records");
    await waitFor(
      () => uses(second, "order")[0] === "app 2 4/4" && uses(second, "item")[1] === "web 2 0/5",
      "the new records' field evidence",
    );
    expect(uses(second, "order")).toEqual(["app 2 4/4", "web 1 0/3"]);
    expect(uses(second, "item")).toEqual(["batch 1 4/4", "web 2 0/5"]);
    expect(await history(second, "order")).toEqual(["web 1 3", "app 2 4"]);
    expect(await history(second, "item")).toEqual(["batch 1 4", "web 2 5"]);
    // Catching up from committed offsets is no gap: coverage still starts where it did.
    for (const subject of ["order", "item"]) {
      expect(second.report().subjects.find((s) => s.subject === subject)!.recentGaps).toEqual([]);
      expect(verdict(second, subject).yes).toBe(false);
    }
    expect(coverage(second)).toEqual(before.coverage);

    // v1 of each drains once the window passes without it; so does Protobuf's note, which only v1
    // carried, while Avro's, carried by every v2 record, stays in use.
    await waitFor(
      () => verdict(second, "order").yes && verdict(second, "item").yes,
      "v1 of both to drain",
      90_000,
    );
    await waitFor(() => note(second, "item").yes, "Protobuf's /note to drain", 30_000);
    expect(note(second, "order").yes).toBe(false);
    // (How many of app's records are still in the window by then depends on the clock: the first
    // run's may have left it; and whether its counts are the window's own or whole buckets begun
    // before it, which say how far back they reach: 20s or a little more.)
    expect(note(second, "order").reasons[0]).toMatch(
      /^app still sends \/note in 100% of its records \([24] of [24] in the last 2\ds; writer 2\)/,
    );
  }, 240_000);

  it("starts from the state file's registry snapshots while the registry is down, and counts each version as before", async () => {
    const brokers = await kafkaBrokers();
    const order = await orderSubject(brokers, url, "AVRO", { name: "order" });
    const item = await orderSubject(brokers, url, "PROTOBUF", { name: "item" });
    const proxy = await startProxy(url);
    const { configPath } = await registryConfig({
      brokers,
      url: proxy.url,
      subjects: [order, item],
      window: "1h",
    });
    const records = () => [
      produce(brokers, order.topic, [
        send("web", avroOrder(order.id1, AVRO_V1, { id: 1, kind: "CASH", total: money })),
        send("app", avroOrder(order.id2, AVRO_V2, { id: 2, kind: "CARD", total: money, note: null })),
      ]),
      produce(brokers, item.topic, [
        send("batch", protoOrder(item.id1, protoV1, { id: "1", note: "n", total, qty: "2" })),
        send("web", protoOrder(item.id2, protoV2, { id: "2", total, qty: 3 })),
      ]),
    ];
    const counts = (m: RunningMonitor) => [
      ...series(m, "records", "order"),
      ...series(m, "validations", "order"),
      ...series(m, "records", "item"),
      ...series(m, "validations", "item"),
    ];
    const first = await start(configPath);
    await Promise.all(records());
    await waitFor(() => countedRecords(first) === 4, "the 4 records");
    const expected = counts(first);
    expect(expected).toEqual([
      "app 2=1",
      "web 1=1",
      "app 2>1 pass=1",
      "app 2>2 pass=1",
      "web 1>1 pass=1",
      "web 1>2 pass=1",
      "batch 1=1",
      "web 2=1",
      "batch 1>1 pass=1",
      "batch 1>2 pass=1",
      "web 2>1 pass=1",
      "web 2>2 pass=1",
    ]);
    await first.stop();

    // The registry goes away (connections refused); the second run has only what the state file kept.
    await proxy.close();
    const second = await start(configPath);
    expect(
      [...second.catalog.subjects.values()].map((s) => [
        s.name,
        s.format.name,
        s.versions.map((v) => v.version.text),
      ]),
    ).toEqual([
      ["order", "avro", ["1", "2"]],
      ["item", "protobuf", ["1", "2"]],
    ]);
    await Promise.all(records());
    await waitFor(() => countedRecords(second) === 4, "the 4 new records");
    expect(counts(second)).toEqual(expected);
  }, 240_000);
});
