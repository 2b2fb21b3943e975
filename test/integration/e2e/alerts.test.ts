import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Partitioners } from "kafkajs";
import type { Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { buildDashboard } from "../../../grafana/src/dashboard.js";
import { expandQuery, panelQueries, variableQueries } from "../../../grafana/src/queries.js";
import { demoDocument, demoValue, versionHeader } from "../../../src/cli/commands/demo-produce.js";
import type { DemoVersion } from "../../../src/cli/commands/demo-produce.js";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import type { RunningMonitor } from "../../../src/monitor/start.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  kafkaClient,
  waitFor,
} from "../../helpers/kafka.js";
import { startPrometheus } from "../../helpers/prometheus.js";
import type { RunningPrometheus, Sample } from "../../helpers/prometheus.js";

// The whole chain with real services: a real broker carries the article's story, schemawatch (started
// in-process with startMonitor) counts and validates it, a real Prometheus scrapes it every second and
// evaluates the project's rules, and everything is asserted through Prometheus' HTTP API:
//   - the forward-incompatibility alert fires for reader 1.0.0 and the quiet alerts stay quiet;
//   - the recorded would-fail ratios have the exact values the traffic was designed for;
//   - Prometheus is asked until what it says holds (a scrape or an evaluation that a loaded machine
//     made late leaves an instant with a short rate window, or none): the values asserted are exact.
//   - every dashboard panel's PromQL runs, reads only metrics Prometheus knows, and returns the series
//     its data implies.
//
// The story: `legacy` still sends event 1.0.0 documents ({id, event: view|click}), `checkout` sends
// 1.1.0 documents that always carry `amount` (and every fifth is a `buy`). The closed 1.0.0 (deprecated,
// still in use) rejects every checkout record: the forward ratio for reader 1.0.0 is exactly 1. Every
// legacy record passes 1.0.0 and 1.1.0 and fails the 2.0.0 candidate (amount required); every checkout
// record passes 1.1.0 and 2.0.0 (test/unit/cli/demo-produce.test.ts checks those document properties).
// Both producers send the same number of records to each partition in each send: the candidate's
// backward ratio is exactly 1/2 whenever the monitor has read whole sends.
//
// The catalog is the example's with one word more: 1.1.0 marks `event` "deprecated": true (an
// annotation, so every validation is the same), so that the field rows have a drain to show beside
// the optional `amount`'s readiness: both producers send `event` in every record, only checkout sends
// `amount`.

const RULES = "deploy/prometheus/schemawatch.rules.yaml";
const TUNING = {
  sessionTimeout: 6_000,
  rebalanceTimeout: 6_000,
  heartbeatInterval: 500,
  maxWaitTimeInMs: 200,
  stopTimeoutMs: 10_000,
};
// 20 records every 500 ms until the last test stops the stream: every rate window has traffic however
// long a loaded machine takes to get there. The bound only stops a stream whose afterAll never ran.
const PER_PRODUCER_PER_TICK = 10;
const TICK_MS = 500;
const STREAM_MAX_MS = 600_000;
const PARTITIONS = 3;
const PRODUCERS = { legacy: "1.0.0", checkout: "1.1.0" } as const satisfies Record<string, DemoVersion>;
type ProducerName = keyof typeof PRODUCERS;
// Grafana's $__rate_interval with a 1 s scrape interval is 4 s; 5 s leaves room for a late scrape.
const EXPANSION = { rateInterval: "5s", range: "1m" };
const DRAIN_WINDOW_SECONDS = 600;
const VERSION = "0.0.0-e2e";

/**
 * Metrics that the dashboard or the rules read but that the monitor does not export yet. For each, the
 * test asserts that Prometheus indeed does not know the name and that the queries reading it return
 * nothing. When the metric appears, that assertion fails: delete the name here, and the panels that read
 * it are checked like every other one (their expectations are already in panelExpectations()).
 *
 * Empty since src/metrics/registry.ts exports the lifecycle metrics. Before that it held
 * schemawatch_version_removable (panel 8 C, alert SchemawatchDeprecatedVersionDrained),
 * schemawatch_candidate_ready (panel 10 A, alert SchemawatchCandidateReady),
 * schemawatch_drain_window_seconds (panels 8 B and 9 B) and schemawatch_coverage_gap_total (panel 22 A,
 * alert SchemawatchCoverageGap).
 */
const NOT_YET_EXPORTED: ReadonlySet<string> = new Set<string>([]);

/**
 * Metrics the rules read that have series only when the catalog follows a schema registry, which this
 * story's catalog (a folder) does not. The test asserts that Prometheus does not know them here and that
 * something reads them; test/integration/registry/monitor.test.ts scrapes them, with exact values, from a monitor that
 * follows a real registry.
 */
