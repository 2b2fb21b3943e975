import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard } from "../../../grafana/src/dashboard.js";
import { expandQuery, panelQueries } from "../../../grafana/src/queries.js";
import { avroPayCapture, replayPay } from "../../helpers/binary-capture.js";
import { startPrometheus, type RunningPrometheus, type Sample } from "../../helpers/prometheus.js";

// The dashboard's lossy-read panels and its decode errors panel, answered by a real Prometheus for an
// Avro subject (issue 36): a monitor replays a capture of Confluent-framed Avro records (web still
// writes 1.0, which 2.0 reads with /note defaulted; app writes 2.0, whose /note 1.0 drops; one of
// app's bodies is cut short: avro_decode), and its exposition is served with every counter growing
// linearly with the time of the scrape (as test/integration/ops/producer-detail.test.ts does), so
// that rate() and increase() say something. Ratios of two such rates are the replayed counts' ratios.

const WINDOW = "20s";
const EXPANSION = { rateInterval: WINDOW, range: WINDOW };

let scratch = "";
let server: Server | undefined;
let prometheus: RunningPrometheus | undefined;

/** Serves `text` with every counter grown linearly with the time of the scrape, stamped with that time. */
async function serveGrowing(text: string): Promise<string> {
  const started = Date.now();
  server = createServer((_request, response) => {
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
        return `${sample[1]} ${counter ? Number(sample[2]) * factor : Number(sample[2])} ${now}`;
      });
    response.setHeader("content-type", "text/plain; version=0.0.4");
    response.end(`${lines.join("\n")}\n`);
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const pay = await avroPayCapture();
  scratch = pay.dir;
  const monitor = await replayPay(pay);
  let exposition: string;
  try {
    exposition = await (await fetch(`${monitor.address}/metrics`)).text();
  } finally {
    await monitor.stop();
  }
  prometheus = await startPrometheus({ targets: [await serveGrowing(exposition)] });
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  if (server) await new Promise((done) => server!.close(done));
  if (scratch !== "") await rm(scratch, { recursive: true, force: true });
});

/** A panel's query by panel id, with Grafana's variables expanded as "All" selects them. */
function panel(id: number): string {
  const query = panelQueries(buildDashboard()).find((q) => q.panelId === id && q.refId === "A")!;
  return expandQuery(query.expr, EXPANSION);
}

/**
 * The series above 0 (a counter the monitor exports at 0, as a JSON topic's decode reasons, stays 0),
 * asked once the scrapes cover more than the windows (25 of them at 1s, over 20s windows), when
 * rate() of a linear counter is its slope: a generous deadline, no fixed wait.
 */
async function answer(expr: string, series: number): Promise<Sample[]> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const [scrapes] = await prometheus!.query("count_over_time(up[30s])");
    const samples = (await prometheus!.query(expr)).filter((s) => Number.isFinite(s.value) && s.value > 0);
    if ((scrapes?.value ?? 0) >= 25 && samples.length >= series) return samples;
    if (Date.now() > deadline) throw new Error(`no answer to ${expr}: ${JSON.stringify(samples)}`);
    await new Promise((done) => setTimeout(done, 1000));
  }
}

const line = (s: Sample, ...labels: string[]) => labels.map((l) => s.metric[l] ?? "").join(" ");

describe("the dashboard's lossy reads and decode reasons for an Avro subject, by a real Prometheus", () => {
  it("draws the lossy-read rate per producer, writer, reader and direction", async () => {
    const samples = await answer(panel(31), 2);
    expect(
      samples
        .map(
          (s) =>
            `${line(s, "subject", "producer", "writer_version", "reader_version", "direction")} ${s.value}`,
        )
        .sort(),
    ).toEqual(["pay app 2.0.0 1.0.0 forward 1", "pay web 1.0.0 2.0.0 backward 1"]);
  });

  it("lists the lossy reads by rule, app's three for web's one", async () => {
    const samples = await answer(panel(32), 2);
    expect(
      samples
        .map((s) => line(s, "producer", "writer_version", "reader_version", "direction", "keyword"))
        .sort(),
    ).toEqual(["app 2.0.0 1.0.0 forward field_dropped", "web 1.0.0 2.0.0 backward field_defaulted"]);
    const of = (producer: string) => samples.find((s) => s.metric["producer"] === producer)!.value;
    expect(Math.round((of("app") / of("web")) * 1e9) / 1e9).toBe(3);
  });

  it("shows avro_decode among the decode errors from its first record", async () => {
    const samples = await answer(panel(13), 1);
    // one cut body: a rate of 1 per second of the served counters' growth
    expect(samples.map((s) => `${line(s, "topic", "reason")} ${Math.round(s.value * 1e9) / 1e9}`)).toEqual([
      "pay avro_decode 1",
    ]);
  });
});
