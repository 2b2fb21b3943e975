import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { buildDashboard } from "../../../grafana/src/dashboard.js";
import { expandQuery, panelQueries } from "../../../grafana/src/queries.js";
import { createLogger } from "../../../src/log.js";
import { startMonitor } from "../../../src/monitor/start.js";
import { startPrometheus, type RunningPrometheus, type Sample } from "../../helpers/prometheus.js";

// `metrics.producerDetail: false` must leave every alert and every dashboard panel with the same answer.
// Two monitors replay the bundled capture, one with the option and one without; each exposition is served
// to a real Prometheus of its own, which evaluates the project's rules. What each Prometheus answers is
// compared, at one instant, for every recording rule, every alert expression and every panel query:
// the monitor without producer detail must answer what the detailed one answers once `producer` is taken
// out of the `by (...)` lists of the queries that read validation series (in the rules, of the recording
// rules that do; the alerts read those recorded series, so their text is the project's on both sides).
//
// The series budget's folded form (metrics.seriesBudget one under the detailed monitor's series, so
// that summing over producers is enough; every producer kept only where it needs attention) is a third
// monitor and a third Prometheus, asked as the summed one is; its failing series must also name the
// same producers as the detailed monitor's. Its deeper form (metrics.seriesBudget: 0: summed over
// writers and topics too, passing readers summed, zeros left out) is a fourth, whose every alert
// expression and every would-fail ratio above 0 must answer as the detailed monitor's.
//
// Counts must move for rate() to say anything, and the two Prometheus servers scrape at their own
// moments: so each counter is served as its replayed value times a function of the time that grows
// linearly, with that time as the sample's timestamp. rate() of a linear counter is exact wherever the
// window is covered, whatever the scrape moments; both sides are asked about the same instant.

const RULES = "deploy/prometheus/schemawatch.rules.yaml";
const CAPTURE = "examples/traffic/events.ndjson";
/** Every range in the rules' copies and the panels: short, so the windows are covered after a few scrapes. */
const WINDOW = "20s";
const EXPANSION = { rateInterval: WINDOW, range: WINDOW };
/** The series `metrics.producerDetail: false` sums over producers: the validations and the field checks. */
const VALIDATION_SERIES = /schemawatch_validation|schemawatch_field_records/;

/** The queries that answer nothing on both sides, and why; every other one is compared on values. */
const NOTHING_TO_COMPARE: readonly string[] = [
  // a capture has no consumer group, hence no lag
  'panel 16 A "Consumer lag of schemawatch\'s own group"',
  "recording rule schemawatch:consumer_lag:records",
  "recording rule schemawatch:consumer_lag:seconds",
  "alert SchemawatchConsumerLagging",
  "alert SchemawatchTransactionOpen",
  // the bundled capture's traffic: nothing old fails a newer version still in use, no verdict is yes
  "alert SchemawatchBackwardIncompatibleTraffic",
  "alert SchemawatchCandidateReady",
  "alert SchemawatchDeprecatedVersionDrained",
  "alert SchemawatchDecodeErrorsHigh",
  "alert SchemawatchLabelOverflow",
  // no version of the bundled catalog is retired, and none deprecates a field
  "alert SchemawatchRetiredVersionTraffic",
  "alert SchemawatchDeprecatedFieldDrained",
  // the bundled traffic omits the optional /amount in most records: it is not ready to require
  "alert SchemawatchFieldReadyToRequire",
  // the bundled traffic keeps every field's scale and values: no field-statistics finding
  "alert SchemawatchFieldMeaningChanged",
  // JSON Schema has no lossy read: the capture's catalog is JSON Schema only
  'panel 31 A "Lossy-read rate per producer"',
  'panel 32 A "Lossy reads by rule in the selected range"',
  // the served exposition is up, ready, and follows no registry
  "alert SchemawatchAbsent",
  "alert SchemawatchDown",
  "alert SchemawatchNotReady",
  "alert SchemawatchRegistryDown",
];