const REGISTRY_ONLY: ReadonlySet<string> = new Set<string>(["schemawatch_registry_up"]);

/**
 * Metrics the rules read that have series only when the catalog has a retired version, which this
 * story's catalog does not; test/integration/kafka/retired.test.ts scrapes it, with exact values, from a
 * monitor whose catalog has one. Checked as REGISTRY_ONLY is.
 */
const RETIRED_ONLY: ReadonlySet<string> = new Set<string>(["schemawatch_retired_version_records_total"]);

/**
 * Metrics the dashboard reads that have series only for Avro or Protobuf subjects whose readers lose data,
 * which this story's JSON Schema catalog never does; test/integration/ops/lossy-panels.test.ts runs the
 * panels that read it, with exact values, against an Avro subject. Checked as REGISTRY_ONLY is.
 */
const LOSSY_ONLY: ReadonlySet<string> = new Set<string>(["schemawatch_validation_losses_total"]);

let scratch = "";
let monitor: RunningMonitor | undefined;
let prometheus: RunningPrometheus | undefined;
let stream: TrafficStream | undefined;
let topic = "";

/** A steady stream of both producers' records, from one kafkajs producer, bounded in time. */
class TrafficStream {
  readonly sent: Record<ProducerName, number> = { legacy: 0, checkout: 0 };
  error: unknown;
  readonly #abort = new AbortController();
  #loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly producer: Producer,
    private readonly topic: string,
  ) {}

  start(): void {
    const deadline = Date.now() + STREAM_MAX_MS;
    this.#loop = (async () => {
      while (!this.#abort.signal.aborted && Date.now() < deadline) {
        const messages = (Object.keys(PRODUCERS) as ProducerName[]).flatMap((name) =>
          Array.from({ length: PER_PRODUCER_PER_TICK }, (_, i) => {
            const n = this.sent[name] + i;
            return {
              key: `${name}-${n}`,
              // every tick reaches every partition (see the wait before Prometheus starts)
              partition: n % PARTITIONS,
              value: demoValue(demoDocument(PRODUCERS[name], n)),
              headers: { producer: name, "schema-version": versionHeader(PRODUCERS[name]) },
            };
          }),
        );
        try {
          await this.producer.send({ topic: this.topic, messages, acks: -1 });
        } catch (error) {
          this.error = error;
          return;
        }
        for (const name of Object.keys(PRODUCERS) as ProducerName[]) this.sent[name] += PER_PRODUCER_PER_TICK;
        await sleep(TICK_MS, undefined, { signal: this.#abort.signal }).catch(() => undefined);
      }
    })();
  }

  /** Stops sending and waits for the send in flight; afterwards `sent` is final. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#loop;
  }
}

function running(): { monitor: RunningMonitor; prometheus: RunningPrometheus; stream: TrafficStream } {
  if (monitor === undefined || prometheus === undefined || stream === undefined) {
    throw new Error("the end-to-end stack did not start (see the beforeAll error)");
  }
  return { monitor, prometheus, stream };
}

interface RuleFile {
  groups: { name: string; rules: { alert?: string; record?: string; expr: string; for?: string }[] }[];
}

async function projectRules(): Promise<RuleFile> {
  return parse(await readFile(RULES, "utf8")) as RuleFile;
}

function alertExpr(rules: RuleFile, name: string): string {
  const rule = rules.groups.flatMap((g) => g.rules).find((r) => r.alert === name);
  if (rule === undefined) throw new Error(`${RULES} has no alert ${name}`);
  return rule.expr;
}

let producer: Producer | undefined;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "schemawatch-e2e-"));
  const catalog = join(scratch, "event");
  await mkdir(catalog);
  for (const name of ["1.0.json", "1.1.json", "2.0.json"]) {
    const schema = JSON.parse(await readFile(resolve("examples/catalog/event", name), "utf8")) as {
      properties: Record<string, Record<string, unknown>>;
    };
    if (name === "1.1.json") schema.properties["event"]!["deprecated"] = true;
    await writeFile(join(catalog, name), JSON.stringify(schema, null, 2));
  }
  const brokers = await kafkaBrokers();
  topic = freshTopic("sw-e2e");
  await createTopic(brokers, topic, PARTITIONS);
  const configPath = join(scratch, "config.yaml");
  await writeFile(
    configPath,
    `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId("sw-e2e")}
  # a fresh topic: read it from its start so that the counts are exact whatever the timing
  fromBeginning: true
  lagInterval: 1s
logLevel: silent
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${catalog}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
    producer:
      header: producer
    drainWindow: ${DRAIN_WINDOW_SECONDS}s
`,
  );
  // The project's rules keep every alert pending for its `for:` (10 minutes for the forward alert), longer
  // than a test may take. This test-only copy has `for: 0s` everywhere, so an alert whose expression
  // matches is `firing` at the next evaluation; the quiet alerts are held to the same standard. The
  // expressions and everything else are the project's, unchanged.
  const rules = await projectRules();
  for (const group of rules.groups)
    for (const rule of group.rules) if (rule.alert !== undefined) rule.for = "0s";
  const rulesCopy = join(scratch, "schemawatch.rules.for-0s.yaml");
  await writeFile(rulesCopy, stringify(rules));

  monitor = await startMonitor({
    configPath,
    source: "kafka",
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: VERSION,
    logger: createLogger("silent"),
    tuning: TUNING,
  });
  const started = monitor;
  await waitFor(() => started.health.ready, "the monitor to be assigned its partitions");

  // Idempotent: a retried send is written once, so that what was sent is exactly what is counted.
  producer = kafkaClient(brokers).producer({
    createPartitioner: Partitioners.DefaultPartitioner,
    allowAutoTopicCreation: false,
    idempotent: true,
    maxInFlightRequests: 1,
  });
  await producer.connect();
  stream = new TrafficStream(producer, topic);
  stream.start();
  // The lifecycle counts each partition's first observation as a coverage gap. Letting the monitor count
  // the first tick (which reaches every partition) before Prometheus' first scrape keeps those out of
  // increase(), so SchemawatchCoverageGap can be held quiet: any gap after that, in a steady run with
  // no restart, would be a real one.
  const counting = monitor;
  await waitFor(
    () => counting.pipeline.tallies.records.reduce((sum, c) => sum + c.value, 0) >= 2 * PER_PRODUCER_PER_TICK,
    "the first tick to be counted",
  );

  prometheus = await startPrometheus({
    targets: [new URL(monitor.address).host],
    ruleFiles: [rulesCopy],
  });
  const prom = prometheus;
  // rate(...[5m]) needs two scrapes with records in between; the recorded ratio appears after that
  await prom.waitFor("the recorded forward ratio for reader 1.0.0", async () => {
    const samples = await prom.query(
      'schemawatch:validations_fail:ratio_rate5m{direction="forward",reader_version="1.0.0"}',
    );
    return samples.length > 0 ? samples : undefined;
  });
}, 240_000);

afterAll(async () => {
  await stream?.stop();
  await producer?.disconnect();
  await prometheus?.stop();
  await monitor?.stop();
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

/** The one sample whose labels include `labels`; fails naming what was there instead. */
function pick(samples: readonly Sample[], labels: Readonly<Record<string, string>>): Sample {
  const found = samples.filter((s) => Object.entries(labels).every(([k, v]) => s.metric[k] === v));
  if (found.length !== 1) {
    throw new Error(
      `expected one series with ${JSON.stringify(labels)}, found ${found.length} in ${JSON.stringify(samples)}`,
    );
  }
  return found[0]!;
}

