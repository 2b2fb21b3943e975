// The monitor with a registry catalog, through the real broker (KAFKA_BROKERS) and the real registry
// (SCHEMA_REGISTRY_URL, Apicurio). The config names no wire id: every id comes from the registry.
// The registry is reached through a proxy of the test's own, which counts requests and checks basic
// auth (Apicurio's own basic auth needs an OIDC server, which cannot run here); closing the proxy is
// how the registry goes away mid-run, as a stopped registry does (connection refused), while the
// shared registry stays up for the other tests.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { createLogger } from "../../../src/log.js";
import { startMonitor, type RunningMonitor } from "../../../src/monitor/start.js";
import { renderReport } from "../../../src/report/render.js";
import { writeTree } from "../../helpers/files.js";
import {
  createTopic,
  freshGroupId,
  freshTopic,
  kafkaBrokers,
  produce,
  waitFor,
} from "../../helpers/kafka.js";
import { countedRecords, metricValue, startLiveMonitor } from "../../helpers/live.js";
import { wire } from "../../helpers/monitor.js";
import {
  freshSubject,
  register,
  registryUrl,
  setCompatibility,
  startProxy,
  type TestProxy,
} from "../../helpers/registry.js";

const url = registryUrl();
const KEY = "SWMONKEY";
const SECRET = "s3cr3t/monitor+key==";

let proxies: TestProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

/** Log lines of a monitor, parsed. */
function capture(): { logger: ReturnType<typeof createLogger>; messages: () => string[] } {
  const lines: string[] = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
  return { logger, messages: () => lines.map((l) => (JSON.parse(l) as { msg: string }).msg) };
}

async function scrape(monitor: RunningMonitor): Promise<string> {
  return (await fetch(`${monitor.address}/metrics`)).text();
}

const subjectOf = (monitor: RunningMonitor) => monitor.pipeline.subjects.get("order")!.subject;

