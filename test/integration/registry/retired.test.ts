// After a prune, with the real broker (KAFKA_BROKERS) and the real registry (SCHEMA_REGISTRY_URL,
// Apicurio): version 1 is retired in the registry as `prune` retires it (state DISABLED), the
// monitor's next poll brings it, and a producer that still sends it afterwards is the first item of
// the attention summary, with the date the monitor saw the retirement, a count on /metrics that
// leaves out the records from before, and one warning.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

import { createLogger } from "../../../src/log.js";
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
import { freshSubject, register, registryUrl, setState } from "../../helpers/registry.js";

const url = registryUrl();
const RETIRED = 'schemawatch_retired_version_records_total{subject="order",version="1",producer="billing"}';

describe("a version retired in the registry and still sent", () => {
  it("is said first, dated by the poll that saw it retired, counted from then, warned of once", async () => {
    const brokers = await kafkaBrokers();
    const topic = freshTopic("sw-retired-registry");
    await createTopic(brokers, topic, 1);
    const subject = freshSubject("retired");
    const properties = { id: { type: "integer" } };
    const id1 = await register(url, subject, { title: subject, type: "object", properties });
    await register(url, subject, {
      title: subject,
      type: "object",
      properties: { ...properties, amount: { type: "number" } },
    });
    const dir = await writeTree({});
    await writeFile(
      join(dir, "config.yaml"),
      `kafka:
  brokers: [${brokers.join(", ")}]
  groupId: ${freshGroupId()}
logLevel: silent
registries:
  main: { url: "${url}", pollInterval: 1s }
subjects:
  - name: order
    topics: [${topic}]
    registry: { name: main, subject: ${subject} }
`,
    );
    const lines: Array<Record<string, unknown>> = [];
    const logger = createLogger("warn", { write: (line: string) => void lines.push(JSON.parse(line)) });
    const monitor = await startLiveMonitor(join(dir, "config.yaml"), {}, { logger });
    await waitFor(() => monitor.health.ready, "the partition to be assigned");
    const status = () => monitor.report().subjects[0]!.versions.find((v) => v.version === "1")!.status;
    const billing = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        value: wire(id1, { id: i }),
        headers: { producer: "billing" },
      }));

    await setState(url, subject, 1, "DEPRECATED");
    await waitFor(() => status() === "deprecated", "the poll to bring 1 deprecated");
    await produce(brokers, topic, billing(5));
    await waitFor(() => countedRecords(monitor) === 5, "5 records of the deprecated version");

    const before = Date.now();
    await setState(url, subject, 1, "DISABLED");
    await waitFor(() => status() === "retired", "the poll to bring 1 retired");
    const after = Date.now();
    expect(metricValue(await (await fetch(`${monitor.address}/metrics`)).text(), RETIRED)).toBe(0);

    await produce(brokers, topic, billing(2));
    await waitFor(() => countedRecords(monitor) === 7, "7 records");
    const report = monitor.report();
    const entry = report.subjects[0]!.retiredTraffic[0]!;
    expect(report.subjects[0]!.retiredTraffic).toEqual([
      { version: "1", producer: "billing", records: 2, last: entry.last, retiredAt: entry.retiredAt },
    ]);
    const retiredAt = Date.parse(entry.retiredAt!);
    expect(retiredAt).toBeGreaterThanOrEqual(before);
    expect(retiredAt).toBeLessThanOrEqual(after);
    const minute = `${entry.retiredAt!.slice(0, 16)}Z`;
    expect(report.attention[0]).toMatchObject({
      level: "act",
      kind: "retired-traffic",
      subject: "order",
      what: `producer billing still sends order 1, retired on ${minute}: 2 records since, the last at ${entry.last}`,
    });
    expect(metricValue(await (await fetch(`${monitor.address}/metrics`)).text(), RETIRED)).toBe(2);
    expect(lines.filter((l) => String(l["msg"]).includes(" still sends ")).map((l) => l["msg"])).toEqual([
      `producer billing still sends order 1, retired on ${minute}`,
    ]);
  });
});