function value(samples: readonly Sample[], labels: Readonly<Record<string, string>>): number {
  return pick(samples, labels).value;
}

/** Runs `check` against Prometheus until it passes; fails with its last error after the deadline. */
async function eventually(prom: RunningPrometheus, what: string, check: () => Promise<void>): Promise<void> {
  await prom.waitFor(what, async () => {
    await check();
    return true;
  });
}

// PromQL keywords that look like metric names to the tokenizer below.
const KEYWORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right"]);
const OPERATORS = new Set(["and", "or", "unless", "bool", "offset", "inf", "nan"]);

/**
 * The metric names an expression reads: what is left after dropping strings, label matchers, range
 * selectors and the label lists of by/without/on/ignoring/group_*, minus function names (followed by
 * an opening parenthesis) and keywords.
 */
function metricNames(expr: string): string[] {
  const stripped = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, " ")
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, " ");
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.:])[a-zA-Z_:][\w:]*/g)) {
    const word = match[0];
    const rest = stripped.slice((match.index ?? 0) + word.length).trimStart();
    if (rest.startsWith("(") || KEYWORDS.has(word) || OPERATORS.has(word.toLowerCase())) continue;
    names.add(word);
  }
  return [...names];
}

/** Names Prometheus knows: every stored series name, and every recording rule's name. */
async function knownNames(prom: RunningPrometheus): Promise<Set<string>> {
  const names = new Set(await prom.labelValues("__name__"));
  for (const group of await prom.rules())
    for (const rule of group.rules) if (rule.type === "recording") names.add(rule.name);
  return names;
}

