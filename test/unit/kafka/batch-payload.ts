// A kafkajs eachBatch payload as a plain object, for the batch handler's unit tests: what the handler
// resolves, heartbeats and commits is recorded, and what it logs can be captured.
import { Writable } from "node:stream";
import type { EachBatchPayload } from "kafkajs";
import type { UNDECODABLE, UndecodableBatch } from "../../../src/kafka/patches/index.js";
import { createLogger } from "../../../src/log.js";
import type { SourceRecord } from "../../../src/pipeline/record.js";

export interface Message {
  offset: string;
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer>;
  [UNDECODABLE]?: UndecodableBatch;
}

export const message = (offset: number): Message => ({
  offset: String(offset),
  timestamp: String(1796112000000 + offset),
  key: null,
  value: Buffer.from(`{"n":${offset}}`),
  headers: {},
});

/** A fake payload over `offsets`, recording what the handler resolves, and what the sink saw. */
export function payload(
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

export function sink() {
  const seen: string[] = [];
  return {
    seen,
    process: (record: SourceRecord) => {
      seen.push(`${record.topic}/${record.partition}@${record.offset} ${record.value?.toString()}`);
    },
  };
}

export const log = createLogger("silent");

/** A logger whose lines land in `lines`, as `msg {fields}` without the pino boilerplate. */
export function capture() {
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
export const offsets = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i));
