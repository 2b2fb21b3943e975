// The kafkajs eachBatch handler on a batch given as a plain object: which offsets reach the sink,
// which are resolved, and what the coverage hears, without a broker.
import { Writable } from "node:stream";
import type { EachBatchPayload } from "kafkajs";
import { describe, expect, it } from "vitest";
import { batchHandler, timestampOf } from "../../src/kafka/batch.js";
import { UNDECODABLE, type UndecodableBatch } from "../../src/kafka/decode-guard.js";
import { createLogger } from "../../src/log.js";
import type { SourceRecord } from "../../src/monitor/record.js";

interface Message {
  offset: string;
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer>;
  [UNDECODABLE]?: UndecodableBatch;
}

const message = (offset: number): Message => ({
  offset: String(offset),
  timestamp: String(1796112000000 + offset),
  key: null,
  value: Buffer.from(`{"n":${offset}}`),
  headers: {},
});

/** A fake payload over `offsets`, recording what the handler resolves, and what the sink saw. */
function payload(
  messages: Message[],
  options: { lastOffset?: string; running?: () => boolean; highWatermark?: string } = {},
) {
  const calls: string[] = [];
  const fake = {
    batch: {
      topic: "t",
      partition: 3,
      highWatermark: options.highWatermark ?? "1000",
      messages,
      lastOffset: () => options.lastOffset ?? messages.at(-1)!.offset,
    },
    resolveOffset: (offset: string) => calls.push(`resolve ${offset}`),
    heartbeat: async () => {
      calls.push("heartbeat");
    },
    commitOffsetsIfNecessary: async () => {
      calls.push("commit");
    },
    isRunning: options.running ?? (() => true),
    isStale: () => false,
  };
  return { payload: fake as unknown as EachBatchPayload, calls };
}

function sink() {
  const seen: string[] = [];
  return {
    seen,
    process: (record: SourceRecord) => {
      seen.push(`${record.topic}/${record.partition}@${record.offset} ${record.value?.toString()}`);
    },
  };
}

const log = createLogger("silent");

/** A logger whose lines land in `lines`, as `msg {fields}` without the pino boilerplate. */
function capture() {
  const lines: string[] = [];
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        const {
          msg,
          level: _l,
          time: _t,
          service: _s,
          pid: _p,
          hostname: _h,
          ...fields
        } = JSON.parse(chunk.toString()) as Record<string, unknown>;
        lines.push(`${String(msg)} ${JSON.stringify(fields)}`);
        done();
      },
    }),
  );
  return { lines, logger };
}
const offsets = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));

describe("a batch that re-reads records counted before a rejoin", () => {
  it("resolves but does not count again every offset up to and including the one already counted", async () => {
    const s = sink();
    const asked: string[] = [];
    const ranges: string[] = [];
    const handler = batchHandler(s, log, {
      alreadyCounted: (topic, partition, first) => {
        asked.push(`${topic}/${partition} from ${first}`);
        return 102n;
      },
      onBatchEnd: (topic, partition, first, last, hw) =>
        ranges.push(`${topic}/${partition} ${first}..${last} hw ${hw}`),
    });
    const { payload: p, calls } = payload(offsets(100, 104));
    await handler(p);
    expect(asked).toEqual(["t/3 from 100"]);
    // 102 was counted before: only 103 and 104 are new
    expect(s.seen.map((r) => r.split(" ")[0])).toEqual(["t/3@103", "t/3@104"]);
    expect(ranges).toEqual(["t/3 103..104 hw 1000"]);
    expect(calls).toEqual(["resolve 104", "commit"]);
  });

  it("a batch counted whole is resolved to its end, counts nothing, and reports no processed range", async () => {
    const s = sink();
    const ranges: string[] = [];
    const handler = batchHandler(s, log, {
      alreadyCounted: () => 104n,
      onBatchEnd: (_t, _p, first, last) => ranges.push(`${first}..${last}`),
    });
    const { payload: p, calls } = payload(offsets(100, 104));
    await handler(p);
    expect(s.seen).toEqual([]);
    expect(ranges).toEqual([]);
    expect(calls).toEqual(["resolve 104", "commit"]);
  });

  it("counts everything when nothing of the batch was counted before", async () => {
    const s = sink();
    const handler = batchHandler(s, log, { alreadyCounted: () => undefined });
    await handler(payload(offsets(100, 102)).payload);
    expect(s.seen).toEqual(['t/3@100 {"n":100}', 't/3@101 {"n":101}', 't/3@102 {"n":102}']);
  });
});

