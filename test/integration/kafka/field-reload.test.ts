import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import { waitFor } from "../../helpers/kafka.js";
import { metricValue, startLiveMonitor } from "../../helpers/live.js";
import { countedProducer, paySend, payTopic } from "../../helpers/pay-topic.js";

// A config reload changes the tracked fields of a running monitor: the fields it no longer names
// leave, those it adds join with evidence from then on, and the others keep every count.

const series = (field: string, presence: string) =>
  `schemawatch_field_records_total{subject="pay",field="${field}",producer="billing",writer_version="1.1.0",presence="${presence}"}`;

const scrape = async (monitor: RunningMonitor) => (await fetch(`${monitor.address}/metrics`)).text();

const tracked = (monitor: RunningMonitor) =>
  (monitor.report().subjects[0]!.fields ?? []).map((f) => f.field).sort();

const verdict = (monitor: RunningMonitor, pointer: string) =>
  monitor.report().subjects[0]!.fields!.find((f) => f.field === pointer);

describe("fields on reload, through a real broker", () => {
  it("a reload adds /memo and drops /note: /amount and /total keep their counts, /memo's verdict says its evidence begins at the reload", async () => {
    const { brokers, topic, configPath } = await payTopic({
      prefix: "sw-field-reload",
      window: "1h",
      deprecated: true,
      subject: "    fields:\n      add: [/note]\n",
    });
    const monitor = await startLiveMonitor(configPath);
    await waitFor(() => monitor.health.ready, "partitions to be assigned");
    const produced = countedProducer(brokers, topic, monitor);

    await produced(paySend("billing", 10, `"amount":3,"total":3,"note":"a"`));
    await waitFor(() => tracked(monitor).length === 3, "three fields judged");
    expect(tracked(monitor)).toEqual(["/amount", "/note", "/total"]);
    const before = await scrape(monitor);
    expect(metricValue(before, series("/amount", "present"))).toBe(10);
    expect(metricValue(before, series("/total", "present"))).toBe(10);
    expect(metricValue(before, series("/note", "present"))).toBe(10);

    const config = await readFile(configPath, "utf8");
    await writeFile(configPath, config.replace("add: [/note]", "add: [/memo]"));
    const reloadedAt = Date.now();
    expect(await monitor.reload()).toEqual({ ok: true });

    const after = await scrape(monitor);
    expect(metricValue(after, series("/amount", "present"))).toBe(10);
    expect(metricValue(after, series("/total", "present"))).toBe(10);
    expect(metricValue(after, series("/note", "present"))).toBeUndefined();
    expect(metricValue(after, series("/memo", "present"))).toBe(0);
    expect(metricValue(after, series("/memo", "absent"))).toBe(0);

    await produced(paySend("billing", 4, `"total":3,"memo":"b"`));
    const counted = await scrape(monitor);
    expect(metricValue(counted, series("/amount", "present"))).toBe(10);
    expect(metricValue(counted, series("/amount", "absent"))).toBe(4);
    expect(metricValue(counted, series("/total", "present"))).toBe(14);
    expect(metricValue(counted, series("/memo", "present"))).toBe(4);
    expect(metricValue(counted, series("/memo", "absent"))).toBe(0);

    // The lifecycle sees the new field at its next look (once a second): its evidence begins then.
    await waitFor(() => tracked(monitor).includes("/memo"), "/memo judged");
    expect(tracked(monitor)).toEqual(["/amount", "/memo", "/total"]);
    const memo = verdict(monitor, "/memo")!;
    expect(memo.yes).toBe(false);
    // Its evidence begins when the lifecycle first saw it tracked, after the reload; the verdict says
    // so, to the minute.
    const since = monitor.lifecycle.lifecycle.fields.trackedSince("pay", "/memo");
    expect(since).toBeGreaterThanOrEqual(reloadedAt);
    expect(since).toBeLessThanOrEqual(Date.now());
    const minute = (ms: number) => new Date(ms).toISOString().replace(/:\d\d\.\d{3}Z$/, "Z");
    expect(memo.reasons.filter((r) => r.startsWith("field evidence begins at "))).toEqual([
      `field evidence begins at ${minute(since)}, when this monitor started without saved field evidence or began to track the field: the window completes at ${minute(since + 3_600_000)}`,
    ]);
    expect(monitor.lifecycle.lifecycle.fields.trackedSince("pay", "/total")).toBe(Number.NEGATIVE_INFINITY);
    // The kept fields' evidence did not begin again.
    expect(verdict(monitor, "/total")!.reasons.some((r) => r.startsWith("field evidence begins"))).toBe(
      false,
    );
  });

  it("a reload that changes fields.replaces is refused, naming the subject, and the fields stay as they were", async () => {
    const { configPath } = await payTopic({
      prefix: "sw-field-reload",
      window: "1h",
      deprecated: false,
      subject: "    fields:\n      replaces: { /total: /amount }\n",
    });
    const monitor = await startLiveMonitor(configPath);
    await waitFor(() => tracked(monitor).length === 2, "two fields judged");
    const config = await readFile(configPath, "utf8");
    await writeFile(configPath, config.replace("replaces: { /total: /amount }", "add: [/total]"));
    expect(await monitor.reload()).toEqual({
      ok: false,
      problem:
        "the fields.replaces of subject pay changed: restart the monitor to apply that (fields.add and fields.exclude apply on reload)",
    });
    expect(monitor.report().subjects[0]!.renames?.map((r) => [r.field, r.replacement])).toEqual([
      ["/amount", "/total"],
    ]);
  });
});
