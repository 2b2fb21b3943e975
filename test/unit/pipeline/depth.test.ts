import { describe, expect, it } from "vitest";
import { Corpus } from "../../../src/corpus/corpus.js";
import { feedCorpus } from "../../../src/corpus/feed.js";
import { ValidationBudget } from "../../../src/engine/budget.js";
import { MAX_DOCUMENT_DEPTH, deeperThan, parsePayload } from "../../../src/pipeline/payload.js";
import type { PipelineHooks } from "../../../src/pipeline/pipeline.js";
import { InThreadValidation } from "../../../src/pipeline/workers/in-thread.js";
import {
  decodeCounts,
  eventPipeline,
  record,
  recordCounts,
  validationCounts,
} from "../../helpers/monitor.js";

// Depth is judged once, on the parsed document, the same way on every path (issue 30): two identical
// records were judged differently when the stack, which depends on the thread and the path, decided.

/** A 1.0 document whose `x` nests arrays `depth` levels deep in all (the document itself is one). */
const nested = (depth: number) =>
  Buffer.from(`{"id":1,"event":"view","x":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`);
/** The same depth with objects, and a long string beside, so that no length shortcut decides. */
const nestedObjects = (depth: number) =>
  Buffer.from(
    `{"id":1,"event":"view","pad":"${"p".repeat(2000)}","x":${'{"a":'.repeat(depth - 1)}1${"}".repeat(depth - 1)}}`,
  );

/** Every way the monitor validates a sampled record: at once, at the flush on this thread, with the corpus. */
function paths(): Array<[string, PipelineHooks]> {
  const corpus = () => [feedCorpus(new Corpus({ maxShapes: 100, redact: [] }))];
  const inThread = (shapes: boolean) => new InThreadValidation(shapes, new ValidationBudget(1000), false);
  return [
    ["at once", {}],
    ["at once, with the corpus", { validated: corpus() }],
    ["at the flush", { runner: inThread(false) }],
    ["at the flush, with the corpus", { validated: corpus(), runner: inThread(true) }],
  ];
}

describe("a document's depth", () => {
  it("is measured without recursion, however deep", () => {
    for (const [depth, limit, deeper] of [
      [1, 1, false],
      [2, 1, true],
      [256, 256, false],
      [257, 256, true],
      [1_000_000, 256, true],
    ] as const) {
      let document: unknown = 1;
      for (let i = 0; i < depth; i++) document = i % 2 === 0 ? [document] : { a: document };
      expect([depth, limit, deeperThan(document, limit)]).toEqual([depth, limit, deeper]);
    }
    expect(deeperThan("text", 0)).toBe(false);
  });

  it("past the limit makes a payload too_deep when it is parsed, arrays or objects alike", () => {
    for (const make of [nested, nestedObjects]) {
      expect(typeof parsePayload(make(MAX_DOCUMENT_DEPTH), 0)).toBe("object");
      expect(parsePayload(make(MAX_DOCUMENT_DEPTH + 1), 0)).toBe("too_deep");
      expect(parsePayload(make(5000), 0)).toBe("too_deep");
    }
  });

  it("judges two identical records alike on every path: validated within the limit, too_deep past it", async () => {
    for (const [name, hooks] of paths()) {
      for (const depth of [MAX_DOCUMENT_DEPTH, MAX_DOCUMENT_DEPTH + 1, 2_500, 5_000, 100_000]) {
        const { pipeline } = await eventPipeline("", "", hooks);
        for (let i = 0; i < 2; i++)
          pipeline.process(
            record(undefined, { "schema-version": "1.0", producer: "deep" }, { raw: nested(depth) }),
          );
        await pipeline.flush();
        const deeper = depth > MAX_DOCUMENT_DEPTH;
        const outcome = {
          records: recordCounts(pipeline),
          decode: decodeCounts(pipeline),
          conformance: validationCounts(pipeline).filter((v) => v.includes(">1.0.0 conformance")),
        };
        expect({ name, depth, ...outcome }).toEqual({
          name,
          depth,
          records: ["deep 1.0.0=2"],
          decode: deeper ? ["events too_deep=2"] : [],
          // 1.0's closed schema has no `x`: validated, the documents fail it, both.
          conformance: deeper ? [] : ["deep 1.0.0>1.0.0 conformance fail=2"],
        });
      }
    }
  });

  it("too deep and declaring no version is unknown use, on every path", async () => {
    for (const [name, hooks] of paths()) {
      const unread: string[] = [];
      const { pipeline } = await eventPipeline("    writer:\n      sources: [header]\n", "", {
        ...hooks,
        unreadable: [
          (_s, topic, partition, reason, n) => unread.push(`${topic}/${partition} ${reason} ${n}`),
        ],
      });
      pipeline.process(record(undefined, { producer: "deep" }, { raw: nested(5_000) }));
      await pipeline.flush();
      expect({ name, unread, decode: decodeCounts(pipeline) }).toEqual({
        name,
        unread: ["events/0 too_deep 1"],
        decode: ["events too_deep=1"],
      });
    }
  });
});
