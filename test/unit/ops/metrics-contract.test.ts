import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildDashboard } from "../../../grafana/src/dashboard.js";
import { panelQueries } from "../../../grafana/src/queries.js";
import { METRICS } from "../../../src/metrics/definitions.js";

// Alerts and dashboards name metrics as text; src/metrics/definitions.ts is where they are declared.
// A rename there must fail here, not silently empty a panel or mute an alert. That the monitor serves
// each declared metric with its declared labels is test/integration/ops/prometheus.test.ts (a real Prometheus
// scraping a real monitor).

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

  it("keep the labels the rules expect for the lifecycle metrics, which are declared now", () => {
    for (const [name, labels] of Object.entries(LIFECYCLE)) {
      expect([...(declared.get(name) ?? ["(not declared)"])].sort(), name).toEqual([...labels].sort());
    }
  });
});