// Alerts, each in exactly one list, so that a new alert in the rules forces a decision here.
const FIRING = ["SchemawatchForwardIncompatibleTraffic"];
const QUIET = [
  "SchemawatchDown",
  "SchemawatchAbsent",
  "SchemawatchNotReady",
  "SchemawatchProducerNonConformant",
  "SchemawatchCandidateReady",
  "SchemawatchConsumerLagging",
  // nobody writes transactions here: every partition's age is 0
  "SchemawatchTransactionOpen",
  "SchemawatchDecodeErrorsHigh",
  "SchemawatchLabelOverflow",
  // every record carries a version header the catalog knows
  "SchemawatchUnreadableVersions",
  // the catalog is a folder: schemawatch_registry_up has no series (see REGISTRY_ONLY)
  "SchemawatchRegistryDown",
  // legacy's records pass the active 1.1.0; their failures against candidate 2.0.0 never alert
  "SchemawatchBackwardIncompatibleTraffic",
  // legacy still sends the deprecated 1.0.0
  "SchemawatchDeprecatedVersionDrained",
  // the first observations happen before the first scrape (see beforeAll)
  "SchemawatchCoverageGap",
  // no version is retired here: the metric has no series (see RETIRED_ONLY)
  "SchemawatchRetiredVersionTraffic",
  // both producers still send the deprecated /event in every record
  "SchemawatchDeprecatedFieldDrained",
  // the optional /amount is omitted by most producers: not ready to require
  "SchemawatchFieldReadyToRequire",
  // the story's producers keep their amounts' scale and values: the field statistics find nothing
  "SchemawatchFieldMeaningChanged",
];
// Alerts whose state this story cannot decide, each with the reason; none at the moment.
const NOT_ASSERTED: Readonly<Record<string, string>> = {};

describe("the project's alert rules against a real Prometheus scraping schemawatch", () => {
  it("scrapes the monitor under the job the rules expect", async () => {
    const { prometheus: prom, monitor: mon } = running();
    const targets = await prom.targets();
    expect(targets.map((t) => [t.labels["job"], t.labels["instance"], t.health])).toEqual([
      ["schemawatch", new URL(mon.address).host, "up"],
    ]);
  });

  it("loads every rule of the project, with for: 0s, and evaluates each without error", async () => {
    const { prometheus: prom } = running();
    const original = await projectRules();
    const loaded = (await prom.rules()).flatMap((g) => g.rules);
    expect(loaded.map((r) => r.name).sort()).toEqual(
      original.groups
        .flatMap((g) => g.rules)
        .map((r) => r.alert ?? r.record)
        .sort(),
    );
    // a rule with an evaluation error could never fire; "unknown" would mean it was not evaluated yet
    await prom.waitFor("every rule evaluated", async () =>
      (await prom.rules()).flatMap((g) => g.rules).every((r) => r.health !== "unknown") ? true : undefined,
    );
    const unhealthy = (await prom.rules())
      .flatMap((g) => g.rules)
      .filter((r) => r.health !== "ok")
      .map((r) => `${r.name}: ${r.health} ${r.lastError ?? ""}`);
    expect(unhealthy).toEqual([]);
    const alerts = loaded.filter((r) => r.type === "alerting");
    expect(alerts.map((r) => r.duration)).toEqual(alerts.map(() => 0));
    expect([...FIRING, ...QUIET, ...Object.keys(NOT_ASSERTED)].sort()).toEqual(
      alerts.map((r) => r.name).sort(),
    );
  });

  it("fires SchemawatchForwardIncompatibleTraffic for reader 1.0.0, with the ratio 1", async () => {
    const { prometheus: prom } = running();
    const firing = await prom.waitFor("the forward-incompatibility alert to fire", async () => {
      const found = (await prom.alerts()).filter(
        (a) => a.labels["alertname"] === "SchemawatchForwardIncompatibleTraffic" && a.state === "firing",
      );
      return found.length > 0 ? found : undefined;
    });
    expect(firing.map((a) => a.labels)).toEqual([
      {
        alertname: "SchemawatchForwardIncompatibleTraffic",
        subject: "event",
        reader_version: "1.0.0",
        direction: "forward",
        severity: "critical",
      },
    ]);
    expect(Number(firing[0]!.value)).toBe(1);
    expect(firing[0]!.annotations["summary"]).toBe("Consumers on event 1.0.0 would reject live records");
    expect(firing[0]!.annotations["description"]).toMatch(/^100% of the sampled event records/);

    // the alert's own expression, as the project's rules file has it, gives the same single series
    const expr = alertExpr(await projectRules(), "SchemawatchForwardIncompatibleTraffic");
    const samples = await prom.query(expr);
    expect(
      samples.map((s) => [s.metric["subject"], s.metric["reader_version"], s.metric["direction"], s.value]),
    ).toEqual([["event", "1.0.0", "forward", 1]]);
  });

  it("records the would-fail ratios with exactly the values the traffic was designed for", async () => {
    const { prometheus: prom } = running();
    await eventually(prom, "the designed would-fail ratios", async () => {
      const ratio = await prom.query("schemawatch:validations_fail:ratio_rate5m");
      const of = (direction: string, reader: string) => value(ratio, { direction, reader_version: reader });
      // every checkout record fails the closed 1.0.0; nothing else reads 1.0.0 forward. 2.0.0 is
      // failed by legacy's records only, which are exactly half of the records (see the story above).
      expect([
        of("forward", "1.0.0"),
        of("conformance", "1.0.0"),
        of("conformance", "1.1.0"),
        of("backward", "1.1.0"),
        of("backward", "2.0.0"),
      ]).toEqual([1, 0, 0, 0, 0.5]);
    });

    await eventually(prom, "the designed would-fail ratios per producer", async () => {
      const perProducer = await prom.query("schemawatch_producer:validations_fail:ratio_rate5m");
      const of = (producer: string, reader: string) =>
        value(perProducer, { producer, reader_version: reader });
      expect([of("checkout", "1.0.0"), of("checkout", "1.1.0"), of("checkout", "2.0.0")]).toEqual([1, 0, 0]);
      expect([of("legacy", "1.0.0"), of("legacy", "1.1.0"), of("legacy", "2.0.0")]).toEqual([0, 0, 1]);
    });
  });

  it("keeps the quiet alerts quiet: none is pending or firing, and none of their expressions matches", async () => {
    const { prometheus: prom } = running();
    const rules = await projectRules();
    // A quiet alert's expression could match only between two evaluations; asking the expression itself
    // as well as the alert list closes that window. Asked until both are quiet at once: a scrape that
    // a loaded machine made too late is, to Prometheus, a monitor that was down for that instant.
    await eventually(prom, "the quiet alerts to be quiet", async () => {
      const matching: string[] = [];
      for (const name of QUIET) {
        const samples = await prom.query(alertExpr(rules, name));
        if (samples.length > 0) matching.push(`${name}: ${JSON.stringify(samples)}`);
      }
      expect(matching).toEqual([]);
      const active = (await prom.alerts()).map((a) => `${a.labels["alertname"]} ${a.state}`);
      expect(active.filter((a) => QUIET.some((name) => a.startsWith(`${name} `)))).toEqual([]);
    });
  });
});

