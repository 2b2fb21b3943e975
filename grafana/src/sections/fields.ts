import * as common from "@grafana/grafana-foundation-sdk/common";
import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import {
  FIELD,
  PRODUCER,
  SUBJECT,
  mergedTable,
  rangeQuery,
  redFrom,
  statPanel,
  statQuery,
  tablePanel,
  tableQuery,
  timeseriesPanel,
  yesNo,
} from "../panels.js";

const FIELDS = `schemawatch_field_records_total{${SUBJECT}, ${PRODUCER}, ${FIELD}}`;
const byField = "subject, field, producer";
const byWriter = "subject, field, producer, writer_version";

// A field verdict is announced once no replica disagrees (min, as the alert rules read it), and only
// for the field's current kind; label_replace names which verdict a row is, so that one table holds
// the deprecated fields' drains and the optional fields' readiness to be required.
const verdictOf = (gauge: string, kind: string, name: string) =>
  `label_replace(min by (subject, field) (${gauge}{${SUBJECT}, ${FIELD}})` +
  ` and on (subject, field) max by (subject, field) (schemawatch_field_info{${SUBJECT}, ${FIELD}, kind="${kind}"}),` +
  ` "verdict", "${name}", "", "")`;

/** Per subject and field: drained or ready to require, and who still sends (or omits) it. */
export function fields(builder: DashboardBuilder): DashboardBuilder {
  const present = (range: string) =>
    `sum by (${byWriter}) (increase(schemawatch_field_records_total{${SUBJECT}, ${PRODUCER}, ${FIELD}, presence="${range}"}[$__range]))`;
  return builder
    .withRow(new RowBuilder("Fields: expand, contract, make required").id(106))
    .withPanel(
      tablePanel({
        id: 23,
        title: "Field verdicts",
        description:
          "A deprecated field is drained when no record carried it (and none could not be read) for the whole drain window, every partition observed: it can be removed in the next major. An optional field is ready to require when every producer sent it in every record for the ready window. `schemawatch readiness --subject S --field POINTER` says why not yet.",
        w: 10,
        h: 8,
      })
        .withTarget(
          tableQuery(
            "A",
            `${verdictOf("schemawatch_field_drained", "deprecated", "drained")} or ${verdictOf("schemawatch_field_ready", "optional", "ready to require")}`,
          ),
        )
        .transformations(mergedTable({ Value: "reached" }))
        .overrideByName("reached", [{ id: "mappings", value: yesNo("not yet", "yes", 1) }]),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 24,
          title: "Share of records carrying each field, per producer",
          description:
            "Every record is checked, not a sample. A deprecated field's line goes to zero producer by producer as they stop sending it; an optional field's line reaches 1 when a producer sends it in every record. Records whose payload could not be read count in the whole, never as carrying it. With metrics.producerDetail: false the producer is empty and each line sums them all.",
          w: 14,
          h: 8,
        },
        "percentunit",
      ).withTarget(
        rangeQuery(
          "A",
          `sum by (${byField}) (rate(schemawatch_field_records_total{${SUBJECT}, ${PRODUCER}, ${FIELD}, presence="present"}[$__rate_interval]))` +
            ` / sum by (${byField}) (rate(${FIELDS}[$__rate_interval]))`,
          "{{subject}} {{field}} {{producer}}",
        ),
      ),
    )
    .withPanel(
      tablePanel({
        id: 25,
        title: "Records with and without each field in the selected range",
        description:
          "Exact counts per producer and writer version: which producers still send a deprecated field (present), which still omit an optional one (absent), and records that could not be read (unknown: they may carry it, so they keep a drain open).",
        w: 24,
        h: 8,
      })
        .withTarget(tableQuery("A", present("present")))
        .withTarget(tableQuery("B", present("absent")))
        .withTarget(tableQuery("C", present("unknown")))
        .withTarget(
          tableQuery("D", `${present("present")} / sum by (${byWriter}) (increase(${FIELDS}[$__range]))`),
        )
        .transformations(
          mergedTable({
            "Value #A": "present",
            "Value #B": "absent",
            "Value #C": "unknown",
            "Value #D": "share present",
          }),
        )
        .overrideByName("present", [{ id: "decimals", value: 0 }])
        .overrideByName("absent", [{ id: "decimals", value: 0 }])
        .overrideByName("unknown", [{ id: "decimals", value: 0 }])
        .overrideByName("share present", [{ id: "unit", value: "percentunit" }]),
    );
}

/** Field statistics: each producer's quartiles over time, the findings, and the statistics' bounds. */
export function fieldStatistics(builder: DashboardBuilder): DashboardBuilder {
  const findings = `max by (subject, field, producer, kind) (schemawatch_field_findings{${SUBJECT}, ${PRODUCER}, ${FIELD}})`;
  return builder
    .withRow(new RowBuilder("Field statistics: when the meaning changes and the shape does not").id(107))
    .withPanel(
      timeseriesPanel(
        {
          id: 26,
          title: "Quartiles per field and producer",
          description:
            "The lower, middle and upper quartile of each number field's values (measure value) or string field's lengths (measure length) in the current bucket, within 1%. A unit change (cents to dollars) is all three lines of one producer dropping by the same factor at once; the scale is symmetric-logarithmic so that the factor shows as a step of the same height at any size. Replicas that share their statistics export the same quartiles: shown once.",
          w: 16,
          h: 9,
        },
        "short",
        undefined,
      )
        .scaleDistribution(
          new common.ScaleDistributionConfigBuilder()
            .type(common.ScaleDistribution.Symlog)
            .log(10)
            .linearThreshold(1),
        )
        .withTarget(
          rangeQuery(
            "A",
            `max by (subject, field, producer, measure, quantile) (schemawatch_field_quantile{${SUBJECT}, ${PRODUCER}, ${FIELD}})`,
            "{{subject}} {{field}} {{producer}} {{measure}} q{{quantile}}",
          ),
        ),
    )
    .withPanel(
      tablePanel({
        id: 27,
        title: "Findings per field and producer",
        description:
          "Every profiled field and producer, with its findings of each kind (0 for none); any replica's finding counts, as the alert reads it.",
        w: 8,
        h: 9,
      })
        .withTarget(tableQuery("A", findings))
        .transformations(mergedTable({ Value: "findings" }))
        .sortBy([new common.TableSortByFieldStateBuilder().displayName("findings").desc(true)]),
    )
    .withPanel(
      statPanel(
        {
          id: 28,
          title: "Findings now",
          description:
            "Meaning may have changed: a producer's values moved by stats.factor against its own past (scale) or its peers, a value it never sent before (new_value), a value's share jumping (share). The report and the status page name the bucket it began in and the quartiles before and after.",
          w: 6,
          h: 7,
        },
        "none",
      )
        .thresholds(redFrom(1))
        .withTarget(statQuery("A", `sum(${findings})`, "findings")),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 29,
          title: "Values not profiled (at a bound)",
          description:
            "Values left out because the statistics were at stats.maxSeries or stats.maxMemoryMiB: raise the bound, or leave fields out (stats.exclude).",
          w: 9,
          h: 7,
        },
        "short",
      ).withTarget(
        rangeQuery(
          "A",
          "sum by (instance) (rate(schemawatch_field_stats_dropped_total[$__rate_interval]))",
          "{{instance}}",
        ),
      ),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 30,
          title: "Field statistics memory",
          description: "The buckets' estimated size per replica, bounded by stats.maxMemoryMiB.",
          w: 9,
          h: 7,
        },
        "bytes",
      ).withTarget(rangeQuery("A", "max by (instance) (schemawatch_field_stats_bytes)", "{{instance}}")),
    );
}