let scratch = "";
const servers: Server[] = [];
const proms: RunningPrometheus[] = [];
let detailed: RunningPrometheus | undefined;
let summed: RunningPrometheus | undefined;
let budgeted: RunningPrometheus | undefined;
let deep: RunningPrometheus | undefined;
const expositions: Record<"detailed" | "summed" | "budgeted" | "deep", string> = {
  detailed: "",
  summed: "",
  budgeted: "",
  deep: "",
};
/** The metrics the budget folds at depth `writers`, beyond the validation series. */
const FOLDED_DEEP =
  /schemawatch_validation|schemawatch_field_records|schemawatch_records_total|schemawatch_decode_errors|schemawatch_tombstones|schemawatch_version_last_seen|schemawatch_candidate_ready|schemawatch_field_ready|schemawatch_fields_untracked|schemawatch_field_quantile|schemawatch_field_findings|schemawatch_series_folded/;

/** `producer` taken out of every `by (...)` list: what a query means over series that have no producer. */
function withoutProducer(expr: string): string {
  return expr.replace(/\bby\s*\(([^)]*)\)/g, (_, list: string) => {
    const kept = list
      .split(",")
      .map((l) => l.trim())
      .filter((l) => l !== "" && l !== "producer");
    return `by (${kept.join(", ")})`;
  });
}

async function replayed(name: string, metrics: string): Promise<string> {
  const example = await readFile("examples/config.yaml", "utf8");
  const config = join(scratch, `config-${name}.yaml`);
  await writeFile(
    config,
    example.replace("schemas: catalog/event", `schemas: ${resolve("examples/catalog/event")}`) +
      `metrics:\n  ${metrics}\n`,
  );
  const monitor = await startMonitor({
    configPath: config,
    source: { file: resolve(CAPTURE) },
    host: "127.0.0.1",
    port: 0,
    env: {},
    version: "0.0.0-producer-detail",
    logger: createLogger("silent"),
  });
  try {
    await monitor.replayed;
    return await (await fetch(`${monitor.address}/metrics`)).text();
  } finally {
    await monitor.stop();
  }
}

/** An exposition cut into its metrics' blocks (HELP, TYPE and samples), by metric name, in order. */
function blocks(text: string): Map<string, string[]> {
  const result = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const help = /^# HELP (\S+)/.exec(line);
    if (help) result.set(help[1]!, (current = []));
    current.push(line);
  }
  return result;
}

/**
 * The summed monitor's validation blocks with the detailed monitor's other blocks: prom-client's
 * process metrics differ between two processes, and the rest is asserted equal below.
 */
function summedExposition(detailedText: string, summedText: string, folded = VALIDATION_SERIES): string {
  const own = blocks(summedText);
  return [...blocks(detailedText)]
    .flatMap(([name, lines]) => (folded.test(name) ? own.get(name)! : lines))
    .join("\n");
}

/** The detailed exposition's schemawatch series, but the budget's own report: what the budget counts. */
const ownSeries = (text: string) =>
  text.split("\n").filter((l) => l.startsWith("schemawatch_") && !l.startsWith("schemawatch_series_folded"))
    .length;

