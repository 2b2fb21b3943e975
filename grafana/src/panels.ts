import * as common from "@grafana/grafana-foundation-sdk/common";
import {
  MappingType,
  ThresholdsConfigBuilder,
  ThresholdsMode,
} from "@grafana/grafana-foundation-sdk/dashboard";
import type { DataTransformerConfig, ValueMapping } from "@grafana/grafana-foundation-sdk/dashboard";
import * as prometheus from "@grafana/grafana-foundation-sdk/prometheus";
import * as stat from "@grafana/grafana-foundation-sdk/stat";
import * as table from "@grafana/grafana-foundation-sdk/table";
import * as timeseries from "@grafana/grafana-foundation-sdk/timeseries";

/**
 * Every panel and query reads from the dashboard's `datasource` variable, so the dashboard works in any
 * Grafana whatever its Prometheus data source is called; provisioning makes ours the default.
 */
export const DATASOURCE = { type: "prometheus", uid: "${datasource}" } as const;

/** The selectors the dashboard's variables put into every subject- and producer-scoped query. */
export const SUBJECT = 'subject=~"$subject"';
export const PRODUCER = 'producer=~"$producer"';
/** A field's JSON Pointer, as the field series name it (`/amount`). */
export const FIELD = 'field=~"$field"';

/** Said by every panel that breaks validations down per producer, which a monitor may not export. */
export const SUMMED_PRODUCERS =
  " A monitor run with metrics.producerDetail: false exports validations without producers: the producer is then empty and each row sums them all.";

export const VALIDATIONS = `schemawatch_validations_total{${SUBJECT}, ${PRODUCER}}`;
export const FAILED = `schemawatch_validations_total{${SUBJECT}, ${PRODUCER}, result="fail"}`;
/** Passed reads that dropped or defaulted data the writer sent (Avro, Protobuf), by rule in `keyword`. */
export const LOSSES = `schemawatch_validation_losses_total{${SUBJECT}, ${PRODUCER}}`;
export const RECORDS = `schemawatch_records_total{${SUBJECT}, ${PRODUCER}}`;

/** A range query drawn as lines over time. */
export function rangeQuery(refId: string, expr: string, legend: string): prometheus.DataqueryBuilder {
  return new prometheus.DataqueryBuilder()
    .datasource(DATASOURCE)
    .refId(refId)
    .expr(expr)
    .legendFormat(legend)
    .range();
}

/** An instant query whose labels become table columns. */
export function tableQuery(refId: string, expr: string): prometheus.DataqueryBuilder {
  return new prometheus.DataqueryBuilder()
    .datasource(DATASOURCE)
    .refId(refId)
    .expr(expr)
    .format(prometheus.PromQueryFormat.Table)
    .instant();
}

/** An instant query for a single big number. */
export function statQuery(refId: string, expr: string, legend: string): prometheus.DataqueryBuilder {
  return new prometheus.DataqueryBuilder()
    .datasource(DATASOURCE)
    .refId(refId)
    .expr(expr)
    .legendFormat(legend)
    .instant();
}

interface Size {
  readonly id: number;
  readonly title: string;
  readonly description: string;
  readonly w: number;
  readonly h: number;
}

/** Lines over time; `floor` is the y axis' minimum, undefined for values that may be negative. */
export function timeseriesPanel(
  size: Size,
  unit: string,
  floor: number | undefined = 0,
): timeseries.PanelBuilder {
  const panel = new timeseries.PanelBuilder()
    .id(size.id)
    .title(size.title)
    .description(size.description)
    .span(size.w)
    .height(size.h)
    .datasource(DATASOURCE)
    .unit(unit)
    .lineWidth(1)
    .fillOpacity(10)
    .showPoints(common.VisibilityMode.Never)
    .legend(
      new common.VizLegendOptionsBuilder()
        .showLegend(true)
        .displayMode(common.LegendDisplayMode.Table)
        .placement(common.LegendPlacement.Bottom)
        .calcs(["lastNotNull", "max"]),
    )
    .tooltip(
      new common.VizTooltipOptionsBuilder()
        .mode(common.TooltipDisplayMode.Multi)
        .sort(common.SortOrder.Descending),
    );
  return floor === undefined ? panel : panel.min(floor);
}

/** Stacked areas, for shares that add up to the whole traffic. */
export function stackedPanel(size: Size, unit: string): timeseries.PanelBuilder {
  return timeseriesPanel(size, unit)
    .fillOpacity(60)
    .stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal));
}

export function statPanel(size: Size, unit: string): stat.PanelBuilder {
  return new stat.PanelBuilder()
    .id(size.id)
    .title(size.title)
    .description(size.description)
    .span(size.w)
    .height(size.h)
    .datasource(DATASOURCE)
    .unit(unit)
    .graphMode(common.BigValueGraphMode.None)
    .colorMode(common.BigValueColorMode.Background)
    .textMode(common.BigValueTextMode.ValueAndName)
    .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(["lastNotNull"]).values(false));
}

export function tablePanel(size: Size): table.PanelBuilder {
  return new table.PanelBuilder()
    .id(size.id)
    .title(size.title)
    .description(size.description)
    .span(size.w)
    .height(size.h)
    .datasource(DATASOURCE)
    .showHeader(true)
    .filterable(true);
}

/** Green below `warnFrom`, red from it: for rates where anything above zero needs a look. */
export function redFrom(warnFrom: number): ThresholdsConfigBuilder {
  return new ThresholdsConfigBuilder().mode(ThresholdsMode.Absolute).steps([
    { value: null, color: "green" },
    { value: warnFrom, color: "red" },
  ]);
}

/** A 0/1 gauge shown as words, `good` deciding which of the two is green. */
export function yesNo(zero: string, one: string, good: 0 | 1): ValueMapping[] {
  return [
    {
      type: MappingType.ValueToText,
      options: {
        "0": { text: zero, color: good === 0 ? "green" : "orange", index: 0 },
        "1": { text: one, color: good === 1 ? "green" : "orange", index: 1 },
      },
    },
  ];
}

/**
 * Joins a table's instant queries on their common labels into one row per label set, hides the query
 * time and names each query's value column (Grafana calls them "Value #A", "Value #B", ...).
 */
export function mergedTable(valueNames: Readonly<Record<string, string>>): DataTransformerConfig[] {
  return [
    { id: "merge", options: {} },
    { id: "organize", options: { excludeByName: { Time: true }, renameByName: valueNames } },
  ];
}
