import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A stand-in for a running schemawatch until the monitor exists: a node:http server on 127.0.0.1 that
 * serves a fixed set of series in Prometheus' text format, with exactly the metric names and labels of
 * src/metrics. Counters grow with the seconds since start so that rate() and increase() have something
 * to compute. The story is the article's: legacy still sends event 1.0.0 (deprecated), checkout sends
 * 1.1.0 with `amount`, which the closed 1.0.0 rejects (forward failures), and candidate 2.0.0 makes
 * `amount` required, which legacy's records fail (backward failures, the readiness story).
 * The phase-2 end-to-end test replaces it with the real monitor fed through a real broker.
 */

type Labels = Readonly<Record<string, string>>;

interface Family {
  readonly name: string;
  readonly type: "counter" | "gauge";
  readonly help: string;
  /** each series' value as a function of the seconds since the server started */
  readonly series: readonly (readonly [Labels, (elapsed: number) => number])[];
}

const TOPIC = "events";
// the decode-error reasons of docs/metrics.md
const REASONS = [
  "not_json",
  "not_utf8",
  "unknown_schema_id",
  "unknown_version",
  "truncated_wire_prefix",
  "too_large",
  "empty",
  "unknown_topic",
  "invalid_capture_line",
  "internal_error",
];
const SUBJECT = "event";
const DAY = 86_400;

// Fractional counter values keep every ratio exact at whatever moment Prometheus scrapes.
function counter(perSecond: number): (elapsed: number) => number {
  return (elapsed) => perSecond * elapsed;
}
function constant(value: number): () => number {
  return () => value;
}

interface Flow {
  readonly producer: string;
  readonly writer: string;
  readonly reader: string;
  readonly direction: string;
  readonly perSecond: number;
  readonly failShare: number;
  readonly keyword: string;
}

const flows: readonly Flow[] = [
  {
    producer: "legacy",
    writer: "1.0.0",
    reader: "1.0.0",
    direction: "conformance",
    perSecond: 5,
    failShare: 0,
    keyword: "type",
  },
  {
    producer: "legacy",
    writer: "1.0.0",
    reader: "1.1.0",
    direction: "backward",
    perSecond: 5,
    failShare: 0,
    keyword: "enum",
  },
  {
    producer: "legacy",
    writer: "1.0.0",
    reader: "2.0.0",
    direction: "backward",
    perSecond: 5,
    failShare: 1,
    keyword: "required",
  },
  {
    producer: "checkout",
    writer: "1.1.0",
    reader: "1.0.0",
    direction: "forward",
    perSecond: 10,
    failShare: 0.3,
    keyword: "additionalProperties",
  },
  {
    producer: "checkout",
    writer: "1.1.0",
    reader: "1.1.0",
    direction: "conformance",
    perSecond: 10,
    failShare: 0,
    keyword: "type",
  },
  {
    producer: "checkout",
    writer: "1.1.0",
    reader: "2.0.0",
    direction: "backward",
    perSecond: 10,
    failShare: 0.1,
    keyword: "required",
  },
  {
    producer: "unknown",
    writer: "none",
    reader: "1.1.0",
    direction: "undeclared",
    perSecond: 1,
    failShare: 0,
    keyword: "type",
  },
];

