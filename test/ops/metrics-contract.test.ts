import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildDashboard } from "../../grafana/src/dashboard.js";
import { panelQueries } from "../../grafana/src/queries.js";
import { METRICS } from "../../src/metrics/definitions.js";
import { FAKE_FAMILIES } from "./fake-schemawatch.js";

// Alerts and dashboards name metrics as text; src/metrics/definitions.ts is where they are declared.
// A rename there must fail here, not silently empty a panel or mute an alert.

/** Lifecycle metrics (issue 5) that the rules and the dashboard use before src/metrics declares them. */
const LIFECYCLE: Readonly<Record<string, readonly string[]>> = {
  schemawatch_version_removable: ["subject", "version"],
  schemawatch_candidate_ready: ["subject", "version"],
  schemawatch_drain_window_seconds: ["subject"],
  schemawatch_coverage_gap_total: ["topic"],
};

const declared = new Map<string, readonly string[]>(Object.values(METRICS).map((m) => [m.name, m.labels]));

/** Metric names in PromQL text; recorded series (`level:metric:operation`) are left out. */
function metricNames(text: string): string[] {
  return [...new Set(text.match(/\bschemawatch_[a-z0-9_]+\b(?!:)/g) ?? [])];
}

describe("metric names in the rules and the dashboard", () => {
  it("are declared in src/metrics/definitions.ts or are the lifecycle metrics of issue 5", () => {
    const rules = readFileSync("deploy/prometheus/schemawatch.rules.yaml", "utf8");
    const dashboard = panelQueries(buildDashboard())
      .map((q) => q.expr)
      .join("\n");
    const unknown = metricNames(`${rules}\n${dashboard}`).filter(
      (n) => !declared.has(n) && !(n in LIFECYCLE),
    );
    expect(unknown).toEqual([]);
  });

  it("keep the labels the rules expect for lifecycle metrics once they are declared", () => {
    for (const [name, labels] of Object.entries(LIFECYCLE)) {
      const actual = declared.get(name);
      if (actual !== undefined) expect([...actual].sort(), name).toEqual([...labels].sort());
    }
  });

  it("are served by the fake target with the declared labels", () => {
    const fake = new Map(FAKE_FAMILIES.map((f) => [f.name, f]));
    for (const metric of Object.values(METRICS)) {
      const served = fake.get(metric.name);
      expect(served, `fake-schemawatch.ts does not serve ${metric.name}`).toBeDefined();
      expect([...(served?.labels ?? [])].sort(), metric.name).toEqual([...metric.labels].sort());
      expect(served?.type, metric.name).toBe(metric.type);
    }
    for (const [name, labels] of Object.entries(LIFECYCLE)) {
      expect([...(fake.get(name)?.labels ?? [])].sort(), name).toEqual([...labels].sort());
    }
  });
});