/** Serves `text` with every counter grown linearly with the time of the scrape, stamped with that time. */
async function serveGrowing(text: string): Promise<string> {
  const started = Date.now();
  const server = createServer((_request, response) => {
    const now = Date.now();
    const factor = 1000 + (now - started) / 1000;
    let counter = false;
    const lines = text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => {
        if (line.startsWith("# TYPE ")) counter = line.endsWith(" counter");
        if (line.startsWith("#")) return line;
        const sample = /^(.*) (\S+)$/.exec(line)!;
        const value = Number(sample[2]);
        return `${sample[1]} ${counter ? value * factor : value} ${now}`;
      });
    response.setHeader("content-type", "text/plain; version=0.0.4");
    response.end(`${lines.join("\n")}\n`);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface RuleFile {
  groups: { rules: { alert?: string; record?: string; expr: string; for?: string }[] }[];
}

/** The project's rules with every range shortened; for the detailed side, producer taken out too. */
async function rulesCopy(name: string, stripProducer: boolean): Promise<string> {
  const rules = parse(await readFile(RULES, "utf8")) as RuleFile;
  for (const group of rules.groups) {
    for (const rule of group.rules) {
      rule.expr = rule.expr.replace(/\[\d+[smh]\]/g, `[${WINDOW}]`);
      if (stripProducer && rule.record !== undefined && VALIDATION_SERIES.test(rule.expr))
        rule.expr = withoutProducer(rule.expr);
    }
  }
  const path = join(scratch, name);
  await writeFile(path, stringify(rules));
  return path;
}

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "schemawatch-producer-detail-"));
  expositions.detailed = await replayed("detailed", "producerDetail: true");
  expositions.summed = await replayed("summed", "producerDetail: false");
  expositions.budgeted = await replayed("budgeted", `seriesBudget: ${ownSeries(expositions.detailed) - 1}`);
  expositions.deep = await replayed("deep", "seriesBudget: 0");
  const [detailedTarget, summedTarget, budgetedTarget, deepTarget] = [
    await serveGrowing(expositions.detailed),
    await serveGrowing(summedExposition(expositions.detailed, expositions.summed)),
    await serveGrowing(summedExposition(expositions.detailed, expositions.budgeted)),
    await serveGrowing(summedExposition(expositions.detailed, expositions.deep, FOLDED_DEEP)),
  ];
  detailed = await startPrometheus({
    targets: [detailedTarget],
    ruleFiles: [await rulesCopy("detailed.rules.yaml", true)],
  });
  proms.push(detailed);
  summed = await startPrometheus({
    targets: [summedTarget],
    ruleFiles: [await rulesCopy("summed.rules.yaml", false)],
  });
  proms.push(summed);
  budgeted = await startPrometheus({
    targets: [budgetedTarget],
    ruleFiles: [await rulesCopy("budgeted.rules.yaml", true)],
  });
  proms.push(budgeted);
  deep = await startPrometheus({
    targets: [deepTarget],
    ruleFiles: [await rulesCopy("deep.rules.yaml", true)],
  });
  proms.push(deep);
}, 240_000);

afterAll(async () => {
  await Promise.all(proms.map((p) => p.stop()));
  await Promise.all(servers.map((s) => new Promise((done) => s.close(done))));
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

function both(): [RunningPrometheus, RunningPrometheus] {
  if (detailed === undefined || summed === undefined) throw new Error("the Prometheus servers did not start");
  return [detailed, summed];
}

function folded(): [RunningPrometheus, RunningPrometheus] {
  if (detailed === undefined || budgeted === undefined)
    throw new Error("the Prometheus servers did not start");
  return [detailed, budgeted];
}

/** Waits until `other` answers every comparison as the detailed side does; returns what both left empty. */
async function sameAnswers(
  other: RunningPrometheus,
  ask: (c: Comparison) => string,
  only: (c: Comparison) => boolean = () => true,
): Promise<string[]> {
  const detailedProm = both()[0];
  const asked = comparisons().filter(only);
  // both sides scraped for longer than the windows, and the rules evaluated on that
  for (const prom of [detailedProm, other])
    await prom.waitFor(
      "the windows to be covered and the ratios recorded",
      async () => {
        const scrapes = await prom.query(`count_over_time(up[${WINDOW}])`);
        const ratios = await prom.query("schemawatch:validations_fail:ratio_rate5m");
        return (scrapes[0]?.value ?? 0) >= 15 && ratios.length > 0 ? true : undefined;
      },
      90_000,
    );
  let last: string[] = [];
  const empty = new Set<string>();
  await detailedProm
    .waitFor(
      "both sides to give the same answers",
      async () => {
        // an instant both have scraped past, with every window covered
        const at = Date.now() / 1000 - 3;
        const differences: string[] = [];
        for (const c of asked) {
          const [a, b] = [
            canonical(await detailedProm.query(c.detailed, at)),
            canonical(await other.query(ask(c), at)),
          ];
          if (b.length === 0) empty.add(c.where);
          if (JSON.stringify(a) !== JSON.stringify(b))
            differences.push(`${c.where}:\n  detailed ${JSON.stringify(a)}\n  other    ${JSON.stringify(b)}`);
        }
        last = differences;
        if (differences.length > 0) empty.clear();
        return differences.length === 0 ? true : undefined;
      },
      90_000,
    )
    .catch((error: unknown) => {
      throw new Error(`${String(error)}\n${last.join("\n")}`);
    });
  return [...empty].sort();
}

/** Samples as `{labels} value` lines, sorted; values to 9 significant digits, NaN as NaN. */
function canonical(samples: readonly Sample[]): string[] {
  return samples
    .map((s) => {
      const labels = Object.entries(s.metric)
        // each side has its own target, so its own instance
        .filter(([name]) => name !== "__name__" && name !== "instance")
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, value]) => `${name}="${value}"`)
        .join(",");
      return `{${labels}} ${Number.isNaN(s.value) ? "NaN" : Number(s.value.toPrecision(9))}`;
    })
    .sort();
}

