import { describe, expect, it } from "vitest";
import { Corpus } from "../../../src/corpus/corpus.js";
import { fallbackVersion, feedCorpus } from "../../../src/corpus/feed.js";
import { eventPipeline, record, wire } from "../../helpers/monitor.js";

describe("feedCorpus", () => {
  it("keeps what the pipeline validated, with writer, producer and conformance from its results", async () => {
    const corpus = new Corpus({ maxShapes: 10, redact: [] });
    const { pipeline } = await eventPipeline("", "", { validated: [feedCorpus(corpus)] });
    pipeline.process(record({ id: 1, event: "view" }, { "schema-version": "event/1.0", producer: "web" }));
    pipeline.process(record({ id: 2, event: "buy" }, { "schema-version": "event/1.0", producer: "web" }));
    pipeline.process(
      record(undefined, { producer: "billing" }, { raw: wire(102, { id: 3, event: "view", amount: 1.5 }) }),
    );
    pipeline.process(
      record({ id: 4, event: "view", x: true }, { "schema-version": "event/1.1", producer: "partner" }),
    );
    pipeline.process(record({ id: 5, event: "click" }, { producer: "legacy" }, { timestamp: 1796112009000 }));
    pipeline.process(record(undefined, { producer: "web" }, { raw: Buffer.from("{not json") }));
    expect(
      corpus.entries().map((e) => `${e.writer} ${e.producer} conforms=${e.conforms} seen=${e.seen}`),
    ).toEqual([
      "1.0.0 web conforms=true seen=2",
      "1.1.0 billing conforms=true seen=1",
      "1.1.0 partner conforms=false seen=1",
      "none legacy conforms=null seen=1",
    ]);
    expect(corpus.entries()[3]!.firstSeen).toBe(1796112009000);
  });

  it("fits placeholders to the writer version, or to the newest active one when none is declared", async () => {
    const corpus = new Corpus({ maxShapes: 10, redact: ["/event", "/amount"] });
    const { pipeline, catalog } = await eventPipeline("", "", { validated: [feedCorpus(corpus)] });
    pipeline.process(record({ id: 1, event: "click" }, { "schema-version": "event/1.0", producer: "web" }));
    pipeline.process(record({ id: 2, event: "buy", amount: 2.5 }, { producer: "legacy" }));
    expect(corpus.entries().map((e) => e.document)).toEqual([
      { id: 1, event: "view" },
      { id: 2, event: "view", amount: 0.5 },
    ]);
    const subject = catalog.subjects.get("event")!;
    expect(fallbackVersion(subject)?.version.text).toBe("1.1.0");
    for (const entry of corpus.entries())
      expect(subject.byVersion.get("1.1.0")!.validate(entry.document)).toBe(true);
  });

  it("listens after the listeners before it, which still run", async () => {
    const corpus = new Corpus({ maxShapes: 10, redact: [] });
    const earlier: string[] = [];
    const { pipeline } = await eventPipeline("", "", {
      validated: [(record) => void earlier.push(record.producer), feedCorpus(corpus)],
    });
    pipeline.process(record({ id: 1, event: "view" }, { "schema-version": "event/1.0", producer: "web" }));
    expect(earlier).toEqual(["web"]);
    expect(corpus.entries().map((e) => `${e.writer} ${e.producer}`)).toEqual(["1.0.0 web"]);
  });
});
