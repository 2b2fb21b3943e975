import type { Dashboard, Panel, RowPanel } from "@grafana/grafana-foundation-sdk/dashboard";

/** One PromQL query of one panel, as an end-to-end test runs it against a real Prometheus. */
export interface PanelQuery {
  readonly panelId: number;
  readonly panelTitle: string;
  readonly refId: string;
  readonly expr: string;
  /** true for table and stat queries, which Grafana sends to /api/v1/query rather than query_range */
  readonly instant: boolean;
}

/** A `label_values(metric{...}, label)` variable, which Grafana runs as a label-values API call. */
export interface VariableQuery {
  readonly name: string;
  readonly match: string;
  readonly label: string;
}

/** Rows hold no queries of their own; their `panels` are the collapsed row's content. */
export function isRow(panel: Panel | RowPanel): panel is RowPanel {
  return panel.type === "row";
}

/** Every panel's every query, rows' nested panels included, in dashboard order. */
export function panelQueries(dashboard: Dashboard): PanelQuery[] {
  const panels = (dashboard.panels ?? []).flatMap((p) => (isRow(p) ? p.panels : [p]));
  return panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => {
      const query = target as { refId?: string; expr?: string; instant?: boolean };
      if (typeof query.expr !== "string" || typeof query.refId !== "string") {
        throw new Error(`panel ${panel.id ?? "?"} "${panel.title ?? ""}" has a target without expr or refId`);
      }
      return {
        panelId: panel.id ?? -1,
        panelTitle: panel.title ?? "",
        refId: query.refId,
        expr: query.expr,
        instant: query.instant === true,
      };
    }),
  );
}

/** The dashboard's query variables in the form Prometheus' /api/v1/label/NAME/values takes them. */
export function variableQueries(dashboard: Dashboard): VariableQuery[] {
  return (dashboard.templating?.list ?? []).flatMap((variable) => {
    if (variable.type !== "query") return [];
    const text = typeof variable.query === "string" ? variable.query : "";
    const parsed = /^label_values\((.+),\s*(\w+)\)$/.exec(text);
    if (parsed === null)
      throw new Error(`variable ${variable.name}: expected label_values(...), got ${text}`);
    return [{ name: variable.name, match: parsed[1] ?? "", label: parsed[2] ?? "" }];
  });
}

export interface Expansion {
  /** what Grafana would put for $__rate_interval: at least four scrape intervals */
  readonly rateInterval: string;
  /** what Grafana would put for $__range: the dashboard's time range */
  readonly range: string;
}

/**
 * Replaces Grafana's variables the way the dashboard uses them with "All" selected, so that the text
 * can be sent to Prometheus as it is. Any other `$name` left over is an error: a query Prometheus would
 * reject or, worse, read differently.
 */
export function expandQuery(expr: string, expansion: Expansion): string {
  const expanded = expr
    .replaceAll("$__rate_interval", expansion.rateInterval)
    .replaceAll("$__range", expansion.range)
    .replaceAll('=~"$subject"', '=~".*"')
    .replaceAll('=~"$producer"', '=~".*"')
    .replaceAll('=~"$field"', '=~".*"');
  // label_replace's "$1" is Prometheus' own capture group reference, not a Grafana variable
  const leftover = /\$(?!1")[{\w]+/.exec(expanded);
  if (leftover !== null) throw new Error(`unexpanded Grafana variable ${leftover[0]} in: ${expr}`);
  return expanded;
}
