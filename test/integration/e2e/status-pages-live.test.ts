import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
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
import { countedRecords, startLiveMonitor } from "../../helpers/live.js";

/** The index, and the cells of its row for subject `event` as text. */
async function index(monitor: RunningMonitor): Promise<{ html: string; row: string[] }> {
  const html = await (await fetch(`${monitor.address}/`)).text();
  const row = /<tr><td><a href="subjects\/event">event<\/a><\/td>(.*?)<\/tr>/.exec(html)?.[1] ?? "";
  return { html, row: [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "")) };
}

describe("the status page of a live monitor", () => {
  it("shows each topic's records per second and the group's lag, as measured", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-pages");
    await createTopic(brokers, topic, 2);
    const dir = await writeTree({
      "config.yaml": `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
  lagInterval: 1s
logLevel: silent
subjects:
  - name: event
    topics: [${topic}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
      "1.1.0": { status: active }
      "2.0.0": { status: candidate }
`,
    });
    const monitor = await startLiveMonitor(`${dir}/config.yaml`);
    await waitFor(() => monitor.health.ready, "the monitor to be assigned its partitions");
    await produce(
      brokers,
      topic,
      Array.from({ length: 200 }, (_, i) => ({
        value: JSON.stringify({ id: i, event: "view" }),
        headers: { "schema-version": "event/1.1" },
      })),
    );
    await waitFor(() => countedRecords(monitor) === 200, "200 records to be counted");
    // Lag is measured every second (lagInterval): wait for a measurement after the records were read.
    // The rate needs a sample of the counts at least a second old, which a loaded machine may take a
    // while to have: wait for both rather than read them at once.
    await waitFor(
      async () => {
        const { row } = await index(monitor);
        return row[3] === "0" && Number(row[2]) > 0;
      },
      "the index to show a lag of 0 and a rate",
      60_000,
      200,
    );
    const { html, row } = await index(monitor);
    const [topics, records, rate, lag] = row;
    expect([topics, records, lag]).toEqual([topic, "200", "0"]);
    // 200 records within the window since the first sample (taken when the monitor started).
    expect(Number(rate)).toBeGreaterThan(0);
    const window = Number(
      /records counted per second over the last (\d+) s \(the counts are sampled every 10 s\)/.exec(
        html,
      )?.[1],
    );
    // The rate is the 200 records over the window, within the rounding of the two figures shown.
    expect(Math.abs(Number(rate) * window - 200)).toBeLessThan(Number(rate) + window);
    expect(html).toMatch(
      new RegExp(
        `<tr><td>${topic}</td><td class="num">${rate}</td><td class="num">0</td><td>\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z</td></tr>`,
      ),
    );
    // The subject's page draws the records over the drain window: every one in the bucket of now, on
    // 1.1.0, from the one producer (the records name none).
    const page = await (await fetch(`${monitor.address}/subjects/event`)).text();
    const versions = page.slice(
      page.indexOf('id="subject-event-versions-over-time"'),
      page.indexOf('id="subject-event-fields-over-time"'),
    );
    expect(
      [...versions.matchAll(/<strong>([^<]+)<\/strong>|data-series="([^"]*)" data-last="([^"]*)"/g)].map(
        (m) => m[1] ?? `${m[2]} ${m[3]}`,
      ),
    ).toEqual(["share of each producer&#39;s records on 1.1.0", "unknown 1"]);
    expect(versions).toContain("(200 of 200)");
  });
});
