import type { EachBatchPayload, KafkaMessage } from "kafkajs";
import type { Logger } from "pino";

import { messageOf } from "../errors.js";
import { headerValue, type RecordSink, type SourceRecord } from "../pipeline/record.js";
import { KafkaRecord, UNDECODABLE, type UndecodableBatch } from "./patches/index.js";
import type { BatchEndHook, UndecodableHook } from "./options.js";

// kafkajs only sends a heartbeat when heartbeatInterval has passed, so asking often is cheap.
const HEARTBEAT_EVERY = 500;
// How often the loop asks whether it should stop; kafkajs answers from state, but per record it adds up.
const CHECK_EVERY = 64;

/** The offset after `offset`: what a commit of the records up to `offset` says. */
const next = (offset: string): string => (BigInt(offset) + 1n).toString();

/**
 * A Kafka timestamp (decimal milliseconds, as kafkajs spells it) as a number: digit by digit for the
 * 13-digit strings every record carries, about twice as fast as Number().
 */
// Stryker disable all: a faster Number(text) for plain digits; every mutant either reads the same
// digits or falls back to Number(text), which gives the same value, so none can be told apart.
export function timestampOf(text: string): number {
  const length = text.length;
  if (length === 0 || length > 15) return Number(text);
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return Number(text);
    value = value * 10 + digit;
  }
  return value;
}
// Stryker restore all

/**
 * The record the sink is handed, one object per batch refilled per message: at a few hundred thousand
 * records a second an object per message is measurable garbage. Its key, headers and value are read
 * from the message only when the sink asks, at most once each: a message of schemawatch's decoder
 * (kafka-record.ts) makes them on demand, and most records need neither their key nor a copy of
 * their headers twice.
 */
export class BatchRecord implements SourceRecord {
  readonly topic: string;
  readonly partition: number;
  offset = "";
  timestamp = 0;
  declare readonly key: Buffer | null;
  declare readonly headers: SourceRecord["headers"];
  declare readonly value: Buffer | null;
  #message: KafkaMessage | undefined;
  #key: Buffer | null | undefined;
  /** null: not read yet for this message (a message's headers are an object or undefined). */
  #headers: SourceRecord["headers"] | null = null;
  #value: Buffer | null | undefined;

