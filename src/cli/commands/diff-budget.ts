import { usageError } from "../args.js";

/** Seconds one pair of versions may take, by default (issue 41: CI runs `diff` on every change). */
export const DEFAULT_BUDGET = 10;

export const BUDGET_HELP = `  --budget SECONDS  the time one pair of versions may take (default ${DEFAULT_BUDGET}): past it, each
                    direction not yet decided is undecided (budget); proven breaks are kept`;

/** The `--budget` flag: a positive number of seconds, at most a day. */
export function budgetOf(command: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_BUDGET;
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (!(seconds > 0 && seconds <= 86_400))
    throw usageError(command, `--budget must be a number of seconds above 0 (at most 86400), got '${value}'`);
  return seconds;
}
