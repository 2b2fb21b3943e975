import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { produce, waitFor } from "../../helpers/kafka.js";
import { countedRecords, eventTopicConfig, startLiveMonitor } from "../../helpers/live.js";

interface Traffic {
  readonly versions: readonly { producer: string; version: string; records: number[] }[];
}

/** Records per (producer, version) over the window, as the page's JSON gives them. */
async function totals(monitor: RunningMonitor): Promise<string[]> {
  const { traffic } = (await (await fetch(`${monitor.address}/subjects/event/history`)).json()) as {
    traffic?: Traffic;
  };
  return (traffic?.versions ?? []).map(
    (l) => `${l.producer} ${l.version} ${l.records.reduce((a, b) => a + b, 0)}`,
  );
}

const records = (n: number, producer: string, version: string) =>
  Array.from({ length: n }, (_, i) => ({
    value: JSON.stringify({ id: i, event: "view" }),
    headers: { producer, "schema-version": `event/${version}` },
  }));

describe("the charts' history through a restart", () => {
  it("is saved in the state file at stop and drawn again after the restart, with what came since", async () => {
    // The default drain window, 7 days: the page's charts span it.
    const { brokers, topic, dir, configPath } = await eventTopicConfig({
      prefix: "sw-history",
      partitions: 1,
      drainWindow: "7d",
    });
    const first = await startLiveMonitor(configPath);
    await waitFor(() => first.health.ready, "partitions to be assigned");
    await produce(brokers, topic, records(10, "billing", "1.0"));
    await waitFor(() => countedRecords(first) === 10, "10 records");
    expect(await totals(first)).toEqual(["billing 1.0.0 10"]);
    await first.stop();
    const saved = JSON.parse(await readFile(`${dir}/.schemawatch-state.json`, "utf8")) as {
      history: { subjects: { subject: string; versions: { records: number[] }[] }[] };
    };
    expect(saved.history.subjects.map((s) => [s.subject, s.versions.map((l) => l.records.at(-1))])).toEqual([
      ["event", [10]],
    ]);

    const second = await startLiveMonitor(configPath);
    await waitFor(() => second.health.ready, "partitions to be assigned");
    await produce(brokers, topic, records(5, "billing", "1.1"));
    await waitFor(() => countedRecords(second) === 5, "the 5 new records");
    // A 7-day window in buckets of 3.5 hours: both runs' records are in it.
    expect(await totals(second)).toEqual(["billing 1.0.0 10", "billing 1.1.0 5"]);
  });
});