interface Comparison {
  readonly where: string;
  /** asked of the detailed side */
  readonly detailed: string;
  /** asked of the summed side */
  readonly summed: string;
}

function comparisons(): Comparison[] {
  const rules = (parse(readFileSync(RULES, "utf8")) as RuleFile).groups.flatMap((g) => g.rules);
  return [
    ...rules.map((r) =>
      r.record !== undefined
        ? { where: `recording rule ${r.record}`, detailed: r.record, summed: r.record }
        : {
            where: `alert ${r.alert ?? "?"}`,
            detailed: r.expr.replace(/\[\d+[smh]\]/g, `[${WINDOW}]`),
            summed: r.expr.replace(/\[\d+[smh]\]/g, `[${WINDOW}]`),
          },
    ),
    ...panelQueries(buildDashboard()).map((q) => {
      const expr = expandQuery(q.expr, EXPANSION);
      return {
        where: `panel ${q.panelId} ${q.refId} "${q.panelTitle}"`,
        detailed: VALIDATION_SERIES.test(expr) ? withoutProducer(expr) : expr,
        summed: expr,
      };
    }),
  ];
}

describe("metrics.producerDetail: false against a real Prometheus", () => {
  it("exports the validation series without producer, and every other schemawatch series unchanged", () => {
    const [withDetail, without] = [blocks(expositions.detailed), blocks(expositions.summed)];
    const own = (all: Map<string, string[]>, validation: boolean) =>
      [...all].filter(([n]) => n.startsWith("schemawatch_") && VALIDATION_SERIES.test(n) === validation);
    expect(own(without, false)).toEqual(own(withDetail, false));
    const samples = (all: Map<string, string[]>) =>
      own(all, true).flatMap(([, lines]) => lines.filter((l) => !l.startsWith("#")));
    expect(samples(withDetail).every((l) => l.includes('producer="'))).toBe(true);
    expect(samples(without).some((l) => l.includes("producer="))).toBe(false);
    expect(samples(without).length).toBeLessThan(samples(withDetail).length);
  });

  it("gives every recording rule, alert expression and dashboard query the detailed monitor's answer, producer apart", async () => {
    // what has nothing to compare: series a capture has none of, and alerts that do not fire on it
    expect(await sameAnswers(both()[1], (c) => c.summed)).toEqual([...NOTHING_TO_COMPARE].sort());
  });

  it("is a comparison of something: the forward would-fail ratio and a per-producer panel have values", async () => {
    const [, summedProm] = both();
    const ratio = await summedProm.query(
      'schemawatch:validations_fail:ratio_rate5m{direction="forward",reader_version="1.0.0"}',
    );
    expect(ratio.map((s) => s.value).filter((v) => v > 0)).toHaveLength(1);
    const perProducer = await summedProm.query("schemawatch_producer:validations_fail:ratio_rate5m");
    expect(perProducer.length).toBeGreaterThan(0);
    expect(perProducer.every((s) => s.metric["producer"] === undefined)).toBe(true);
  });
});

