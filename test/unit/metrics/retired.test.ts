import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Health } from "../../../src/health/health.js";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import { record } from "../../helpers/monitor.js";

// schemawatch_retired_version_records_total as /metrics serves it: per subject, retired version and
// producer, summed over topics, from 0 for every producer known before traffic.

async function exposition(status: "deprecated" | "retired", send: (pipeline: Pipeline) => void) {
  const config = parseConfig(
    `subjects:
  - name: event
    topics: [events, events-eu]
    schemas: ${resolve("examples/catalog/event")}
    producer:
      allow: [billing, web]
    versions:
      "1.0.0": { status: ${status} }
      "1.1.0": { status: active }
`,
    resolve("test/config.yaml"),
  );
  const catalog = await loadCatalog(config);
  const pipeline = new Pipeline(catalog, config);
  send(pipeline);
  const text = await createRegistry({
    pipeline,
    health: new Health(),
    catalog: () => catalog,
    version: "0",
  }).metrics();
  return text.split("\n").filter((l) => l.startsWith("schemawatch_retired_version_records_total"));
}

const v10 = (producer: string, topic = "events") =>
  record({ id: 1, event: "view" }, { producer, "schema-version": "event/1.0" }, { topic });

describe("schemawatch_retired_version_records_total", () => {
  it("counts each producer's records of a retired version over every topic, the others at 0", async () => {
    const lines = await exposition("retired", (pipeline) => {
      for (let i = 0; i < 4; i++) pipeline.process(v10("billing"));
      pipeline.process(v10("billing", "events-eu"));
      pipeline.process(v10("someone-else"));
      pipeline.process(
        record({ id: 1, event: "buy", amount: 1 }, { producer: "web", "schema-version": "event/1.1" }),
      );
    });
    expect(lines.sort()).toEqual([
      'schemawatch_retired_version_records_total{subject="event",version="1.0.0",producer="billing"} 5',
      'schemawatch_retired_version_records_total{subject="event",version="1.0.0",producer="other"} 1',
      'schemawatch_retired_version_records_total{subject="event",version="1.0.0",producer="unknown"} 0',
      'schemawatch_retired_version_records_total{subject="event",version="1.0.0",producer="web"} 0',
    ]);
  });

  it("has no series while no version is retired, whatever a deprecated version carries", async () => {
    const lines = await exposition("deprecated", (pipeline) => pipeline.process(v10("billing")));
    expect(lines).toEqual([]);
  });
});