function families(startedAt: number): Family[] {
  const validations = flows.flatMap((f) => {
    const labels = {
      topic: TOPIC,
      subject: SUBJECT,
      producer: f.producer,
      writer_version: f.writer,
      reader_version: f.reader,
      direction: f.direction,
    };
    return [
      [{ ...labels, result: "fail" }, counter(f.perSecond * f.failShare)],
      [{ ...labels, result: "pass" }, counter(f.perSecond * (1 - f.failShare))],
    ] as const;
  });
  const failures = flows.map(
    (f) =>
      [
        {
          topic: TOPIC,
          subject: SUBJECT,
          producer: f.producer,
          writer_version: f.writer,
          reader_version: f.reader,
          direction: f.direction,
          keyword: f.keyword,
        },
        counter(f.perSecond * f.failShare),
      ] as const,
  );
  const versions = [
    ["0.9.0", "deprecated", startedAt - 8 * DAY],
    ["1.0.0", "deprecated", startedAt],
    ["1.1.0", "active", startedAt],
    ["2.0.0", "candidate", 0],
  ] as const;
  return [
    {
      name: "schemawatch_records_total",
      type: "counter",
      help: "Records read, by declared writer version and producer.",
      series: [
        [{ topic: TOPIC, subject: SUBJECT, producer: "legacy", writer_version: "1.0.0" }, counter(5)],
        [{ topic: TOPIC, subject: SUBJECT, producer: "checkout", writer_version: "1.1.0" }, counter(10)],
        [{ topic: TOPIC, subject: SUBJECT, producer: "unknown", writer_version: "none" }, counter(1)],
      ],
    },
    {
      name: "schemawatch_validations_total",
      type: "counter",
      help: "Sampled validations.",
      series: validations,
    },
    {
      name: "schemawatch_validation_failures_total",
      type: "counter",
      help: "Failures by first failing keyword.",
      series: failures,
    },
    {
      name: "schemawatch_decode_errors_total",
      type: "counter",
      help: "Records that could not be decoded, by reason.",
      series: REASONS.map(
        (reason) => [{ topic: TOPIC, reason }, reason === "not_json" ? counter(0.2) : constant(0)] as const,
      ),
    },
    {
      name: "schemawatch_schema_version_info",
      type: "gauge",
      help: "Catalog versions and their status.",
      series: versions.map(
        ([version, status]) => [{ subject: SUBJECT, version, status }, constant(1)] as const,
      ),
    },
    {
      name: "schemawatch_version_last_seen_timestamp_seconds",
      type: "gauge",
      help: "When a record last declared the version; 0 = never.",
      series: versions.map(([version, , seen]) => [{ subject: SUBJECT, version }, constant(seen)] as const),
    },
    {
      name: "schemawatch_sample_ratio",
      type: "gauge",
      help: "Effective sample ratio.",
      series: [[{ subject: SUBJECT }, constant(1)]],
    },
    {
      name: "schemawatch_label_overflow_total",
      type: "counter",
      help: "Label values beyond the cap.",
      series: [[{ label: "producer" }, counter(0.5)]],
    },
    {
      name: "schemawatch_consumer_lag_records",
      type: "gauge",
      help: "Lag of schemawatch's consumer group.",
      series: [0, 1, 2].map((p) => [{ topic: TOPIC, partition: String(p) }, constant(p * 4)] as const),
    },
    {
      name: "schemawatch_broker_up",
      type: "gauge",
      help: "1 while the broker answers.",
      series: [[{}, constant(1)]],
    },
    {
      name: "schemawatch_ready",
      type: "gauge",
      help: "1 while /readyz answers 200.",
      series: [[{}, constant(1)]],
    },
    {
      name: "schemawatch_assigned_partitions",
      type: "gauge",
      help: "Partitions assigned.",
      series: [[{ topic: TOPIC }, constant(3)]],
    },
    {
      name: "schemawatch_build_info",
      type: "gauge",
      help: "Build.",
      series: [[{ version: "0.1.0", node_version: process.version }, constant(1)]],
    },
    {
      name: "schemawatch_version_removable",
      type: "gauge",
      help: "1 when a deprecated version is drained.",
      series: [
        [{ subject: SUBJECT, version: "0.9.0" }, constant(1)],
        [{ subject: SUBJECT, version: "1.0.0" }, constant(0)],
      ],
    },
    {
      name: "schemawatch_candidate_ready",
      type: "gauge",
      help: "1 when a candidate is ready.",
      series: [[{ subject: SUBJECT, version: "2.0.0" }, constant(0)]],
    },
    {
      name: "schemawatch_drain_window_seconds",
      type: "gauge",
      help: "Drain window.",
      series: [[{ subject: SUBJECT }, constant(7 * DAY)]],
    },
    {
      name: "schemawatch_registry_up",
      type: "gauge",
      help: "1 while the schema registry answers.",
      series: [[{ registry: "main" }, constant(1)]],
    },
    {
      name: "schemawatch_registry_last_success_timestamp_seconds",
      type: "gauge",
      help: "When the schema registry was last read.",
      series: [[{ registry: "main" }, constant(1_796_112_000)]],
    },
    {
      name: "schemawatch_registry_id_lookups_total",
      type: "counter",
      help: "Lookups of unknown wire ids.",
      series: [[{ registry: "main", result: "missing" }, constant(0)]],
    },
    {
      name: "schemawatch_open_transaction_records",
      type: "gauge",
      help: "Records of open transactions.",
      series: [[{ topic: TOPIC, partition: "0" }, constant(0)]],
    },
    {
      name: "schemawatch_open_transaction_age_seconds",
      type: "gauge",
      help: "Age of the oldest open transaction.",
      series: [[{ topic: TOPIC, partition: "0" }, constant(0)]],
    },
    {
      name: "schemawatch_registry_id_lookups_skipped_total",
      type: "counter",
      help: "Lookups of unknown wire ids not sent at the bounds.",
      series: [[{ registry: "main" }, constant(0)]],
    },
    {
      name: "schemawatch_registry_versions_retired_total",
      type: "counter",
      help: "Versions the registry took out of use.",
      series: [[{ registry: "main", subject: `${SUBJECT}-value` }, constant(0)]],
    },
    {
      name: "schemawatch_coverage_gap_total",
      type: "counter",
      help: "Coverage gaps.",
      series: [[{ topic: TOPIC }, constant(0)]],
    },
    // a few of prom-client's default metrics, which the dashboard's health row reads
    {
      name: "process_resident_memory_bytes",
      type: "gauge",
      help: "Resident memory.",
      series: [[{}, constant(80e6)]],
    },
    {
      name: "process_cpu_seconds_total",
      type: "counter",
      help: "CPU seconds.",
      series: [[{}, (elapsed) => elapsed * 0.05]],
    },
    {
      name: "nodejs_eventloop_lag_p99_seconds",
      type: "gauge",
      help: "Event loop lag p99.",
      series: [[{}, constant(0.012)]],
    },
  ];
}

