import { readFile, writeFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { countedRecords, eventTopicConfig, metricValue, startLiveMonitor } from "../../helpers/live.js";
import { produce, waitFor, type TestMessage } from "../../helpers/kafka.js";

// After a prune, through a real broker: a producer that still sends the retired version is the first
// item of the attention summary, a count on /metrics and one warning, whether the version was retired
// before the monitor started or while it ran (as a registry poll or a reload of the YAML brings it).

const BILLING_RETIRED =
  'schemawatch_retired_version_records_total{subject="event",version="1.0.0",producer="billing"}';
/** Known before traffic (no allow-list): at 0 from the start, though no record of it came. */
const UNKNOWN_RETIRED =
  'schemawatch_retired_version_records_total{subject="event",version="1.0.0",producer="unknown"}';

const v10 = (n: number, producer: string): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    value: JSON.stringify({ id: i, event: "view" }),
    headers: { producer, "schema-version": "event/1.0" },
  }));
const v11 = (n: number, producer: string): TestMessage[] =>
  Array.from({ length: n }, (_, i) => ({
    value: JSON.stringify({ id: i, event: "buy", amount: 2 }),
    headers: { producer, "schema-version": "event/1.1" },
  }));

/** A monitor of a fresh topic whose warnings are kept in `warnings`; `retire` edits its config. */
async function monitorOf(status: "deprecated" | "retired") {
  const setup = await eventTopicConfig({ prefix: "sw-retired", partitions: 2, drainWindow: "1h" });
  const retire = async () => {
    const text = await readFile(setup.configPath, "utf8");
    await writeFile(
      setup.configPath,
      text.replace('"1.0.0": { status: deprecated }', '"1.0.0": { status: retired }'),
    );
  };
  if (status === "retired") await retire();
  const warnings: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      warnings.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const monitor = await startLiveMonitor(setup.configPath, {}, { logger: createLogger("warn", sink) });
  await waitFor(() => monitor.health.ready, "the partitions to be assigned");
  return { ...setup, monitor, warnings, retire };
}

async function scrape(monitor: RunningMonitor): Promise<string> {
  return (await fetch(`${monitor.address}/metrics`)).text();
}

const stillSends = (warnings: ReadonlyArray<Record<string, unknown>>) =>
  warnings
    .filter((w) => String(w["msg"]).includes(" still sends "))
    .map((w) => [w["msg"], w["producer"], w["records"]]);

describe("a retired version still sent, through a real broker", () => {
  it("retired in the config before the start: first in the attention summary, counted per producer, warned once", async () => {
    const { brokers, topic, monitor, warnings } = await monitorOf("retired");
    await produce(brokers, topic, [...v10(3, "billing"), ...v11(4, "web")]);
    await waitFor(() => countedRecords(monitor) === 7, "7 records");
    const report = monitor.report();
    expect(report.subjects[0]!.retiredTraffic.map(({ last: _last, ...r }) => r)).toEqual([
      { version: "1.0.0", producer: "billing", records: 3, retiredAt: null },
    ]);
    const last = report.subjects[0]!.retiredTraffic[0]!.last;
    expect(report.attention[0]).toMatchObject({
      level: "act",
      kind: "retired-traffic",
      what: `producer billing still sends event 1.0.0, which is retired: 3 records, the last at ${last}`,
    });
    const text = await scrape(monitor);
    expect(metricValue(text, BILLING_RETIRED)).toBe(3);
    expect(metricValue(text, UNKNOWN_RETIRED)).toBe(0);
    // web sent only 1.1.0: no series of its own
    expect(text).not.toContain('version="1.0.0",producer="web"');

    await produce(brokers, topic, v10(2, "billing"));
    await waitFor(() => countedRecords(monitor) === 9, "9 records");
    expect(metricValue(await scrape(monitor), BILLING_RETIRED)).toBe(5);
    monitor.report();
    expect(stillSends(warnings)).toEqual([
      ["producer billing still sends event 1.0.0, which is retired", "billing", 3],
    ]);
  });

  it("retired while the monitor runs: only the records after the retirement count, and the date is said", async () => {
    const { brokers, topic, monitor, warnings, retire } = await monitorOf("deprecated");
    await produce(brokers, topic, v10(4, "billing"));
    await waitFor(() => countedRecords(monitor) === 4, "4 records of the deprecated version");
    expect(monitor.report().attention.filter((a) => a.kind === "retired-traffic")).toEqual([]);

    const before = Date.now();
    await retire();
    expect(await monitor.reload()).toEqual({ ok: true });
    const status = monitor.report().subjects[0]!.versions.find((v) => v.version === "1.0.0")!.status;
    expect(status).toBe("retired");
    expect(metricValue(await scrape(monitor), BILLING_RETIRED)).toBe(0);

    await produce(brokers, topic, [...v10(3, "billing"), ...v11(2, "web")]);
    await waitFor(() => countedRecords(monitor) === 9, "9 records");
    const report = monitor.report();
    const [entry] = report.subjects[0]!.retiredTraffic;
    expect(entry).toMatchObject({ version: "1.0.0", producer: "billing", records: 3 });
    const retiredAt = Date.parse(entry!.retiredAt!);
    expect(retiredAt).toBeGreaterThanOrEqual(before);
    expect(retiredAt).toBeLessThanOrEqual(Date.now());
    const minute = new Date(retiredAt).toISOString().slice(0, 16);
    expect(report.attention[0]!.what).toBe(
      `producer billing still sends event 1.0.0, retired on ${minute}Z: 3 records since, the last at ${entry!.last}`,
    );
    expect(metricValue(await scrape(monitor), BILLING_RETIRED)).toBe(3);
    expect(stillSends(warnings)).toEqual([
      [`producer billing still sends event 1.0.0, retired on ${minute}Z`, "billing", 3],
    ]);
  });
});