  /**
   * The key, headers and value as getters of the object itself, as a plain record's fields would be
   * (`{ ...record }` copies them); the same functions for every instance, so V8 sees one shape.
   */
  static readonly #parts: PropertyDescriptorMap = {
    key: {
      enumerable: true,
      get(this: BatchRecord) {
        if (this.#key === undefined) this.#key = this.#message?.key ?? null;
        return this.#key;
      },
    },
    headers: {
      enumerable: true,
      get(this: BatchRecord) {
        if (this.#headers === null) this.#headers = this.#message?.headers;
        return this.#headers;
      },
    },
    value: {
      enumerable: true,
      get(this: BatchRecord) {
        if (this.#value === undefined) this.#value = this.#message?.value ?? null;
        return this.#value;
      },
    },
  };

  constructor(topic: string, partition: number) {
    this.topic = topic;
    this.partition = partition;
    Object.defineProperties(this, BatchRecord.#parts);
  }

  /** The batch's records as bytes, for a message of schemawatch's decoder (`SourceRecord.frame`). */
  get frame(): SourceRecord["frame"] {
    const message = this.#message;
    return message instanceof KafkaRecord ? message.frame : undefined;
  }

  /**
   * The first value of header `name` (`SourceRecord.header`): read from the bytes of a message of
   * schemawatch's decoder, without its headers object; from the headers otherwise.
   */
  header(name: string): Buffer | string | undefined {
    const message = this.#message;
    if (this.#headers === null && message instanceof KafkaRecord) return message.header(name);
    return headerValue(this.headers, name);
  }

  /** Makes this the record of `message`; the sink never keeps a record it was given. */
  fill(message: KafkaMessage): this {
    this.#message = message;
    this.offset = message.offset;
    this.timestamp = message instanceof KafkaRecord ? message.timestampMs : timestampOf(message.timestamp);
    this.#key = undefined;
    this.#headers = null;
    this.#value = undefined;
    return this;
  }
}

/**
 * The kafkajs `eachBatch` handler (run with `eachBatchAutoResolve: false`): each message goes to the
 * sink and only then has its offset resolved, so that commits never run ahead of the tallies.
 */
export function batchHandler(
  sink: RecordSink,
  log: Logger,
  hooks: {
    readonly onBatchEnd?: BatchEndHook | undefined;
    readonly onUndecodable?: UndecodableHook | undefined;
    /**
     * With validation on worker threads: the batch's tallies finish later. Offsets are then resolved
     * at once (kafkajs fetches on), and committed by the source once `done` is (autoCommit off).
     */
    readonly onDeferred?:
      ((topic: string, partition: number, next: string, done: Promise<void>) => void) | undefined;
    /**
     * Without workers, when the source commits (autoCommit off): the batch's tallies are finished here
     * (the flush awaited), and `next` is committable at once.
     */
    readonly onTallied?: ((topic: string, partition: number, next: string) => void) | undefined;
    /** With deferred commits: the last offset already counted, for a batch that re-reads it. */
    readonly alreadyCounted?:
      ((topic: string, partition: number, first: string) => bigint | undefined) | undefined;
  },
): (payload: EachBatchPayload) => Promise<void> {
  const { onBatchEnd, onUndecodable, onDeferred, onTallied, alreadyCounted } = hooks;
  // kafkajs commits (autoCommit) only when the source does not.
  const kafkajsCommits = onDeferred === undefined && onTallied === undefined;
  // Validation on worker threads: awaited here before any offset is resolved, unless deferred.
  const flush = sink.flush === undefined || onDeferred !== undefined ? undefined : () => sink.flush!();
  const call = (name: string, fn: () => void): void => {
    try {
      fn();
    } catch (error) {
      log.error({ hook: name, error: messageOf(error) }, "a KafkaSource hook threw");
    }
  };
  const deliver = (record: SourceRecord): void => {
    try {
      sink.process(record);
    } catch (error) {
      // The sink promises not to throw; if it does, skip the record rather than stall the partition.
      // Only the error's name is logged: its message might quote the payload.
      const name = error instanceof Error ? error.name : typeof error;
      const { topic, partition, offset } = record;
      log.error({ topic, partition, offset, error: name }, "record sink threw; record skipped");
    }
  };

  return async ({ batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }) => {
    const { topic, partition } = batch;
    const record = new BatchRecord(topic, partition);
    let first: string | undefined;
    let last: string | undefined;
    let count = 0;
    // The records processed since the last undecodable batch: one contiguous range for the coverage.
    const endRange = (): void => {
      if (onBatchEnd !== undefined && first !== undefined && last !== undefined) {
        const [from, to] = [first, last];
        call("onBatchEnd", () => onBatchEnd(topic, partition, from, to, batch.highWatermark));
      }
      first = undefined;
    };
    const messages = batch.messages;
    let left = false;
    let skipThrough =
      alreadyCounted !== undefined && messages.length > 0
        ? alreadyCounted(topic, partition, messages[0]!.offset)
        : undefined;
    // An index, not for-of: across the awaits below, the iterator's result objects are garbage per record.
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      // Leave mid-batch on shutdown or seek; only what was processed is resolved and committed.
      if (count % CHECK_EVERY === 0 && (!isRunning() || isStale())) {
        // Stryker disable next-line BooleanLiteral: leaving early, `last` is never the last message's offset, which the end check requires too
        left = true;
        break;
      }
      // Stryker disable next-line ConditionalExpression: BigInt(offset) <= undefined is false, so the check changes nothing
      if (skipThrough !== undefined) {
        // Counted here before a rejoin made kafkajs read it again: resolved again, not counted again.
        if (BigInt(message.offset) <= skipThrough) {
          last = message.offset;
          count++;
          continue;
        }
        skipThrough = undefined;
      }
      const undecodable =
        message instanceof KafkaRecord
          ? undefined
          : (message as { [UNDECODABLE]?: UndecodableBatch })[UNDECODABLE];
      if (undecodable !== undefined) {
        // The decode guard's marker: the batch's records are lost to us, and the offsets move past them.
        endRange();
        if (onUndecodable !== undefined)
          call("onUndecodable", () => onUndecodable(topic, partition, undecodable));
        last = message.offset;
      } else {
        deliver(record.fill(message));
        first ??= message.offset;
        last = message.offset;
      }
      if (++count % HEARTBEAT_EVERY === 0) {
        // Records are processed synchronously and in order, so resolving the last one covers all
        // before it; resolving each record cost a tenth of the whole pipeline in the benchmark.
        if (flush !== undefined) await flush();
        if (onDeferred !== undefined) onDeferred(topic, partition, next(last), sink.flush!());
        else if (onTallied !== undefined) onTallied(topic, partition, next(last));
        resolveOffset(last);
        await heartbeat();
        if (kafkajsCommits) await commitOffsetsIfNecessary();
      }
    }
    if (flush !== undefined) await flush();
    if (onDeferred !== undefined && last !== undefined)
      onDeferred(topic, partition, next(last), sink.flush!());
    else if (onTallied !== undefined && last !== undefined) onTallied(topic, partition, next(last));
    if (last !== undefined) resolveOffset(last);
    // Read to its end, the batch may still end past its last message: a transaction's commit marker
    // or aborted records, which kafkajs leaves out. The processed range reaches them, so that the next
    // batch is contiguous and a partition read to the high watermark is seen to be.
    if (
      !left &&
      first !== undefined &&
      last !== undefined &&
      last === messages[messages.length - 1]?.offset
    ) {
      const end = batch.lastOffset();
      if (BigInt(end) > BigInt(last)) last = end;
    }
    endRange();
    if (kafkajsCommits) await commitOffsetsIfNecessary();
  };
}