type Expectation = (samples: readonly Sample[]) => void;

const nonEmpty: Expectation = (samples) => {
  if (samples.length === 0) throw new Error("no series");
};
const everyValue =
  (check: (v: number) => boolean, what: string): Expectation =>
  (samples) => {
    nonEmpty(samples);
    const bad = samples.filter((s) => !check(s.value));
    if (bad.length > 0) throw new Error(`expected every value ${what}, got ${JSON.stringify(bad)}`);
  };
const equals =
  (labels: Readonly<Record<string, string>>, expected: number): Expectation =>
  (samples) => {
    const actual = value(samples, labels);
    if (actual !== expected)
      throw new Error(`${JSON.stringify(labels)}: expected ${expected}, got ${actual}`);
  };
const within =
  (labels: Readonly<Record<string, string>>, low: number, high: number): Expectation =>
  (samples) => {
    const actual = value(samples, labels);
    if (!(actual >= low && actual <= high))
      throw new Error(`${JSON.stringify(labels)}: expected ${low}..${high}, got ${actual}`);
  };
const all =
  (...checks: Expectation[]): Expectation =>
  (samples) => {
    for (const check of checks) check(samples);
  };
const count =
  (n: number): Expectation =>
  (samples) => {
    if (samples.length !== n) throw new Error(`expected ${n} series, got ${JSON.stringify(samples)}`);
  };
const positive = (labels: Readonly<Record<string, string>>) => within(labels, Number.MIN_VALUE, Infinity);

const LEGACY = { producer: "legacy", writer_version: "1.0.0" };
const CHECKOUT = { producer: "checkout", writer_version: "1.1.0" };

/**
 * What each panel query must return while the story runs on `topic`, keyed by panel id and refId. "Its
 * data exists" is decided per query: every series the story produces must be there, with its exact
 * value where the traffic makes it knowable. A query missing here fails the test, so a new panel needs
 * an entry.
 */