describe("the batch loop", () => {
  it("resolves, heartbeats and commits every 500 records, and once at the end", async () => {
    const s = sink();
    const handler = batchHandler(s, log, {});
    const { payload: p, calls } = payload(offsets(0, 1000));
    await handler(p);
    expect(s.seen).toHaveLength(1001);
    expect(calls).toEqual([
      "resolve 499",
      "heartbeat",
      "commit",
      "resolve 999",
      "heartbeat",
      "commit",
      "resolve 1000",
      "commit",
    ]);
  });

  it("leaves at once when the consumer stops: nothing processed, nothing resolved", async () => {
    const s = sink();
    const ranges: string[] = [];
    const handler = batchHandler(s, log, { onBatchEnd: (_t, _p, f, l) => ranges.push(`${f}..${l}`) });
    const { payload: p, calls } = payload(offsets(0, 9), { running: () => false });
    await handler(p);
    expect(s.seen).toEqual([]);
    expect(ranges).toEqual([]);
    expect(calls).toEqual(["commit"]);
  });

  it("reaches a transaction's commit marker past the last message, so the next batch is contiguous", async () => {
    const ranges: string[] = [];
    const handler = batchHandler(sink(), log, {
      onBatchEnd: (_t, _p, f, l, hw) => ranges.push(`${f}..${l} hw ${hw}`),
    });
    const { payload: p, calls } = payload(offsets(10, 12), { lastOffset: "13", highWatermark: "14" });
    await handler(p);
    expect(ranges).toEqual(["10..13 hw 14"]);
    // the marker is not a record: only the last message is resolved
    expect(calls).toEqual(["resolve 12", "commit"]);
  });

  it("an undecodable batch ends the range before it, is reported, and the offsets move past it", async () => {
    const s = sink();
    const events: string[] = [];
    const handler = batchHandler(s, log, {
      onBatchEnd: (_t, _p, f, l) => events.push(`range ${f}..${l}`),
      onUndecodable: (topic, partition, b) =>
        events.push(`undecodable ${topic}/${partition} ${b.firstOffset}..${b.lastOffset}`),
    });
    const info: UndecodableBatch = {
      firstOffset: "3",
      lastOffset: "5",
      records: 3,
      codec: "lz4",
      problem: "bad",
    };
    const marker: Message = { ...message(5), value: null, [UNDECODABLE]: info };
    const { payload: p, calls } = payload([...offsets(0, 2), marker, ...offsets(6, 7)]);
    await handler(p);
    expect(s.seen.map((r) => r.split(" ")[0])).toEqual(["t/3@0", "t/3@1", "t/3@2", "t/3@6", "t/3@7"]);
    expect(events).toEqual(["range 0..2", "undecodable t/3 3..5", "range 6..7"]);
    expect(calls).toEqual(["resolve 7", "commit"]);
  });

  it("a sink that throws loses that record only; a hook that throws does not stop the batch", async () => {
    const seen: string[] = [];
    const handler = batchHandler(
      {
        process: (r) => {
          if (r.offset === "1") throw new Error("boom");
          seen.push(r.offset);
        },
      },
      log,
      {
        onBatchEnd: () => {
          throw new Error("hook");
        },
      },
    );
    const { payload: p, calls } = payload(offsets(0, 2));
    await handler(p);
    expect(seen).toEqual(["0", "2"]);
    expect(calls).toEqual(["resolve 2", "commit"]);
  });

  it("with deferred tallies, hands each stretch's next offset and its flush to the source, and never commits", async () => {
    const deferred: string[] = [];
    let flushed = 0;
    const handler = batchHandler(
      {
        process: () => undefined,
        flush: async () => {
          flushed++;
        },
      },
      log,
      { onDeferred: (topic, partition, next) => deferred.push(`${topic}/${partition} next ${next}`) },
    );
    const { payload: p, calls } = payload(offsets(0, 9));
    await handler(p);
    expect(deferred).toEqual(["t/3 next 10"]);
    expect(flushed).toBe(1);
    expect(calls).toEqual(["resolve 9"]);
  });
});

describe("timestampOf", () => {
  it("reads Kafka's decimal milliseconds, and falls back to Number for anything else", () => {
    expect(timestampOf("1796112000123")).toBe(1796112000123);
    expect(timestampOf("0")).toBe(0);
    expect(timestampOf("9")).toBe(9);
    expect(timestampOf("")).toBe(0);
    expect(timestampOf("-1")).toBe(-1);
    expect(timestampOf("12a")).toBeNaN();
    expect(timestampOf("1234567890123456")).toBe(1234567890123456);
  });
});

