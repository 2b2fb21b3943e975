import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadCatalog } from "../../../src/catalog/load.js";
import { parseConfig } from "../../../src/config/load.js";
import { Pipeline } from "../../../src/pipeline/pipeline.js";
import {
  RESERVOIR_BUDGET,
  SubjectPipeline,
  reservoirDocument,
  reservoirSize,
} from "../../../src/pipeline/subject-pipeline.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

const T0 = Date.parse("2026-12-01T08:00:00Z");
const V11 = { producer: "web", "schema-version": "1.1" };

describe("the reservoir of recent samples", () => {
  it("shares one budget between subjects: 500 a subject up to 20, fewer beyond, never below 50", () => {
    expect([1, 2, 20, 21, 25, 50, 100, 200, 201, 1000].map(reservoirSize)).toEqual([
      500, 500, 500, 476, 400, 200, 100, 50, 50, 50,
    ]);
    expect(reservoirSize(0)).toBe(500);
    for (let subjects = 1; subjects <= RESERVOIR_BUDGET / 50; subjects++)
      expect(reservoirSize(subjects) * subjects).toBeLessThanOrEqual(RESERVOIR_BUDGET);
  });

  it("gives each subject of a monitor its share of the budget", async () => {
    const subjects = Array.from(
      { length: 25 },
      (_, i) => `  - name: event${i}
    topics: [events${i}]
    schemas: ${resolve("examples/catalog/event")}
    versions:
      "1.0.0": { status: deprecated }
`,
    ).join("");
    const config = parseConfig(`subjects:\n${subjects}`, resolve("test/config.yaml"));
    const pipeline = new Pipeline(await loadCatalog(config), config);
    expect(new Set([...pipeline.subjects.values()].map((s) => s.reservoirSize))).toEqual(new Set([400]));
    const one = await eventPipeline();
    expect(one.pipeline.subjects.get("event")!.reservoirSize).toBe(500);
  });

  it("keeps every sampled record until full, then one per 20 ms, oldest replaced, as JSON text", async () => {
    const { pipeline } = await eventPipeline();
    const event = pipeline.subjects.get("event")!;
    for (let i = 0; i < 500; i++)
      pipeline.process(record({ id: i, event: "view" }, V11, { timestamp: T0 + i }));
    expect(event.reservoir).toHaveLength(500);
    expect(event.reservoir[0]).toEqual({
      topic: "events",
      producer: "web",
      writer: "1.1.0",
      text: '{"id":0,"event":"view"}',
      observedAt: T0,
    });
    expect(reservoirDocument(event.reservoir[0]!, event.subject)).toEqual({ id: 0, event: "view" });
    // 19 ms after the last one kept: not kept; 20 ms after: replaces the oldest.
    pipeline.process(record({ id: 500, event: "view" }, V11, { timestamp: T0 + 499 + 19 }));
    expect(event.reservoir.map((e) => reservoirDocument(e, event.subject))).not.toContainEqual({
      id: 500,
      event: "view",
    });
    pipeline.process(record({ id: 501, event: "view" }, V11, { timestamp: T0 + 499 + 20 }));
    expect(event.reservoir).toHaveLength(500);
    expect(reservoirDocument(event.reservoir[0]!, event.subject)).toEqual({ id: 501, event: "view" });
    expect(reservoirDocument(event.reservoir[1]!, event.subject)).toEqual({ id: 1, event: "view" });
  });

  it("spaces a smaller reservoir's samples further apart, so it still spans 10 s of traffic", async () => {
    const { pipeline, config } = await eventPipeline();
    const event = pipeline.subjects.get("event")!;
    const small = new SubjectPipeline(event.subject, config.subjects[0]!, () => T0, 50);
    for (let i = 0; i < 50; i++) {
      expect(small.wants(T0 + i)).toBe(true);
      small.keep({
        topic: "events",
        producer: "web",
        writer: "1.1.0",
        text: `{"id":${i}}`,
        observedAt: T0 + i,
      });
    }
    expect(small.wants(T0 + 49 + 199)).toBe(false);
    expect(small.wants(T0 + 49 + 200)).toBe(true);
    small.keep({
      topic: "events",
      producer: "web",
      writer: "1.1.0",
      text: '{"id":50}',
      observedAt: T0 + 249,
    });
    expect(small.reservoir).toHaveLength(50);
    expect(small.reservoir.map((e) => reservoirDocument(e, small.subject))[0]).toEqual({ id: 50 });
  });
});
