/** What a subcommand receives: its own arguments and the process streams, never globals. */
export interface CommandContext {
  readonly stdout: { write(chunk: string): unknown };
  readonly stderr: { write(chunk: string): unknown };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Resolves when the user asks the process to stop (SIGINT/SIGTERM); used by long-running commands. */
  readonly stopSignal: AbortSignal;
  /** Aborted by a second SIGINT/SIGTERM: stop at once, giving up what is not done. */
  readonly stopNowSignal?: AbortSignal;
}

/**
 * A subcommand. `run` returns the exit code: 0 success, 1 a verdict the user asked about failed
 * (a backward break, a version not ready), 2 bad input. Thrown `SchemawatchError`s become exit 2 with
 * their message; anything else is a bug and is reported as such by `main`.
 */
export interface Command {
  readonly name: string;
  /** One line for the top-level `--help`. */
  readonly summary: string;
  /** The full `schemawatch NAME --help` text. */
  readonly help: string;
  /**
   * The command reads `stopSignal` and stops cleanly on a first SIGINT/SIGTERM (the monitor drains,
   * a producer finishes its batch), so the process handles the signals for it. Any other command is
   * ended by the signal itself, at once, whatever it computes.
   */
  readonly stopsCleanly?: true;
  run(args: readonly string[], context: CommandContext): Promise<number>;
}