describe("the batch loop, at its edges", () => {
  it("a batch re-read past 500 records counts the skipped ones toward the heartbeat", async () => {
    const s = sink();
    const handler = batchHandler(s, log, { alreadyCounted: () => 599n });
    const { payload: p, calls } = payload(offsets(0, 1099));
    await handler(p);
    expect(s.seen).toHaveLength(500);
    expect(calls).toEqual(["resolve 999", "heartbeat", "commit", "resolve 1099", "commit"]);
  });

  it("an empty batch asks nothing, resolves nothing, and does not throw", async () => {
    let asked = 0;
    const handler = batchHandler(sink(), log, {
      alreadyCounted: () => {
        asked++;
        return undefined;
      },
      onDeferred: () => {
        throw new Error("no stretch to hand over");
      },
    });
    const fake = payload([message(0)]);
    (fake.payload.batch as unknown as { messages: Message[] }).messages = [];
    await handler(fake.payload);
    expect(asked).toBe(0);
    expect(fake.calls).toEqual([]);
  });

  it("asks whether to stop every 64 records, not on each one", async () => {
    const s = sink();
    let asked = 0;
    const ranges: string[] = [];
    const handler = batchHandler(s, log, { onBatchEnd: (_t, _p, f, l) => ranges.push(`${f}..${l}`) });
    const { payload: p, calls } = payload(offsets(0, 99), { running: () => asked++ === 0 });
    await handler(p);
    expect(s.seen).toHaveLength(64);
    // only what was processed: not to the batch's end
    expect(ranges).toEqual(["0..63"]);
    expect(asked).toBe(2);
    expect(calls).toEqual(["resolve 63", "commit"]);
  });

  it("awaits the sink's flush before it resolves, at each heartbeat and at the end", async () => {
    const events: string[] = [];
    const handler = batchHandler(
      {
        process: () => undefined,
        flush: async () => {
          events.push("flush");
        },
      },
      log,
      {},
    );
    const fake = payload(offsets(0, 599));
    const resolve = fake.payload.resolveOffset;
    fake.payload.resolveOffset = (offset: string) => {
      events.push(`resolve ${offset}`);
      resolve(offset);
    };
    await handler(fake.payload);
    expect(events).toEqual(["flush", "resolve 499", "flush", "resolve 599"]);
  });

  it("with deferred tallies, hands over at each heartbeat too, commits never, and nothing when it left at once", async () => {
    const deferred: string[] = [];
    const sinkWithFlush = { process: () => undefined, flush: async () => undefined };
    const handler = batchHandler(sinkWithFlush, log, {
      onDeferred: (_t, _p, next) => deferred.push(next),
    });
    const { payload: p, calls } = payload(offsets(0, 599));
    await handler(p);
    expect(deferred).toEqual(["500", "600"]);
    expect(calls).toEqual(["resolve 499", "heartbeat", "resolve 599"]);
    const stopped = payload(offsets(0, 9), { running: () => false });
    await handler(stopped.payload);
    expect(deferred).toEqual(["500", "600"]);
    expect(stopped.calls).toEqual([]);
  });

  it("never moves the processed range back when the batch says it ends before its last message", async () => {
    const ranges: string[] = [];
    const handler = batchHandler(sink(), log, { onBatchEnd: (_t, _p, f, l) => ranges.push(`${f}..${l}`) });
    await handler(payload(offsets(10, 12), { lastOffset: "11" }).payload);
    expect(ranges).toEqual(["10..12"]);
  });

  it("gives the sink a record without a key as key null", async () => {
    const keys: unknown[] = [];
    const handler = batchHandler({ process: (r) => keys.push(r.key) }, log, {});
    const { key: _, ...keyless } = message(0);
    await handler(payload([keyless as Message, { ...message(1), key: Buffer.from("k") }]).payload);
    expect(keys).toEqual([null, Buffer.from("k")]);
  });

  it("logs a hook that throws by name, and a sink that throws by the error's name and offset only", async () => {
    const { lines, logger } = capture();
    const handler = batchHandler(
      {
        process: (r) => {
          if (r.offset === "1") throw new TypeError('payload {"secret":1}');
        },
      },
      logger,
      {
        onBatchEnd: () => {
          throw new Error("end");
        },
        onUndecodable: () => {
          throw new Error("undecodable");
        },
      },
    );
    const info: UndecodableBatch = {
      firstOffset: "2",
      lastOffset: "2",
      records: 1,
      codec: "lz4",
      problem: "bad",
    };
    await handler(payload([...offsets(0, 1), { ...message(2), [UNDECODABLE]: info }, message(3)]).payload);
    expect(lines).toEqual([
      'record sink threw; record skipped {"topic":"t","partition":3,"offset":"1","error":"TypeError"}',
      'a KafkaSource hook threw {"hook":"onBatchEnd","error":"end"}',
      'a KafkaSource hook threw {"hook":"onUndecodable","error":"undecodable"}',
      'a KafkaSource hook threw {"hook":"onBatchEnd","error":"end"}',
    ]);
  });

  it("logs nothing for the hooks it was not given", async () => {
    const { lines, logger } = capture();
    const info: UndecodableBatch = {
      firstOffset: "1",
      lastOffset: "1",
      records: 1,
      codec: "lz4",
      problem: "bad",
    };
    await batchHandler(
      sink(),
      logger,
      {},
    )(payload([message(0), { ...message(1), [UNDECODABLE]: info }]).payload);
    expect(lines).toEqual([]);
  });
});
