import { isSchemawatchError, messageOf } from "../errors.js";
import type { Command, CommandContext } from "./command.js";
import { checkCommand } from "./commands/check.js";
import { corpusCommand } from "./commands/corpus.js";
import { demoProduceCommand } from "./commands/demo-produce.js";
import { diffCommand } from "./commands/diff.js";
import { matrixCommand } from "./commands/matrix.js";
import { pruneCommand } from "./commands/prune.js";
import { readinessCommand } from "./commands/readiness.js";
import { registryCommand } from "./commands/registry.js";
import { reportCommand } from "./commands/report.js";
import { runCommand } from "./commands/run.js";
import { didYouMean } from "./suggest.js";
import { packageVersion } from "./version.js";

/** The composition root of the command line: every subcommand is registered here, explicitly. */
const COMMANDS: readonly Command[] = [
  runCommand,
  reportCommand,
  readinessCommand,
  checkCommand,
  matrixCommand,
  diffCommand,
  corpusCommand,
  registryCommand,
  pruneCommand,
  demoProduceCommand,
];

function topLevelHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `schemawatch ${packageVersion()} — watch JSON on Kafka against every version of its JSON Schema

Usage: schemawatch COMMAND [options]

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Options:
  -h, --help      show this help
  help COMMAND    show a command's help, as 'schemawatch COMMAND --help' does
  -V, --version   print the version

Documentation: README.md and docs/ in the package.
`;
}

/** The words that ask for help, as a command or after one. */
const HELP_WORDS: ReadonlySet<string> = new Set(["help", "-h", "--help"]);

/** The command called `name`, or undefined after saying on stderr that there is none (and what is near). */
function findCommand(name: string, stderr: CommandContext["stderr"]): Command | undefined {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    const names = COMMANDS.map((c) => c.name);
    const hint = didYouMean(name, names, (s) => `'${s}'`) || ".";
    stderr.write(`schemawatch: unknown command '${name}'${hint} Run 'schemawatch --help' for the list.\n`);
  }
  return command;
}

/**
 * For a command that stops cleanly: SIGINT or SIGTERM asks it to stop; a second one to stop at once.
 * A command that has not ended 2 s after that (one that knows no "at once") is ended by the signal's
 * default action, as is the process at a third signal.
 */
function processSignals(): { stop: AbortSignal; now: AbortSignal } {
  const stop = new AbortController();
  const now = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) return stop.abort();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    now.abort();
    setTimeout(() => process.kill(process.pid, signal), 2_000).unref();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return { stop: stop.signal, now: now.signal };
}

export interface MainOptions {
  readonly stdout?: CommandContext["stdout"];
  readonly stderr?: CommandContext["stderr"];
  readonly env?: CommandContext["env"];
  readonly cwd?: string;
  readonly stopSignal?: AbortSignal;
}

/** Runs one command line and returns the exit code. Only this function turns errors into exit codes. */
export async function main(argv: readonly string[], options: MainOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const [name, ...rest] = argv;
  if (name === undefined || HELP_WORDS.has(name)) {
    // `schemawatch help run` (and `--help run`): that command's help, as `schemawatch run --help`
    const topic = rest[0];
    if (topic === undefined) {
      stdout.write(topLevelHelp());
      return name === undefined ? 2 : 0;
    }
    // Help about help (`help help`, `help --help`) is the top-level help: that is where help is described.
    if (HELP_WORDS.has(topic)) {
      stdout.write(topLevelHelp());
      return 0;
    }
    const command = findCommand(topic, stderr);
    if (!command) return 2;
    stdout.write(command.help);
    return 0;
  }
  if (name === "-V" || name === "--version") {
    stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const command = findCommand(name, stderr);
  if (!command) return 2;
  // A command that does not stop cleanly gets no handler: the signal's default action ends the process
  // at once (status 130 or 143), however long a computation it is in the middle of (issue 41).
  const signals: { stop: AbortSignal; now?: AbortSignal } = options.stopSignal
    ? { stop: options.stopSignal }
    : command.stopsCleanly
      ? processSignals()
      : { stop: new AbortController().signal };
  const context: CommandContext = {
    stdout,
    stderr,
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    stopSignal: signals.stop,
    ...(signals.now ? { stopNowSignal: signals.now } : {}),
  };
  try {
    return await command.run(rest, context);
  } catch (error) {
    if (isSchemawatchError(error)) {
      stderr.write(`schemawatch ${name}: ${error.message.replace(/^schemawatch \S+: /, "")}\n`);
      return 2;
    }
    stderr.write(`schemawatch ${name}: internal error: ${messageOf(error)}\n`);
    if (error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
    return 2;
  }
}