function render(all: readonly Family[], elapsed: number): string {
  const lines: string[] = [];
  for (const family of all) {
    lines.push(`# HELP ${family.name} ${family.help}`, `# TYPE ${family.name} ${family.type}`);
    for (const [labels, value] of family.series) {
      const text = Object.entries(labels)
        .map(([k, v]) => `${k}="${v}"`)
        .join(",");
      lines.push(`${family.name}${text === "" ? "" : `{${text}}`} ${value(elapsed)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

/** Name, type and label names of every metric the fake serves, to check them against src/metrics. */
export const FAKE_FAMILIES: readonly { name: string; type: string; labels: readonly string[] }[] = families(
  0,
).map((f) => ({ name: f.name, type: f.type, labels: Object.keys(f.series[0]?.[0] ?? {}) }));

/** Every metric name the fake serves, for "the dashboard reads only metrics that exist" checks. */
export const FAKE_METRIC_NAMES: readonly string[] = FAKE_FAMILIES.map((f) => f.name);

export interface FakeTarget {
  /** host:port for a scrape config */
  readonly address: string;
  stop(): Promise<void>;
}

export async function startFakeSchemawatch(): Promise<FakeTarget> {
  const started = Date.now();
  const all = families(Math.floor(started / 1000));
  const server = createServer((request, response) => {
    if (request.url !== "/metrics") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "text/plain; version=0.0.4" });
    response.end(render(all, (Date.now() - started) / 1000));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        // Prometheus keeps its scrape connection alive; close() alone would wait for it to time out
        server.closeAllConnections();
      }),
  };
}
