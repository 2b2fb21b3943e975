import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import {
  rangeQuery,
  statPanel,
  statQuery,
  tablePanel,
  tableQuery,
  timeseriesPanel,
  yesNo,
} from "../panels.js";

/** Records that were counted but never validated. */
export function input(builder: DashboardBuilder): DashboardBuilder {
  return builder
    .withRow(new RowBuilder("Input that was not validated").id(104))
    .withPanel(
      timeseriesPanel(
        {
          id: 13,
          title: "Decode errors by reason",
          description:
            "Records counted and skipped: not JSON, not UTF-8, unknown schema id, truncated wire prefix, an Apicurio id header that is not 8 bytes (bad_id_header), too large, an Avro or Protobuf body its writer's schema cannot decode (avro_decode, protobuf_decode).",
          w: 12,
          h: 8,
        },
        "short",
      ).withTarget(
        rangeQuery(
          "A",
          "sum by (topic, reason) (rate(schemawatch_decode_errors_total[$__rate_interval]))",
          "{{topic}} {{reason}}",
        ),
      ),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 14,
          title: "Label overflow",
          description: "Values beyond the label cap or outside the allow-list, counted as `other`.",
          w: 12,
          h: 8,
        },
        "short",
      ).withTarget(
        rangeQuery(
          "A",
          "sum by (label) (rate(schemawatch_label_overflow_total[$__rate_interval]))",
          "{{label}}",
        ),
      ),
    );
}

/** The monitor itself: scraped, ready, connected, keeping up. */
export function health(builder: DashboardBuilder): DashboardBuilder {
  const job = 'job="schemawatch"';
  return builder
    .withRow(new RowBuilder("Monitor health").id(105))
    .withPanel(
      statPanel(
        {
          id: 15,
          title: "Monitor",
          description: "Every replica scraped, ready, and connected to the broker.",
          w: 6,
          h: 7,
        },
        "none",
      )
        .mappings(yesNo("no", "yes", 1))
        .withTarget(statQuery("A", `min(up{${job}})`, "scraped"))
        .withTarget(statQuery("B", "min(schemawatch_ready)", "ready"))
        .withTarget(statQuery("C", "min(schemawatch_broker_up)", "broker")),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 16,
          title: "Consumer lag of schemawatch's own group",
          description: "Records not yet counted, per topic.",
          w: 9,
          h: 7,
        },
        "short",
      ).withTarget(
        rangeQuery(
          "A",
          "sum by (topic) (max by (topic, partition) (schemawatch_consumer_lag_records))",
          "{{topic}}",
        ),
      ),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 17,
          title: "Assigned partitions per replica",
          description: "Replicas share one consumer group and split the partitions.",
          w: 9,
          h: 7,
        },
        "short",
      ).withTarget(
        rangeQuery(
          "A",
          "sum by (instance, topic) (schemawatch_assigned_partitions)",
          "{{instance}} {{topic}}",
        ),
      ),
    )
    .withPanel(
      timeseriesPanel(
        { id: 18, title: "Resident memory", description: "Per replica.", w: 6, h: 7 },
        "bytes",
      ).withTarget(rangeQuery("A", `process_resident_memory_bytes{${job}}`, "{{instance}}")),
    )
    .withPanel(
      timeseriesPanel(
        { id: 19, title: "CPU", description: "Cores used per replica.", w: 6, h: 7 },
        "short",
      ).withTarget(
        rangeQuery("A", `rate(process_cpu_seconds_total{${job}}[$__rate_interval])`, "{{instance}}"),
      ),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 20,
          title: "Event loop lag p99",
          description: "A busy event loop delays scrapes and offset commits.",
          w: 6,
          h: 7,
        },
        "s",
      ).withTarget(rangeQuery("A", `nodejs_eventloop_lag_p99_seconds{${job}}`, "{{instance}}")),
    )
    .withPanel(
      tablePanel({
        id: 21,
        title: "Build",
        description: "schemawatch and Node.js version per replica.",
        w: 6,
        h: 7,
      })
        .withTarget(tableQuery("A", "max by (instance, version, node_version) (schemawatch_build_info)"))
        .withTransformation({ id: "organize", options: { excludeByName: { Time: true, Value: true } } }),
    );
}
