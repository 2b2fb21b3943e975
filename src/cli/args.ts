import { parseArgs, type ParseArgsConfig } from "node:util";
import { SchemawatchError } from "../errors.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `node:util` parseArgs with errors a user can act on: an unknown flag or a missing value becomes a
 * USAGE error that names the command and points at its --help.
 */
export function parseCommandArgs<T extends Options>(command: string, args: readonly string[], options: T) {
  try {
    return parseArgs({
      args: [...args],
      options: { ...options, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new SchemawatchError(
      "USAGE",
      `schemawatch ${command}: ${detail}\nRun 'schemawatch ${command} --help' for usage.`,
      { cause: error },
    );
  }
}

/** Reads a flag whose value must be one of a fixed set. */
export function oneOf<T extends string>(
  command: string,
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new SchemawatchError(
    "USAGE",
    `schemawatch ${command}: --${flag} must be one of ${allowed.join(", ")}, got '${value}'`,
  );
}

export function usageError(command: string, message: string): SchemawatchError {
  return new SchemawatchError(
    "USAGE",
    `schemawatch ${command}: ${message}\nRun 'schemawatch ${command} --help' for usage.`,
  );
}
