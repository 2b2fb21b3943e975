import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard } from "../../grafana/src/dashboard.js";
import { expandQuery, panelQueries, variableQueries } from "../../grafana/src/queries.js";
import { startPrometheus } from "../helpers/prometheus.js";
import type { RunningPrometheus } from "../helpers/prometheus.js";
import { FAKE_METRIC_NAMES, startFakeSchemawatch } from "./fake-schemawatch.js";
import type { FakeTarget } from "./fake-schemawatch.js";

// Proves test/helpers/prometheus.ts against a real Prometheus that scrapes a fake schemawatch (a fixed
// exposition served by node:http, see fake-schemawatch.ts) with the project's rules loaded, and runs
// every dashboard query on what it scraped. Phase 2 does the same against the real monitor.

const RULES = "deploy/prometheus/schemawatch.rules.yaml";
// four scrape intervals of 1 s, as Grafana's $__rate_interval would be, with room for a late scrape
const EXPANSION = { rateInterval: "5s", range: "1m" };

let fake: FakeTarget | undefined;
let prometheus: RunningPrometheus | undefined;

function running(): RunningPrometheus {
  if (prometheus === undefined) throw new Error("prometheus did not start");
  return prometheus;
}

beforeAll(async () => {
  fake = await startFakeSchemawatch();
  prometheus = await startPrometheus({ targets: [fake.address], ruleFiles: [RULES] });
  // rate() over 5 s needs at least two scrapes inside the window
  await prometheus.waitFor("two scrapes of the fake target", async () => {
    const samples = await running().query("count(rate(schemawatch_records_total[5s]))");
    return (samples[0]?.value ?? 0) > 0 ? true : undefined;
  });
}, 60_000);

afterAll(async () => {
  await prometheus?.stop();
  await fake?.stop();
});

describe("test/helpers/prometheus.ts against a fake schemawatch target", () => {
  it("scrapes the target under the job name the rules expect", async () => {
    const targets = await running().targets();
    expect(targets.map((t) => [t.labels["job"], t.health])).toEqual([["schemawatch", "up"]]);
    const up = await running().query('up{job="schemawatch"}');
    expect(up.map((s) => s.value)).toEqual([1]);
  });

  it("answers scalar queries and reports query errors", async () => {
    expect(await running().query("1 + 1")).toEqual([{ metric: {}, value: 2 }]);
    await expect(running().query("sum(")).rejects.toThrow(/bad_data/);
  });

  it("evaluates the project's rules: forward incompatibility pending, quiet alerts absent", async () => {
    const alerts = await running().waitFor("the forward-incompatibility alert", async () => {
      const all = await running().alerts();
      return all.some((a) => a.labels["alertname"] === "SchemawatchForwardIncompatibleTraffic")
        ? all
        : undefined;
    });
    const forward = alerts.filter((a) => a.labels["alertname"] === "SchemawatchForwardIncompatibleTraffic");
    // `for: 10m` keeps it pending for the length of a test; pending proves the expression matched
    expect(forward.map((a) => [a.state, a.labels["subject"], a.labels["reader_version"]])).toEqual([
      ["pending", "event", "1.0.0"],
    ]);
    const names = new Set(alerts.map((a) => a.labels["alertname"]));
    for (const quiet of [
      "SchemawatchDown",
      "SchemawatchAbsent",
      "SchemawatchNotReady",
      "SchemawatchProducerNonConformant",
      "SchemawatchCandidateReady",
      "SchemawatchConsumerLagging",
    ]) {
      expect(names.has(quiet), quiet).toBe(false);
    }
    // backward failures against candidate 2.0.0 are the readiness story, not an alert
    expect(names.has("SchemawatchBackwardIncompatibleTraffic")).toBe(false);
  });

  it("records the would-fail ratio with the sum-then-divide rule", async () => {
    const ratio = await running().waitFor("the recorded forward ratio", async () => {
      const samples = await running().query(
        'schemawatch:validations_fail:ratio_rate5m{direction="forward",reader_version="1.0.0"}',
      );
      return samples.length > 0 ? samples : undefined;
    });
    // checkout's records fail the closed 1.0.0 three times in ten (fake-schemawatch.ts)
    expect(ratio[0]?.value).toBeCloseTo(0.3, 6);
  });

  it("runs every dashboard query without error and gets series back", async () => {
    const known = new Set(await running().labelValues("__name__"));
    for (const name of FAKE_METRIC_NAMES) expect(known.has(name), name).toBe(true);
    const failures: string[] = [];
    for (const query of panelQueries(buildDashboard())) {
      const expr = expandQuery(query.expr, EXPANSION);
      const where = `panel ${query.panelId} "${query.panelTitle}" ${query.refId}`;
      for (const name of expr.match(/\b(?:schemawatch|process|nodejs)_[a-z0-9_]+/g) ?? []) {
        if (!known.has(name)) failures.push(`${where}: unknown metric ${name}`);
      }
      try {
        const samples = await running().query(expr);
        if (samples.length === 0) failures.push(`${where}: no series (${expr})`);
      } catch (error) {
        failures.push(`${where}: ${String(error)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("finds values for every dashboard variable", async () => {
    for (const variable of variableQueries(buildDashboard())) {
      const match = expandQuery(variable.match, EXPANSION);
      expect(await running().labelValues(variable.label, match), variable.name).not.toEqual([]);
    }
  });
});
