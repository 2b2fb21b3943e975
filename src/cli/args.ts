import { parseArgs, type ParseArgsConfig } from "node:util";
import { SchemawatchError } from "../errors.js";
import { didYouMean } from "./suggest.js";

type Options = NonNullable<ParseArgsConfig["options"]>;

const HELP_OPTION = { help: { type: "boolean", short: "h" } } as const;

/**
 * `node:util` parseArgs with errors a user can act on: an unknown flag (with the nearest known one),
 * a missing value or a value given to a switch becomes a USAGE error that names the command and
 * points at its --help. `alsoKnown` names flags the command reads itself before parsing (matrix's
 * `--schema` and `--doc`), so that a typo of one of them is suggested too.
 */
export function parseCommandArgs<T extends Options>(
  command: string,
  args: readonly string[],
  options: T,
  alsoKnown: readonly string[] = [],
) {
  const all = { ...options, ...HELP_OPTION };
  const unknown = unknownFlag(args, all);
  if (unknown !== undefined) {
    const known = [...Object.keys(options), ...alsoKnown, "help"].map((name) => `--${name}`);
    // a single letter is one edit from every other: suggest only for long flags
    const hint = unknown.startsWith("--") ? didYouMean(unknown, known) : "";
    throw usageError(command, `unknown flag ${unknown}${hint}`);
  }
  try {
    return parseArgs({ args: [...args], options: all, allowPositionals: true, strict: true });
  } catch (error) {
    throw new SchemawatchError(
      "USAGE",
      `schemawatch ${command}: ${parseProblem(error)}\nRun 'schemawatch ${command} --help' for usage.`,
      { cause: error },
    );
  }
}

/** The first flag of `args` that `options` does not define, as typed (`--confg`, `-x`). */
function unknownFlag(args: readonly string[], options: Options): string | undefined {
  const { tokens } = parseArgs({
    args: [...args],
    options,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const token = tokens.find((t) => t.kind === "option" && !Object.hasOwn(options, t.name));
  return token?.kind === "option" ? token.rawName : undefined;
}

/** Node's parse errors in the project's words: which flag, and what it needs. */
function parseProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  // "Option '-c, --config <value>' argument missing" / "Option '--exit-at-end' does not take an argument"
  const flag = /Option '(?:-\w, )?(--[\w-]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && flag !== undefined) {
    if (/does not take/.test(message)) return `flag ${flag} takes no value`;
    // "--config --exit-at-end": Node will not take a value that starts with a dash without `=`
    if (/ambiguous/.test(message)) return `flag ${flag} needs a value (one starting with '-': ${flag}=VALUE)`;
    return `flag ${flag} needs a value`;
  }
  return message;
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
