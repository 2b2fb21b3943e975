import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readFile } from "node:fs/promises";
import { createLogger } from "../../../src/log.js";
import { METRICS } from "../../../src/metrics/definitions.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import { startPrometheus } from "../../helpers/prometheus.js";
import type { RunningPrometheus } from "../../helpers/prometheus.js";

// Proves test/helpers/prometheus.ts against a real Prometheus scraping a real monitor, started
// in-process on the bundled capture (examples/traffic/events.ndjson) with the project's rules loaded,
// and checks what Prometheus stores of the monitor against src/metrics/definitions.ts: every declared
// metric with exactly its declared labels and type. The rules firing on live traffic through a real
// broker, and every dashboard query's values, are test/integration/e2e/alerts.test.ts.

const RULES = "deploy/prometheus/schemawatch.rules.yaml";

/**
 * Declared metrics that a monitor reading a capture has no series of, each with the reason. A metric
 * that appears, or one more that goes missing, fails the test.
 */
const NOT_FROM_A_CAPTURE: Readonly<Record<string, string>> = {
  schemawatch_consumer_lag_records: "measured from a Kafka consumer group's offsets",
  schemawatch_open_transaction_records: "measured with the lag, from the partitions' ends on the brokers",
  schemawatch_open_transaction_age_seconds: "measured with the lag, from the partitions' ends on the brokers",
  schemawatch_registry_up: "only for a catalog that follows a schema registry",
  schemawatch_registry_last_success_timestamp_seconds: "only for a catalog that follows a schema registry",
  schemawatch_registry_id_lookups_total: "only for a catalog that follows a schema registry",
  schemawatch_registry_id_lookups_skipped_total: "only for a catalog that follows a schema registry",
  schemawatch_registry_versions_retired_total: "only for a catalog that follows a schema registry",
  schemawatch_retired_version_records_total: "only for a catalog with a retired version",
  schemawatch_field_drained: "only for a catalog with a version that deprecates a field",
  schemawatch_field_rename_records_total: "only for a subject whose config names a rename (fields.replaces)",
  schemawatch_validation_losses_total:
    "only for a reader that drops or defaults data (Avro, Protobuf): JSON Schema reads lose nothing",
};

let monitor: RunningMonitor | undefined;
let prometheus: RunningPrometheus | undefined;

function running(): { monitor: RunningMonitor; prometheus: RunningPrometheus } {
  if (monitor === undefined || prometheus === undefined) throw new Error("the stack did not start");
  return { monitor, prometheus };
}

beforeAll(async () => {
  monitor = await startMonitor({
    configPath: resolve("examples/config.yaml"),
    source: { file: resolve("examples/traffic/events.ndjson") },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-prometheus",
    logger: createLogger("silent"),
  });
  await monitor.replayed;
  prometheus = await startPrometheus({ targets: [new URL(monitor.address).host], ruleFiles: [RULES] });
  const prom = prometheus;
  await prom.waitFor("a scrape of the monitor", async () => {
    const samples = await prom.query("schemawatch_build_info");
    return samples.length > 0 ? samples : undefined;
  });
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  await monitor?.stop();
});

describe("test/helpers/prometheus.ts against a real monitor that read a capture", () => {
  it("scrapes the monitor under the job name the rules expect", async () => {
    const { prometheus: prom, monitor: mon } = running();
    const targets = await prom.targets();
    expect(targets.map((t) => [t.labels["job"], t.labels["instance"], t.health])).toEqual([
      ["schemawatch", new URL(mon.address).host, "up"],
    ]);
    const up = await prom.query('up{job="schemawatch"}');
    expect(up.map((s) => s.value)).toEqual([1]);
  });

  it("answers scalar queries and reports query errors", async () => {
    const { prometheus: prom } = running();
    expect(await prom.query("1 + 1")).toEqual([{ metric: {}, value: 2 }]);
    await expect(prom.query("sum(")).rejects.toThrow(/bad_data/);
  });

  it("returns the capture's exact counts, and label values as Grafana asks for them", async () => {
    const { prometheus: prom } = running();
    const records = await prom.query("sum by (producer, writer_version) (schemawatch_records_total) > 0");
    expect(
      records.map((s) => `${s.metric["producer"]} ${s.metric["writer_version"]} ${s.value}`).sort(),
    ).toEqual([
      "billing 1.1.0 40",
      "billing unknown 2",
      "legacy-batch none 21",
      "mobile 1.1.0 40",
      "partner-feed 1.1.0 20",
      "web 1.0.0 81",
    ]);
    expect(await prom.labelValues("producer", "schemawatch_records_total")).toEqual([
      "billing",
      "legacy-batch",
      "mobile",
      "partner-feed",
      "unknown",
      "web",
    ]);
  });

  it("loads every rule of the project and evaluates each without error", async () => {
    const { prometheus: prom } = running();
    const file = parse(await readFile(RULES, "utf8")) as {
      groups: { rules: { alert?: string; record?: string }[] }[];
    };
    const names = file.groups.flatMap((g) => g.rules.map((r) => r.alert ?? r.record)).sort();
    const rules = await prom.waitFor("every rule evaluated", async () => {
      const all = (await prom.rules()).flatMap((g) => g.rules);
      return all.every((r) => r.health !== "unknown") ? all : undefined;
    });
    expect(rules.map((r) => r.name).sort()).toEqual(names);
    expect(rules.filter((r) => r.health !== "ok").map((r) => `${r.name}: ${r.lastError ?? ""}`)).toEqual([]);
  });

  it("stores every declared metric with exactly its declared labels and type", async () => {
    const { prometheus: prom } = running();
    const types = await prom.metricTypes();
    const absent: string[] = [];
    const wrong: string[] = [];
    for (const metric of Object.values(METRICS)) {
      const samples = await prom.query(`{__name__="${metric.name}"}`);
      if (samples.length === 0) {
        absent.push(metric.name);
        continue;
      }
      const declared = [...metric.labels].sort().join(",");
      for (const sample of samples) {
        const labels = Object.keys(sample.metric)
          .filter((l) => !["__name__", "job", "instance"].includes(l))
          .sort()
          .join(",");
        if (labels !== declared) wrong.push(`${metric.name}: labels ${labels}, declared ${declared}`);
      }
      if (types[metric.name] !== metric.type)
        wrong.push(`${metric.name}: type ${types[metric.name]}, declared ${metric.type}`);
    }
    expect(wrong).toEqual([]);
    expect(absent.sort()).toEqual(Object.keys(NOT_FROM_A_CAPTURE).sort());
  });
});
