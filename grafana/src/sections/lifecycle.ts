import { MappingType, RowBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import type { DashboardBuilder } from "@grafana/grafana-foundation-sdk/dashboard";
import {
  FAILED,
  SUBJECT,
  SUMMED_PRODUCERS,
  VALIDATIONS,
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

// The validation series carry the version they check against as `reader_version`, the catalog as
// `version`: this renames the catalog's label so the two can be joined.
const candidateReaders =
  'label_replace(schemawatch_schema_version_info{status="candidate"}, "reader_version", "$1", "version", "(.+)")';
const deprecated = 'max by (subject, version) (schemawatch_schema_version_info{status="deprecated"})';
// A version never seen has a last-seen timestamp of 0; these panels are about the ones that were. The
// gauge is when the monitor read the record (its clock), so time() - last_seen never reads 400 days for
// a version a producer sent a second ago with an old timestamp.
const sinceLastSeen =
  `(time() - (max by (subject, version) (schemawatch_version_last_seen_timestamp_seconds{${SUBJECT}}) > 0))` +
  ` and on (subject, version) ${deprecated}`;

/** When a deprecated version can go: time since last seen against the drain window, and gaps. */
export function deprecation(builder: DashboardBuilder): DashboardBuilder {
  return builder
    .withRow(new RowBuilder("Deprecation: when can a version be removed").id(102))
    .withPanel(
      tablePanel({
        id: 8,
        title: "Deprecated versions: time since last seen vs drain window",
        description:
          "A deprecated version is removable once no record declared it for the whole drain window with no coverage gap; the verdict comes from the monitor. Last seen is when the monitor read the record, never the producer's timestamp: a record mirrored or backfilled with a 400-day-old timestamp counts as seen now.",
        w: 11,
        h: 8,
      })
        .withTarget(
          tableQuery(
            "A",
            `time() - max by (subject, version) (schemawatch_version_last_seen_timestamp_seconds{${SUBJECT}}) and on (subject, version) ${deprecated}`,
          ),
        )
        .withTarget(
          tableQuery(
            "B",
            `max by (subject, version) (schemawatch_schema_version_info{${SUBJECT}, status="deprecated"}) * on (subject) group_left () max by (subject) (schemawatch_drain_window_seconds)`,
          ),
        )
        .withTarget(
          tableQuery(
            "C",
            `min by (subject, version) (schemawatch_version_removable{${SUBJECT}}) and on (subject, version) ${deprecated}`,
          ),
        )
        .transformations(
          mergedTable({ "Value #A": "since last seen", "Value #B": "drain window", "Value #C": "removable" }),
        )
        .overrideByName("since last seen", [
          { id: "unit", value: "s" },
          // time() - 0: the version was never declared by any record the monitor counted
          {
            id: "mappings",
            value: [
              {
                type: MappingType.RangeToText,
                options: { from: 1e9, to: null, result: { text: "never seen" } },
              },
            ],
          },
        ])
        .overrideByName("drain window", [{ id: "unit", value: "s" }])
        .overrideByName("removable", [{ id: "mappings", value: yesNo("in use", "removable", 1) }]),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 9,
          title: "Time since last seen vs drain window",
          description:
            "A deprecated version's line crossing its subject's drain window is the moment it may become removable. Time since the monitor last read a record that declared it (its own clock, not the producer's timestamp).",
          w: 9,
          h: 8,
        },
        "s",
      )
        .withTarget(rangeQuery("A", sinceLastSeen, "{{subject}} {{version}} since last seen"))
        .withTarget(
          rangeQuery(
            "B",
            `max by (subject) (schemawatch_drain_window_seconds{${SUBJECT}})`,
            "{{subject}} drain window",
          ),
        ),
    )
    .withPanel(
      statPanel(
        {
          id: 22,
          title: "Coverage gaps in the selected range",
          description:
            "Downtime past retention, an unassigned partition or an offset reset: each gap restarts the drain windows of the topic's subjects.",
          w: 4,
          h: 8,
        },
        "none",
      )
        .thresholds(redFrom(1))
        .withTarget(
          statQuery("A", "sum by (topic) (increase(schemawatch_coverage_gap_total[$__range]))", "{{topic}}"),
        ),
    );
}

/** When a candidate can be released: its failures per producer, going to zero. */
export function candidates(builder: DashboardBuilder): DashboardBuilder {
  const samples = `sum by (subject, reader_version, producer) (increase(${VALIDATIONS}[$__range]))`;
  const failures = `sum by (subject, reader_version, producer) (increase(${FAILED}[$__range]))`;
  const candidate = `and on (subject, reader_version) ${candidateReaders}`;
  return builder
    .withRow(new RowBuilder("Candidate readiness").id(103))
    .withPanel(
      statPanel(
        {
          id: 10,
          title: "Candidate verdicts",
          description:
            "Ready: sampled traffic passed the candidate with zero failures for the whole window, with enough samples.",
          w: 6,
          h: 8,
        },
        "none",
      )
        .mappings(yesNo("not yet", "ready", 1))
        .withTarget(
          statQuery(
            "A",
            `min by (subject, version) (schemawatch_candidate_ready{${SUBJECT}})`,
            "{{subject}} {{version}}",
          ),
        ),
    )
    .withPanel(
      tablePanel({
        id: 11,
        title: "Candidate versions per producer in the selected range",
        description:
          "Which producer still sends records that the candidate would reject (the last step of 'make required in two steps')." +
          SUMMED_PRODUCERS,
        w: 18,
        h: 8,
      })
        .withTarget(tableQuery("A", `${samples} ${candidate}`))
        .withTarget(tableQuery("B", `${failures} ${candidate}`))
        .withTarget(tableQuery("C", `(${failures} / ${samples}) ${candidate}`))
        .transformations(
          mergedTable({
            reader_version: "candidate",
            "Value #A": "samples",
            "Value #B": "failures",
            "Value #C": "would-fail rate",
          }),
        )
        .overrideByName("would-fail rate", [{ id: "unit", value: "percentunit" }]),
    )
    .withPanel(
      timeseriesPanel(
        {
          id: 12,
          title: "Candidate would-fail rate per producer",
          description:
            "Goes to zero, and stays there, when the last producer sends what the candidate requires." +
            SUMMED_PRODUCERS,
          w: 24,
          h: 8,
        },
        "percentunit",
      ).withTarget(
        rangeQuery(
          "A",
          `(sum by (subject, reader_version, producer) (rate(${FAILED}[$__rate_interval])) / sum by (subject, reader_version, producer) (rate(${VALIDATIONS}[$__rate_interval]))) ${candidate}`,
          "{{producer}} vs {{subject}} {{reader_version}}",
        ),
      ),
    );
}
