import {
  DashboardBuilder,
  DashboardCursorSync,
  DatasourceVariableBuilder,
  QueryVariableBuilder,
  VariableRefresh,
  VariableSort,
} from "@grafana/grafana-foundation-sdk/dashboard";
import type { Dashboard } from "@grafana/grafana-foundation-sdk/dashboard";
import { DATASOURCE, SUBJECT } from "./panels.js";
import { fieldStatistics, fields } from "./sections/fields.js";
import { health, input } from "./sections/health.js";
import { candidates, deprecation } from "./sections/lifecycle.js";
import { traffic, wouldFail } from "./sections/traffic.js";

/** Where `node grafana/src/build.ts` writes the dashboard, relative to the repository root. */
export const DASHBOARD_PATH = "grafana/dashboards/schemawatch.json";
/** The Helm chart's copy, for its dashboard ConfigMap (a chart reads files inside its own folder only). */
export const CHART_DASHBOARD_PATH = "deploy/helm/schemawatch/files/schemawatch-dashboard.json";

function variables(builder: DashboardBuilder): DashboardBuilder {
  return builder
    .withVariable(new DatasourceVariableBuilder("datasource").label("Data source").type("prometheus"))
    .withVariable(
      new QueryVariableBuilder("subject")
        .label("Subject")
        .datasource(DATASOURCE)
        .query("label_values(schemawatch_schema_version_info, subject)")
        .refresh(VariableRefresh.OnTimeRangeChanged)
        .sort(VariableSort.AlphabeticalAsc)
        .multi(true)
        .includeAll(true)
        .allValue(".*")
        .current({ selected: true, text: "All", value: "$__all" }),
    )
    .withVariable(
      new QueryVariableBuilder("producer")
        .label("Producer")
        .datasource(DATASOURCE)
        .query(`label_values(schemawatch_records_total{${SUBJECT}}, producer)`)
        .refresh(VariableRefresh.OnTimeRangeChanged)
        .sort(VariableSort.AlphabeticalAsc)
        .multi(true)
        .includeAll(true)
        .allValue(".*")
        .current({ selected: true, text: "All", value: "$__all" }),
    )
    .withVariable(
      // Tracked fields (schemawatch_field_info) and profiled ones (schemawatch_field_findings, a series
      // per profiled field even without a finding): the two rows read different sets of fields.
      new QueryVariableBuilder("field")
        .label("Field")
        .datasource(DATASOURCE)
        .query(
          `label_values({__name__=~"schemawatch_field_info|schemawatch_field_findings", ${SUBJECT}}, field)`,
        )
        .refresh(VariableRefresh.OnTimeRangeChanged)
        .sort(VariableSort.AlphabeticalAsc)
        .multi(true)
        .includeAll(true)
        .allValue(".*")
        .current({ selected: true, text: "All", value: "$__all" }),
    );
}

/** The deprecation-period dashboard, built fresh on every call. */
export function buildDashboard(): Dashboard {
  let builder = new DashboardBuilder("schemawatch: deprecation period")
    .uid("schemawatch-deprecation")
    .description(
      "Live traffic against every version of each schema (JSON Schema, Avro, Protobuf): who sends what, what would break or lose data, what can go.",
    )
    .tags(["schemawatch", "kafka", "json-schema", "avro", "protobuf"])
    .editable()
    .tooltip(DashboardCursorSync.Crosshair)
    .refresh("30s")
    .time({ from: "now-24h", to: "now" })
    .timezone("browser");
  for (const section of [
    variables,
    traffic,
    wouldFail,
    deprecation,
    candidates,
    fields,
    fieldStatistics,
    input,
    health,
  ]) {
    builder = section(builder);
  }
  return builder.build();
}

/** The exact text of grafana/dashboards/schemawatch.json. */
export function dashboardJson(): string {
  return `${JSON.stringify(buildDashboard(), null, 2)}\n`;
}
