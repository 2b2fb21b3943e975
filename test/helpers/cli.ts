import { main } from "../../src/cli/main.js";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured streams. */
export async function runCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<CliResult> {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env,
    stopSignal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}
