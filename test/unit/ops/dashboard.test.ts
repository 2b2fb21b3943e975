import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { DASHBOARD_PATH, buildDashboard, dashboardJson } from "../../../grafana/src/dashboard.js";
import { expandQuery, isRow, panelQueries, variableQueries } from "../../../grafana/src/queries.js";
import { requireTool } from "../../helpers/prometheus.js";

// The committed dashboard is what the code generates, its layout is sound, and every query is PromQL
// that Prometheus parses once Grafana's variables are filled in. Running the queries against a real
// Prometheus scraping the real monitor is test/integration/e2e/alerts.test.ts, with panelQueries() from
// grafana/src/queries.ts.

const dashboard = buildDashboard();
const queries = panelQueries(dashboard);
const scratch = mkdtempSync(join(tmpdir(), "schemawatch-dashboard-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("grafana/dashboards/schemawatch.json", () => {
  it("is what grafana/src/dashboard.ts generates (else run: node grafana/src/build.ts)", () => {
    expect(readFileSync(DASHBOARD_PATH, "utf8")).toBe(dashboardJson());
  });

  it("gives every panel a unique id, a description, the datasource variable and a query", () => {
    const ids = new Set<number>();
    for (const panel of dashboard.panels ?? []) {
      expect(panel.id, panel.title).toBeTypeOf("number");
      expect(ids.has(panel.id ?? -1), `duplicate id ${panel.id}`).toBe(false);
      ids.add(panel.id ?? -1);
      if (isRow(panel)) continue;
      expect(panel.description, panel.title).toBeTruthy();
      expect(panel.datasource, panel.title).toEqual({ type: "prometheus", uid: "${datasource}" });
      const refIds = (panel.targets ?? []).map((t) => (t as { refId?: string }).refId);
      expect(refIds.length, panel.title).toBeGreaterThan(0);
      expect(new Set(refIds).size, `${panel.title}: refIds ${refIds.join(",")}`).toBe(refIds.length);
    }
  });

  it("lays panels out on the 24-column grid without overlaps", () => {
    const boxes = (dashboard.panels ?? []).map((p) => ({ title: p.title ?? "", ...p.gridPos }));
    for (const [i, a] of boxes.entries()) {
      expect((a.x ?? 0) + (a.w ?? 0), a.title).toBeLessThanOrEqual(24);
      for (const b of boxes.slice(i + 1)) {
        const apart =
          (a.x ?? 0) + (a.w ?? 0) <= (b.x ?? 0) ||
          (b.x ?? 0) + (b.w ?? 0) <= (a.x ?? 0) ||
          (a.y ?? 0) + (a.h ?? 0) <= (b.y ?? 0) ||
          (b.y ?? 0) + (b.h ?? 0) <= (a.y ?? 0);
        expect(apart, `${a.title} overlaps ${b.title}`).toBe(true);
      }
    }
  });

  it("reads every metric the deprecation period needs", () => {
    const text = queries.map((q) => q.expr).join("\n");
    for (const metric of [
      "schemawatch_records_total",
      "schemawatch_validations_total",
      "schemawatch_validation_failures_total",
      "schemawatch_validation_losses_total",
      "schemawatch_decode_errors_total",
      "schemawatch_schema_version_info",
      "schemawatch_version_last_seen_timestamp_seconds",
      "schemawatch_sample_ratio",
      "schemawatch_label_overflow_total",
      "schemawatch_consumer_lag_records",
      "schemawatch_broker_up",
      "schemawatch_ready",
      "schemawatch_assigned_partitions",
      "schemawatch_build_info",
      "schemawatch_version_removable",
      "schemawatch_candidate_ready",
      "schemawatch_drain_window_seconds",
      "schemawatch_coverage_gap_total",
      "schemawatch_field_records_total",
      "schemawatch_field_info",
      "schemawatch_field_drained",
      "schemawatch_field_ready",
      "schemawatch_field_quantile",
      "schemawatch_field_findings",
      "schemawatch_field_stats_dropped_total",
      "schemawatch_field_stats_bytes",
      'up{job="schemawatch"}',
    ]) {
      expect(text, metric).toContain(metric);
    }
  });

  it("has only queries that Prometheus parses once Grafana's variables are expanded", () => {
    // promtool has no stand-alone PromQL parser; a rule file of recording rules makes it parse each one
    const expansion = { rateInterval: "1m", range: "1h" };
    const rules = queries.map((q, i) => ({
      record: `dashboard_query_${i}_panel_${q.panelId}_${q.refId}`,
      expr: expandQuery(q.expr, expansion),
    }));
    for (const [i, v] of variableQueries(dashboard).entries()) {
      rules.push({ record: `dashboard_variable_${i}`, expr: expandQuery(v.match, expansion) });
    }
    const file = join(scratch, "dashboard-queries.rules.yaml");
    writeFileSync(file, stringify({ groups: [{ name: "dashboard", rules }] }));
    const result = spawnSync(requireTool("promtool"), ["check", "rules", file], { encoding: "utf8" });
    expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
  });

  it("never sums a replica's field gauges: verdicts as the alert rules read them, the rest at most once", () => {
    // Every replica exports its own field verdicts, findings and quartiles: a sum would count one
    // field once per replica (two replicas' "drained" would read 2).
    const fieldGauges = queries
      .filter((q) => /schemawatch_field_(drained|ready|info|quantile|findings|stats_bytes)\b/.test(q.expr))
      .map(
        (q) =>
          `${q.panelId} ${q.refId}: ${q.expr.match(/(sum|min|max) by \([^)]*\) \(schemawatch_field_(?!records)\w+/g)?.join(" | ") ?? ""}`,
      );
    expect(fieldGauges).toEqual([
      "23 A: min by (subject, field) (schemawatch_field_drained | max by (subject, field) (schemawatch_field_info | min by (subject, field) (schemawatch_field_ready | max by (subject, field) (schemawatch_field_info",
      "26 A: max by (subject, field, producer, measure, quantile) (schemawatch_field_quantile",
      "27 A: max by (subject, field, producer, kind) (schemawatch_field_findings",
      "28 A: max by (subject, field, producer, kind) (schemawatch_field_findings",
      "30 A: max by (instance) (schemawatch_field_stats_bytes",
    ]);
  });

  it("fills the field variable with tracked and profiled fields", () => {
    expect(variableQueries(dashboard).map((v) => [v.name, v.match, v.label])).toEqual([
      ["subject", "schemawatch_schema_version_info", "subject"],
      ["producer", 'schemawatch_records_total{subject=~"$subject"}', "producer"],
      [
        "field",
        '{__name__=~"schemawatch_field_info|schemawatch_field_findings", subject=~"$subject"}',
        "field",
      ],
    ]);
    expect(expandQuery('x{field=~"$field"}', { rateInterval: "1m", range: "1h" })).toBe('x{field=~".*"}');
  });

  it("rejects a query with a Grafana variable it does not know how to expand", () => {
    expect(() => expandQuery('up{job="$job"}', { rateInterval: "1m", range: "1h" })).toThrow(/\$job/);
  });
});
