import { constants, createReadStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import type { Logger } from "pino";
import { SchemawatchError, messageOf } from "../errors.js";
import type { Health } from "../health/health.js";
import type { ObservationClock } from "../pipeline/clock.js";
import type { RecordSink, SourceRecord } from "../pipeline/record.js";
import type { Tallies } from "../pipeline/tallies.js";
import { CaptureClock, TIMESTAMP_DOUBTS, type TimestampDoubt } from "./capture-clock.js";
import { CaptureLineError, parseCaptureLine } from "./capture-line.js";

export interface FileSourceOptions {
  /** A file path, or `-` for standard input. */
  readonly path: string;
  readonly sink: RecordSink;
  readonly health: Health;
  readonly tallies: Tallies;
  readonly topics: readonly string[];
  readonly logger: Logger;
  readonly stdin?: Readable;
  /**
   * Advanced to each record's observation time (the capture's clock, `CaptureClock`) before the sink
   * hears of the record: the pipeline's and the lifecycle's clock in a replay.
   */
  readonly clock?: ObservationClock;
  /** When the capture is replayed (ms): no record is from after it. Default: now. */
  readonly replayedAt?: number;
}

export interface FileSourceSummary {
  lines: number;
  records: number;
  /** Lines that are not a record: each is unknown use on its partition (or on every topic). */
  invalid: number;
  /** Record timestamps not believed, by reason (see CaptureClock). */
  timestamps: Record<TimestampDoubt, number>;
}

/** A line of the capture, in the capture's order: a record, or one that could not be read. */
type CaptureItem =
  | { readonly record: SourceRecord }
  | { readonly record: undefined; readonly targets: ReadonlyArray<readonly [string, number]> };

/** What an operator reads of each kind of doubted timestamp (the problem's message). */
const DOUBTS: Record<TimestampDoubt, string> = {
  missing: "capture records without a timestamp",
  unreadable:
    "capture timestamps that are no date (milliseconds as a number or digits, or ISO-8601, within a date's range)",
  before_2000: "capture timestamps before 2000",
  in_the_future: "capture timestamps after the time of the replay",
  out_of_order: "capture timestamps more than 5 minutes behind the capture's clock (out of order)",
  unconfirmed:
    "capture timestamps more than 5 minutes ahead of the capture's clock (or starting it) that the next record does not confirm",
};

/**
 * Fails when a capture cannot be replayed (missing, unreadable, a folder), so that the monitor says so
 * before it listens or logs anything. `-` (standard input) is always there.
 */
export async function checkCapture(path: string): Promise<void> {
  if (path === "-") return;
  let isFolder: boolean;
  try {
    isFolder = (await stat(path)).isDirectory();
    if (!isFolder) await access(path, constants.R_OK);
  } catch (error) {
    throw new SchemawatchError("FILE_UNREADABLE", `${path}: cannot read capture: ${messageOf(error)}`, {
      cause: error,
    });
  }
  if (isFolder) {
    throw new SchemawatchError(
      "FILE_UNREADABLE",
      `${path}: cannot read capture: it is a folder; give the NDJSON file (--source file:PATH)`,
    );
  }
}

/** Records between two flushes of the sink (validation workers get them in batches of this size). */
const FLUSH_EVERY = 1000;

/**
 * Replays an NDJSON capture through the same pipeline as Kafka, each record observed at the capture's
 * clock (`CaptureClock`: the capture's order, and the timestamps it believes). A malformed line is
 * counted (`invalid_capture_line`) as unknown use on its partition, logged with its line number but
 * never its content; a timestamp not believed is counted by reason and listed as a problem.
 */
export async function replayFile(
  options: FileSourceOptions,
  signal?: AbortSignal,
): Promise<FileSourceSummary> {
  const { health, logger, sink } = options;
  const input = await openCapture(options);
  health.brokerUp = true;
  for (const topic of options.topics) health.assigned.set(topic, new Set([0]));
  const summary: FileSourceSummary = {
    lines: 0,
    records: 0,
    invalid: 0,
    timestamps: Object.fromEntries(TIMESTAMP_DOUBTS.map((d) => [d, 0])) as Record<TimestampDoubt, number>,
  };
  let unflushed = 0;
  const first: Partial<Record<TimestampDoubt, number>> = {};
  const clock = new CaptureClock<CaptureItem>(
    options.replayedAt ?? Date.now(),
    (item, observedAt) => {
      options.clock?.advance(observedAt);
      unflushed++;
      if (item.record !== undefined) return sink.process(item.record);
      for (const [topic, partition] of item.targets) {
        if (sink.unreadable) sink.unreadable(topic, partition, "invalid_capture_line");
        else options.tallies.decodeError("unknown", "invalid_capture_line");
      }
    },
    (reason, line) => {
      const count = ++summary.timestamps[reason];
      first[reason] ??= line;
      health.problem(
        `capture-timestamp:${reason}`,
        `${DOUBTS[reason]}: not believed, observed at the capture's clock (first on line ${first[reason]})`,
      );
      // Each unreadable one names its line; the others are told once, and counted.
      if (reason === "unreadable" || count === 1)
        logger.warn({ line, reason }, "a capture record's timestamp is not believed");
    },
  );
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (signal?.aborted) break;
    summary.lines++;
    if (line.trim() === "") continue;
    try {
      const read = parseCaptureLine(line, summary.lines);
      summary.records++;
      clock.push({ record: read.record }, read.timestamp, summary.lines);
    } catch (error) {
      summary.invalid++;
      const { topic, partition } =
        error instanceof CaptureLineError ? error : { topic: undefined, partition: undefined };
      logger.warn(
        { line: summary.lines, problem: messageOf(error), topic, partition },
        "a capture line is not a record: unknown use on its partition",
      );
      // A line whose topic cannot be read may be of any topic of the capture.
      const targets =
        topic === undefined ? options.topics.map((t) => [t, 0] as const) : [[topic, partition ?? 0] as const];
      clock.push({ record: undefined, targets }, undefined, summary.lines);
    }
    if (unflushed >= FLUSH_EVERY) {
      unflushed = 0;
      await sink.flush?.();
    }
  }
  if (!signal?.aborted) clock.end();
  await sink.flush?.();
  return summary;
}

async function openCapture(options: FileSourceOptions): Promise<Readable> {
  if (options.path === "-") return options.stdin ?? process.stdin;
  const input = createReadStream(options.path);
  await new Promise<void>((resolve, reject) => {
    input.once("open", () => resolve());
    input.once("error", (error) =>
      reject(
        new SchemawatchError("FILE_UNREADABLE", `${options.path}: cannot read capture: ${messageOf(error)}`, {
          cause: error,
        }),
      ),
    );
  });
  return input;
}
