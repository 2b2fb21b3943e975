// The kafkajs eachBatch handler on a batch given as a plain object: which offsets reach the sink,
// which are resolved, and what the coverage hears, without a broker.
import { describe, expect, it } from "vitest";
import type { KafkaMessage } from "kafkajs";
import { BatchRecord, batchHandler, timestampOf } from "../../../src/kafka/batch.js";
import { UNDECODABLE, type UndecodableBatch } from "../../../src/kafka/patches/index.js";
import { log, message, offsets, payload, sink, type Message } from "./batch-payload.js";

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

describe("the record a batch hands the sink", () => {
  it("reads each part of a message once, when asked, and copies like a plain record", () => {
    const reads: string[] = [];
    const read = <T>(name: string, value: T): T => {
      reads.push(name);
      return value;
    };
    const message = {
      offset: "7",
      timestamp: "1796112000123",
      get key() {
        return read("key", Buffer.from("k"));
      },
      get headers() {
        return read("headers", { producer: Buffer.from("web") });
      },
      get value() {
        return read("value", Buffer.from("{}"));
      },
    } as unknown as KafkaMessage;
    const record = new BatchRecord("t", 3).fill(message);
    expect(reads).toEqual([]);
    expect(record.value).toEqual(Buffer.from("{}"));
    expect(record.value).toEqual(Buffer.from("{}"));
    expect(record.headers).toEqual({ producer: Buffer.from("web") });
    expect(record.headers).toEqual({ producer: Buffer.from("web") });
    expect(reads).toEqual(["value", "headers"]);
    expect({ ...record }).toEqual({
      topic: "t",
      partition: 3,
      offset: "7",
      timestamp: 1796112000123,
      key: Buffer.from("k"),
      headers: { producer: Buffer.from("web") },
      value: Buffer.from("{}"),
    });
    expect(reads).toEqual(["value", "headers", "key"]);
    // Refilled, it reads the next message's parts afresh.
    record.fill({ offset: "8", timestamp: "5", key: null, headers: undefined, value: null } as KafkaMessage);
    expect({ ...record }).toEqual({
      topic: "t",
      partition: 3,
      offset: "8",
      timestamp: 5,
      key: null,
      headers: undefined,
      value: null,
    });
  });
});
