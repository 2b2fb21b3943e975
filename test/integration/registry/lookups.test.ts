// Lookups of unknown schema ids by the live monitor, through the real broker (KAFKA_BROKERS) and the
// real registry (SCHEMA_REGISTRY_URL, Apicurio), issue 16: a flood of distinct unregistered ids costs
// the registry a bounded number of requests and never makes it look down; and the first records of a
// version registered a moment ago count under that version. A proxy of the test's own sits in front
// of the registry, counts what reaches it and, for the flood, answers slowly, as a loaded registry does.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import type { RunningMonitor } from "../../../src/monitor/start.js";
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
import { freshSubject, register, registryUrl } from "../../helpers/registry.js";

const url = registryUrl();

interface SlowProxy {
  readonly url: string;
  readonly requests: string[];
  /** The most `/schemas/ids/` requests the registry had at once. */
  readonly maxIdsInFlight: number;
  close(): Promise<void>;
}

/** A proxy that forwards every request to the registry `delayMs` after it came. */
async function slowProxy(target: string, delayMs: number): Promise<SlowProxy> {
  const upstream = new URL(target);
  const requests: string[] = [];
  let idsInFlight = 0;
  let maxIdsInFlight = 0;
  const server: Server = createServer((incoming, outgoing) => {
    requests.push(`${incoming.method} ${incoming.url}`);
    const id = incoming.url!.includes("/schemas/ids/");
    if (id) maxIdsInFlight = Math.max(maxIdsInFlight, ++idsInFlight);
    outgoing.once("close", () => {
      if (id) idsInFlight--;
    });
    setTimeout(() => {
      const headers = { ...incoming.headers, host: upstream.host };
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: incoming.method,
          path: incoming.url,
          headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forward.on("error", (error) => outgoing.writeHead(502).end(String(error)));
      incoming.pipe(forward);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname.replace(/\/+$/, "")}`,
    requests,
    get maxIdsInFlight() {
      return maxIdsInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const proxies: SlowProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function scrape(monitor: RunningMonitor): Promise<string> {
  return (await fetch(`${monitor.address}/metrics`)).text();
}

/** Counted, with none still waiting for a lookup or a validation. */
const settled = (monitor: RunningMonitor, n: number) =>
  monitor.pipeline.waitingForLookups === 0 && countedRecords(monitor) === n;

async function startFollowing(proxyUrl: string, topic: string, subject: string, registryKeys: string) {
  const brokers = await kafkaBrokers();
  const dir = await writeTree({
    "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
logLevel: silent
registries:
  main: { url: "${proxyUrl}", ${registryKeys} }
subjects:
  - name: order
    topics: [${topic}]
    registry: { name: main, subject: ${subject} }
`,
  });
  const monitor = await startLiveMonitor(join(dir, "config.yaml"));
  await waitFor(() => monitor.health.ready, "the monitor to be assigned its partition", 30_000);
  return monitor;
}

describe("lookups of unknown schema ids", () => {
  it("bounds the requests a flood of distinct unregistered ids sends to a slow registry, which stays up", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-id-flood");
    await createTopic(brokers, topic, 1);
    const subject = freshSubject("flood");
    await register(url, subject, { title: subject, type: "object", properties: { id: { type: "integer" } } });
    // Every request waits 300 ms: 5 000 lookups queued on the client's 8 sockets would take minutes,
    // and a poll queued behind them would time out (timeout 1s) although the registry answers all.
    const proxy = await slowProxy(url, 300);
    proxies.push(proxy);
    const started = Date.now();
    const monitor = await startFollowing(
      proxy.url,
      topic,
      subject,
      "pollInterval: 1s, timeout: 1s, retries: 0, lookupsInFlight: 2, lookupsPerSecond: 5",
    );

    const RECORDS = 5_000;
    // Far above any id a test registry hands out, and new on each run.
    const base = 1_500_000_000 + Math.floor(Math.random() * 400_000_000);
    const polls = () => proxy.requests.filter((r) => r.includes(`/subjects/${subject}/versions`)).length;
    const up: number[] = [];
    const sampleUp = async () =>
      void up.push(metricValue(await scrape(monitor), 'schemawatch_registry_up{registry="main"}')!);
    // Five sends of 1 000, each followed by a poll of the registry, so that polls run amid the flood.
    for (let send = 0; send < 5; send++) {
      const before = polls();
      await produce(
        brokers,
        topic,
        Array.from({ length: RECORDS / 5 }, (_, i) => ({
          value: wire(base + send * (RECORDS / 5) + i, { id: i }),
          headers: { producer: "flood" },
        })),
      );
      await waitFor(
        async () => {
          await sampleUp();
          return polls() > before;
        },
        "a poll of the registry during the flood",
        20_000,
        100,
      );
    }
    await waitFor(
      async () => {
        await sampleUp();
        return settled(monitor, RECORDS);
      },
      `${RECORDS} records to be counted`,
      60_000,
      100,
    );
    const elapsed = (Date.now() - started) / 1000;
    const text = await scrape(monitor);
    const lookups = (result: string) =>
      metricValue(text, `schemawatch_registry_id_lookups_total{registry="main",result="${result}"}`)!;
    const skipped = metricValue(text, 'schemawatch_registry_id_lookups_skipped_total{registry="main"}')!;
    const idRequests = proxy.requests.filter((r) => r.includes("/schemas/ids/")).length;

    // Each distinct id was looked up once (a miss is one request) or skipped at a bound: no id twice.
    expect([lookups("found"), lookups("failed"), lookups("unsupported")]).toEqual([0, 0, 0]);
    expect(lookups("missing") + skipped).toBe(RECORDS);
    expect(idRequests).toBe(lookups("missing"));
    // At most 2 at once, and 5 a second (5 at the start, then one each 200 ms).
    expect(proxy.maxIdsInFlight).toBeLessThanOrEqual(2);
    expect(idRequests).toBeGreaterThan(0);
    expect(idRequests).toBeLessThanOrEqual(5 + Math.ceil(5 * elapsed));
    // Every record counted, each as unknown: none lost, none twice.
    expect(
      metricValue(text, `schemawatch_decode_errors_total{topic="${topic}",reason="unknown_schema_id"}`),
    ).toBe(RECORDS);
    expect(
      metricValue(
        text,
        `schemawatch_records_total{topic="${topic}",subject="order",producer="flood",writer_version="unknown"}`,
      ),
    ).toBe(RECORDS);
    // The registry answered every request, polls included, and was never called down.
    expect(up.filter((v) => v !== 1)).toEqual([]);
    expect(metricValue(text, 'schemawatch_registry_up{registry="main"}')).toBe(1);
  });

  it("counts the records written with a version's id right after it was registered under that version", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-id-new");
    await createTopic(brokers, topic, 1);
    const subject = freshSubject("fresh");
    const schema = (required: string[]) => ({
      title: subject,
      type: "object",
      properties: { id: { type: "integer" }, amount: { type: "number" } },
      required,
    });
    await register(url, subject, schema(["id"]));
    const proxy = await slowProxy(url, 0);
    proxies.push(proxy);
    // The next poll is an hour away: only the lookup of the new id can bring the version.
    const monitor = await startFollowing(proxy.url, topic, subject, "pollInterval: 1h");

    // What an auto-registering serializer does: register, then write with the id at once.
    const id2 = await register(url, subject, schema(["id", "amount"]));
    const N = 50;
    await produce(
      brokers,
      topic,
      Array.from({ length: N }, (_, i) => ({
        value: wire(id2, { id: i, amount: 1 }),
        headers: { producer: "app" },
      })),
    );
    await waitFor(() => settled(monitor, N), `${N} records to be counted`, 30_000);
    const text = await scrape(monitor);
    const series = (labels: string) => `{topic="${topic}",subject="order",producer="app",${labels}}`;
    expect(metricValue(text, `schemawatch_records_total${series('writer_version="2"')}`)).toBe(N);
    expect(metricValue(text, `schemawatch_records_total${series('writer_version="unknown"')}`) ?? 0).toBe(0);
    expect(
      metricValue(text, `schemawatch_decode_errors_total{topic="${topic}",reason="unknown_schema_id"}`),
    ).toBe(0);
    expect(
      metricValue(
        text,
        `schemawatch_validations_total${series('writer_version="2",reader_version="2",direction="conformance",result="pass"')}`,
      ),
    ).toBe(N);
    expect(
      metricValue(
        text,
        `schemawatch_validations_total${series('writer_version="2",reader_version="1",direction="forward",result="pass"')}`,
      ),
    ).toBe(N);
    // One lookup for the 50 records, which found the id.
    expect(proxy.requests.filter((r) => r.endsWith(`/schemas/ids/${id2}`))).toHaveLength(1);
    expect(metricValue(text, 'schemawatch_registry_id_lookups_total{registry="main",result="found"}')).toBe(
      1,
    );
  });
});