const panelExpectations = (topic: string): Readonly<Record<string, Expectation>> => ({
  // Version mix per producer: both producers, on the version each declares
  "1 A": all(positive(LEGACY), positive(CHECKOUT)),
  // Share of records per writer version: two shares that add up to the whole
  "2 A": (samples) => {
    positive({ writer_version: "1.0.0" })(samples);
    positive({ writer_version: "1.1.0" })(samples);
    const total = samples.filter((s) => !Number.isNaN(s.value)).reduce((sum, s) => sum + s.value, 0);
    if (Math.abs(total - 1) > 1e-9) throw new Error(`shares add up to ${total}`);
  },
  "3 A": all(positive(LEGACY), positive(CHECKOUT)),
  // Would-fail rate by direction and reader version
  "4 A": all(
    equals({ direction: "forward", reader_version: "1.0.0" }, 1),
    equals({ direction: "conformance", reader_version: "1.0.0" }, 0),
    equals({ direction: "conformance", reader_version: "1.1.0" }, 0),
    equals({ direction: "backward", reader_version: "1.1.0" }, 0),
    // legacy's records, exactly half of all, fail the candidate
    equals({ direction: "backward", reader_version: "2.0.0" }, 0.5),
  ),
  // Would-fail rate per producer, forward and backward only
  "5 A": all(
    equals({ ...CHECKOUT, reader_version: "1.0.0", direction: "forward" }, 1),
    equals({ ...CHECKOUT, reader_version: "2.0.0", direction: "backward" }, 0),
    equals({ ...LEGACY, reader_version: "1.1.0", direction: "backward" }, 0),
    equals({ ...LEGACY, reader_version: "2.0.0", direction: "backward" }, 1),
  ),
  // Failures by first failing keyword: 2.0.0 requires amount; 1.0.0 is closed to it
  "6 A": all(
    positive({ ...LEGACY, reader_version: "2.0.0", keyword: "required" }),
    positive({ ...CHECKOUT, reader_version: "1.0.0", keyword: "additionalProperties" }),
  ),
  "7 A": equals({ subject: "event" }, 1),
  // Lossy reads: none, JSON Schema has no lossy read (an Avro subject's: test/integration/ops/lossy-panels.test.ts)
  "31 A": count(0),
  "32 A": count(0),
  // Deprecated 1.0.0: last seen moments ago (legacy sends it twice a second)
  "8 A": within({ subject: "event", version: "1.0.0" }, 0, 60),
  "8 B": equals({ subject: "event", version: "1.0.0" }, DRAIN_WINDOW_SECONDS),
  "8 C": equals({ subject: "event", version: "1.0.0" }, 0),
  "9 A": within({ subject: "event", version: "1.0.0" }, 0, 60),
  "9 B": equals({ subject: "event" }, DRAIN_WINDOW_SECONDS),
  // Coverage gaps in the range: the first observations came before the first scrape (see beforeAll)
  "22 A": equals({ topic }, 0),
  // Candidate 2.0.0 is not ready: legacy's records fail it
  "10 A": equals({ subject: "event", version: "2.0.0" }, 0),
  "11 A": all(
    positive({ producer: "legacy", reader_version: "2.0.0" }),
    positive({ producer: "checkout", reader_version: "2.0.0" }),
  ),
  "11 B": all(
    positive({ producer: "legacy", reader_version: "2.0.0" }),
    equals({ producer: "checkout", reader_version: "2.0.0" }, 0),
  ),
  "11 C": all(
    equals({ producer: "legacy", reader_version: "2.0.0" }, 1),
    equals({ producer: "checkout", reader_version: "2.0.0" }, 0),
  ),
  "12 A": all(
    equals({ producer: "legacy", reader_version: "2.0.0" }, 1),
    equals({ producer: "checkout", reader_version: "2.0.0" }, 0),
  ),
  // Decode errors: every reason of the topic at zero (zero is a value, not a missing series)
  "13 A": all(
    equals({ topic, reason: "not_json" }, 0),
    everyValue((v) => v === 0, "0"),
  ),
  "14 A": equals({ label: "producer" }, 0),
  "15 A": equals({}, 1),
  "15 B": equals({}, 1),
  "15 C": equals({}, 1),
  "16 A": within({ topic }, 0, Infinity),
  "17 A": equals({ topic }, 3),
  "18 A": everyValue((v) => v > 0, "> 0"),
  "19 A": everyValue((v) => v >= 0, ">= 0"),
  "20 A": everyValue((v) => v >= 0, ">= 0"),
  "21 A": (samples) => {
    pick(samples, { version: VERSION, node_version: process.version });
  },
  // Field verdicts: the deprecated /event is sent by both, the optional /amount omitted by legacy
  "23 A": all(
    equals({ subject: "event", field: "/event", verdict: "drained" }, 0),
    equals({ subject: "event", field: "/amount", verdict: "ready to require" }, 0),
    count(2),
  ),
  // Share carrying each field: every record of both carries /event; only checkout's carry /amount
  "24 A": all(
    equals({ field: "/event", producer: "legacy" }, 1),
    equals({ field: "/event", producer: "checkout" }, 1),
    equals({ field: "/amount", producer: "legacy" }, 0),
    equals({ field: "/amount", producer: "checkout" }, 1),
    count(4),
  ),
  "25 A": all(
    positive({ ...LEGACY, field: "/event" }),
    positive({ ...CHECKOUT, field: "/event" }),
    equals({ ...LEGACY, field: "/amount" }, 0),
    positive({ ...CHECKOUT, field: "/amount" }),
    count(4),
  ),
  "25 B": all(
    equals({ ...LEGACY, field: "/event" }, 0),
    equals({ ...CHECKOUT, field: "/event" }, 0),
    positive({ ...LEGACY, field: "/amount" }),
    equals({ ...CHECKOUT, field: "/amount" }, 0),
    count(4),
  ),
  // every payload is readable
  "25 C": all(
    everyValue((v) => v === 0, "0"),
    count(4),
  ),
  "25 D": all(
    equals({ ...LEGACY, field: "/event" }, 1),
    equals({ ...CHECKOUT, field: "/event" }, 1),
    equals({ ...LEGACY, field: "/amount" }, 0),
    equals({ ...CHECKOUT, field: "/amount" }, 1),
    count(4),
  ),
  // Quartiles: checkout's amounts are cents as decimals in [0, 100); ids are counted up from 0
  "26 A": all(
    within({ field: "/amount", producer: "checkout", measure: "value", quantile: "0.25" }, 0, 100),
    within({ field: "/amount", producer: "checkout", measure: "value", quantile: "0.5" }, 0, 100),
    within({ field: "/amount", producer: "checkout", measure: "value", quantile: "0.75" }, 0, 100),
    positive({ field: "/id", producer: "legacy", measure: "value", quantile: "0.75" }),
    positive({ field: "/id", producer: "checkout", measure: "value", quantile: "0.75" }),
    (samples) => {
      const legacyAmount = samples.filter(
        (s) => s.metric["field"] === "/amount" && s.metric["producer"] === "legacy",
      );
      if (legacyAmount.length > 0) throw new Error(`legacy sends no amount: ${JSON.stringify(legacyAmount)}`);
    },
  ),
  // Findings: none, each profiled field and producer at 0
  "27 A": all(
    equals({ field: "/amount", producer: "checkout", kind: "scale" }, 0),
    everyValue((v) => v === 0, "0"),
  ),
  "28 A": equals({}, 0),
  "29 A": everyValue((v) => v === 0, "0"),
  "30 A": everyValue((v) => v > 0, "> 0"),
});

