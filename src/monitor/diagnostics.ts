import type { Logger } from "pino";
import { RepeatLog } from "../log.js";
import type { SourceRecord } from "../pipeline/record.js";

/**
 * The stack of an error without its message line: messages of errors thrown while handling a record
 * can quote the record (JSON.parse does), and record contents never reach the log.
 */
export function stackFrames(error: unknown): string | undefined {
  if (!(error instanceof Error) || !error.stack) return undefined;
  return error.stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 12)
    .join("\n");
}

/**
 * Logs the bugs behind `internal_error`: each kind once with its stack, then a summary a minute.
 * Only where the record was (topic, partition, offset) is logged, never what it holds.
 */
export function internalErrorLogger(logger: Logger): (error: unknown, record: SourceRecord) => void {
  const repeats = new RepeatLog(logger);
  return (error, record) => {
    const name = error instanceof Error ? error.name : typeof error;
    const stack = stackFrames(error);
    repeats.log(
      "error",
      `${name}\n${stack?.split("\n")[0] ?? ""}`,
      { error: name, stack, topic: record.topic, partition: record.partition, offset: record.offset },
      "internal error while processing a record: counted as internal_error and skipped (a bug: please report it with this stack)",
    );
  };
}

/**
 * Turns the process's warnings (kafkajs's TimeoutNegativeWarning on Node 24, deprecations) into log
 * lines, so that `schemawatch run` writes nothing but JSON lines. Returns the undo.
 */
export function captureProcessWarnings(logger: Logger): () => void {
  const repeats = new RepeatLog(logger, 10 * 60_000);
  // Node prints warnings to stderr through a listener of its own; it goes while ours is installed.
  const defaults = process.listeners("warning");
  process.removeAllListeners("warning");
  const onWarning = (warning: Error): void => {
    repeats.log(
      "warn",
      `${warning.name}`,
      { warning: warning.name, detail: warning.message.slice(0, 300) },
      "process warning",
    );
  };
  process.on("warning", onWarning);
  return () => {
    process.off("warning", onWarning);
    for (const listener of defaults) process.on("warning", listener);
  };
}
