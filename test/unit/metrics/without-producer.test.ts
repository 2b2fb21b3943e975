import { describe, expect, it } from "vitest";
import { createRegistry } from "../../../src/metrics/exporter.js";
import { SummedWithoutProducer } from "../../../src/metrics/without-producer.js";
import { Health } from "../../../src/health/health.js";
import type { Cell } from "../../../src/pipeline/tallies.js";
import { eventPipeline, record } from "../../helpers/monitor.js";

interface Labels {
  readonly topic: string;
  readonly producer: string;
  readonly result: string;
}

const cell = (producer: string, result: string, value: number): Cell<Labels> => ({
  labels: { topic: "events", producer, result },
  value,
});

/** The samples of one metric in an exposition, as `labels value` lines without the metric name, sorted. */
function samplesOf(text: string, name: string): string[] {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => line.slice(name.length))
    .sort();
}

/** The schemawatch sample lines of an exposition (prom-client's process metrics move between scrapes). */
const own = (text: string) => text.split("\n").filter((line) => line.startsWith("schemawatch_"));

describe("SummedWithoutProducer", () => {
  it("sums cells over producer, leaving the label out, and follows cells added and counted later", () => {
    const cells = [cell("web", "pass", 3), cell("mobile", "pass", 4), cell("web", "fail", 1)];
    const summed = new SummedWithoutProducer(cells);
    expect(summed.samples()).toEqual([
      { labels: { topic: "events", result: "pass" }, value: 7 },
      { labels: { topic: "events", result: "fail" }, value: 1 },
    ]);
    cells.push(cell("batch", "fail", 5), cell("batch", "timeout", 0));
    cells[0]!.value = 10;
    expect(summed.samples()).toEqual([
      { labels: { topic: "events", result: "pass" }, value: 14 },
      { labels: { topic: "events", result: "fail" }, value: 6 },
      { labels: { topic: "events", result: "timeout" }, value: 0 },
    ]);
  });

  it("exports nothing for no cells", () => {
    expect(new SummedWithoutProducer<Labels>([]).samples()).toEqual([]);
  });
});

describe("metrics.producerDetail on the registry", () => {
  async function scraped(producerDetail: boolean | undefined) {
    const { pipeline, catalog } = await eventPipeline();
    const documents = [
      // 1.1 with amount: fails the closed 1.0 forward (additionalProperties)
      [
        { id: 1, event: "buy", amount: 3 },
        { producer: "web", "schema-version": "1.1" },
      ],
      [
        { id: 2, event: "view", amount: 4 },
        { producer: "mobile", "schema-version": "1.1" },
      ],
      // 1.0 without amount: fails the 2.0 candidate backward (required)
      [
        { id: 3, event: "view" },
        { producer: "legacy", "schema-version": "1.0" },
      ],
      [
        { id: 4, event: "click" },
        { producer: "web", "schema-version": "1.0" },
      ],
    ] as const;
    for (const [document, headers] of documents) pipeline.process(record(document, headers));
    const registry = createRegistry({
      pipeline,
      health: new Health(),
      catalog: () => catalog,
      version: "0",
      ...(producerDetail === undefined ? {} : { producerDetail }),
    });
    return registry.metrics();
  }

  it("keeps the producer label by default", async () => {
    const text = await scraped(undefined);
    expect(samplesOf(text, "schemawatch_validation_failures_total")).toEqual(
      [
        '{topic="events",subject="event",producer="legacy",writer_version="1.0.0",reader_version="2.0.0",direction="backward",keyword="required"} 1',
        '{topic="events",subject="event",producer="mobile",writer_version="1.1.0",reader_version="1.0.0",direction="forward",keyword="additionalProperties"} 1',
        '{topic="events",subject="event",producer="web",writer_version="1.0.0",reader_version="2.0.0",direction="backward",keyword="required"} 1',
        '{topic="events",subject="event",producer="web",writer_version="1.1.0",reader_version="1.0.0",direction="forward",keyword="additionalProperties"} 1',
      ].sort(),
    );
    expect(own(text)).toEqual(own(await scraped(true)));
  });

  it("without it, exports the validation series summed over producers and the record counts per producer", async () => {
    const detailed = await scraped(true);
    const text = await scraped(false);
    expect(samplesOf(text, "schemawatch_validation_failures_total")).toEqual(
      [
        '{topic="events",subject="event",writer_version="1.0.0",reader_version="2.0.0",direction="backward",keyword="required"} 2',
        '{topic="events",subject="event",writer_version="1.1.0",reader_version="1.0.0",direction="forward",keyword="additionalProperties"} 2',
      ].sort(),
    );
    // every (writer, reader) pair at its sum over the producers: four producers' series before
    const validations = samplesOf(text, "schemawatch_validations_total");
    expect(validations.filter((s) => !s.endsWith(" 0"))).toEqual(
      [
        '{topic="events",subject="event",writer_version="1.0.0",reader_version="1.0.0",direction="conformance",result="pass"} 2',
        '{topic="events",subject="event",writer_version="1.0.0",reader_version="1.1.0",direction="backward",result="pass"} 2',
        '{topic="events",subject="event",writer_version="1.0.0",reader_version="2.0.0",direction="backward",result="fail"} 2',
        '{topic="events",subject="event",writer_version="1.1.0",reader_version="1.0.0",direction="forward",result="fail"} 2',
        '{topic="events",subject="event",writer_version="1.1.0",reader_version="1.1.0",direction="conformance",result="pass"} 2',
        '{topic="events",subject="event",writer_version="1.1.0",reader_version="2.0.0",direction="backward",result="pass"} 2',
      ].sort(),
    );
    // pass and fail for 3 readers of each readable writer (1.0.0, 1.1.0, 2.0.0, none): 24 series,
    // where the detailed exposition has them for each of the 4 record series with a producer too
    expect(validations).toHaveLength(24);
    expect(samplesOf(detailed, "schemawatch_validations_total")).toHaveLength(24 + 4 * 6);
    expect(validations.every((s) => !s.includes("producer="))).toBe(true);
    // every other schemawatch series is the same
    const rest = (t: string) => own(t).filter((l) => !l.startsWith("schemawatch_validation"));
    expect(rest(text)).toEqual(rest(detailed));
    expect(samplesOf(text, "schemawatch_records_total").filter((s) => !s.endsWith(" 0"))).toHaveLength(4);
  });
});
