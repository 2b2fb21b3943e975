import { RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import {
  FAILED,
  LOSSES,
  PRODUCER,
  RECORDS,
  SUBJECT,
  SUMMED_PRODUCERS,
  VALIDATIONS,
  rangeQuery,
  stackedPanel,
  statPanel,
  statQuery,
  tablePanel,
  tableQuery,
  timeseriesPanel,
} from "../panels.js";

/** Which version each producer sends, and what share of it each reader version would reject. */
export function traffic(builder: DashboardBuilder): DashboardBuilder {
  return builder
    .withRow(new RowBuilder("Traffic: which version each producer sends").id(100))
    .withPanel(
      stackedPanel(
        {
          id: 1,
          title: "Version mix per producer",
          description:
            "Records per second by producer and the writer version they declare (every record, not a sample).",
          w: 16,
          h: 9,
        },
        "short",
      ).withTarget(
        rangeQuery(
          "A",
          `sum by (subject, producer, writer_version) (rate(${RECORDS}[$__rate_interval]))`,
          "{{subject}} {{producer}} → {{writer_version}}",
        ),
      ),
    )
    .withPanel(
      stackedPanel(
        {
          id: 2,
          title: "Share of records per writer version",
          description:
            "Each writer version's share of the subject's records; `none` has no declared version.",
          w: 8,
          h: 9,
        },
        "percentunit",
      ).withTarget(
        rangeQuery(
          "A",
          `sum by (subject, writer_version) (rate(${RECORDS}[$__rate_interval]))` +
            ` / on (subject) group_left () sum by (subject) (rate(${RECORDS}[$__rate_interval]))`,
          "{{subject}} {{writer_version}}",
        ),
      ),
    )
    .withPanel(
      tablePanel({
        id: 3,
        title: "Records per producer and writer version in the selected range",
        description: "Exact counts: a zero here is a real zero, since every record is counted.",
        w: 24,
        h: 7,
      })
        .withTarget(
          tableQuery("A", `sum by (subject, producer, writer_version) (increase(${RECORDS}[$__range]))`),
        )
        .withTransformation({
          id: "organize",
          options: { excludeByName: { Time: true }, renameByName: { Value: "records" } },
        })
        .decimals(0),
    );
}

export function wouldFail(builder: DashboardBuilder): DashboardBuilder {
  const by = "subject, direction, reader_version";
  const byProducer = "subject, producer, writer_version, reader_version, direction";
  return builder
    .withRow(new RowBuilder("Would-fail rates").id(101))
    .withPanel(
      timeseriesPanel(
        {
          id: 4,
          title: "Would-fail rate by direction and reader version",
          description:
            "Failed / all sampled validations, summed before dividing. forward: old consumers reading new records; backward: upgraded consumers reading old records; conformance: records against their own declared version.",
          w: 12,
          h: 9,
        },
        "percentunit",
      ).withTarget(
        rangeQuery(
          "A",
          `sum by (${by}) (rate(${FAILED}[$__rate_interval])) / sum by (${by}) (rate(${VALIDATIONS}[$__rate_interval]))`,
          "{{subject}} {{direction}} vs {{reader_version}}",
        ),
      ),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 5,
          title: "Would-fail rate per producer",
          description:
            "Who has to change: the same rate per producer and writer version, forward and backward only." +
            SUMMED_PRODUCERS,
          w: 12,
          h: 9,
        },
        "percentunit",
      ).withTarget(
        rangeQuery(
          "A",
          `sum by (${byProducer}) (rate(schemawatch_validations_total{${SUBJECT}, ${PRODUCER}, direction=~"forward|backward", result="fail"}[$__rate_interval]))` +
            ` / sum by (${byProducer}) (rate(schemawatch_validations_total{${SUBJECT}, ${PRODUCER}, direction=~"forward|backward"}[$__rate_interval]))`,
          "{{producer}} {{writer_version}} → {{reader_version}} ({{direction}})",
        ),
      ),
    )
    .withPanel(
      tablePanel({
        id: 6,
        title: "Failures by first failing keyword in the selected range",
        description:
          "The JSON Schema keyword that failed first tells which change broke the records (required, enum, additionalProperties…)." +
          SUMMED_PRODUCERS,
        w: 18,
        h: 8,
      })
        .withTarget(
          tableQuery(
            "A",
            `sum by (subject, producer, writer_version, reader_version, direction, keyword) (increase(schemawatch_validation_failures_total{${SUBJECT}, ${PRODUCER}}[$__range]))`,
          ),
        )
        .withTransformation({
          id: "organize",
          options: { excludeByName: { Time: true }, renameByName: { Value: "failures" } },
        })
        .decimals(0),
    )
    .withPanel(
      statPanel(
        {
          id: 7,
          title: "Effective sample ratio",
          description:
            "Share of records that are validated; rates above are ratios of samples and need no scaling.",
          w: 6,
          h: 8,
        },
        "percentunit",
      ).withTarget(statQuery("A", `max by (subject) (schemawatch_sample_ratio{${SUBJECT}})`, "{{subject}}")),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 31,
          title: "Lossy-read rate per producer",
          description:
            "Avro and Protobuf: the share of sampled records a reader of another version reads, but without data the writer sent (a field dropped, or read as its default). Nothing breaks; something is silently lost. Never for JSON Schema." +
            SUMMED_PRODUCERS,
          w: 12,
          h: 8,
        },
        "percentunit",
      ).withTarget(
        rangeQuery(
          "A",
          `sum by (${byProducer}) (rate(${LOSSES}[$__rate_interval]))` +
            ` / sum by (${byProducer}) (rate(schemawatch_validations_total{${SUBJECT}, ${PRODUCER}, direction=~"forward|backward"}[$__rate_interval]))`,
          "{{producer}} {{writer_version}} → {{reader_version}} ({{direction}})",
        ),
      ),
    )
    .withPanel(
      tablePanel({
        id: 32,
        title: "Lossy reads by rule in the selected range",
        description:
          "What a reader loses and by which rule: field_dropped, field_defaulted, enum_defaulted (Avro); unknown_field, default_read, unknown_enum_value (Protobuf)." +
          SUMMED_PRODUCERS,
        w: 12,
        h: 8,
      })
        .withTarget(
          tableQuery(
            "A",
            `sum by (subject, producer, writer_version, reader_version, direction, keyword) (increase(${LOSSES}[$__range]))`,
          ),
        )
        .withTransformation({
          id: "organize",
          options: { excludeByName: { Time: true }, renameByName: { keyword: "rule", Value: "lossy reads" } },
        })
        .decimals(0),
    );
}