describe("the monitor with a registry catalog", () => {
  it("counts and validates per producer and registered version with no id in the YAML, and follows new versions and unknown ids", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-registry");
    await createTopic(brokers, topic, 1);
    const addressSubject = freshSubject("address");
    const subject = freshSubject("order");
    const address = {
      title: addressSubject,
      type: "object",
      properties: { street: { type: "string" } },
      required: ["street"],
    };
    await register(url, addressSubject, address);
    const reference = [{ name: "address.json", subject: addressSubject, version: 1 }];
    const ship = { $ref: "address.json" };
    const id1 = await register(
      url,
      subject,
      { title: subject, type: "object", properties: { id: { type: "integer" }, ship }, required: ["id"] },
      reference,
    );
    const id2 = await register(
      url,
      subject,
      {
        title: subject,
        type: "object",
        properties: { id: { type: "integer" }, ship, amount: { type: "number" } },
        required: ["id", "amount"],
      },
      reference,
    );

    let rejected = 0;
    const expected = `Basic ${Buffer.from(`${KEY}:${SECRET}`).toString("base64")}`;
    const proxy = await startProxy(url, (request, response) => {
      if (request.headers["authorization"] === expected) return true;
      rejected++;
      response.writeHead(401, { "content-type": "application/json" });
      response.end(JSON.stringify({ error_code: 40101, message: "Unauthorized" }));
      return false;
    });
    proxies.push(proxy);
    const dir = await writeTree({ "secret.txt": `${SECRET}\n` });
    const yaml = `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
logLevel: silent
registries:
  main:
    url: ${proxy.url}
    pollInterval: 1h
    # The new version's records wait for its lookup (the id, then the subject, then a compile): 5 s
    # by default, which a registry on cores shared with two CPU-bound processes may need (CI).
    lookupWait: 20s
    auth: { type: basic, usernameEnv: SR_KEY, passwordFile: secret.txt }
subjects:
  - name: order
    topics: [${topic}]
    registry:
      name: main
      subject: ${subject}
`;
    expect(yaml).not.toContain("confluentId");
    await writeFile(join(dir, "config.yaml"), yaml);
    const logs = capture();
    const startedAt = Date.now();
    const monitor = await startLiveMonitor(
      join(dir, "config.yaml"),
      { SR_KEY: KEY },
      { logger: logs.logger },
    );
    expect(subjectOf(monitor).versions.map((v) => [v.version.text, v.confluentId, v.status])).toEqual([
      ["1", id1, "active"],
      ["2", id2, "active"],
    ]);
    await waitFor(() => monitor.health.ready, "the monitor to be assigned its partition");

    const web = { producer: "web" };
    await produce(brokers, topic, [
      ...Array.from({ length: 10 }, (_, i) => ({
        value: wire(id1, { id: i, ship: { street: "Main" } }),
        headers: web,
      })),
      ...Array.from({ length: 6 }, (_, i) => ({
        value: wire(id2, { id: i, amount: 5, ship: { street: "Side" } }),
        headers: { producer: "mobile" },
      })),
      // The reference resolves: a ship without a street fails version 1 where address.json requires it.
      ...Array.from({ length: 4 }, (_, i) => ({
        value: wire(id1, { id: i, ship: {} }),
        headers: { producer: "legacy" },
      })),
    ]);
    await waitFor(() => countedRecords(monitor) === 20, "20 records to be counted");
    let text = await scrape(monitor);
    const series = (labels: string) => `{topic="${topic}",subject="order",${labels}}`;
    const records = (producer: string, writer: string) =>
      metricValue(
        text,
        `schemawatch_records_total${series(`producer="${producer}",writer_version="${writer}"`)}`,
      );
    const validations = (
      producer: string,
      writer: string,
      reader: string,
      direction: string,
      result: string,
    ) =>
      metricValue(
        text,
        `schemawatch_validations_total${series(`producer="${producer}",writer_version="${writer}",reader_version="${reader}",direction="${direction}",result="${result}"`)}`,
      );
    expect([records("web", "1"), records("mobile", "2"), records("legacy", "1")]).toEqual([10, 6, 4]);
    expect(validations("web", "1", "1", "conformance", "pass")).toBe(10);
    expect(validations("web", "1", "2", "backward", "fail")).toBe(10);
    expect(validations("mobile", "2", "1", "forward", "pass")).toBe(6);
    expect(validations("mobile", "2", "2", "conformance", "pass")).toBe(6);
    expect(validations("legacy", "1", "1", "conformance", "fail")).toBe(4);
    expect(
      metricValue(
        text,
        `schemawatch_validation_failures_total${series('producer="legacy",writer_version="1",reader_version="1",direction="conformance",keyword="required"')}`,
      ),
    ).toBe(4);
    // The catalog knew both ids from reading the subject: no id was looked up.
    expect(proxy.requests.filter((r) => r.includes("/schemas/ids/"))).toEqual([]);

    // A burst of records with an id nobody registered: counted as unknown, one request for all of them.
    const bad = 2_000_000_000 + Math.floor(Math.random() * 100_000_000);
    await produce(
      brokers,
      topic,
      Array.from({ length: 200 }, (_, i) => ({ value: wire(bad, { id: i }), headers: { producer: "junk" } })),
    );
    await waitFor(() => countedRecords(monitor) === 220, "220 records to be counted");
    await waitFor(
      async () =>
        metricValue(
          await scrape(monitor),
          'schemawatch_registry_id_lookups_total{registry="main",result="missing"}',
        ) === 1,
      "the lookup of the bad id to end",
    );
    expect(proxy.count(`/schemas/ids/${bad}`)).toBe(1);
    text = await scrape(monitor);
    expect(records("junk", "unknown")).toBe(200);
    expect(
      metricValue(text, `schemawatch_decode_errors_total{topic="${topic}",reason="unknown_schema_id"}`),
    ).toBe(200);

    // A version registered while the monitor runs (the next poll is an hour away): its first records
    // wait for the one lookup of its id, which finds it and has the subject read at once, and count
    // as that version.
    const id3 = await register(url, subject, {
      title: subject,
      type: "object",
      properties: { id: { type: "integer" }, amount: { type: "number" }, currency: { enum: ["EUR", "USD"] } },
      required: ["id", "amount", "currency"],
    });
    // Set after registering: Apicurio's compatibility check fails on subjects with references.
    await setCompatibility(url, subject, "BACKWARD");
    const payment = (i: number) => ({
      value: wire(id3, { id: i, amount: 1, currency: "EUR" }),
      headers: { producer: "new" },
    });
    await produce(
      brokers,
      topic,
      Array.from({ length: 5 }, (_, i) => payment(i)),
    );
    await waitFor(() => countedRecords(monitor) === 225, "225 records to be counted");
    await waitFor(() => subjectOf(monitor).byVersion.has("3"), "version 3 to enter the catalog");
    expect(proxy.count(`/schemas/ids/${id3}`)).toBe(1);
    await produce(
      brokers,
      topic,
      Array.from({ length: 7 }, (_, i) => payment(i)),
    );
    await waitFor(() => countedRecords(monitor) === 232, "232 records to be counted");
    text = await scrape(monitor);
    expect([records("new", "unknown") ?? 0, records("new", "3")]).toEqual([0, 12]);
    expect(validations("new", "3", "3", "conformance", "pass")).toBe(12);
    expect(validations("new", "3", "2", "forward", "pass")).toBe(12);
    expect(
      metricValue(text, 'schemawatch_schema_version_info{subject="order",version="3",status="active"}'),
    ).toBe(1);
    expect(proxy.count(`/schemas/ids/${id3}`)).toBe(1);
    expect(logs.messages()).toContain(
      `new version registered: order 3 (registry main: ${subject} version 3, id ${id3}, active)`,
    );

    text = await scrape(monitor);
    expect(metricValue(text, 'schemawatch_registry_up{registry="main"}')).toBe(1);
    expect(metricValue(text, 'schemawatch_registry_id_lookups_total{registry="main",result="found"}')).toBe(
      1,
    );
    // read by this monitor, since it started: between its start and now, however long that took
    const lastSuccess = metricValue(
      text,
      'schemawatch_registry_last_success_timestamp_seconds{registry="main"}',
    );
    expect(lastSuccess).toBeGreaterThanOrEqual(Math.floor(startedAt / 1000));
    expect(lastSuccess).toBeLessThanOrEqual(Date.now() / 1000);
    // The registry's own verdict beside the evidence, in the JSON and in every rendering.
    const report = (await (await fetch(`${monitor.address}/api/report`)).json()) as ReturnType<
      RunningMonitor["report"]
    >;
    expect(report.subjects[0]!.registry).toMatchObject({
      name: "main",
      url: proxy.url,
      subject,
      compatibility: { level: "BACKWARD", source: "subject" },
      up: true,
      downSince: null,
      leftOut: [],
    });
    const rendered = renderReport(report, "text");
    expect(rendered).toContain(`registry main: ${subject}`);
    expect(rendered).toContain("BACKWARD (the subject's own level)");
    // Every request carried the credentials read from the file.
    expect(rejected).toBe(0);
  });

  it("keeps counting and validating while the registry is down, says so, and withholds drained verdicts until it answers", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-registry-down");
    await createTopic(brokers, topic, 1);
    const subject = freshSubject("down");
    const schema = (properties: Record<string, unknown>) => ({ title: subject, type: "object", properties });
    await register(url, subject, schema({ a: { type: "string" } }));
    const id2 = await register(url, subject, schema({ a: { type: "string" }, b: { type: "integer" } }));
    let proxy = await startProxy(url);
    proxies.push(proxy);
    const port = Number(new URL(proxy.url).port);
    const dir = await writeTree({
      "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
logLevel: silent
state: { file: state.json }
registries:
  main: { url: "${proxy.url}", pollInterval: 1s, timeout: 1s, retries: 0 }
subjects:
  - name: order
    topics: [${topic}]
    drainWindow: 2s
    registry:
      name: main
      subject: ${subject}
      versions:
        "1": { status: deprecated }
`,
    });
    const monitor = await startLiveMonitor(join(dir, "config.yaml"));
    await waitFor(() => monitor.health.ready, "the monitor to be assigned its partition");
    const app = (n: number, id = id2) =>
      Array.from({ length: n }, (_, i) => ({
        value: wire(id, { a: "x", b: i }),
        headers: { producer: "app" },
      }));
    await produce(brokers, topic, app(10));
    await waitFor(() => countedRecords(monitor) === 10, "10 records to be counted");
    const verdict = () => monitor.report().subjects[0]!.versions.find((v) => v.version === "1")!.verdict!;
    await waitFor(() => verdict().yes, "version 1 to be drained");

    // Followed by polling: a version registered now enters the catalog within a poll or two.
    const id3 = await register(url, subject, schema({ a: { type: "string" }, c: { type: "boolean" } }));
    await waitFor(() => subjectOf(monitor).byVersion.has("3"), "version 3 to enter the catalog");

    await proxy.close();
    proxies = proxies.filter((p) => p !== proxy);
    await waitFor(
      () => monitor.health.problems().some((p) => p.key === "registry-down:main"),
      "the registry to be reported down",
    );
    await produce(brokers, topic, [...app(10), ...app(5, id3)]);
    await waitFor(
      () => countedRecords(monitor) === 25,
      "25 records to be counted while the registry is down",
    );
    const text = await scrape(monitor);
    const series = (labels: string) => `{topic="${topic}",subject="order",producer="app",${labels}}`;
    expect(metricValue(text, `schemawatch_records_total${series('writer_version="2"')}`)).toBe(20);
    expect(metricValue(text, `schemawatch_records_total${series('writer_version="3"')}`)).toBe(5);
    expect(
      metricValue(
        text,
        `schemawatch_validations_total${series('writer_version="2",reader_version="2",direction="conformance",result="pass"')}`,
      ),
    ).toBe(20);
    expect(metricValue(text, 'schemawatch_registry_up{registry="main"}')).toBe(0);
    const down = monitor.report().subjects[0]!.registry!;
    expect(down.up).toBe(false);
    const since = down.downSince!;
    expect(verdict().yes).toBe(false);
    expect(verdict().reasons).toEqual([
      `registry main down since ${since.replace(/:\d\d\.\d{3}Z$/, "Z")}: a version registered meanwhile could be what the records carry`,
    ]);
    const ready = await fetch(`${monitor.address}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { problems: Array<{ problem: string }> };
    expect(body.problems.map((p) => p.problem)).toEqual([
      expect.stringMatching(new RegExp(`^registry main down since ${since.replace(/\./g, "\\.")}: `)),
    ]);

    // The registry answers again: the verdict is back without restarting the window.
    proxy = await startProxy(url, undefined, port);
    proxies.push(proxy);
    await waitFor(() => monitor.report().subjects[0]!.registry!.up, "the registry to answer again");
    expect(verdict().yes).toBe(true);
    expect(monitor.health.problems().some((p) => p.key === "registry-down:main")).toBe(false);

    // A restart while the registry is down still knows the registered versions: the state file kept them.
    await monitor.stop();
    await proxy.close();
    proxies = [];
    const restarted = await startLiveMonitor(join(dir, "config.yaml"));
    expect(subjectOf(restarted).versions.map((v) => [v.version.text, v.confluentId, v.status])).toEqual([
      ["1", expect.any(Number), "deprecated"],
      ["2", id2, "active"],
      ["3", id3, "active"],
    ]);
    expect(restarted.health.catalogLoaded).toBe(true);
    expect(restarted.report().subjects[0]!.registry!.up).toBe(false);
  });

  it("replays a capture with a registry catalog, offline", async () => {
    const subject = freshSubject("replay");
    const schema = (required: string[]) => ({
      title: subject,
      type: "object",
      properties: { n: { type: "integer" }, m: { type: "integer" } },
      required,
    });
    const id1 = await register(url, subject, schema(["n"]));
    const id2 = await register(url, subject, schema(["n", "m"]));
    const line = (offset: number, id: number, document: unknown) =>
      JSON.stringify({
        topic: "replayed",
        partition: 0,
        offset,
        timestamp: Date.parse("2026-12-01T08:00:00Z") + offset * 1000,
        headers: { producer: "batch" },
        value: { base64: wire(id, document).toString("base64") },
      });
    const lines = [
      ...Array.from({ length: 3 }, (_, i) => line(i, id1, { n: i })),
      ...Array.from({ length: 2 }, (_, i) => line(3 + i, id2, { n: i, m: i })),
    ];
    const dir = await writeTree({
      "capture.ndjson": `${lines.join("\n")}\n`,
      "config.yaml": `logLevel: silent
registries:
  main: { url: "${url}" }
subjects:
  - name: order
    topics: [replayed]
    registry: { name: main, subject: ${subject} }
`,
    });
    const monitor = await startMonitor({
      configPath: join(dir, "config.yaml"),
      source: { file: join(dir, "capture.ndjson") },
      port: 0,
      host: "127.0.0.1",
      env: {},
      version: "test",
      logger: createLogger("silent"),
    });
    try {
      await monitor.replayed;
      const status = monitor.status();
      expect(status.subjects[0]!.producers).toEqual([
        {
          producer: "batch",
          records: 5,
          byWriter: { "1": 3, "2": 2 },
          readers: {
            "1": {
              conformance: { validations: 3, failed: 0, wouldFailRate: 0 },
              forward: { validations: 2, failed: 0, wouldFailRate: 0 },
            },
            "2": {
              backward: { validations: 3, failed: 3, wouldFailRate: 1 },
              conformance: { validations: 2, failed: 0, wouldFailRate: 0 },
            },
          },
        },
      ]);
    } finally {
      await monitor.stop();
    }
  });
});
