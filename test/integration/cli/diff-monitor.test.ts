// `schemawatch diff OLD NEW --monitor URL --subject S` against a live monitor reading a real broker:
// 1.1 deprecates `amount`, the proposed 2.0 removes it. While billing still sends it, the removal is
// named as one live traffic still carries, with billing's share; a window after the last record that
// carried it, as drained since that record: safe. A window of 10 s stands in for the default 7 days:
// long enough for a loaded machine to ask while billing's records are still in it.
import { describe, expect, it } from "vitest";
import type { FieldVerdict } from "../../../src/lifecycle/field-verdicts.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { runCli } from "../../helpers/cli.js";
import { produce, waitFor } from "../../helpers/kafka.js";
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";
import { paySchema, payTopic } from "../../helpers/pay-topic.js";

const setup = () =>
  payTopic({
    prefix: "sw-diff-monitor",
    window: "10s",
    deprecated: true,
    // the contraction: amount is gone
    files: {
      "proposed/2.0.json": paySchema("2.0", { id: { type: "integer" }, total: { type: "number" } }, ["id"]),
    },
  });

/** `n` records of a producer, with the raw JSON `body` (the id is added), round robin over both partitions. */
const send = (producer: string, n: number, body: string) =>
  Array.from({ length: n }, (_, i) => ({
    value: `{"id":${i}${body === "" ? "" : `,${body}`}}`,
    headers: { producer, "schema-version": "1.1" },
    partition: i % 2,
  }));

const amountOf = (monitor: RunningMonitor): FieldVerdict =>
  monitor.report().subjects[0]!.fields!.find((f) => f.field === "/amount")!;

describe("diff --monitor against a live monitor on a real broker", () => {
  it("names the removal of /amount as still carried while billing sends it, and as safe once it drained", async () => {
    const { brokers, topic, dir } = await setup();
    const monitor = await startLiveMonitor(`${dir}/config.yaml`);
    await waitFor(() => monitor.health.ready, "partitions to be assigned");
    const diff = (...more: string[]) =>
      runCli([
        "diff",
        `${dir}/pay/1.1.json`,
        `${dir}/proposed/2.0.json`,
        "--monitor",
        monitor.address,
        "--subject",
        "pay",
        ...more,
      ]);

    // Expand: billing sends both names in 3 records of 4, web only the new one.
    await produce(brokers, topic, [
      ...send("billing", 12, `"amount":3,"total":3`),
      ...send("billing", 4, `"total":3`),
      ...send("web", 10, `"total":3`),
    ]);
    await waitFor(() => countedRecords(monitor) === 26, "26 records counted");
    const carried = await diff();
    expect(carried.stderr).toBe("");
    expect(carried.stdout.split("\n").filter((l) => l.includes("live traffic:"))).toEqual([
      "                      live traffic: removes /amount, which live traffic still carries: billing sent it in 75% of its records in the drain window (10s)",
    ]);
    expect(carried.code).toBe(0);

    // Contract: billing stops sending it; a window later the field is drained.
    await produce(brokers, topic, send("billing", 10, `"total":3`));
    await waitFor(() => countedRecords(monitor) === 36, "36 records counted");
    await waitFor(() => amountOf(monitor).yes, "/amount to drain", 30_000);
    const lastCarried = String(amountOf(monitor).evidence["lastCarried"]);
    expect(lastCarried).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\dZ$/);
    const drained = await diff("--format", "json");
    expect(drained.stderr).toBe("");
    const report = JSON.parse(drained.stdout) as { changes: { path: string; live?: unknown }[] };
    expect(report.changes.filter((c) => c.live !== undefined)).toEqual([
      expect.objectContaining({
        kind: "property-removed-open",
        path: "/properties/amount",
        live: {
          field: "/amount",
          state: "drained",
          text: `removes /amount, drained since ${lastCarried}: safe (no record carried it for the whole drain window, 10s, every partition observed)`,
        },
      }),
    ]);
    expect(drained.code).toBe(0);

    // The monitor gone: exit 3, nothing compared.
    await monitor.stop();
    const gone = await diff();
    expect([gone.code, gone.stdout]).toEqual([3, ""]);
    expect(gone.stderr).toMatch(
      /^schemawatch diff: the monitor failed: .*\/api\/status: no answer from a schemawatch monitor/,
    );
  });
});