describe("every dashboard panel's PromQL against the same Prometheus", () => {
  it("finds the metric names of an expression", () => {
    expect(
      metricNames(
        'sum by (a, b) (rate(x_total{c="d(e)"}[5m])) / on (a) group_left () y:ratio and z > bool 1e9 or time() - w offset 5m',
      ),
    ).toEqual(["x_total", "y:ratio", "z", "w"]);
  });

  it("reads only metrics Prometheus knows, in the dashboard and in the rules", async () => {
    const { prometheus: prom } = running();
    const known = await knownNames(prom);
    const unknown: string[] = [];
    const waiting = new Set<string>();
    const registryOnly = new Set<string>();
    const reads = [
      ...panelQueries(buildDashboard()).map((q) => ({
        where: `panel ${q.panelId} "${q.panelTitle}" ${q.refId}`,
        expr: expandQuery(q.expr, EXPANSION),
      })),
      ...(await prom.rules()).flatMap((g) =>
        g.rules.map((r) => ({ where: `rule ${r.name}`, expr: r.query })),
      ),
    ];
    for (const { where, expr } of reads) {
      for (const name of metricNames(expr)) {
        if (NOT_YET_EXPORTED.has(name)) waiting.add(name);
        else if (REGISTRY_ONLY.has(name) || RETIRED_ONLY.has(name) || LOSSY_ONLY.has(name))
          registryOnly.add(name);
        else if (!known.has(name)) unknown.push(`${where}: ${name}`);
      }
    }
    expect(unknown).toEqual([]);
    for (const name of NOT_YET_EXPORTED) {
      expect(known.has(name), `${name} is exported now: delete it from NOT_YET_EXPORTED`).toBe(false);
      expect(waiting.has(name), `${name} is in NOT_YET_EXPORTED but nothing reads it`).toBe(true);
    }
    for (const name of REGISTRY_ONLY)
      expect(known.has(name), `${name} has series without a registry`).toBe(false);
    for (const name of RETIRED_ONLY)
      expect(known.has(name), `${name} has series without a retired version`).toBe(false);
    for (const name of LOSSY_ONLY)
      expect(known.has(name), `${name} has series without a lossy read`).toBe(false);
    expect([...registryOnly].sort()).toEqual([...REGISTRY_ONLY, ...RETIRED_ONLY, ...LOSSY_ONLY].sort());
  });

  it("runs every panel query without error and gets the series the story implies", async () => {
    const { prometheus: prom } = running();
    const queries = panelQueries(buildDashboard());
    const expectations = panelExpectations(topic);
    const stale = Object.keys(expectations).filter(
      (key) => !queries.some((q) => `${q.panelId} ${q.refId}` === key),
    );
    expect(stale, "panelExpectations() entries without a panel query").toEqual([]);
    await eventually(prom, "every panel query to return what the story implies", async () => {
      expect(await panelFailures(prom, queries, expectations)).toEqual([]);
    });
  });

  /** What is wrong with the panel queries' answers at this instant: one line per query, or none. */
  async function panelFailures(
    prom: RunningPrometheus,
    queries: ReturnType<typeof panelQueries>,
    expectations: Readonly<Record<string, Expectation>>,
  ): Promise<string[]> {
    const failures: string[] = [];
    for (const query of queries) {
      const key = `${query.panelId} ${query.refId}`;
      const where = `panel ${key} "${query.panelTitle}"`;
      const expr = expandQuery(query.expr, EXPANSION);
      const expectation = expectations[key];
      if (expectation === undefined) {
        failures.push(`${where}: no entry in panelExpectations()`);
        continue;
      }
      let samples: Sample[];
      try {
        samples = await prom.query(expr);
      } catch (error) {
        failures.push(`${where}: ${String(error)}`);
        continue;
      }
      const awaited = metricNames(expr).filter((name) => NOT_YET_EXPORTED.has(name));
      if (awaited.length > 0) {
        // reads a metric the monitor does not export yet: nothing may come back until it does
        if (samples.length > 0) failures.push(`${where}: series while ${awaited.join(", ")} is not exported`);
        continue;
      }
      try {
        expectation(samples);
      } catch (error) {
        failures.push(`${where}: ${error instanceof Error ? error.message : String(error)} (${expr})`);
      }
    }
    return failures;
  }

  it("finds the subject and both producers for the dashboard's variables", async () => {
    const { prometheus: prom } = running();
    const values = new Map<string, string[]>();
    for (const variable of variableQueries(buildDashboard())) {
      values.set(
        variable.name,
        await prom.labelValues(variable.label, expandQuery(variable.match, EXPANSION)),
      );
    }
    expect(values.get("subject")).toEqual(["event"]);
    expect(values.get("producer")).toEqual(expect.arrayContaining(["checkout", "legacy"]));
    // the tracked /amount and /event, and the profiled /id (every number the newest active version declares)
    expect(values.get("field")).toEqual(["/amount", "/event", "/id"]);
  });
});

