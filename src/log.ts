import { pino, type DestinationStream, type Logger, type LevelWithSilent } from "pino";

/**
 * Paths pino blanks out wherever they appear in a log object: secrets, and anything that could carry
 * a payload. Payloads are never passed to the logger in the first place; this is the second line.
 */
export const REDACT_PATHS = [
  "password",
  "*.password",
  "*.*.password",
  "sasl",
  "*.sasl",
  "*.*.sasl",
  "ssl.key",
  "*.ssl.key",
  "value",
  "*.value",
  "payload",
  "*.payload",
];

/** The process logger: JSON lines on stderr (stdout carries reports), one child per component. */
export function createLogger(level: LevelWithSilent, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "schemawatch" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
}
