// The batch handler at the edges of its loop: heartbeats, the stop check, flushes, deferred tallies,
// and what it logs. A batch given as a plain object, as in batch.test.ts.
import { describe, expect, it } from "vitest";
import { batchHandler } from "../../../src/kafka/batch.js";
import { UNDECODABLE, type UndecodableBatch } from "../../../src/kafka/patches/index.js";
import { capture, log, message, offsets, payload, sink, type Message } from "./batch-payload.js";

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

  it("with the source committing and tallies finished here, awaits each flush before handing the offset over, and never commits", async () => {
    const events: string[] = [];
    let pending = 0;
    const sinkWithFlush = {
      process: () => void pending++,
      flush: async () => {
        await new Promise((resolve) => setImmediate(resolve));
        events.push(`flushed ${pending}`);
        pending = 0;
      },
    };
    const handler = batchHandler(sinkWithFlush, log, {
      onTallied: (topic, partition, next) => events.push(`${topic}/${partition} next ${next}`),
    });
    const { payload: p, calls } = payload(offsets(0, 599));
    await handler(p);
    expect(events).toEqual(["flushed 500", "t/3 next 500", "flushed 100", "t/3 next 600"]);
    expect(calls).toEqual(["resolve 499", "heartbeat", "resolve 599"]);
    const stopped = payload(offsets(0, 9), { running: () => false });
    await handler(stopped.payload);
    expect(events).toEqual(["flushed 500", "t/3 next 500", "flushed 100", "t/3 next 600", "flushed 0"]);
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