describe("exact counts through the whole chain", () => {
  it("shows in Prometheus every record sent, and every validation, once the stream stops", async () => {
    const { prometheus: prom, monitor: mon, stream: traffic } = running();
    await traffic.stop();
    expect(traffic.error).toBeUndefined();
    const { legacy, checkout } = traffic.sent;
    expect(legacy).toBeGreaterThan(0);
    expect(checkout).toBe(legacy);
    const counted = () => mon.pipeline.tallies.records.reduce((sum, c) => sum + c.value, 0);
    await waitFor(() => counted() === legacy + checkout, `${legacy + checkout} records counted`);

    const selector = `{topic="${topic}"}`;
    const records = await prom.waitFor("Prometheus to scrape the final counts", async () => {
      const samples = await prom.query(
        `sum by (producer, writer_version) (schemawatch_records_total${selector})`,
      );
      return samples.reduce((sum, s) => sum + s.value, 0) === legacy + checkout ? samples : undefined;
    });
    expect(value(records, LEGACY)).toBe(legacy);
    expect(value(records, CHECKOUT)).toBe(checkout);

    const validations = await prom.query(
      `sum by (producer, reader_version, direction, result) (schemawatch_validations_total${selector}) > 0`,
    );
    expect(
      validations
        .map(
          (s) =>
            `${s.metric["producer"]} ${s.metric["reader_version"]} ${s.metric["direction"]} ${s.metric["result"]} ${s.value}`,
        )
        .sort(),
    ).toEqual(
      [
        `legacy 1.0.0 conformance pass ${legacy}`,
        `legacy 1.1.0 backward pass ${legacy}`,
        `legacy 2.0.0 backward fail ${legacy}`,
        `checkout 1.0.0 forward fail ${checkout}`,
        `checkout 1.1.0 conformance pass ${checkout}`,
        `checkout 2.0.0 backward pass ${checkout}`,
      ].sort(),
    );
    // every checkout document carries `amount`, which the closed 1.0.0 rejects before looking at `buy`
    const failures = await prom.query(
      `sum by (producer, reader_version, keyword) (schemawatch_validation_failures_total${selector}) > 0`,
    );
    expect(
      failures
        .map((s) => `${s.metric["producer"]} ${s.metric["reader_version"]} ${s.metric["keyword"]} ${s.value}`)
        .sort(),
    ).toEqual([`checkout 1.0.0 additionalProperties ${checkout}`, `legacy 2.0.0 required ${legacy}`]);
  });
});
