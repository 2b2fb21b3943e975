import type { WireConfig, WriterSource } from "./types.js";

/** Every default in one place, so the reference documentation can be checked against it. */
export const DEFAULTS = {
  kafka: {
    brokers: ["127.0.0.1:9092"],
    clientId: "schemawatch",
    groupId: "schemawatch",
    fromBeginning: false,
    lagInterval: "15s",
    tls: { enabled: true, rejectUnauthorized: true },
  },
  http: { host: "127.0.0.1", port: 9464 },
  // Per-producer validation series are what dashboards and the conformance alert name producers by;
  // turning them off is a sizing decision for large catalogs (docs/metrics.md#series-budget).
  // Above 10,000 series, the per-producer detail is kept only where it needs attention: a sidecar per
  // cluster should not cost its Prometheus more (docs/metrics.md#series-budget).
  metrics: { producerDetail: true, seriesBudget: 10_000 },
  maxRecordBytes: 1048576,
  workers: 0,
  // Validating an ordinary record takes microseconds; 100 ms is thousands of times that, yet short
  // enough that a record crafted to backtrack costs a batch no more than a fraction of a second.
  validationTimeout: "100ms",
  logLevel: "info",
  // As schema registries (Confluent, Apicurio) and ajv read a schema without $schema.
  defaultDialect: "draft-07",
  assertFormats: false,
  writer: {
    // Not `apicurio-header`: it reads two headers of every record before its prefix (and makes
    // kafkajs decode them), which a topic without Apicurio's header mode should not pay for
    // (docs/registry.md).
    sources: ["wire", "guid-header", "header", "pointer"] as WriterSource[],
    header: "schema-version",
    pointer: "/schema",
    // Confluent's prefix, which Apicurio 3's serdes write too by default (a 4-byte contentId, which its
    // Confluent API gives as the schema id).
    wire: { idBytes: 4, id: "schemaId" } as WireConfig,
  },
  producer: { header: "producer", maxValues: 50 },
  sampling: { ratio: 1, maxPerSecond: 5000 },
  drainWindow: "7d",
  readyWindow: "7d",
  minSamples: 300,
  corpus: { enabled: false, serve: false, maxShapes: 200 },
  // Field statistics (docs/stats.md): hourly buckets over two days, so "now" is compared with a day
  // and more of the same producer's past; 32 MiB hold about 300 series of 48 buckets of values within
  // a factor of 10 (docs/stats.md, "Memory").
  stats: {
    enabled: true,
    bucket: "1h",
    buckets: 48,
    maxSeries: 1000,
    maxMemoryMiB: 32,
    maxFields: 20,
    maxValues: 20,
    factor: 10,
    minSamples: 50,
    // About a thousand records a second per producer are profiled (src/stats/thinning.ts): 3.6
    // million values an hour's bucket, where the tests need 50.
    maxPerSecond: 1000,
  },
  stateFile: ".schemawatch-state.json",
  // At least the longest window of any subject (src/config/state.ts).
  forgetReplicasAfter: "14d",
  // Kubernetes sends SIGKILL 30 s after SIGTERM by default: 20 s leaves room for a slow node.
  shutdown: { deadline: "20s" },
  registry: {
    pollInterval: "30s",
    timeout: "10s",
    retries: 2,
    rejectUnauthorized: true,
    lookupsInFlight: 4,
    lookupsPerSecond: 10,
    lookupCache: 10000,
    lookupWait: "5s",
    lookupWaitRecords: 1000,
  },
  registryLabels: "number",
} as const;
