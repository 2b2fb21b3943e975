import { describe, expect, it } from "vitest";
import { buildServer } from "../../../src/http/server.js";
import { FieldTallies } from "../../../src/fields/tallies.js";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { METRICS } from "../../../src/metrics/definitions.js";
import { Health } from "../../../src/health/health.js";
import { buildStatus } from "../../../src/report/status.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

async function app() {
  const { pipeline, catalog } = await eventPipeline("    producer:\n      allow: [web, mobile]\n");
  const health = new Health();
  const registry = createRegistry({
    pipeline,
    health,
    catalog: () => catalog,
    version: "9.9.9",
    fields: new FieldTallies(catalog),
  });
  const server = buildServer({ registry, health, status: () => buildStatus(catalog, pipeline, health) });
  return { pipeline, health, server, registry };
}

/** The value of one exposition line, e.g. `name{a="b"} 3` → 3; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe("HTTP", () => {
  it("exports every declared metric, with known label sets at zero before any traffic", async () => {
    const { server } = await app();
    const response = await server.inject("/metrics");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = response.body;
    for (const metric of Object.values(METRICS))
      expect(text).toContain(`# TYPE ${metric.name} ${metric.type}`);
    expect(
      sample(
        text,
        'schemawatch_records_total{topic="events",subject="event",producer="web",writer_version="1.0.0"}',
      ),
    ).toBe(0);
    expect(
      sample(
        text,
        'schemawatch_records_total{topic="events",subject="event",producer="other",writer_version="none"}',
      ),
    ).toBe(0);
    expect(
      sample(
        text,
        'schemawatch_validations_total{topic="events",subject="event",producer="mobile",writer_version="1.1.0",reader_version="1.0.0",direction="forward",result="fail"}',
      ),
    ).toBe(0);
    expect(sample(text, 'schemawatch_decode_errors_total{topic="events",reason="not_json"}')).toBe(0);
    expect(
      sample(text, 'schemawatch_schema_version_info{subject="event",version="1.0.0",status="deprecated"}'),
    ).toBe(1);
    expect(
      sample(text, 'schemawatch_version_last_seen_timestamp_seconds{subject="event",version="1.1.0"}'),
    ).toBe(0);
    expect(sample(text, 'schemawatch_sample_ratio{subject="event"}')).toBe(1);
    expect(sample(text, 'schemawatch_label_overflow_total{label="producer"}')).toBe(0);
    expect(sample(text, 'schemawatch_assigned_partitions{topic="events"}')).toBe(0);
    expect(sample(text, "schemawatch_broker_up")).toBe(0);
    expect(sample(text, `schemawatch_build_info{version="9.9.9",node_version="${process.version}"}`)).toBe(1);
  });

  it("counts traffic exactly on /metrics and /api/status", async () => {
    const { server, pipeline } = await app();
    for (let i = 0; i < 3; i++)
      pipeline.process(
        record(
          { id: i, event: "view" },
          { producer: "web", "schema-version": "1.0" },
          { timestamp: 1796112000000 + i * 1000 },
        ),
      );
    pipeline.process(
      record({ id: 9, event: "buy", amount: 1 }, { producer: "mobile", "schema-version": "1.1" }),
    );
    pipeline.process(record(undefined, { producer: "mobile" }, { raw: Buffer.from("nope") }));
    const text = (await server.inject("/metrics")).body;
    expect(
      sample(
        text,
        'schemawatch_records_total{topic="events",subject="event",producer="web",writer_version="1.0.0"}',
      ),
    ).toBe(3);
    expect(
      sample(
        text,
        'schemawatch_validations_total{topic="events",subject="event",producer="mobile",writer_version="1.1.0",reader_version="1.0.0",direction="forward",result="fail"}',
      ),
    ).toBe(1);
    expect(
      sample(
        text,
        'schemawatch_validation_failures_total{topic="events",subject="event",producer="mobile",writer_version="1.1.0",reader_version="1.0.0",direction="forward",keyword="additionalProperties"}',
      ),
    ).toBe(1);
    expect(sample(text, 'schemawatch_decode_errors_total{topic="events",reason="not_json"}')).toBe(1);
    expect(
      sample(text, 'schemawatch_version_last_seen_timestamp_seconds{subject="event",version="1.0.0"}'),
    ).toBe(1796112002);

    const status = (await server.inject("/api/status")).json();
    const subject = status.subjects[0];
    // The record that is not JSON declares no version in a header, so finding one meant parsing it
    // (the default sources end with the payload pointer): its version is unknown, not absent.
    expect(subject.records).toBe(5);
    expect(subject.undeclared).toBe(0);
    expect(subject.unreadable).toBe(1);
    expect(subject.versions.map((v: { version: string; records: number }) => [v.version, v.records])).toEqual(
      [
        ["1.0.0", 3],
        ["1.1.0", 1],
        ["2.0.0", 0],
      ],
    );
    expect(subject.versions[0].wouldFail).toEqual({
      conformance: { validations: 3, failed: 0, wouldFailRate: 0 },
      forward: { validations: 1, failed: 1, wouldFailRate: 1 },
    });
    const mobile = subject.producers.find((p: { producer: string }) => p.producer === "mobile");
    expect(mobile.byWriter).toEqual({ "1.1.0": 1, unknown: 1 });
    expect(mobile.readers["1.0.0"]).toEqual({ forward: { validations: 1, failed: 1, wouldFailRate: 1 } });
    expect(status.decodeErrors).toEqual({ events: { not_json: 1 } });
  });

  it("answers /healthz at once and /readyz 503 until the catalog, broker and partitions are there", async () => {
    const { server, health } = await app();
    expect((await server.inject("/healthz")).json()).toEqual({ status: "ok" });
    let ready = await server.inject("/readyz");
    expect([ready.statusCode, ready.json()]).toEqual([
      503,
      { status: "not ready", reason: "catalog not loaded" },
    ]);
    health.catalogLoaded = true;
    health.lastError = "connect ECONNREFUSED 127.0.0.1:9092";
    ready = await server.inject("/readyz");
    expect(ready.json().reason).toBe("broker unreachable: connect ECONNREFUSED 127.0.0.1:9092");
    health.brokerUp = true;
    expect((await server.inject("/readyz")).json().reason).toBe("no partitions assigned yet");
    health.assigned.set("events", new Set([0, 1]));
    ready = await server.inject("/readyz");
    expect([ready.statusCode, ready.json()]).toEqual([200, { status: "ready" }]);
    expect(sample((await server.inject("/metrics")).body, "schemawatch_ready")).toBe(1);
  });

  it("answers another method on a known path with 405 and the methods it takes", async () => {
    const { server } = await app();
    for (const [method, url] of [
      ["POST", "/metrics"],
      ["DELETE", "/api/status"],
      ["PUT", "/readyz?x=1"],
    ] as const) {
      const response = await server.inject({ method, url });
      expect([method, url, response.statusCode, response.headers["allow"]]).toEqual([
        method,
        url,
        405,
        "GET, HEAD",
      ]);
    }
    expect((await server.inject({ method: "POST", url: "/metrics" })).json()).toEqual({
      statusCode: 405,
      error: "Method Not Allowed",
      message: "POST /metrics: this path answers GET, HEAD",
    });
    expect((await server.inject({ method: "HEAD", url: "/metrics" })).statusCode).toBe(200);
    const missing = await server.inject("/nothing-here");
    expect([missing.statusCode, missing.headers["allow"], missing.json().message]).toEqual([
      404,
      undefined,
      "no /nothing-here here: the monitor serves /api/status, /healthz, /metrics, /readyz",
    ]);
  });

  it("renders /metrics once for the scrapes that arrive together, and afresh for a later one", async () => {
    const { server, pipeline, registry } = await app();
    let renders = 0;
    const render = registry.metrics.bind(registry);
    registry.metrics = () => {
      renders++;
      return render();
    };
    const bodies = await Promise.all(Array.from({ length: 50 }, () => server.inject("/metrics")));
    expect([renders, new Set(bodies.map((b) => b.body)).size]).toEqual([1, 1]);
    pipeline.process(record({ id: 1, event: "view" }, { producer: "web", "schema-version": "1.0" }));
    const after = (await server.inject("/metrics")).body;
    expect(renders).toBe(2);
    expect(
      sample(
        after,
        'schemawatch_records_total{topic="events",subject="event",producer="web",writer_version="1.0.0"}',
      ),
    ).toBe(1);
  });
});
