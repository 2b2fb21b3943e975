/**
 * Every metric schemawatch exports, in one place. docs/metrics.md documents each one, and a test fails
 * when the two disagree. Renaming a metric or a label is a breaking change for dashboards and alerts:
 * note it in CHANGELOG.md.
 */
export interface MetricDefinition {
  readonly name: string;
  readonly type: "counter" | "gauge";
  readonly help: string;
  readonly labels: readonly string[];
}

const RECORD_LABELS = ["topic", "subject", "producer", "writer_version"] as const;

export const METRICS = {
  records: {
    name: "schemawatch_records_total",
    type: "counter",
    help: "Records read, every one of them, by topic, subject, producer and declared writer version (none when undeclared).",
    labels: RECORD_LABELS,
  },
  // Both validation metrics lose `producer` with `metrics.producerDetail: false` (src/metrics/without-producer.ts).
  validations: {
    name: "schemawatch_validations_total",
    type: "counter",
    help: "Sampled records validated against a reader version, by direction and result (pass or fail).",
    labels: [...RECORD_LABELS, "reader_version", "direction", "result"],
  },
  validationFailures: {
    name: "schemawatch_validation_failures_total",
    type: "counter",
    help: "Failed validations by the first failing JSON Schema keyword.",
    labels: [...RECORD_LABELS, "reader_version", "direction", "keyword"],
  },
  validationLosses: {
    name: "schemawatch_validation_losses_total",
    type: "counter",
    help: "Passed validations where the reader drops or defaults data the writer sent (Avro, Protobuf), by rule.",
    labels: [...RECORD_LABELS, "reader_version", "direction", "keyword"],
  },
  decodeErrors: {
    name: "schemawatch_decode_errors_total",
    type: "counter",
    help: "Records that could not be decoded and were skipped, by reason.",
    labels: ["topic", "reason"],
  },
  tombstones: {
    name: "schemawatch_tombstones_total",
    type: "counter",
    help: "Records without a value (null or empty: deletes on a compacted topic), also counted as writer version none; no use of any version, whatever their headers declare.",
    labels: ["topic", "subject"],
  },
  versionInfo: {
    name: "schemawatch_schema_version_info",
    type: "gauge",
    help: "1 for every version in the catalog, with its status (active, deprecated, candidate, retired).",
    labels: ["subject", "version", "status"],
  },
  lastSeen: {
    name: "schemawatch_version_last_seen_timestamp_seconds",
    type: "gauge",
    help: "When the monitor last read a record that declared this writer version (its own clock, never the producer's timestamp; a replayed capture's clock); 0 when none has been seen.",
    labels: ["subject", "version"],
  },
  sampleRatio: {
    name: "schemawatch_sample_ratio",
    type: "gauge",
    help: "The effective share of records validated; divide validation counts by it to scale them to traffic.",
    labels: ["subject"],
  },
  labelOverflow: {
    name: "schemawatch_label_overflow_total",
    type: "counter",
    help: "Records whose label value was folded into 'other' because the label reached its limit or allow-list.",
    labels: ["label"],
  },
  lag: {
    name: "schemawatch_consumer_lag_records",
    type: "gauge",
    help: "Records not yet read by schemawatch's own consumer group, per partition.",
    labels: ["topic", "partition"],
  },
  openTransactionRecords: {
    name: "schemawatch_open_transaction_records",
    type: "gauge",
    help: "Records a committed reader cannot see yet, per partition: log end minus last stable offset, past 0 while a transaction is open. Their versions are unknown, so no deprecated version of the topic's subjects is judged drained meanwhile.",
    labels: ["topic", "partition"],
  },
  openTransactionAge: {
    name: "schemawatch_open_transaction_age_seconds",
    type: "gauge",
    help: "How long the oldest transaction still open on a partition (not yet read past) has been seen open; 0 when none is.",
    labels: ["topic", "partition"],
  },
  assignedPartitions: {
    name: "schemawatch_assigned_partitions",
    type: "gauge",
    help: "Partitions assigned to this member of the consumer group.",
    labels: ["topic"],
  },
  brokerUp: {
    name: "schemawatch_broker_up",
    type: "gauge",
    help: "1 while the Kafka brokers answer, 0 while they are unreachable.",
    labels: [],
  },
  ready: {
    name: "schemawatch_ready",
    type: "gauge",
    help: "1 when the catalog is loaded, the broker answers and partitions are assigned (as /readyz).",
    labels: [],
  },
  buildInfo: {
    name: "schemawatch_build_info",
    type: "gauge",
    help: "1, with the schemawatch and Node.js versions.",
    labels: ["version", "node_version"],
  },
  versionRemovable: {
    name: "schemawatch_version_removable",
    type: "gauge",
    help: "1 when a deprecated version is drained: no record declared or needed it for the whole drain window, with every partition observed.",
    labels: ["subject", "version"],
  },
  candidateReady: {
    name: "schemawatch_candidate_ready",
    type: "gauge",
    help: "1 when a candidate version is ready: sampled traffic passed it with zero failures for the whole window, with enough samples.",
    labels: ["subject", "version"],
  },
  drainWindow: {
    name: "schemawatch_drain_window_seconds",
    type: "gauge",
    help: "The drain window of the subject: how long a deprecated version must carry no traffic to be removable.",
    labels: ["subject"],
  },
  registryUp: {
    name: "schemawatch_registry_up",
    type: "gauge",
    help: "1 while the schema registry answers every poll, 0 while it does not (the last catalog stays in use, and no deprecated version of its subjects is judged drained).",
    labels: ["registry"],
  },
  registryLastSuccess: {
    name: "schemawatch_registry_last_success_timestamp_seconds",
    type: "gauge",
    help: "When a poll last read every subject of the schema registry; 0 when none has yet.",
    labels: ["registry"],
  },
  registryLookups: {
    name: "schemawatch_registry_id_lookups_total",
    type: "counter",
    help: "Lookups of wire ids and GUIDs the catalog did not know, by result (found, missing, failed, unsupported): requests to the registry, never one per record.",
    labels: ["registry", "result"],
  },
  registryLookupsSkipped: {
    name: "schemawatch_registry_id_lookups_skipped_total",
    type: "counter",
    help: "Lookups of unknown wire ids and GUIDs that were due but not sent because the lookups in flight or per second were at their bound (lookupsInFlight, lookupsPerSecond): their records count as unknown_schema_id without a request.",
    labels: ["registry"],
  },
  registryVersionsRetired: {
    name: "schemawatch_registry_versions_retired_total",
    type: "counter",
    help: "Versions of a followed registry subject that the registry took out of use (soft-deleted, DISABLED or deleted), as the monitor's polls saw it happen: by schemawatch prune or by hand.",
    labels: ["registry", "subject"],
  },
  retiredVersionRecords: {
    name: "schemawatch_retired_version_records_total",
    type: "counter",
    help: "Records that declared a version while it was retired (after a prune: a producer still sends it), by subject, version and producer; 0 for each producer known of a retired version.",
    labels: ["subject", "version", "producer"],
  },
  coverageGaps: {
    name: "schemawatch_coverage_gap_total",
    type: "counter",
    help: "Gaps in observation (a first observation, skipped offsets, unreadable state) that restarted the windows.",
    labels: ["topic"],
  },
  // The field series: fields come from the schemas (at most 16 a subject), never from traffic.
  fieldRecords: {
    name: "schemawatch_field_records_total",
    type: "counter",
    help: "Every record checked for each tracked field (deprecated in a version not retired, or optional in the newest active one), by whether it carries it: present, absent, or unknown (its payload could not be read).",
    labels: ["subject", "field", "producer", "writer_version", "presence"],
  },
  fieldInfo: {
    name: "schemawatch_field_info",
    type: "gauge",
    help: "1 for each tracked field, with why it is tracked: deprecated (a version not retired marks it so) or optional (in the newest active version).",
    labels: ["subject", "field", "kind"],
  },
  fieldDrained: {
    name: "schemawatch_field_drained",
    type: "gauge",
    help: "1 when a deprecated field is drained: no record carried it (and none could not be read) for the whole drain window, with every partition observed; 0 until then.",
    labels: ["subject", "field"],
  },
  fieldReady: {
    name: "schemawatch_field_ready",
    type: "gauge",
    help: "1 when an optional field of the newest active version is ready to require: every producer sent it in every record for the whole ready window, with every partition observed; 0 until then.",
    labels: ["subject", "field"],
  },
  // Renames come from the config (`fields.replaces`), producers from the pipeline's bounded set.
  fieldRenameRecords: {
    name: "schemawatch_field_rename_records_total",
    type: "counter",
    help: "Every record of a rename the config names (field replaced by replacement), per producer, by form: old (the replaced field without its replacement), both, new (the replacement only), neither, or unknown (its payload could not be read). Writer versions summed.",
    labels: ["subject", "field", "replacement", "producer", "form"],
  },
  fieldsUntracked: {
    name: "schemawatch_fields_untracked",
    type: "gauge",
    help: "Fields of interest of the subject left untracked past the cap of 16 a subject.",
    labels: ["subject"],
  },
  // Field statistics (src/stats/, docs/stats.md): `field` is a pointer a schema declares, never traffic's.
  fieldQuantile: {
    name: "schemawatch_field_quantile",
    type: "gauge",
    help: "A quartile (quantile 0.25, 0.5, 0.75) of a number field's values (measure value) or a string field's lengths (measure length) in the current bucket of field statistics, per subject, field (a JSON Pointer from the newest active schema) and producer, writer versions together; within 1% of a value seen. Absent until the bucket holds a value; a replayed capture's current bucket is its newest record's.",
    labels: ["subject", "field", "producer", "measure", "quantile"],
  },
  fieldFindings: {
    name: "schemawatch_field_findings",
    type: "gauge",
    help: "Findings of the field statistics, by kind: scale (every quartile of a producer's values moved by stats.factor against its own past while its writer version stayed), peers (apart by stats.factor from the other producers of its version), new_value (a value never seen before from that producer) or share (a value's share from under 1% to at least 10 times that); one per writer version that shows it, 0 for every profiled field and producer without one.",
    labels: ["subject", "field", "producer", "kind"],
  },
  fieldStatsDropped: {
    name: "schemawatch_field_stats_dropped_total",
    type: "counter",
    help: "Values not profiled because the field statistics were at a bound (stats.maxSeries series, or stats.maxMemoryMiB of buckets).",
    labels: [],
  },
  fieldStatsFolded: {
    name: "schemawatch_field_stats_folded_total",
    type: "counter",
    help: "Values of enum and named string fields counted but not by their own name, by reason: outside_enum (a value the field's enum does not list, counted as (other)), past_max_values (the bucket already names stats.maxValues, counted as (other)), memory (naming it would pass stats.maxMemoryMiB, counted as (other)), cut (longer than 64 characters: named by its first 40 and a hash).",
    labels: ["reason"],
  },
  fieldStatsUnshared: {
    name: "schemawatch_field_stats_unshared_total",
    type: "counter",
    help: "Buckets of field statistics not published to the state topic because their JSON passed 900 KB: the other replicas go without them.",
    labels: [],
  },
  fieldStatsBytes: {
    name: "schemawatch_field_stats_bytes",
    type: "gauge",
    help: "The memory the field statistics' buckets are estimated to take (bounded by stats.maxMemoryMiB).",
    labels: [],
  },
  // The series budget (metrics.seriesBudget, src/metrics/budget.ts); `metric` is one of the metrics above.
  seriesFolded: {
    name: "schemawatch_series_folded",
    type: "gauge",
    help: "Series the last scrape did not export as they are because it was over metrics.seriesBudget: the series of versions, pairs and fields that need no attention summed over producers (and, when that is not enough, over writers, or left out at 0), per metric (0 when under the budget).",
    labels: ["metric"],
  },
} as const satisfies Record<string, MetricDefinition>;