describe("the series budget's folded form (metrics.seriesBudget: 0) against a real Prometheus", () => {
  const validationSamples = (text: string) =>
    text.split("\n").filter((l) => l.startsWith("schemawatch_validations_total{"));

  it("folds the series that need no attention, and says how many", () => {
    const [all, kept] = [validationSamples(expositions.detailed), validationSamples(expositions.budgeted)];
    const summedOnes = kept.filter((l) => !l.includes('producer="'));
    expect(summedOnes.length).toBeGreaterThan(0);
    // the deprecated 1.0.0 keeps its producers; the forward pair 1.1.0 > 1.0.0 fails and keeps them
    expect(summedOnes.some((l) => l.includes('writer_version="1.0.0"'))).toBe(false);
    expect(summedOnes.some((l) => l.includes('writer_version="1.1.0",reader_version="1.0.0"'))).toBe(false);
    expect(expositions.budgeted).toContain(
      `schemawatch_series_folded{metric="schemawatch_validations_total"} ${all.length - kept.length}`,
    );
    expect(expositions.detailed).toContain(
      'schemawatch_series_folded{metric="schemawatch_validations_total"} 0',
    );
  });

  it("gives every recording rule, alert expression and dashboard query the detailed monitor's answer, producer apart", async () => {
    expect(await sameAnswers(folded()[1], (c) => c.detailed)).toEqual([...NOTHING_TO_COMPARE].sort());
  });

  it("names the same producers as the detailed monitor wherever a pair would fail", async () => {
    const [detailedProm, budgetedProm] = folded();
    const failing = `sum by (producer, writer_version, reader_version, direction) (rate(schemawatch_validations_total{result="fail"}[${WINDOW}])) > 0`;
    const at = Date.now() / 1000 - 3;
    const [a, b] = [
      canonical(await detailedProm.query(failing, at)),
      canonical(await budgetedProm.query(failing, at)),
    ];
    expect(a.length).toBeGreaterThan(0);
    expect(a.every((l) => l.includes('producer="'))).toBe(true);
    expect(b).toEqual(a);
  });
});

describe("the series budget's deeper form (metrics.seriesBudget: 0) against a real Prometheus", () => {
  function deeper(): [RunningPrometheus, RunningPrometheus] {
    if (detailed === undefined || deep === undefined) throw new Error("the Prometheus servers did not start");
    return [detailed, deep];
  }
  const alerts = (c: Comparison) => c.where.startsWith("alert ");

  it("sums over writers and topics, sums the passes of readers no one fails, and says so", () => {
    const samples = expositions.deep
      .split("\n")
      .filter((l) => l.startsWith("schemawatch_validations_total{"));
    expect(samples.length).toBeGreaterThan(0);
    // what keeps its producers (a failing conformance pair) keeps its writer and topic; the sums have neither
    const sums = samples.filter((l) => !l.includes('producer="'));
    expect(sums.length).toBeGreaterThan(0);
    expect(sums.some((l) => l.includes("writer_version=") || l.includes("topic="))).toBe(false);
    expect(
      samples.filter((l) => l.includes('producer="')).every((l) => l.includes('direction="conformance"')),
    ).toBe(true);
    expect(samples.some((l) => l.endsWith(" 0"))).toBe(false);
    // the bundled traffic fails 1.0.0 forward: that reader keeps its own series
    expect(samples.some((l) => /reader_version="1\.0\.0",direction="forward",result="fail"/.test(l))).toBe(
      true,
    );
    const folded = /^schemawatch_series_folded\{metric="schemawatch_validations_total"\} (\d+)$/m.exec(
      expositions.deep,
    );
    const all = expositions.detailed
      .split("\n")
      .filter((l) => l.startsWith("schemawatch_validations_total{"));
    expect(Number(folded?.[1])).toBe(all.length - samples.length);
  });

  it("gives every alert expression the detailed monitor's answer, producer apart", async () => {
    expect(await sameAnswers(deeper()[1], (c) => c.detailed, alerts)).toEqual(
      NOTHING_TO_COMPARE.filter((w) => w.startsWith("alert ")).sort(),
    );
  });

  it("gives the same would-fail ratios wherever they are above 0", async () => {
    const [detailedProm, deepProm] = deeper();
    const at = Date.now() / 1000 - 3;
    const ratios = "schemawatch:validations_fail:ratio_rate5m > 0";
    const [a, b] = [
      canonical(await detailedProm.query(ratios, at)),
      canonical(await deepProm.query(ratios, at)),
    ];
    expect(a.length).toBeGreaterThan(0);
    expect(b).toEqual(a);
  });
});
